// GLM implementation of the C interface in include/spatialmath.h. See the header for why.
#include "spatialmath.h"

// No fused multiply-add: the same bits with and without FMA hardware (and in the AVX2 batch).
#pragma STDC FP_CONTRACT OFF

#include <algorithm>
#include <cmath>
#include <cstring>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#endif

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>

namespace {

using glm::dmat4;
using glm::dquat;
using glm::dvec3;
using glm::dvec4;

constexpr double kRadToDeg = 57.29577951308232;

inline dquat load_quat(const double *q) {
    dquat r(q[3], q[0], q[1], q[2]); // GLM's constructor order is (w, x, y, z)
    const double l2 = glm::dot(r, r);
    if (!(l2 > 0) || !std::isfinite(l2)) return dquat(1, 0, 0, 0);
    return r * (1.0 / std::sqrt(l2));
}

inline void store_quat(const dquat &q, double *out) {
    out[0] = q.x; out[1] = q.y; out[2] = q.z; out[3] = q.w;
}

inline dmat4 load_mat(const double *m) { return glm::make_mat4(m); }

inline void store_mat(const dmat4 &m, double *out) { std::memcpy(out, glm::value_ptr(m), 16 * sizeof(double)); }

inline dmat4 compose(const sm_trs &in) {
    const glm::dmat3 r = glm::mat3_cast(load_quat(in.q));
    dmat4 m(1.0);
    m[0] = dvec4(r[0] * in.s[0], 0);
    m[1] = dvec4(r[1] * in.s[1], 0);
    m[2] = dvec4(r[2] * in.s[2], 0);
    m[3] = dvec4(in.t[0], in.t[1], in.t[2], 1);
    return m;
}

inline dquat slerp_short(const dquat &a, dquat b, double t) {
    double c = glm::dot(a, b);
    if (c < 0) { b = -b; c = -c; }
    dquat r;
    if (c > 0.9995) {
        r = dquat(a.w + (b.w - a.w) * t, a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t);
    } else {
        r = glm::slerp(a, b, t);
    }
    const double l2 = glm::dot(r, r);
    return l2 > 0 ? r * (1.0 / std::sqrt(l2)) : a;
}

// Index of the last key with time <= t, given count >= 2 and t strictly inside (times[0], times[count-1]).
inline int32_t find_interval(const double *times, int32_t count, double t) {
    const double *end = times + count;
    const double *it = std::upper_bound(times, end, t); // first key with time > t
    int32_t i = static_cast<int32_t>(it - times) - 1;
    return std::clamp<int32_t>(i, 0, count - 2);
}

// Sample position along track: returns key index i and fraction u in [0, 1] between key i and i+1;
// u < 0 means "hold key i".
inline void locate(const double *times, int32_t count, double t, int32_t &i, double &u) {
    if (count == 1 || !(t > times[0])) { i = 0; u = -1; return; }
    if (t >= times[count - 1]) { i = count - 1; u = -1; return; }
    i = find_interval(times, count, t);
    const double span = times[i + 1] - times[i];
    u = span > 0 ? (t - times[i]) / span : 0;
}

inline bool box_empty(const double *b) { return !(b[0] <= b[3] && b[1] <= b[4] && b[2] <= b[5]); }

inline void transform_box(const dmat4 &m, const double *in, double *out) {
    if (box_empty(in)) {
        std::memcpy(out, in, 6 * sizeof(double));
        return;
    }
    const dvec3 c((in[0] + in[3]) * 0.5, (in[1] + in[4]) * 0.5, (in[2] + in[5]) * 0.5);
    const dvec3 e((in[3] - in[0]) * 0.5, (in[4] - in[1]) * 0.5, (in[5] - in[2]) * 0.5);
    const dvec3 wc = dvec3(m * dvec4(c, 1));
    dvec3 we(0);
    for (int col = 0; col < 3; ++col) we += glm::abs(dvec3(m[col])) * e[col];
    const dvec3 lo = wc - we, hi = wc + we;
    out[0] = lo.x; out[1] = lo.y; out[2] = lo.z;
    out[3] = hi.x; out[4] = hi.y; out[5] = hi.z;
}

inline dvec3 safe_normalize(const dvec3 &v) {
    const double l = glm::length(v);
    return l > 0 && std::isfinite(l) ? v / l : dvec3(0);
}

// Degrees of atan2 / atan through sm_atan2 (see sm_atan2.h for why not libm).
inline double atan2_deg(double y, double x) { return sm_atan2(y, x) * kRadToDeg; }

// Wraps a difference of two angles in [-180, 180] (so in [-360, 360]) to [-180, 180).
inline double wrap_diff180(double a) {
    if (a >= 180) return a - 360;
    if (a < -180) return a + 360;
    return a;
}

inline dvec3 normalize_or_self(const dvec3 &v) {
    const double l = glm::length(v);
    return l > 0 ? v / l : v;
}

inline void store4(double *out, size_t e, const dvec3 &v) {
    double *o = out + 4 * e;
    o[0] = v.x; o[1] = v.y; o[2] = v.z; o[3] = 0;
}

} // namespace

extern "C" {

int sm_interface_version(void) { return 3; }

void sm_compose_trs(const sm_trs *in, double *out_mats, size_t n) {
    for (size_t i = 0; i < n; ++i) store_mat(compose(in[i]), out_mats + 16 * i);
}

void sm_compose_trs_indexed(const sm_trs *in, const int32_t *out_index, double *out_mats, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        if (out_index[i] < 0) continue;
        store_mat(compose(in[i]), out_mats + 16 * static_cast<size_t>(out_index[i]));
    }
}

} // extern "C"

namespace {
inline void world_transform(const int32_t *parent, const double *local, const double *root_frames,
                            const int32_t *root_frame_index, double *world, size_t i) {
    const dmat4 l = load_mat(local + 16 * i);
    const int32_t p = parent[i];
    if (p >= 0 && static_cast<size_t>(p) < i) {
        store_mat(load_mat(world + 16 * static_cast<size_t>(p)) * l, world + 16 * i);
    } else if (root_frames != nullptr && root_frame_index != nullptr && root_frame_index[i] >= 0) {
        store_mat(load_mat(root_frames + 16 * static_cast<size_t>(root_frame_index[i])) * l, world + 16 * i);
    } else {
        std::memcpy(world + 16 * i, local + 16 * i, 16 * sizeof(double));
    }
}
} // namespace

