// GLM implementation of the C interface in include/spatialmath.h. See the header for why.
#include "spatialmath.h"

#include <algorithm>
#include <cmath>
#include <cstring>

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

inline double wrap180(double a) {
    a = std::fmod(a + 180.0, 360.0);
    if (a < 0) a += 360.0;
    return a - 180.0;
}

inline dvec3 safe_normalize(const dvec3 &v) {
    const double l = glm::length(v);
    return l > 0 && std::isfinite(l) ? v / l : dvec3(0);
}

// --- Exact extremes of atan/atan2 with few libm calls -------------------------------------------
// The quantities need the minimum and maximum of atan2 over 8 corners and a few threshold tests.
// libm's atan2 costs ~20-40 ns; a polynomial approximation costs a few ns and is within
// kApproxTol degrees of it. The approximation only *selects*: every value that reaches an output is
// computed with the same libm call and expression as before, on the corners that can be the
// extreme (approximation within 2·tol of the approximate extreme), and a threshold test calls libm
// whenever the approximation lies within tol of the threshold. So the outputs are bit-identical to
// evaluating libm on every corner.
constexpr double kPi = 3.14159265358979323846;
// The polynomial's error is below 1e-5° on [0, 1]; the tolerance leaves a wide margin.
constexpr double kApproxTol = 1e-3;

// atan(x) on [0, 1] (odd minimax polynomial, |error| < 2e-7 rad).
inline double atan_poly01(double x) {
    const double x2 = x * x;
    return x * (0.99997726 + x2 * (-0.33262347 + x2 * (0.19354346 + x2 * (-0.11643287 +
           x2 * (0.05265332 + x2 * -0.01172120)))));
}

// Approximate atan2(y, x) in degrees for finite y, x (same branch cut and signed zeros as atan2).
inline double approx_atan2_deg(double y, double x) {
    const double ax = std::fabs(x), ay = std::fabs(y);
    const double mx = std::max(ax, ay), mn = std::min(ax, ay);
    if (mx == 0) return std::atan2(y, x) * kRadToDeg;
    double a = atan_poly01(mn / mx);
    if (ay > ax) a = kPi / 2 - a;
    if (std::signbit(x)) a = kPi - a;
    return std::copysign(a, y) * kRadToDeg;
}

// `std::atan(r) * kRadToDeg >= thr`, calling libm only near the threshold.
inline bool atan_deg_ge(double r, double thr) {
    if (std::isfinite(r)) {
        const double a = approx_atan2_deg(r, 1.0);
        if (a >= thr + kApproxTol) return true;
        if (a < thr - kApproxTol) return false;
    }
    return std::atan(r) * kRadToDeg >= thr;
}
inline bool atan_deg_le(double r, double thr) {
    if (std::isfinite(r)) {
        const double a = approx_atan2_deg(r, 1.0);
        if (a <= thr - kApproxTol) return true;
        if (a > thr + kApproxTol) return false;
    }
    return std::atan(r) * kRadToDeg <= thr;
}

inline bool finite3(const dvec3 &v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
inline bool all_finite(const dvec3 *wv, const dvec3 *hp, const dvec3 &a, const dvec3 &b, const dvec3 &c) {
    for (int k = 0; k < 8; ++k) if (!finite3(wv[k]) || !finite3(hp[k])) return false;
    return finite3(a) && finite3(b) && finite3(c);
}

} // namespace

extern "C" {

int sm_interface_version(void) { return 2; }

void sm_compose_trs(const sm_trs *in, double *out_mats, size_t n) {
    for (size_t i = 0; i < n; ++i) store_mat(compose(in[i]), out_mats + 16 * i);
}

void sm_compose_trs_indexed(const sm_trs *in, const int32_t *out_index, double *out_mats, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        if (out_index[i] < 0) continue;
        store_mat(compose(in[i]), out_mats + 16 * static_cast<size_t>(out_index[i]));
    }
}

