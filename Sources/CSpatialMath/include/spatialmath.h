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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sm_atan2.h"

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

/// `sm_world_transforms` and `sm_transform_aabbs` for the nodes `subset[0..<count]` only (in
/// pre-order: a parent in the subset precedes its children); the other nodes keep their values.
/// The simulator recomputes only the nodes that move (animated, head- or hand-anchored, or below one).
void sm_world_transforms_subset(const int32_t *parent, const double *local, const double *root_frames,
                                const int32_t *root_frame_index, double *world, const int32_t *subset,
                                size_t count);
void sm_transform_aabbs_subset(const double *mats, const double *local_boxes, double *out_boxes,
                               const int32_t *subset, size_t count);

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

/// World bounds of the entities `subset[0..<count]` (all of `0..<count` when `subset` is NULL): the
/// union of the world boxes of nodes `[geom_begin[e], geom_end[e])` given by `node_world_boxes`
/// (6 per node, `n_nodes` nodes), or, when that union is empty, a zero-size box at the world origin
/// of node `entity_node[e]`. Also writes the box's frame (`out_frames[12 * e]`: centre, then three
/// half-axis vectors; its corners are centre ± axis0 ± axis1 ± axis2): the entity's oriented box
/// when exactly one node of the range has geometry (so a rotated flat window stays flat), otherwise
/// the world AABB. Out-of-range indices are clamped/ignored, never read.
void sm_entity_bounds(const double *node_world, const double *node_local_boxes,
                      const double *node_world_boxes, size_t n_nodes, const int32_t *entity_node,
                      const int32_t *geom_begin, const int32_t *geom_end, double *out_boxes,
                      double *out_frames, const int32_t *subset, size_t count);

/// The viewer: eye position, orientation (x, y, z, w) and comfortable field of view (degrees).
typedef struct sm_head {
    double p[3];
    double q[4];
    double fov_h;
    double fov_v;
} sm_head;

/// Per-entity outputs of `sm_entity_quantities`, one array per quantity (structure of arrays; the
/// caller's buffers, written in place). Vectors take 4 doubles per entity (x, y, z, 0: the layout
/// of Swift's SIMD3<Double>). Angles in degrees, distances in metres, velocities per second.
typedef struct sm_entity_out {
    double *center;           // centre of the world bounds
    double *bounds_min;       // world bounds
    double *bounds_max;
    double *front;            // node +Z in world, normalised
    double *up;               // node +Y in world, normalised
    double *distance;         // eye -> centre
    double *azimuth;          // head frame, positive right
    double *elevation;        // head frame, positive up
    double *elevation_world;  // against the world horizontal
    double *eccentricity;     // angle between head forward and eye -> centre
    double *angular_width;    // horizontal span of the corners around the line of sight
    double *angular_height;   // vertical span of the corners around the line of sight
    double *angular_size;     // max(width, height)
    double *pt_eq;            // em angle across the baseline, or smallest width across the box's own axes, / point angle
    double *angular_velocity; // content's own angular speed seen from the eye
    double *linear_speed;     // world speed of the centre
    double *approach_speed;   // -d(distance)/dt, distance from the previous eye position
    bool *in_fov;             // corners' head-frame azimuth/elevation spans overlap the FOV (or eye inside)
    bool *fully_in_fov;       // every corner in front of the eye and inside the FOV rectangle
} sm_entity_out;

/// What the motion quantities need from the previous frame; `sm_entity_quantities` reads and then
/// updates it. Arrays: 3 doubles per entity for vectors. `has_prev` = 0 on the first frame (all
/// velocities 0); the call sets it to 1 and stores the eye position in `prev_head`.
typedef struct sm_motion_state {
    double *prev_center;
    double *prev_local_dir; // unit direction eye -> centre in the head frame
    double *prev_distance;
    double prev_head[3];
    int32_t has_prev;
    double dt;              // seconds between frames, > 0
} sm_motion_state;

/// Quantities of `n` entities from their boxes (`boxes[6 * e]`), box frames (`frames[12 * e]`, as
/// written by `sm_entity_bounds`) and
/// node world matrices (`node_world[16 * entity_node[e]]`, `n_nodes` nodes). `em_metres[e]` > 0 is
/// the em height of readable content in world space (its stated em times its text scale, the
/// caller's; 0 otherwise), `head_attached[e]` marks content anchored to
/// the head or a hand (its motion is measured in the head frame), `point_angle` is degrees per pt.
/// `refresh` (NULL: every entity) marks the entities whose centre, bounds, front and up are written;
/// the others keep the values of an earlier call (the simulator passes the entities that can move).
void sm_entity_quantities(const sm_head *head, const double *boxes, const double *frames,
                          const double *node_world, size_t n_nodes, const int32_t *entity_node,
                          const double *em_metres, const bool *head_attached, double point_angle,
                          const bool *refresh, sm_motion_state *state, const sm_entity_out *out, size_t n);

/// Coverage grid of `fov-window-clutter`: marks the cells of rows r0...r1, columns c0...c1 whose
/// centre direction passes through the rectangle s ± tw·right ± th·up: d·s > 0, |d·right| <= tw·(d·s)
/// and |d·up| <= th·(d·s). The grid is uniform in elevation (row) and azimuth (column): the direction
/// of cell (r, c) is (cos e_r · sin a_c, sin e_r, −cos e_r · cos a_c), given as `row_sin/row_cos`
/// (sin e_r, cos e_r) and `col_sin/col_cos` (sin a_c, cos a_c); `columns` <= 1024. `mask` has
/// `words` 64-bit words of bits per row. Rows already covered over c0...c1 are skipped. Returns how
/// many rows became completely covered.
typedef struct sm_vec3 { double x, y, z; } sm_vec3;
int32_t sm_cover_rect(const double *row_sin, const double *row_cos, const double *col_sin,
                      const double *col_cos, int32_t columns, int32_t words, int32_t r0, int32_t r1,
                      int32_t c0, int32_t c1, sm_vec3 s, sm_vec3 right, sm_vec3 up, double tw, double th,
                      uint64_t *mask);

#ifdef __cplusplus
}
#endif
#endif