extern "C" {

void sm_world_transforms(const int32_t *parent, const double *local, const double *root_frames,
                         const int32_t *root_frame_index, double *world, size_t n) {
    for (size_t i = 0; i < n; ++i) world_transform(parent, local, root_frames, root_frame_index, world, i);
}

void sm_world_transforms_subset(const int32_t *parent, const double *local, const double *root_frames,
                                const int32_t *root_frame_index, double *world, const int32_t *subset,
                                size_t count) {
    for (size_t k = 0; k < count; ++k)
        world_transform(parent, local, root_frames, root_frame_index, world, static_cast<size_t>(subset[k]));
}

void sm_transform_aabbs(const double *mats, const double *local_boxes, double *out_boxes, size_t n) {
    for (size_t i = 0; i < n; ++i) transform_box(load_mat(mats + 16 * i), local_boxes + 6 * i, out_boxes + 6 * i);
}

void sm_transform_aabbs_subset(const double *mats, const double *local_boxes, double *out_boxes,
                               const int32_t *subset, size_t count) {
    for (size_t k = 0; k < count; ++k) {
        const size_t i = static_cast<size_t>(subset[k]);
        transform_box(load_mat(mats + 16 * i), local_boxes + 6 * i, out_boxes + 6 * i);
    }
}

void sm_slerp(const double *a, const double *b, const double *t, double *out, size_t n) {
    for (size_t i = 0; i < n; ++i)
        store_quat(slerp_short(load_quat(a + 4 * i), load_quat(b + 4 * i), t[i]), out + 4 * i);
}

void sm_sample_vec3_keys(const double *times, const double *values, const int32_t *begin,
                         const int32_t *count, const double *sample_t, double *out, size_t n_tracks) {
    for (size_t k = 0; k < n_tracks; ++k) {
        const int32_t c = count[k];
        if (c <= 0) continue;
        const double *tt = times + begin[k];
        const double *vv = values + 3 * static_cast<size_t>(begin[k]);
        int32_t i; double u;
        locate(tt, c, sample_t[k], i, u);
        dvec3 v(vv[3 * i], vv[3 * i + 1], vv[3 * i + 2]);
        if (u >= 0) {
            const dvec3 w(vv[3 * i + 3], vv[3 * i + 4], vv[3 * i + 5]);
            v = v + (w - v) * u;
        }
        out[3 * k] = v.x; out[3 * k + 1] = v.y; out[3 * k + 2] = v.z;
    }
}

void sm_sample_quat_keys(const double *times, const double *values, const int32_t *begin,
                         const int32_t *count, const double *sample_t, double *out, size_t n_tracks) {
    for (size_t k = 0; k < n_tracks; ++k) {
        const int32_t c = count[k];
        if (c <= 0) continue;
        const double *tt = times + begin[k];
        const double *vv = values + 4 * static_cast<size_t>(begin[k]);
        int32_t i; double u;
        locate(tt, c, sample_t[k], i, u);
        dquat q = load_quat(vv + 4 * i);
        if (u >= 0) q = slerp_short(q, load_quat(vv + 4 * i + 4), u);
        store_quat(q, out + 4 * k);
    }
}

void sm_entity_bounds(const double *node_world, const double *node_local_boxes,
                      const double *node_world_boxes, size_t n_nodes, const int32_t *entity_node,
                      const int32_t *geom_begin, const int32_t *geom_end, double *out_boxes,
                      double *out_frames, const int32_t *subset, size_t count) {
    for (size_t k = 0; k < count; ++k) {
        const size_t e = subset != nullptr ? static_cast<size_t>(subset[k]) : k;
        double *box = out_boxes + 6 * e;
        double *frame = out_frames + 12 * e;
        dvec3 lo(INFINITY), hi(-INFINITY);
        size_t lo_i = geom_begin[e] < 0 ? 0 : static_cast<size_t>(geom_begin[e]);
        size_t hi_i = geom_end[e] < 0 ? 0 : std::min(static_cast<size_t>(geom_end[e]), n_nodes);
        int geometry_nodes = 0;
        size_t single = 0;
        for (size_t j = lo_i; j < hi_i; ++j) {
            const double *b = node_world_boxes + 6 * j;
            if (box_empty(b)) continue;
            ++geometry_nodes;
            single = j;
            lo = glm::min(lo, dvec3(b[0], b[1], b[2]));
            hi = glm::max(hi, dvec3(b[3], b[4], b[5]));
        }
        if (geometry_nodes == 0) {
            const int32_t nd = entity_node[e];
            dvec3 origin(0);
            if (nd >= 0 && static_cast<size_t>(nd) < n_nodes) {
                const double *m = node_world + 16 * static_cast<size_t>(nd);
                origin = dvec3(m[12], m[13], m[14]);
            }
            lo = hi = origin;
        }
        box[0] = lo.x; box[1] = lo.y; box[2] = lo.z;
        box[3] = hi.x; box[4] = hi.y; box[5] = hi.z;
        // The box's frame: centre and half-axes. The node's oriented box when it is the only one
        // with geometry (so a rotated flat window stays flat), otherwise the world AABB.
        dvec3 centre, ax[3];
        if (geometry_nodes == 1) {
            const dmat4 m = load_mat(node_world + 16 * single);
            const double *lb = node_local_boxes + 6 * single;
            centre = dvec3(m * dvec4((lb[0] + lb[3]) * 0.5, (lb[1] + lb[4]) * 0.5, (lb[2] + lb[5]) * 0.5, 1));
            for (int j = 0; j < 3; ++j) ax[j] = dvec3(m[j]) * ((lb[j + 3] - lb[j]) * 0.5);
        } else {
            centre = (lo + hi) * 0.5;
            const dvec3 he = (hi - lo) * 0.5;
            ax[0] = dvec3(he.x, 0, 0); ax[1] = dvec3(0, he.y, 0); ax[2] = dvec3(0, 0, he.z);
        }
        frame[0] = centre.x; frame[1] = centre.y; frame[2] = centre.z;
        for (int j = 0; j < 3; ++j) { frame[3 + 3 * j] = ax[j].x; frame[4 + 3 * j] = ax[j].y; frame[5 + 3 * j] = ax[j].z; }
    }
}

} // extern "C"

