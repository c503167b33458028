// pair_reference.h: a straightforward C++ reference for the angular pass of the three target-pair
// rules (target-center-spacing, target-no-overlap, target-large-hover-padding) and the aggregation
// of their findings (issue 16 item 1), with the pair-frame measure of session 16: per entity its
// direction from the eye, its upright half-extents around its own line of sight with world up (its
// box's eight corners) and a cone of radius √(hw² + hh²) + margin / 2 around the direction; a
// uniform grid over world azimuth (columns that wrap at ±180°) and elevation holding each cone's
// cells (the whole circle around a pole; cones of more than 1,024 cells compared with everything),
// entries counting-sorted by cell, each pair visited in the first cell the two share; per pair the
// cones' cosine test, then its own frame (direction to the midpoint of the centres, world right and
// up across it), the centres' offsets in it by two arctangents, the same gap / overlap /
// centre-separation tests (tilted flat elements by their outlines projected on the pair frame),
// and per violating pair a slot in a flat open-addressing table keyed by the packed (rule, a, b),
// with run tracking (first/last frame, frame count, runs, worst value) in flat arrays. Every frame
// is searched (no reuse, no candidate list, no shortcut beyond the cones' test). It reads the
// simulator's own per-frame arrays, so it is fed exactly what `TargetPairAnalyzer` is fed.
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
/// `angular_width` ≥ 360 marks the eye inside the entity; `azimuth`, `elevation`,
/// `angular_height` and `head_up` (head-frame quantities) are not read by the pair-frame measure.
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
