// reference_kernel.h: a hand-written C++/GLM reference for the simulator's transform-and-quantities
// stage (issue 7). One call per frame, one fused loop over nodes and one over entities, no
// intermediate per-entity buffers: the lower bound the simulator (batched CSpatialMath calls plus a
// Swift loop filling FrameQuantities) is compared with, in the same process and run.
//
// Data layout: the simulator's own. Node matrices double[16] column-major, parent indices in
// pre-order, local boxes double[6] (min xyz, max xyz; empty when min > max), root frames for the
// head and hand anchors; per-entity outputs as structure-of-arrays.
#ifndef SPATIALCHECK_REFERENCE_KERNEL_H
#define SPATIALCHECK_REFERENCE_KERNEL_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct ref_head {
    double p[3];
    double q[4]; // x, y, z, w
    double fov_h, fov_v;
} ref_head;

/// Per-entity outputs (n entities each; center and prev_center 3n). prev_* are read and updated
/// (velocities); `first` says there is no previous frame.
typedef struct ref_outputs {
    double *center;
    double *distance, *azimuth, *elevation, *elevation_world, *eccentricity;
    double *angular_width, *angular_height, *pt_eq;
    double *angular_velocity, *linear_speed;
    uint8_t *in_fov, *fully_in_fov;
    double *prev_center;
} ref_outputs;

/// One frame: world transforms of `n_nodes` nodes, then for each of `n_entities` entities (whose
/// geometry is the box of its node `entity_node[e]`): world bounds and corners, centre, distance,
/// head-frame azimuth/elevation, world elevation, eccentricity, angular width/height around the
/// line of sight, field-of-view tests, point-equivalents (`em_metres[e] > 0`: the em height's
/// angle, else the smaller angular extent, over `point_angle`), angular velocity and speed.
void ref_frame(const int32_t *parent, const double *local, const double *root_frames,
               const int32_t *root_frame_index, double *world, size_t n_nodes,
               const double *local_boxes, const int32_t *entity_node, const double *em_metres,
               double point_angle, const ref_head *head, const double *prev_head, int first, double dt,
               ref_outputs *out, size_t n_entities);

#ifdef __cplusplus
}
#endif
#endif