namespace {

// The arctangents of a block of entities are gathered as (y, x) arguments, one slot per angle, and
// evaluated in one vectorisable batch (sm_atan2_core over arrays): independent lanes instead of a
// latency-bound chain of calls. A dense slot whose value is not needed gets (0, 1), i.e. 0.
// kThin: the box's smallest width across its own axes (see "Oriented spans").
// kW, kH: the angular width and height, each the difference of the extreme corners' arctangents in
// one, atan(t1) − atan(t0) = atan2(y1·x0 − y0·x1, x1·x0 + y1·y0) for t = y / x, x > 0.
enum Slot { kAz, kEl, kElw, kEcc, kW, kH, kThin, kPt, kAngV, kRel0, kRel1, kSlots };
constexpr size_t kBlock = 128;

// Returns whether some lane needs libm (non-finite arguments or (0, 0)): tested in the same
// branch-free loop (bitwise, so it vectorises), and only then lane by lane.
__attribute__((always_inline)) inline bool atan2_loop(const double *__restrict y, const double *__restrict x,
                                                      double *__restrict out, size_t n) {
    unsigned special = 0;
    for (size_t i = 0; i < n; ++i) {
        out[i] = sm_atan2_core(y[i], x[i]);
        const double ax = std::fabs(x[i]), ay = std::fabs(y[i]);
        special |= static_cast<unsigned>(!(ax < INFINITY)) | static_cast<unsigned>(!(ay < INFINITY)) |
                   (static_cast<unsigned>(ax == 0) & static_cast<unsigned>(ay == 0));
    }
    return special != 0;
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
// Same operations on 4 lanes (no FMA: the bits are those of the scalar code on every machine).
__attribute__((target("avx2"))) bool atan2_batch_avx2(const double *y, const double *x, double *out, size_t n) {
    return atan2_loop(y, x, out, n);
}
#endif

void atan2_batch(const double *y, const double *x, double *out, size_t n) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    static const bool avx2 = __builtin_cpu_supports("avx2");
    const bool special = avx2 ? atan2_batch_avx2(y, x, out, n) : atan2_loop(y, x, out, n);
#else
    const bool special = atan2_loop(y, x, out, n);
#endif
    // libm's special cases (non-finite arguments, (0, 0)), rare: the core assumes them away.
    if (special)
        for (size_t i = 0; i < n; ++i)
            if (!sm_atan2_core_applies(y[i], x[i])) out[i] = std::atan2(y[i], x[i]);
}

// The corners centre ± a[0] ± a[1] ± a[2] (corner k takes + for bit j of k set), as coordinate
// arrays: 8, or 4 (c ± a[0] ± a[1]) when `count` is 4 because a[2] is zero (a flat box: a window,
// a panel, text). An add tree: each corner is ((c ± a0) ± a1) ± a2, rounded as written.
inline void corners(const dvec3 &c, const dvec3 a[3], int count, double *x, double *y, double *z) {
    const dvec3 m0 = c - a[0], p0 = c + a[0];
    const dvec3 l[4] = {m0 - a[1], p0 - a[1], m0 + a[1], p0 + a[1]};
    if (count == 4) {
        for (int k = 0; k < 4; ++k) { x[k] = l[k].x; y[k] = l[k].y; z[k] = l[k].z; }
        return;
    }
    for (int k = 0; k < 4; ++k) {
        const dvec3 lo = l[k] - a[2], hi = l[k] + a[2];
        x[k] = lo.x; y[k] = lo.y; z[k] = lo.z;
        x[k + 4] = hi.x; y[k + 4] = hi.y; z[k + 4] = hi.z;
    }
}

// The first kDense slots are needed by (almost) every entity and indexed by entity; the others
// (point-equivalents of text, motion, straddling boxes) by few, so their arguments are packed and
// the results scattered back: the batch evaluates only what is used.
constexpr int kDense = kPt;
struct Args {
    double y[kSlots][kBlock], x[kSlots][kBlock], r[kSlots][kBlock];
    uint16_t entity[kSlots][kBlock];
    int count[kSlots];
    void set(Slot s, size_t j, double yy, double xx) { y[s][j] = yy; x[s][j] = xx; }
    void push(Slot s, size_t j, double yy, double xx) {
        const int k = count[s]++;
        y[s][k] = yy; x[s][k] = xx; entity[s][k] = static_cast<uint16_t>(j);
    }
    void evaluate(size_t m) {
        for (int s = 0; s < kDense; ++s) atan2_batch(y[s], x[s], r[s], m);
        double packed[kBlock];
        for (int s = kDense; s < kSlots; ++s) {
            atan2_batch(y[s], x[s], packed, static_cast<size_t>(count[s]));
            for (int k = 0; k < count[s]; ++k) r[s][entity[s][k]] = packed[k];
        }
    }
};

// What the finishing pass needs per entity besides the arctangents, one array per field (flags as
// 1.0 / 0.0) so that pass 3 runs as one branch-free loop like the others.
enum PendingField {
    kPWidth, kPHeight, // used when kPSpansKnown
    kPSpansKnown,      // eye inside, or corners behind the line-of-sight plane (computed directly)
    kPFromEm,          // pt_eq from the em (kPt)
    kPEmFull,          // kPt holds the whole em angle (else half of it, doubled in pass 3)
    kPDeferred,        // in_fov = kPElOverlap && the azimuth span from kRel0 / kRel1 overlaps
    kPElOverlap,
    kPMoving,          // kAngV holds the angular velocity (else 0)
    kPOriented,        // 1: kThin holds the smallest width across the box's axes; 8: a point (0);
                       // 0: use min(width, height)
    kPRare,            // pass 1b has work for the entity (see `common_loop`)
    kPendingFields
};
struct Pending {
    double v[kPendingFields][kBlock];
};

// Oriented spans: the width of a box as the eye sees it across its own axis `a`: the angular extent, measured
// perpendicular to the image of `a`, of the box's section through its centre spanned by the two
// other axes `b` and `c` (for a flat box, whose third axis is zero, its centre line along the
// other axis), as atan2 arguments. All vectors are in the frame around the line of sight
// (right, up, along), `sc` the centre. For a point q of the section, t = (q·n) / (q·s) along the
// unit direction n perpendicular to (a·right, a·up); span = atan(t_max) − atan(t_min) =
// atan2(y1·x0 − y0·x1, x1·x0 + y1·y0) for t = y / x (x > 0: the caller checks every corner is
// ahead). Through the centre, so a long bar whose near end looks thicker by perspective measures
// its thickness where the eye lands on it; a flat rectangle facing the eye at distance d gives
// exactly 2·atan(h / 2d) across its width w (its height's angle). An axis whose image is a point
// (a box's depth axis along the line of sight) has no width and is skipped.
// n = (−a.y, a.x) / L, L = |(a.x, a.y)|, is taken unnormalised: with y' = q·(−a.y, a.x) = L·y the
// extremes are the same, and atan2(y1·x0 − y0·x1, x1·x0 + y1·y0) is
// atan2(L·(y1'·x0 − y0'·x1), l2·x1·x0 + y1'·y0') (both arguments scaled by l2 = L² > 0): no division.
// Evaluated for a block at a time by `spans_loop` below, after `box_loop`.

// The projections of a block of entities that take no decision (centre direction, the frame
// around the line of sight, the box frame in the head frame and in the sight frame), computed in
// one branch-free loop over structure-of-arrays buffers so that it vectorises (4 entities per AVX2
// register); pass 1 reads them back. Same operations in the same order as the scalar formulas they
// replace (glm's dot is (x·x + y·y) + z·z, its mat3 · vec3 sums the columns left to right), so the
// bits are the same with and without AVX2.
enum PreField {
    kDist, kLx, kLy, kLz, kSx, kSy, kSz, kRx, kRy, kRz, kUx, kUy, kUz,
    kHcx, kHcy, kHcz, kHa0, kSc0 = kHa0 + 9, kSa0 = kSc0 + 3,
    kInside = kSa0 + 9, kZero0, kZero1, kZero2, kPreFields // 1.0 / 0.0: eye inside the bounds, half-axis k zero
};
struct PreFrame {
    double eye[3], t[9], fwd[3], hup[3], hright[3]; // t: to_head column-major (t[3·col + row])
    double tan_h, tan_v2, tan_oh, tan_ov2;          // field-of-view tangents (see sm_entity_quantities)
};
struct Pre {
    double v[kPreFields][kBlock];
};

__attribute__((always_inline)) inline double ieee_sqrt(double x) { return __builtin_elementwise_sqrt(x); }

__attribute__((always_inline)) inline void prepass_loop(const PreFrame &f, const double *__restrict boxes,
                                                        const double *__restrict frames, size_t m,
                                                        Pre &__restrict p, Args &__restrict args) {
    const double ex = f.eye[0], ey = f.eye[1], ez = f.eye[2];
    const double *t = f.t;
    for (size_t j = 0; j < m; ++j) {
        const double *b = boxes + 6 * j;
        const double cx = (b[0] + b[3]) * 0.5, cy = (b[1] + b[4]) * 0.5, cz = (b[2] + b[5]) * 0.5;
        const double dx = cx - ex, dy = cy - ey, dz = cz - ez;
        const double dist = ieee_sqrt(dx * dx + dy * dy + dz * dz);
        const double inv = 1.0 / dist;
        const bool ahead = dist > 0;
        const double lx = t[0] * dx + t[3] * dy + t[6] * dz;
        const double ly = t[1] * dx + t[4] * dy + t[7] * dz;
        const double lz = t[2] * dx + t[5] * dy + t[8] * dz;
        const double horiz = ieee_sqrt(lx * lx + lz * lz);
        const double whoriz = ieee_sqrt(dx * dx + dz * dz);
        const bool az0 = (lx == 0) & (lz == 0), el0 = (ly == 0) & (horiz == 0), elw0 = (dy == 0) & (whoriz == 0);
        args.y[kAz][j] = az0 ? 0.0 : lx;      args.x[kAz][j] = az0 ? 1.0 : -lz;
        args.y[kEl][j] = el0 ? 0.0 : ly;      args.x[kEl][j] = el0 ? 1.0 : horiz;
        args.y[kElw][j] = elw0 ? 0.0 : dy;    args.x[kElw][j] = elw0 ? 1.0 : whoriz;
        const double ecc = ieee_sqrt(lx * lx + ly * ly);
        args.y[kEcc][j] = ahead ? ecc : 0.0;  args.x[kEcc][j] = ahead ? -lz : 1.0;
        // The line of sight and the frame around it (right = sight × head up, up = right × sight).
        const double sx = ahead ? dx * inv : f.fwd[0], sy = ahead ? dy * inv : f.fwd[1], sz = ahead ? dz * inv : f.fwd[2];
        double rx = sy * f.hup[2] - f.hup[1] * sz, ry = sz * f.hup[0] - f.hup[2] * sx, rz = sx * f.hup[1] - f.hup[0] * sy;
        const double right2 = rx * rx + ry * ry + rz * rz;
        const double rinv = 1.0 / ieee_sqrt(right2);
        const bool rok = right2 > 1e-24;
        rx = rok ? rx * rinv : f.hright[0]; ry = rok ? ry * rinv : f.hright[1]; rz = rok ? rz * rinv : f.hright[2];
        const double ux = ry * sz - sy * rz, uy = rz * sx - sz * rx, uz = rx * sy - sx * ry;
        p.v[kDist][j] = dist; p.v[kLx][j] = lx; p.v[kLy][j] = ly; p.v[kLz][j] = lz;
        const bool inside = (ex >= b[0]) & (ex <= b[3]) & (ey >= b[1]) & (ey <= b[4]) & (ez >= b[2]) & (ez <= b[5]) &
                            ((b[3] > b[0]) | (b[4] > b[1]) | (b[5] > b[2])); // not a point
        p.v[kInside][j] = inside ? 1.0 : 0.0;
        p.v[kSx][j] = sx; p.v[kSy][j] = sy; p.v[kSz][j] = sz;
        p.v[kRx][j] = rx; p.v[kRy][j] = ry; p.v[kRz][j] = rz;
        p.v[kUx][j] = ux; p.v[kUy][j] = uy; p.v[kUz][j] = uz;
        // The box frame: its centre relative to the eye and its three half-axes, in the head frame
        // and as (right, up, along) around the line of sight.
        const double *fr = frames + 12 * j;
        const double fv[4][3] = {{fr[0] - ex, fr[1] - ey, fr[2] - ez}, {fr[3], fr[4], fr[5]},
                                 {fr[6], fr[7], fr[8]}, {fr[9], fr[10], fr[11]}};
#pragma clang loop unroll(full)
        for (int k = 0; k < 4; ++k) {
            const double vx = fv[k][0], vy = fv[k][1], vz = fv[k][2];
            const int h = k == 0 ? kHcx : kHa0 + 3 * (k - 1), sidx = k == 0 ? kSc0 : kSa0 + 3 * (k - 1);
            p.v[h][j] = t[0] * vx + t[3] * vy + t[6] * vz;
            p.v[h + 1][j] = t[1] * vx + t[4] * vy + t[7] * vz;
            p.v[h + 2][j] = t[2] * vx + t[5] * vy + t[8] * vz;
            p.v[sidx][j] = vx * rx + vy * ry + vz * rz;
            p.v[sidx + 1][j] = vx * ux + vy * uy + vz * uz;
            p.v[sidx + 2][j] = vx * sx + vy * sy + vz * sz;
        }
#pragma clang loop unroll(full)
        for (int k = 0; k < 3; ++k)
            p.v[kZero0 + k][j] = ((fv[k + 1][0] == 0) & (fv[k + 1][1] == 0) & (fv[k + 1][2] == 0)) ? 1.0 : 0.0;
    }
}

// What the corners of each box of a block decide, in one branch-free loop over `Pre` (vectorised
// like `prepass_loop`, same operations in the same order as the scalar code it replaces): the
// zero half-axis of a flat box goes last (the first zero axis is swapped with the third), the
// corners are centre ± a0 ± a1 (± a2 for a solid) in the head frame and around the line of sight,
// and from them: whether every corner is ahead of the plane across the line of sight, how many are
// in front of / behind the eye's frontal plane, the extreme corners' span arguments (kW, kH; the
// first of equal extremes, as the scalar loop over corner indices picks), and the field-of-view
// tests of boxes entirely in front of the eye. Pass 1 reads these and takes the rare cases (eye
// inside, corners behind the line-of-sight plane, boxes straddling the frontal plane) itself.
// Run twice over the block, for the head frame (`Head`) and then for the sight frame: each run
// keeps half the corners live, which spills fewer registers than one loop with both (the unused
// frame's corners are dead code in each).
enum BoxField {
    kFlat, kSightAhead, kInFront, kBehind, kFovIn, kAllIn, kNeedSpan,
    kAx0, kBoxFields = kAx0 + 9 // the half-axes around the line of sight, the zero one last
};
struct Box {
    double v[kBoxFields][kBlock];
};

template <bool Head>
__attribute__((always_inline)) inline void box_loop(const PreFrame &f, const Pre &__restrict p,
                                                    const double *__restrict em_metres, size_t m,
                                                    Box &__restrict out, Args &__restrict args) {
    const double tan_h = f.tan_h, tan_v2 = f.tan_v2, tan_oh = f.tan_oh, tan_ov2 = f.tan_ov2;
    for (size_t j = 0; j < m; ++j) {
        const bool z0 = p.v[kZero0][j] != 0, z1 = p.v[kZero1][j] != 0, z2 = p.v[kZero2][j] != 0;
        const bool flat = z0 | z1 | z2;
        const bool first_to_last = z0, second_to_last = !z0 & z1;
        double hax[3], hay[3], haz[3], sax[3], say[3], saz[3];
#pragma clang loop unroll(full)
        for (int r = 0; r < 3; ++r) {
            // a0 = z0 ? A2 : A0; a1 = (!z0 && z1) ? A2 : A1; a2 = z0 ? A0 : (z1 ? A1 : A2).
            const double h0 = p.v[kHa0 + r][j], h1 = p.v[kHa0 + 3 + r][j], h2 = p.v[kHa0 + 6 + r][j];
            const double s0 = p.v[kSa0 + r][j], s1 = p.v[kSa0 + 3 + r][j], s2 = p.v[kSa0 + 6 + r][j];
            const double hh[3] = {first_to_last ? h2 : h0, second_to_last ? h2 : h1, z0 ? h0 : (z1 ? h1 : h2)};
            const double ss[3] = {first_to_last ? s2 : s0, second_to_last ? s2 : s1, z0 ? s0 : (z1 ? s1 : s2)};
            hax[r] = hh[0]; hay[r] = hh[1]; haz[r] = hh[2];
            sax[r] = ss[0]; say[r] = ss[1]; saz[r] = ss[2];
        }
        // hax[r]: component r of axis 0, hay[r] of axis 1, haz[r] of axis 2 (same for s).
        double hx[8], hy[8], hz[8], sx[8], sy[8], sz[8];
        {
            const double c[2][3] = {{p.v[kHcx][j], p.v[kHcy][j], p.v[kHcz][j]}, {p.v[kSc0][j], p.v[kSc0 + 1][j], p.v[kSc0 + 2][j]}};
            double *ox[2][3] = {{hx, hy, hz}, {sx, sy, sz}};
#pragma clang loop unroll(full)
            for (int w = 0; w < 2; ++w) {
#pragma clang loop unroll(full)
                for (int r = 0; r < 3; ++r) {
                    const double a0 = w == 0 ? hax[r] : sax[r], a1 = w == 0 ? hay[r] : say[r], a2 = w == 0 ? haz[r] : saz[r];
                    const double m0 = c[w][r] - a0, p0 = c[w][r] + a0;
                    const double l[4] = {m0 - a1, p0 - a1, m0 + a1, p0 + a1};
#pragma clang loop unroll(full)
                    for (int k = 0; k < 4; ++k) {
                        ox[w][r][k] = flat ? l[k] : l[k] - a2;
                        ox[w][r][k + 4] = l[k] + a2;
                    }
                }
            }
        }
        bool sight_ahead = true;
        double in_front = 0, behind = 0;
        double hx0 = sx[0], hz0 = sz[0], hx1 = sx[0], hz1 = sz[0];
        double vy0 = sy[0], vz0 = sz[0], vy1 = sy[0], vz1 = sz[0];
        bool right_of_left = false, left_of_right = false, above_bottom = false, below_top = false, all_inside = true;
#pragma clang loop unroll(full)
        for (int k = 0; k < 8; ++k) {
            const bool use = k < 4 || !flat;
            sight_ahead &= !use | (sz[k] > 0);
            in_front += (use & (hz[k] < 0)) ? 1.0 : 0.0;
            behind += (use & (hz[k] > 0)) ? 1.0 : 0.0;
            if (k > 0) {
                const bool a = use & (sx[k] * hz0 < hx0 * sz[k]), b = use & (sx[k] * hz1 > hx1 * sz[k]);
                const bool c = use & (sy[k] * vz0 < vy0 * sz[k]), d = use & (sy[k] * vz1 > vy1 * sz[k]);
                hx0 = a ? sx[k] : hx0; hz0 = a ? sz[k] : hz0;
                hx1 = b ? sx[k] : hx1; hz1 = b ? sz[k] : hz1;
                vy0 = c ? sy[k] : vy0; vz0 = c ? sz[k] : vz0;
                vy1 = d ? sy[k] : vy1; vz1 = d ? sz[k] : vz1;
            }
            const double depth = -hz[k], h2 = hx[k] * hx[k] + hz[k] * hz[k], y2 = hy[k] * hy[k];
            right_of_left |= use & (hx[k] >= -tan_oh * depth);
            left_of_right |= use & (hx[k] <= tan_oh * depth);
            above_bottom |= use & ((hy[k] >= 0) | (y2 <= tan_ov2 * h2));
            below_top |= use & ((hy[k] <= 0) | (y2 <= tan_ov2 * h2));
            all_inside &= !use | ((std::fabs(hx[k]) <= tan_h * depth) & (y2 <= tan_v2 * h2));
        }
        if constexpr (Head) {
            out.v[kFlat][j] = flat ? 1.0 : 0.0;
            out.v[kInFront][j] = in_front;
            out.v[kBehind][j] = behind;
            out.v[kFovIn][j] = (right_of_left & left_of_right & above_bottom & below_top) ? 1.0 : 0.0;
            out.v[kAllIn][j] = all_inside ? 1.0 : 0.0;
        } else {
            const bool spans = (p.v[kInside][j] == 0) & sight_ahead;
            args.y[kW][j] = spans ? hx1 * hz0 - hx0 * hz1 : 0.0; args.x[kW][j] = spans ? hz1 * hz0 + hx1 * hx0 : 1.0;
            args.y[kH][j] = spans ? vy1 * vz0 - vy0 * vz1 : 0.0; args.x[kH][j] = spans ? vz1 * vz0 + vy1 * vy0 : 1.0;
            out.v[kSightAhead][j] = sight_ahead ? 1.0 : 0.0;
            out.v[kNeedSpan][j] = (spans & !((em_metres[j] > 0) & (p.v[kDist][j] > 0))) ? 1.0 : 0.0;
#pragma clang loop unroll(full)
            for (int r = 0; r < 3; ++r) {
                out.v[kAx0 + r][j] = sax[r]; out.v[kAx0 + 3 + r][j] = say[r]; out.v[kAx0 + 6 + r][j] = saz[r];
            }
        }
    }
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
__attribute__((target("avx2"))) void box_avx2(const PreFrame &f, const Pre &p, const double *em_metres, size_t m,
                                              Box &out, Args &args) {
    box_loop<true>(f, p, em_metres, m, out, args);
    box_loop<false>(f, p, em_metres, m, out, args);
}
#endif

void box_pass(const PreFrame &f, const Pre &p, const double *em_metres, size_t m, Box &out, Args &args) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    static const bool avx2 = __builtin_cpu_supports("avx2");
    if (avx2) { box_avx2(f, p, em_metres, m, out, args); return; }
#endif
    box_loop<true>(f, p, em_metres, m, out, args);
    box_loop<false>(f, p, em_metres, m, out, args);
}

// The box's own widths (see "Oriented spans" above) of the entities of a block, in one branch-free
// loop over the half-axes around the line of sight that `box_loop` ordered (the zero axis of a flat
// box last). Each axis takes the 4 points of the section through the centre: for a flat box the
// last two repeat the first two (c is zero), and a repeated point never replaces an extreme (the
// comparisons are strict), so the result is that of the segment's 2 points. The smallest of the
// axes' spans is kept in axis order. Written to kThin for the entities that need it (kNeedSpan:
// eye outside, every corner ahead of the line-of-sight plane, not measured by its em), else (0, 1);
// `have` says whether some axis had an image that is not a point.
__attribute__((always_inline)) inline void spans_loop(const Pre &__restrict p, const Box &__restrict bxs, size_t m,
                                                      Args &__restrict args, double *__restrict have_out) {
    for (size_t i = 0; i < m; ++i) {
        const double scx = p.v[kSc0][i], scy = p.v[kSc0 + 1][i], scz = p.v[kSc0 + 2][i];
        const bool solid = bxs.v[kFlat][i] == 0;
        double by = 0, bx = 1;
        bool have = false;
#pragma clang loop unroll(full)
        for (int k = 0; k < 3; ++k) {
            const int kb = k == 0 ? 1 : 0, kc = k == 2 ? 1 : 2;
            const double ax = bxs.v[kAx0 + 3 * k][i], ay = bxs.v[kAx0 + 3 * k + 1][i];
            const double bxx = bxs.v[kAx0 + 3 * kb][i], byy = bxs.v[kAx0 + 3 * kb + 1][i], bzz = bxs.v[kAx0 + 3 * kb + 2][i];
            const double cxx = bxs.v[kAx0 + 3 * kc][i], cyy = bxs.v[kAx0 + 3 * kc + 1][i], czz = bxs.v[kAx0 + 3 * kc + 2][i];
            const double l2 = ax * ax + ay * ay;
            const bool valid = (l2 > 0) & (l2 < INFINITY) & ((k < 2) | solid);
            const double nx = -ay, ny = ax;
            const double mx = scx - bxx, my = scy - byy, mz = scz - bzz;
            const double px = scx + bxx, py = scy + byy, pz = scz + bzz;
            const double qx[4] = {mx - cxx, px - cxx, mx + cxx, px + cxx};
            const double qy[4] = {my - cyy, py - cyy, my + cyy, py + cyy};
            const double qz[4] = {mz - czz, pz - czz, mz + czz, pz + czz};
            double y0 = qx[0] * nx + qy[0] * ny, x0 = qz[0];
            double y1 = y0, x1 = x0;
#pragma clang loop unroll(full)
            for (int q = 1; q < 4; ++q) {
                const double y = qx[q] * nx + qy[q] * ny, x = qz[q];
                const bool lo = y * x0 < y0 * x, hi = y * x1 > y1 * x;
                y0 = lo ? y : y0; x0 = lo ? x : x0;
                y1 = hi ? y : y1; x1 = hi ? x : x1;
            }
            const double oy = ieee_sqrt(l2) * (y1 * x0 - y0 * x1);
            const double ox = l2 * (x1 * x0) + y1 * y0;
            const bool take = valid & (!have | (bx * oy - by * ox < 0));
            by = take ? oy : by; bx = take ? ox : bx;
            have = have | valid;
        }
        const bool use = (bxs.v[kNeedSpan][i] != 0) & have;
        args.y[kThin][i] = use ? by : 0.0; args.x[kThin][i] = use ? bx : 1.0;
        have_out[i] = have ? 1.0 : 0.0;
    }
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
__attribute__((target("avx2"))) void spans_avx2(const Pre &p, const Box &bxs, size_t m, Args &args, double *have) {
    spans_loop(p, bxs, m, args, have);
}
#endif

void spans_batch(const Pre &p, const Box &bxs, size_t m, Args &args, double *have) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    static const bool avx2 = __builtin_cpu_supports("avx2");
    if (avx2) { spans_avx2(p, bxs, m, args, have); return; }
#endif
    spans_loop(p, bxs, m, args, have);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
__attribute__((target("avx2"))) void prepass_avx2(const PreFrame &f, const double *boxes, const double *frames,
                                                  size_t m, Pre &p, Args &args) {
    prepass_loop(f, boxes, frames, m, p, args);
}
#endif

void prepass(const PreFrame &f, const double *boxes, const double *frames, size_t m, Pre &p, Args &args) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    static const bool avx2 = __builtin_cpu_supports("avx2");
    if (avx2) { prepass_avx2(f, boxes, frames, m, p, args); return; }
#endif
    prepass_loop(f, boxes, frames, m, p, args);
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
template <class Loop> __attribute__((target("avx2"))) void run_avx2(const Loop &loop) { loop(); }
#endif

// Runs `loop` (a lambda around one of the branch-free loops, inlined) compiled for AVX2 when the
// CPU has it, else as plain code: the same operations either way, so the same bits.
template <class Loop> void dispatch(const Loop &loop) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    static const bool avx2 = __builtin_cpu_supports("avx2");
    if (avx2) { run_avx2(loop); return; }
#endif
    loop();
}

// Pass 1a: what most entities need from pass 1, in one branch-free loop over the block (the
// distance, the field-of-view flags of boxes with the eye inside, entirely in front of the eye or
// entirely behind it, the motion of content that did not move, what pass 3 needs), and which
// entities pass 1b must visit (kPRare): a corner behind the line-of-sight plane (the spans from
// every corner), a box straddling the eye's frontal plane (the field of view from its corners),
// readable content measured by its em, content attached to the head or hand, content that moved.
// For those the previous centre and distance are left for pass 1b, which reads them first.
__attribute__((always_inline)) inline void common_loop(const Pre &__restrict p, const Box &__restrict bx,
                                                       const double *__restrict span_have, const double *__restrict boxes,
                                                       const double *__restrict em_metres, const bool *__restrict attached,
                                                       bool has_prev, bool behind_is_outside, size_t m,
                                                       double *__restrict distance, double *__restrict linear_speed,
                                                       double *__restrict approach_speed, bool *__restrict in_fov,
                                                       bool *__restrict fully_in_fov, double *__restrict prev_center,
                                                       double *__restrict prev_distance, Pending &__restrict pe) {
    const double still_approach = has_prev ? -0.0 : 0.0; // -(x - x) / dt: -0 once there is a previous frame
    for (size_t j = 0; j < m; ++j) {
        const double dist = p.v[kDist][j];
        const bool eye_inside = p.v[kInside][j] != 0, sight_ahead = bx.v[kSightAhead][j] != 0;
        const double nc = bx.v[kFlat][j] != 0 ? 4.0 : 8.0;
        const bool in_front = bx.v[kInFront][j] == nc, behind = (bx.v[kBehind][j] == nc) & behind_is_outside;
        const bool straddling = !eye_inside & !in_front & !behind;
        const bool corner_spans = !eye_inside & !sight_ahead;
        const bool from_em = (em_metres[j] > 0) & (dist > 0);
        const double *b = boxes + 6 * j;
        const double cx = (b[0] + b[3]) * 0.5, cy = (b[1] + b[4]) * 0.5, cz = (b[2] + b[5]) * 0.5;
        double *pc = prev_center + 3 * j;
        const bool still = (cx == pc[0]) & (cy == pc[1]) & (cz == pc[2]);
        const bool motion = attached[j] | (has_prev & !still);
        pc[0] = motion ? pc[0] : cx; pc[1] = motion ? pc[1] : cy; pc[2] = motion ? pc[2] : cz;
        prev_distance[j] = motion ? prev_distance[j] : dist;
        distance[j] = dist;
        linear_speed[j] = 0.0;
        approach_speed[j] = still_approach;
        in_fov[j] = eye_inside | (in_front & (bx.v[kFovIn][j] != 0));
        fully_in_fov[j] = !eye_inside & in_front & (bx.v[kAllIn][j] != 0);
        pe.v[kPWidth][j] = 360.0; pe.v[kPHeight][j] = 180.0; // the eye inside (else pass 1b or unused)
        pe.v[kPSpansKnown][j] = (eye_inside | corner_spans) ? 1.0 : 0.0;
        pe.v[kPOriented][j] = (!eye_inside & sight_ahead) ? (from_em ? 8.0 : (span_have[j] != 0 ? 1.0 : 8.0)) : 0.0;
        pe.v[kPFromEm][j] = from_em ? 1.0 : 0.0;
        pe.v[kPEmFull][j] = 0.0; pe.v[kPDeferred][j] = 0.0; pe.v[kPElOverlap][j] = 0.0; pe.v[kPMoving][j] = 0.0;
        pe.v[kPRare][j] = (corner_spans | straddling | from_em | motion) ? 1.0 : 0.0;
    }
}

// Pass 3: the angles from the arctangents (`Args::r`; a packed slot's value is only used where
// pass 1 pushed it) and what pass 1 left in `Pending`, in one branch-free loop over the block.
__attribute__((always_inline)) inline void finish_loop(const Args &__restrict a, const Pending &__restrict pe,
                                                       double point_angle, double dt, double fov_lo, double fov_hi, size_t m,
                                                       double *__restrict azimuth, double *__restrict elevation,
                                                       double *__restrict elevation_world, double *__restrict eccentricity,
                                                       double *__restrict angular_width, double *__restrict angular_height,
                                                       double *__restrict angular_size, double *__restrict pt_eq,
                                                       double *__restrict angular_velocity, bool *__restrict in_fov) {
    // (clang's cost model leaves this loop scalar for its two divisions; 4 lanes take fewer instructions.)
#pragma clang loop vectorize(enable)
    for (size_t j = 0; j < m; ++j) {
        const bool known = pe.v[kPSpansKnown][j] != 0;
        double width = known ? pe.v[kPWidth][j] : a.r[kW][j] * kRadToDeg;
        double height = known ? pe.v[kPHeight][j] : a.r[kH][j] * kRadToDeg;
        width = std::isfinite(width) ? width : 0;
        height = std::isfinite(height) ? height : 0;
        const double az = a.r[kAz][j] * kRadToDeg;
        azimuth[j] = az;
        elevation[j] = a.r[kEl][j] * kRadToDeg;
        elevation_world[j] = a.r[kElw][j] * kRadToDeg;
        eccentricity[j] = a.r[kEcc][j] * kRadToDeg;
        angular_width[j] = width;
        angular_height[j] = height;
        angular_size[j] = width < height ? height : width; // std::max(width, height)
        // Otherwise the box's smallest width across its own axes (the one that limits
        // targeting); the smaller angular extent when a corner is not ahead of the eye.
        const double oriented = pe.v[kPOriented][j];
        double own = oriented == 1 ? a.r[kThin][j] * kRadToDeg : 0.0;
        own = std::isfinite(own) ? own : 0;
        const double thin = oriented != 0 ? own : (height < width ? height : width); // std::min(width, height)
        const double em_pt = (pe.v[kPEmFull][j] != 0 ? 1.0 : 2.0) * (a.r[kPt][j] * kRadToDeg) / point_angle;
        pt_eq[j] = pe.v[kPFromEm][j] != 0 ? em_pt : thin / point_angle;
        angular_velocity[j] = pe.v[kPMoving][j] != 0 ? a.r[kAngV][j] * kRadToDeg / dt : 0.0;
        const double a0 = az + a.r[kRel0][j] * kRadToDeg, a1 = az + a.r[kRel1][j] * kRadToDeg;
        const bool deferred = (pe.v[kPElOverlap][j] != 0) & (a1 >= fov_lo) & (a0 <= fov_hi);
        in_fov[j] = pe.v[kPDeferred][j] != 0 ? deferred : in_fov[j];
    }
}

} // namespace

