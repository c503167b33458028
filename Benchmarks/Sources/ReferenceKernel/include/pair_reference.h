// pair_reference.h: a straightforward C++ reference for the angular pass of the three target-pair
// rules (target-center-spacing, target-no-overlap, target-large-hover-padding) and the aggregation
// of their findings (issue 16 item 1): a uniform angular grid (entries sorted by cell with a
// counting sort), each pair visited in the first cell the two share, the same gap / overlap /
// centre-separation tests (tilted flat elements by their projected outlines), and per violating
// pair a slot in a flat open-addressing table keyed by the packed (rule, a, b), with run tracking
// (first/last frame, frame count, runs, worst value) in flat arrays. It reads the simulator's own
// per-frame arrays, so it is fed exactly what `TargetPairAnalyzer` is fed.
#ifndef SPATIALCHECK_PAIR_REFERENCE_H
#define SPATIALCHECK_PAIR_REFERENCE_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct ref_pairs ref_pairs;

/// `n_entities` in the scene; the angular pass considers `n_dynamic` of them (`dynamic[k]`, with
/// group `group[k]`: container or -(index + 1)); `still_in_container[e]` and `control[e]` per entity.
/// Thresholds in pt, `point_angle` in degrees per pt.
ref_pairs *ref_pairs_create(size_t n_entities, const int32_t *dynamic, const int32_t *group, size_t n_dynamic,
                            const uint8_t *still_in_container, const uint8_t *control,
                            double spacing, double edge_gap, double max_overlap, double depth_window,
                            double pad_gap, double large_size, double point_angle);
void ref_pairs_destroy(ref_pairs *p);

/// One frame. Per-entity arrays of the simulator (`center` as 4 doubles per entity, SIMD3's stride;
/// `box_frames` 12 doubles per entity: centre then the three half-axes; `visible` one byte each).
void ref_pairs_frame(ref_pairs *p, int64_t frame, const uint8_t *visible, const double *distance,
                     const double *azimuth, const double *elevation, const double *angular_width,
                     const double *angular_height, const double *pt_eq, const double *center,
                     const double *box_frames, const double head[3], const double head_up[3]);

/// Counters: candidate pair tests, violating pair-frames (findings), distinct aggregates.
int64_t ref_pairs_checks(const ref_pairs *p);
int64_t ref_pairs_findings(const ref_pairs *p);
int64_t ref_pairs_aggregates(const ref_pairs *p);

#ifdef __cplusplus
}
#endif
#endif
