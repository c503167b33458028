// spatialmath.h: the math core of spatialcheck's simulator, GLM behind a plain C interface.
//
// Why GLM: the simulator recomposes every animated node's T·R·S, the whole node hierarchy,
// every entity's world bounds and the per-entity viewing quantities on every frame (90 Hz for
// the whole scene duration). GLM gives vetted quaternion (mat3_cast, slerp), matrix and vector
// code in C++ with tight inner loops.
//
// Why a C boundary: GLM is header-only C++ templates that do not import into Swift; enabling C++
// interop would leak into every target that imports this module. So the Swift side sees only
// POD structs and `extern "C"` functions. A C call costs ~2 ns, so every function here works on
// a whole batch (a whole frame): Swift never calls into C once per element in a loop.
//
// Conventions: double precision throughout. Matrices are `double[16]`, column-major
// (`m[col * 4 + row]`), the layout of GLM and of SpatialModel.Mat4. Quaternions are
// `[x, y, z, w]` (the scene format's order). World space is right-handed, +Y up, -Z forward.
// Boxes are `double[6]` = min xyz, max xyz; a box with min > max is empty.
// Every function tolerates n == 0 and never allocates.
#ifndef SPATIALCHECK_SPATIALMATH_H
#define SPATIALCHECK_SPATIALMATH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Version of the C interface.
int sm_interface_version(void);

/// Translation, rotation (quaternion x, y, z, w) and scale: M = T · R · S.
typedef struct sm_trs {
    double t[3];
    double q[4];
    double s[3];
} sm_trs;

/// Composes `n` TRS values into column-major matrices `out_mats[16 * i]`.
/// The quaternion is normalised first (a zero quaternion counts as identity).
void sm_compose_trs(const sm_trs *in, double *out_mats, size_t n);

/// Like `sm_compose_trs`, but writes matrix i to `out_mats[16 * out_index[i]]` (scatter into a
/// per-node buffer of local transforms).
void sm_compose_trs_indexed(const sm_trs *in, const int32_t *out_index, double *out_mats, size_t n);

/// World transforms of a whole hierarchy in one call. Nodes are in pre-order (a parent precedes its
/// children). For node i: `world_i = world_{parent[i]} · local_i` when `parent[i] >= 0`; for a
/// root, `world_i = root_frames[16 * root_frame_index[i]] · local_i`, or just `local_i` when
/// `root_frame_index[i] < 0`. A parent index that does not precede its child is treated as a root.
void sm_world_transforms(const int32_t *parent, const double *local, const double *root_frames,
                         const int32_t *root_frame_index, double *world, size_t n);

/// World AABBs (`out_boxes[6 * i]`) of `n` local boxes (`local_boxes[6 * i]`) under the matrices
/// `mats[16 * i]` (|M|·extent around the transformed centre). Empty boxes stay empty.
void sm_transform_aabbs(const double *mats, const double *local_boxes, double *out_boxes, size_t n);

/// Spherical linear interpolation along the shorter arc of `n` quaternion pairs, normalised.
void sm_slerp(const double *a, const double *b, const double *t, double *out, size_t n);

/// Samples `n_tracks` key tracks at once. Track k owns keys `[begin[k], begin[k] + count[k])` of
/// `times` (strictly increasing per track) and `values` (3 or 4 doubles per key), is sampled at
/// `sample_t[k]` (binary search; holds before the first and after the last key; linear for vec3,
/// slerp for quaternions) and writes `out[3 * k]` / `out[4 * k]`. Tracks with no keys are left
/// untouched.
void sm_sample_vec3_keys(const double *times, const double *values, const int32_t *begin,
                         const int32_t *count, const double *sample_t, double *out, size_t n_tracks);
void sm_sample_quat_keys(const double *times, const double *values, const int32_t *begin,
                         const int32_t *count, const double *sample_t, double *out, size_t n_tracks);

/// World bounds of `n_entities` entities: the union of the world boxes of nodes
/// `[geom_begin[e], geom_end[e])` given by `node_world_boxes` (6 per node, `n_nodes` nodes), or,
/// when that union is empty, a zero-size box at the world origin of node `entity_node[e]`.
/// Also writes 8 corners per entity (`out_corners[24 * e]`): the entity's oriented box when
/// exactly one node of the range has geometry (so a rotated flat window stays flat), otherwise
/// the corners of the world AABB. Out-of-range indices are clamped/ignored, never read.
void sm_entity_bounds(const double *node_world, const double *node_local_boxes,
                      const double *node_world_boxes, size_t n_nodes, const int32_t *entity_node,
                      const int32_t *geom_begin, const int32_t *geom_end, double *out_boxes,
                      double *out_corners, size_t n_entities);

/// The viewer: eye position, orientation (x, y, z, w) and comfortable field of view (degrees).
typedef struct sm_head {
    double p[3];
    double q[4];
    double fov_h;
    double fov_v;
} sm_head;

/// Per-entity viewing quantities (angles in degrees, distances in metres).
typedef struct sm_entity_q {
    double center[3];
    double front[3];        // node +Z in world, normalised
    double up[3];           // node +Y in world, normalised
    double direction[3];    // unit world direction eye -> centre (0 when the centre is at the eye)
    double distance;
    double azimuth;         // head frame, positive right
    double elevation;       // head frame, positive up
    double elevation_world; // against the world horizontal
    double eccentricity;    // angle between head forward and eye -> centre
    double angular_width;   // horizontal span of the corners around the line of sight
    double angular_height;  // vertical span of the corners around the line of sight
    int32_t in_fov;         // corners' head-frame azimuth/elevation spans overlap the FOV (or eye inside)
    int32_t fully_in_fov;   // every corner in front of the eye and inside the FOV rectangle
} sm_entity_q;

/// Quantities of `n` entities from their boxes (`boxes[6 * e]`), corners (`corners[24 * e]`) and
/// node world matrices (`node_world[16 * entity_node[e]]`, `n_nodes` nodes).
void sm_entity_quantities(const sm_head *head, const double *boxes, const double *corners,
                          const double *node_world, size_t n_nodes, const int32_t *entity_node,
                          sm_entity_q *out, size_t n);

#ifdef __cplusplus
}
#endif
#endif