extern "C" {

void sm_entity_quantities(const sm_head *head, const double *boxes, const double *frames,
                          const double *node_world, size_t n_nodes, const int32_t *entity_node,
                          const double *em_metres, const bool *head_attached, double point_angle,
                          const bool *refresh, sm_motion_state *state, const sm_entity_out *out, size_t n) {
    const dvec3 eye(head->p[0], head->p[1], head->p[2]);
    const dquat hq = load_quat(head->q);
    const glm::dmat3 to_head = glm::mat3_cast(glm::conjugate(hq)); // world -> head frame
    const dvec3 forward = hq * dvec3(0, 0, -1); // the line of sight of an entity at the eye
    const dvec3 head_up = hq * dvec3(0, 1, 0);
    const dvec3 head_right = hq * dvec3(1, 0, 0);
    const double half_h = head->fov_h * 0.5, half_v = head->fov_v * 0.5;
    const double eps = 1e-9;
    // Tangents of the half field of view, for corners in front of the eye (tan is monotone on
    // (-90°, 90°), so comparing tangent ratios is comparing angles; 90° or more takes every corner
    // ahead). "Fully inside" uses the half angle itself, "overlaps" the half angle + eps.
    // (The 1e-12 slack keeps a box exactly on the edge inside despite rounding.)
    const double tan_h = half_h >= 90 ? INFINITY : std::tan(half_h / kRadToDeg) * (1 + 1e-12);
    const double tan_v = half_v >= 90 ? INFINITY : std::tan(half_v / kRadToDeg) * (1 + 1e-12);
    const double tan_oh = half_h + eps >= 90 ? INFINITY : std::tan((half_h + eps) / kRadToDeg);
    const double tan_ov = half_v + eps >= 90 ? INFINITY : std::tan((half_v + eps) / kRadToDeg);
    const double tan_v2 = tan_v * tan_v, tan_ov2 = tan_ov * tan_ov;
    // A box entirely behind the eye's frontal plane is outside a field of view narrower than 180°.
    const bool behind_is_outside = half_h + eps < 90;
    const double dt = state->dt;
    const bool has_prev = state->has_prev != 0;
    const dvec3 prev_eye(state->prev_head[0], state->prev_head[1], state->prev_head[2]);

    // Per block of entities: three branch-free loops that vectorise (`prepass`: centre direction,
    // sight frame, projected box frames; `box_pass`: corners, extremes, field of view in front of
    // the eye; `spans_batch`: oriented widths), then pass 1a (`common_loop`, branch-free too) does
    // what most entities need and marks the rest, pass 1b takes the decisions and computes the rare
    // cases (spans and field of view from the corners, em, motion) and gathers their arctangents'
    // arguments, pass 2 evaluates the arctangents in batches (`Args::evaluate`), pass 3
    // (`finish_loop`) finishes the angles.
    Args args;
    // Pass 3 reads the packed slots' results for every entity (and discards the unused ones): never
    // uninitialised.
    for (int s = kDense; s < kSlots; ++s) std::fill(args.r[s], args.r[s] + kBlock, 0.0);
    Pending pending;
    Pre pre;
    Box box;
    double span_have[kBlock];
    PreFrame pf;
    pf.tan_h = tan_h; pf.tan_v2 = tan_v2; pf.tan_oh = tan_oh; pf.tan_ov2 = tan_ov2;
    for (int k = 0; k < 3; ++k) {
        pf.eye[k] = eye[k]; pf.fwd[k] = forward[k]; pf.hup[k] = head_up[k]; pf.hright[k] = head_right[k];
        for (int r = 0; r < 3; ++r) pf.t[3 * k + r] = to_head[k][r];
    }
    const double fov_lo = -half_h - eps, fov_hi = half_h + eps;
    for (size_t base = 0; base < n; base += kBlock) {
        const size_t m = std::min(kBlock, n - base);
        for (int s = kDense; s < kSlots; ++s) args.count[s] = 0;
        // Azimuth and elevation in the head frame, elevation against the world horizontal, and
        // the eccentricity: the angle between forward (0, 0, -1 in the head frame) and the
        // direction, atan2(|f × d|, f · d) (exact near 0°, unlike acos); the sight frame and the
        // projected box frames (see `prepass_loop`).
        prepass(pf, boxes + 6 * base, frames + 12 * base, m, pre, args);
        box_pass(pf, pre, em_metres + base, m, box, args);
        spans_batch(pre, box, m, args, span_have);
        dispatch([&]() __attribute__((always_inline)) {
            common_loop(pre, box, span_have, boxes + 6 * base, em_metres + base, head_attached + base, has_prev,
                        behind_is_outside, m, out->distance + base, out->linear_speed + base,
                        out->approach_speed + base, out->in_fov + base, out->fully_in_fov + base,
                        state->prev_center + 3 * base, state->prev_distance + base, pending);
        });
        for (size_t j = 0; j < m; ++j) {
            const size_t e = base + j;
            // Centre, bounds and axes change only when the entity can move.
            const bool fresh = refresh == nullptr || refresh[e];
            const bool rare = pending.v[kPRare][j] != 0;
            if (!fresh && !rare) continue;
            const double *b = boxes + 6 * e;
            const dvec3 lo(b[0], b[1], b[2]), hi(b[3], b[4], b[5]);
            const dvec3 c = (lo + hi) * 0.5;
            if (fresh) {
                dvec3 front(0, 0, 1), up(0, 1, 0);
                const int32_t nd = entity_node[e];
                if (nd >= 0 && static_cast<size_t>(nd) < n_nodes) {
                    const double *mw = node_world + 16 * static_cast<size_t>(nd);
                    front = safe_normalize(dvec3(mw[8], mw[9], mw[10]));
                    up = safe_normalize(dvec3(mw[4], mw[5], mw[6]));
                }
                store4(out->center, e, c);
                store4(out->bounds_min, e, lo);
                store4(out->bounds_max, e, hi);
                store4(out->front, e, front);
                store4(out->up, e, up);
            }
            if (!rare) continue;
            const double dist = pre.v[kDist][j];
            const dvec3 local(pre.v[kLx][j], pre.v[kLy][j], pre.v[kLz][j]);

            // Angular extent: corners projected on a frame around the line of sight to the centre
            // (right = sight × head up, up = right × sight), so that a flat rectangle facing the eye
            // anywhere in view spans exactly 2·atan(w / 2d) by 2·atan(h / 2d).
            // (|right| > 1e-12 before normalising, else the head's right.)
            const dvec3 sight(pre.v[kSx][j], pre.v[kSy][j], pre.v[kSz][j]);
            const dvec3 right(pre.v[kRx][j], pre.v[kRy][j], pre.v[kRz][j]);
            const dvec3 sup(pre.v[kUx][j], pre.v[kUy][j], pre.v[kUz][j]);
            const bool eye_inside = pre.v[kInside][j] != 0; // eye inside the bounds (not a point)
            const bool flat = box.v[kFlat][j] != 0;
            const int nc = flat ? 4 : 8;
            const bool sight_ahead = box.v[kSightAhead][j] != 0; // every corner ahead of the plane across the line of sight
            const int in_front = static_cast<int>(box.v[kInFront][j]), behind = static_cast<int>(box.v[kBehind][j]);
            // The corners themselves, for the rare cases below: centre ± the half-axes (ordered by
            // `box_loop`), in the head frame (h*) and as (right, up, along) around the sight (s*).
            double hx[8], hy[8], hz[8], sx[8], sy[8], sz[8];
            auto field = [&](int f) { return pre.v[f][j]; };
            if (!eye_inside) {
                // Spans around the line of sight. With every corner ahead, atan2(h, along) is
                // monotone in h / along, so the extremes are found by comparing ratios
                // (cross-multiplied: no division), and each span takes one arctangent (kW, kH,
                // written by `box_loop`); pass 1a took that case. The box's own widths (kThin,
                // `spans_loop`): across each of its axes as the eye sees it, so a thin bar whose
                // image is tilted measures its thickness, not the upright box around it (pt_eq is
                // the smallest of them; not for content measured by its em: its pt_eq is the em's).
                if (!sight_ahead) {
                    dvec3 ax[3];
                    for (int k = 0; k < 3; ++k) ax[k] = dvec3(box.v[kAx0 + 3 * k][j], box.v[kAx0 + 3 * k + 1][j], box.v[kAx0 + 3 * k + 2][j]);
                    corners(dvec3(field(kSc0), field(kSc0 + 1), field(kSc0 + 2)), ax, nc, sx, sy, sz);
                    double h_min = INFINITY, h_max = -INFINITY, v_min = INFINITY, v_max = -INFINITY;
                    for (int k = 0; k < nc; ++k) {
                        const double hang = atan2_deg(sx[k], sz[k]), vang = atan2_deg(sy[k], sz[k]);
                        h_min = std::min(h_min, hang); h_max = std::max(h_max, hang);
                        v_min = std::min(v_min, vang); v_max = std::max(v_max, vang);
                    }
                    pending.v[kPWidth][j] = h_max - h_min; pending.v[kPHeight][j] = v_max - v_min;
                }
                // Field of view: the corners' azimuth and elevation in the head frame. Elevation
                // tan = y / |(x, z)| is compared squared (no square root): y >= -t·h holds when
                // y >= 0 or y² <= t²·h², and so on. Boxes in front of the eye (their azimuth
                // tan = x / -z has a positive denominator: the threshold tests multiply instead of
                // dividing; tested by `box_loop`) and behind it (its azimuths all lie beyond ±90°)
                // were taken by pass 1a.
                if (in_front != nc && !(behind == nc && behind_is_outside)) {
                    dvec3 ax[3];
                    // The same order as box_loop: the first zero half-axis swapped with the third.
                    for (int k = 0; k < 3; ++k) ax[k] = dvec3(field(kHa0 + 3 * k), field(kHa0 + 3 * k + 1), field(kHa0 + 3 * k + 2));
                    for (int k = 0; k < 3; ++k) if (pre.v[kZero0 + k][j] != 0) { std::swap(ax[k], ax[2]); break; }
                    corners(dvec3(field(kHcx), field(kHcx + 1), field(kHcx + 2)), ax, nc, hx, hy, hz);
                    // Straddling the frontal plane: some corner is not in front, so not fully
                    // inside (pass 1a). Elevation by tangent ratios as above; azimuth relative to the
                    // centre's, rel = atan2(U × V, U · V) for the horizontal directions U of the
                    // centre and V of a corner (= the wrapped difference of their azimuths), whose
                    // extremes are found by ratio when every corner is within 90° of U; their
                    // arctangents join the batch (kRel0, kRel1) and pass 3 finishes the test.
                    const double ux = -local.z, uy = local.x;
                    bool ratio_ok = !(ux == 0 && uy == 0);
                    bool above_bottom = false, below_top = false;
                    double cr[8], dp[8];
                    for (int k = 0; k < nc; ++k) {
                        const double h2 = hx[k] * hx[k] + hz[k] * hz[k], y2 = hy[k] * hy[k];
                        cr[k] = ux * hx[k] - uy * -hz[k];
                        dp[k] = ux * -hz[k] + uy * hx[k];
                        ratio_ok &= h2 > 0 && dp[k] > 0;
                        above_bottom |= hy[k] >= 0 || y2 <= tan_ov2 * h2;
                        below_top |= hy[k] <= 0 || y2 <= tan_ov2 * h2;
                    }
                    if (ratio_ok) {
                        int r0 = 0, r1 = 0;
                        for (int k = 1; k < nc; ++k) {
                            if (cr[k] * dp[r0] < cr[r0] * dp[k]) r0 = k;
                            if (cr[k] * dp[r1] > cr[r1] * dp[k]) r1 = k;
                        }
                        args.push(kRel0, j, cr[r0], dp[r0]); args.push(kRel1, j, cr[r1], dp[r1]);
                        pending.v[kPDeferred][j] = 1.0;
                        pending.v[kPElOverlap][j] = above_bottom && below_top ? 1.0 : 0.0;
                        out->in_fov[e] = false; // set in pass 3
                    } else {
                        // Degenerate or not finite: each corner's angles, azimuths relative to
                        // the centre's so that a box across ±180° does not wrap.
                        const double az = atan2_deg(args.y[kAz][j], args.x[kAz][j]);
                        const double el = atan2_deg(args.y[kEl][j], args.x[kEl][j]);
                        double az_min = INFINITY, az_max = -INFINITY, el_min = INFINITY, el_max = -INFINITY;
                        for (int k = 0; k < nc; ++k) {
                            const double h = std::sqrt(hx[k] * hx[k] + hz[k] * hz[k]);
                            const double caz = (hx[k] == 0 && hz[k] == 0) ? az : atan2_deg(hx[k], -hz[k]);
                            const double cel = (hy[k] == 0 && h == 0) ? el : atan2_deg(hy[k], h);
                            const double rel = wrap_diff180(caz - az);
                            az_min = std::min(az_min, rel); az_max = std::max(az_max, rel);
                            el_min = std::min(el_min, cel); el_max = std::max(el_max, cel);
                        }
                        const double a0 = az + az_min, a1 = az + az_max;
                        out->in_fov[e] = a1 >= -half_h - eps && a0 <= half_h + eps && el_max >= -half_v - eps && el_min <= half_v + eps;
                    }
                }
            }

            // Point-equivalents of readable content with a font size (or text height): the em
            // height's angle.
            const double em = em_metres[e];
            if (pending.v[kPFromEm][j] != 0) {
                // The em as the eye sees it: a segment of the em height along the text's up axis
                // through its centre, measured across the image of its baseline (x axis), with
                // foreshortening: t± = ±w / D± for w = h·|Y·n|, D± = d ± h·(Y·s), h = em / 2, so
                // the angle is atan(w / D+) + atan(w / D−) = atan2(w·(D+ + D−), D+·D− − w²).
                // Facing the eye: 2·atan(em / 2d). With the eye within the em of the text's
                // plane (D± <= 0), the em's plain angle 2·atan(em / 2d).
                dvec3 tx(1, 0, 0), ty(0, 1, 0);
                const int32_t nd = entity_node[e];
                if (nd >= 0 && static_cast<size_t>(nd) < n_nodes) {
                    const double *mw = node_world + 16 * static_cast<size_t>(nd);
                    tx = safe_normalize(dvec3(mw[0], mw[1], mw[2]));
                    ty = safe_normalize(dvec3(mw[4], mw[5], mw[6]));
                }
                const double h = em * 0.5;
                const double xr = glm::dot(tx, right), xu = glm::dot(tx, sup);
                const double yr = glm::dot(ty, right), yu = glm::dot(ty, sup), ys = glm::dot(ty, sight);
                double nx = -xu, ny = xr, nl2 = nx * nx + ny * ny;
                if (!(nl2 > 1e-24)) { nx = yr; ny = yu; nl2 = nx * nx + ny * ny; } // baseline along the sight
                const double w = nl2 > 1e-24 ? h * std::fabs(yr * nx + yu * ny) / std::sqrt(nl2) : 0.0;
                const double dp = dist + h * ys, dm = dist - h * ys;
                if (dp > 0 && dm > 0 && std::isfinite(w)) {
                    args.push(kPt, j, w * (dp + dm), dp * dm - w * w);
                    pending.v[kPEmFull][j] = 1.0;
                } else {
                    args.push(kPt, j, em, 2 * dist);
                }
            }

            // Motion of the content itself (hig-rules §1.5): directions are taken from the previous
            // eye position, so neither turning the head nor walking makes still content "move".
            // The direction in the head frame is only needed for content attached to the head or
            // hand. Still world content (most of a scene) was taken by pass 1a: the formulas below
            // give exactly 0 for it (-0 for the approach speed, -(x - x) / dt).
            double *pcs = state->prev_center + 3 * e, *pld = state->prev_local_dir + 3 * e;
            const bool attached = head_attached[e];
            const dvec3 pc(pcs[0], pcs[1], pcs[2]);
            if (attached || (has_prev && !(c == pc))) {
                const dvec3 local_dir = attached ? normalize_or_self(local) : dvec3(0);
                double lin_v = 0, app_v = 0;
                if (has_prev) {
                    const dvec3 a = attached ? dvec3(pld[0], pld[1], pld[2]) : normalize_or_self(pc - prev_eye);
                    const dvec3 bdir = attached ? local_dir : normalize_or_self(c - prev_eye);
                    const double sn = glm::length(glm::cross(a, bdir)), co = glm::dot(a, bdir);
                    if (!(sn == 0 && co >= 0)) { args.push(kAngV, j, sn, co); pending.v[kPMoving][j] = 1.0; } // still: sn == 0
                    lin_v = glm::length(c - pc) / dt;
                    app_v = attached ? -(dist - state->prev_distance[e]) / dt
                                     : -(glm::length(c - prev_eye) - glm::length(pc - prev_eye)) / dt;
                }
                pcs[0] = c.x; pcs[1] = c.y; pcs[2] = c.z;
                if (attached) { pld[0] = local_dir.x; pld[1] = local_dir.y; pld[2] = local_dir.z; }
                state->prev_distance[e] = dist;
                out->linear_speed[e] = lin_v;
                out->approach_speed[e] = app_v;
            }
        }

        args.evaluate(m);

        dispatch([&]() __attribute__((always_inline)) {
            finish_loop(args, pending, point_angle, dt, fov_lo, fov_hi, m, out->azimuth + base, out->elevation + base,
                        out->elevation_world + base, out->eccentricity + base, out->angular_width + base,
                        out->angular_height + base, out->angular_size + base, out->pt_eq + base,
                        out->angular_velocity + base, out->in_fov + base);
        });
    }
    state->prev_head[0] = eye.x; state->prev_head[1] = eye.y; state->prev_head[2] = eye.z;
    state->has_prev = 1;
}

} // extern "C"