void sm_world_transforms(const int32_t *parent, const double *local, const double *root_frames,
                         const int32_t *root_frame_index, double *world, size_t n) {
    for (size_t i = 0; i < n; ++i) {
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
}

void sm_transform_aabbs(const double *mats, const double *local_boxes, double *out_boxes, size_t n) {
    for (size_t i = 0; i < n; ++i) transform_box(load_mat(mats + 16 * i), local_boxes + 6 * i, out_boxes + 6 * i);
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
                      double *out_corners, size_t n_entities) {
    for (size_t e = 0; e < n_entities; ++e) {
        double *box = out_boxes + 6 * e;
        double *corners = out_corners + 24 * e;
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
        if (geometry_nodes == 1) {
            const dmat4 m = load_mat(node_world + 16 * single);
            const double *lb = node_local_boxes + 6 * single;
            for (int c = 0; c < 8; ++c) {
                const dvec4 p((c & 1) ? lb[3] : lb[0], (c & 2) ? lb[4] : lb[1], (c & 4) ? lb[5] : lb[2], 1);
                const dvec4 w = m * p;
                corners[3 * c] = w.x; corners[3 * c + 1] = w.y; corners[3 * c + 2] = w.z;
            }
        } else {
            for (int c = 0; c < 8; ++c) {
                corners[3 * c] = (c & 1) ? hi.x : lo.x;
                corners[3 * c + 1] = (c & 2) ? hi.y : lo.y;
                corners[3 * c + 2] = (c & 4) ? hi.z : lo.z;
            }
        }
    }
}

void sm_entity_quantities(const sm_head *head, const double *boxes, const double *corners,
                          const double *node_world, size_t n_nodes, const int32_t *entity_node,
                          sm_entity_q *out, size_t n) {
    const dvec3 eye(head->p[0], head->p[1], head->p[2]);
    const dquat hq = load_quat(head->q);
    const dquat inv = glm::conjugate(hq);
    const dvec3 forward = hq * dvec3(0, 0, -1);
    const double half_h = head->fov_h * 0.5, half_v = head->fov_v * 0.5;
    const double eps = 1e-9;
    // Tangents of the half field of view (a half angle of 90° or more takes every corner ahead).
    const double tan_h = half_h >= 90 ? INFINITY : std::tan(half_h / kRadToDeg);
    const double tan_v = half_v >= 90 ? INFINITY : std::tan(half_v / kRadToDeg);
    for (size_t e = 0; e < n; ++e) {
        sm_entity_q &q = out[e];
        const double *b = boxes + 6 * e;
        const dvec3 lo(b[0], b[1], b[2]), hi(b[3], b[4], b[5]);
        const dvec3 c = (lo + hi) * 0.5;
        const dvec3 d = c - eye;
        const double dist = glm::length(d);
        const dvec3 dir = dist > 0 ? d / dist : dvec3(0);
        const dvec3 local = inv * d;
        const double horiz = std::sqrt(local.x * local.x + local.z * local.z);
        const double az = (local.x == 0 && local.z == 0) ? 0 : std::atan2(local.x, -local.z) * kRadToDeg;
        const double el = (local.y == 0 && horiz == 0) ? 0 : std::atan2(local.y, horiz) * kRadToDeg;
        const double whoriz = std::sqrt(d.x * d.x + d.z * d.z);
        const double elw = (d.y == 0 && whoriz == 0) ? 0 : std::atan2(d.y, whoriz) * kRadToDeg;
        const double ecc = dist > 0 ? std::acos(std::clamp(glm::dot(forward, dir), -1.0, 1.0)) * kRadToDeg : 0;

        dvec3 front(0, 0, 1), up(0, 1, 0);
        const int32_t nd = entity_node[e];
        if (nd >= 0 && static_cast<size_t>(nd) < n_nodes) {
            const dmat4 m = load_mat(node_world + 16 * static_cast<size_t>(nd));
            front = safe_normalize(dvec3(m[2]));
            up = safe_normalize(dvec3(m[1]));
        }

        // Angular extent: corners projected on a frame around the line of sight to the centre
        // (right = sight × head up, up = right × sight), so that a flat rectangle facing the eye
        // anywhere in view spans exactly 2·atan(w / 2d) by 2·atan(h / 2d).
        const dvec3 sight = dist > 0 ? dir : forward;
        dvec3 right = glm::cross(sight, hq * dvec3(0, 1, 0));
        right = glm::length(right) > 1e-12 ? glm::normalize(right) : hq * dvec3(1, 0, 0);
        const dvec3 sup = glm::cross(right, sight);
        const bool eye_inside = eye.x >= lo.x && eye.x <= hi.x && eye.y >= lo.y && eye.y <= hi.y &&
                                eye.z >= lo.z && eye.z <= hi.z && glm::length(hi - lo) > 0;
        const double *cs = corners + 24 * e;
        dvec3 wv[8], hp[8];
        bool ahead = true; // every corner in front of the sight plane and of the head
        for (int k = 0; k < 8; ++k) {
            wv[k] = dvec3(cs[3 * k], cs[3 * k + 1], cs[3 * k + 2]) - eye;
            hp[k] = inv * wv[k];
            if (!(glm::dot(wv[k], sight) > 0 && hp[k].z < 0)) ahead = false;
        }
        double width, height;
        bool in_fov, all_inside = true;
        if (eye_inside) {
            width = 360; height = 180; in_fov = true; all_inside = false;
        } else if (ahead) {
            // Fast path (the common case): atan is monotone, so the spans come from the extreme
            // tangent ratios and the field-of-view test compares ratios: 8 atan per entity
            // instead of 32 atan2.
            double rh0 = INFINITY, rh1 = -INFINITY, rv0 = INFINITY, rv1 = -INFINITY;
            double ra0 = INFINITY, ra1 = -INFINITY, re0 = INFINITY, re1 = -INFINITY;
            for (int k = 0; k < 8; ++k) {
                const double along = glm::dot(wv[k], sight);
                const double rh = glm::dot(wv[k], right) / along, rv = glm::dot(wv[k], sup) / along;
                rh0 = std::min(rh0, rh); rh1 = std::max(rh1, rh);
                rv0 = std::min(rv0, rv); rv1 = std::max(rv1, rv);
                const dvec3 &p = hp[k];
                const double h = std::sqrt(p.x * p.x + p.z * p.z);
                const double ra = p.x / -p.z, re = p.y / h;
                ra0 = std::min(ra0, ra); ra1 = std::max(ra1, ra);
                re0 = std::min(re0, re); re1 = std::max(re1, re);
                if (!(std::fabs(ra) <= tan_h * (1 + 1e-12)) || !(std::fabs(re) <= tan_v * (1 + 1e-12)))
                    all_inside = false;
            }
            width = (std::atan(rh1) - std::atan(rh0)) * kRadToDeg;
            height = (std::atan(rv1) - std::atan(rv0)) * kRadToDeg;
            // a1 >= -half_h - eps && a0 <= half_h + eps && e1 >= -half_v - eps && e0 <= half_v + eps
            // with a0 = atan(ra0)° etc., libm called only near a threshold.
            in_fov = atan_deg_ge(ra1, -half_h - eps) && atan_deg_le(ra0, half_h + eps) &&
                     atan_deg_ge(re1, -half_v - eps) && atan_deg_le(re0, half_v + eps);
        } else if (all_finite(wv, hp, right, sup, sight)) {
            // Same quantities as the general loop below (bit-identical), with libm atan2 called only
            // on the corners that can hold an extreme and near the field-of-view thresholds.
            double hy[8], vy[8], al[8], pcz[8], pce[8];
            double ah[8], av[8], arel[8], acel[8];
            bool special_az[8], special_el[8];
            for (int k = 0; k < 8; ++k) {
                al[k] = glm::dot(wv[k], sight);
                hy[k] = glm::dot(wv[k], right);
                vy[k] = glm::dot(wv[k], sup);
                const dvec3 &p = hp[k];
                pcz[k] = std::sqrt(p.x * p.x + p.z * p.z);
                special_az[k] = p.x == 0 && p.z == 0;
                special_el[k] = p.y == 0 && pcz[k] == 0;
                ah[k] = approx_atan2_deg(hy[k], al[k]);
                av[k] = approx_atan2_deg(vy[k], al[k]);
                const double caz = special_az[k] ? az : approx_atan2_deg(p.x, -p.z);
                pce[k] = caz;
                arel[k] = wrap180(caz - az);
                acel[k] = special_el[k] ? el : approx_atan2_deg(p.y, pcz[k]);
            }
            const double t2 = 2 * kApproxTol;
            double ahmin = ah[0], ahmax = ah[0], avmin = av[0], avmax = av[0];
            double aemin = acel[0], aemax = acel[0];
            // Relative azimuths near the ±180° wrap may land on the other side once exact: they are
            // always evaluated exactly and left out of the approximate extremes.
            double armin = INFINITY, armax = -INFINITY;
            for (int k = 0; k < 8; ++k) {
                ahmin = std::min(ahmin, ah[k]); ahmax = std::max(ahmax, ah[k]);
                avmin = std::min(avmin, av[k]); avmax = std::max(avmax, av[k]);
                if (std::fabs(arel[k]) < 180 - t2) { armin = std::min(armin, arel[k]); armax = std::max(armax, arel[k]); }
                aemin = std::min(aemin, acel[k]); aemax = std::max(aemax, acel[k]);
            }
            double az_min = INFINITY, az_max = -INFINITY, el_min = INFINITY, el_max = -INFINITY;
            double h_min = INFINITY, h_max = -INFINITY, v_min = INFINITY, v_max = -INFINITY;
            for (int k = 0; k < 8; ++k) {
                if (ah[k] <= ahmin + t2 || ah[k] >= ahmax - t2) {
                    const double ha = std::atan2(hy[k], al[k]) * kRadToDeg;
                    h_min = std::min(h_min, ha); h_max = std::max(h_max, ha);
                }
                if (av[k] <= avmin + t2 || av[k] >= avmax - t2) {
                    const double va = std::atan2(vy[k], al[k]) * kRadToDeg;
                    v_min = std::min(v_min, va); v_max = std::max(v_max, va);
                }
                const dvec3 &p = hp[k];
                // caz is needed exactly when the corner can hold an azimuth extreme, when its
                // relative azimuth is near the ±180° wrap, or near the field-of-view test.
                const bool near_wrap = std::fabs(arel[k]) >= 180 - t2;
                const bool az_extreme = near_wrap || arel[k] <= armin + t2 || arel[k] >= armax - t2;
                const double aabs = std::fabs(pce[k]);
                const bool az_fov_unsure = p.z < 0 && std::fabs(aabs - (half_h + eps)) <= kApproxTol;
                double caz = pce[k];
                if (!special_az[k] && (az_extreme || az_fov_unsure)) caz = std::atan2(p.x, -p.z) * kRadToDeg;
                if (az_extreme) {
                    const double rel = wrap180(caz - az);
                    az_min = std::min(az_min, rel); az_max = std::max(az_max, rel);
                }
                const bool el_extreme = acel[k] <= aemin + t2 || acel[k] >= aemax - t2;
                const bool el_fov_unsure = p.z < 0 && std::fabs(std::fabs(acel[k]) - (half_v + eps)) <= kApproxTol;
                double cel = acel[k];
                if (!special_el[k] && (el_extreme || el_fov_unsure)) cel = std::atan2(p.y, pcz[k]) * kRadToDeg;
                if (el_extreme) { el_min = std::min(el_min, cel); el_max = std::max(el_max, cel); }
                // Where caz / cel stayed approximate, they are more than tol from the threshold,
                // so the comparison agrees with the exact value.
                if (!(p.z < 0 && std::fabs(caz) <= half_h + eps && std::fabs(cel) <= half_v + eps)) all_inside = false;
            }
            width = h_max - h_min; height = v_max - v_min;
            const double a0 = az + az_min, a1 = az + az_max;
            in_fov = a1 >= -half_h - eps && a0 <= half_h + eps && el_max >= -half_v - eps && el_min <= half_v + eps;
        } else {
            double az_min = INFINITY, az_max = -INFINITY, el_min = INFINITY, el_max = -INFINITY;
            double h_min = INFINITY, h_max = -INFINITY, v_min = INFINITY, v_max = -INFINITY;
            for (int k = 0; k < 8; ++k) {
                const double along = glm::dot(wv[k], sight);
                const double ha = std::atan2(glm::dot(wv[k], right), along) * kRadToDeg;
                const double va = std::atan2(glm::dot(wv[k], sup), along) * kRadToDeg;
                h_min = std::min(h_min, ha); h_max = std::max(h_max, ha);
                v_min = std::min(v_min, va); v_max = std::max(v_max, va);
                // Field of view: the corner's azimuth and elevation in the head frame.
                const dvec3 &p = hp[k];
                const double h = std::sqrt(p.x * p.x + p.z * p.z);
                const double caz = (p.x == 0 && p.z == 0) ? az : std::atan2(p.x, -p.z) * kRadToDeg;
                const double cel = (p.y == 0 && h == 0) ? el : std::atan2(p.y, h) * kRadToDeg;
                const double rel = wrap180(caz - az); // relative to the centre: no wrap at ±180°
                az_min = std::min(az_min, rel); az_max = std::max(az_max, rel);
                el_min = std::min(el_min, cel); el_max = std::max(el_max, cel);
                if (!(p.z < 0 && std::fabs(caz) <= half_h + eps && std::fabs(cel) <= half_v + eps)) all_inside = false;
            }
            width = h_max - h_min; height = v_max - v_min;
            const double a0 = az + az_min, a1 = az + az_max;
            in_fov = a1 >= -half_h - eps && a0 <= half_h + eps && el_max >= -half_v - eps && el_min <= half_v + eps;
        }

        q.center[0] = c.x; q.center[1] = c.y; q.center[2] = c.z;
        q.front[0] = front.x; q.front[1] = front.y; q.front[2] = front.z;
        q.up[0] = up.x; q.up[1] = up.y; q.up[2] = up.z;
        q.direction[0] = dir.x; q.direction[1] = dir.y; q.direction[2] = dir.z;
        q.distance = dist;
        q.azimuth = az;
        q.elevation = el;
        q.elevation_world = elw;
        q.eccentricity = ecc;
        q.angular_width = std::isfinite(width) ? width : 0;
        q.angular_height = std::isfinite(height) ? height : 0;
        q.in_fov = in_fov ? 1 : 0;
        q.fully_in_fov = all_inside ? 1 : 0;
    }
}

} // extern "C"