namespace {

// The cells lo...hi of one grid row that the rectangle covers, as bits from bit lo - shift (see
// sm_cover_rect): d meets the rectangle's plane at d / (d·s); s is orthogonal to right and up, so
// the in-plane coordinates are (d·right, d·up) / (d·s): compared without dividing. Branch-free: the
// cells along a rectangle's edge would mispredict.
struct CoverRow {
    double ce, es, er, eu, tw, th; // cos e, and sin e times s.y, right.y, up.y; the half extents
};
inline uint64_t cover_cells(const CoverRow &w, const double *ps, const double *pr, const double *pu, int32_t lo,
                            int32_t hi, int32_t shift) {
    uint64_t bits = 0;
    for (int32_t c = lo; c <= hi; ++c) {
        const double ds = w.ce * ps[c] + w.es, dr = w.ce * pr[c] + w.er, du = w.ce * pu[c] + w.eu;
        const uint64_t hit = static_cast<uint64_t>((ds > 0) & (std::fabs(dr) <= w.tw * ds) & (std::fabs(du) <= w.th * ds));
        bits |= hit << (c - shift);
    }
    return bits;
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
// The same tests on 4 cells at a time (the same operations: a product, then a sum; ordered
// comparisons, false for NaN like the scalar ones). Reads up to 3 columns past hi, whose bits the
// caller masks off (its column arrays have room for them).
__attribute__((target("avx2"))) uint64_t cover_cells_avx2(const CoverRow &w, const double *ps, const double *pr,
                                                          const double *pu, int32_t lo, int32_t hi, int32_t shift) {
    const __m256d ce = _mm256_set1_pd(w.ce), es = _mm256_set1_pd(w.es), er = _mm256_set1_pd(w.er), eu = _mm256_set1_pd(w.eu);
    const __m256d tw = _mm256_set1_pd(w.tw), th = _mm256_set1_pd(w.th), sign = _mm256_set1_pd(-0.0), zero = _mm256_setzero_pd();
    uint64_t bits = 0;
    for (int32_t c = lo; c <= hi; c += 4) {
        const __m256d ds = _mm256_add_pd(_mm256_mul_pd(ce, _mm256_loadu_pd(ps + c)), es);
        const __m256d dr = _mm256_add_pd(_mm256_mul_pd(ce, _mm256_loadu_pd(pr + c)), er);
        const __m256d du = _mm256_add_pd(_mm256_mul_pd(ce, _mm256_loadu_pd(pu + c)), eu);
        const __m256d in_r = _mm256_cmp_pd(_mm256_andnot_pd(sign, dr), _mm256_mul_pd(tw, ds), _CMP_LE_OQ);
        const __m256d in_u = _mm256_cmp_pd(_mm256_andnot_pd(sign, du), _mm256_mul_pd(th, ds), _CMP_LE_OQ);
        const __m256d hit = _mm256_and_pd(_mm256_cmp_pd(ds, zero, _CMP_GT_OQ), _mm256_and_pd(in_r, in_u));
        bits |= static_cast<uint64_t>(_mm256_movemask_pd(hit)) << (c - shift);
    }
    return bits;
}
#endif

} // namespace

extern "C" {

int32_t sm_cover_rect(const double *row_sin, const double *row_cos, const double *col_sin,
                      const double *col_cos, int32_t columns, int32_t words, int32_t r0, int32_t r1,
                      int32_t c0, int32_t c1, sm_vec3 s, sm_vec3 right, sm_vec3 up, double tw, double th,
                      uint64_t *mask) {
    if (columns <= 0 || columns > 1024 || words <= 0 || words > 16 || words * 64 < columns || c0 < 0 || c1 >= columns ||
        c0 > c1 || r0 < 0 || r0 > r1) return 0;
    // The bits of columns c0...c1 in each word of a row.
    uint64_t span[16];
    for (int32_t w = 0; w < words && w < 16; ++w) {
        const int32_t a = std::max(c0, 64 * w), b = std::min(c1, 64 * w + 63);
        span[w] = a > b ? 0 : ((b - a + 1 >= 64 ? ~uint64_t(0) : (uint64_t(1) << (b - a + 1)) - 1) << (a - 64 * w));
    }
    // The direction is separable: d·v = cos e · (sin a · v.x − cos a · v.z) + sin e · v.y, so the
    // column terms are computed once per rectangle and a cell costs three multiply-adds per test.
    // (3 more than the columns: the AVX2 rows read up to 3 past c1, zero here, their bits discarded.)
    double ps[1024 + 3], pr[1024 + 3], pu[1024 + 3];
    for (int32_t c = c0; c <= c1; ++c) {
        ps[c] = col_sin[c] * s.x - col_cos[c] * s.z;
        pr[c] = col_sin[c] * right.x - col_cos[c] * right.z;
        pu[c] = col_sin[c] * up.x - col_cos[c] * up.z;
    }
    for (int32_t c = c1 + 1; c <= c1 + 3; ++c) ps[c] = pr[c] = pu[c] = 0;
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    static const bool avx2 = __builtin_cpu_supports("avx2");
#endif
    int32_t full = 0;
    for (int32_t r = r0; r <= r1; ++r) {
        uint64_t *m = mask + static_cast<size_t>(r) * words;
        bool covered = true;
        for (int32_t w = 0; w < words; ++w) covered = covered && (m[w] & span[w]) == span[w];
        if (covered) continue;
        const CoverRow row{row_cos[r], row_sin[r] * s.y, row_sin[r] * right.y, row_sin[r] * up.y, tw, th};
        for (int32_t w = c0 >> 6; w <= (c1 >> 6); ++w) {
            // A word whose cells of the rectangle are all covered already gains nothing.
            if ((m[w] & span[w]) == span[w]) continue;
            const int32_t lo = std::max(c0, 64 * w), hi = std::min(c1, 64 * w + 63);
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
            if (avx2) { m[w] |= cover_cells_avx2(row, ps, pr, pu, lo, hi, 64 * w) & span[w]; continue; }
#endif
            m[w] |= cover_cells(row, ps, pr, pu, lo, hi, 64 * w);
        }
        bool now_full = true;
        for (int32_t w = 0; w < words; ++w) now_full = now_full && m[w] == ~uint64_t(0);
        full += now_full;
    }
    return full;
}

} // extern "C"
