// The reference kernel: straightforward GLM, fused loops. See include/reference_kernel.h.
#include "reference_kernel.h"
// The simulator's arctangent (branch-free Cephes reduction, within 1 ulp of libm): the reference
// computes the same quantities with the same elementary function, so the ratio measures the
// simulator's structure, not a faster atan2. The header is plain C, shared by path.
#include "../../../Sources/CSpatialMath/include/sm_atan2.h"

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
constexpr double kDeg = 57.29577951308232;

inline double wrap180(double a) {
    a = std::fmod(a + 180.0, 360.0);
    if (a < 0) a += 360.0;
    return a - 180.0;
}
} // namespace

extern "C" void ref_frame(const int32_t *parent, const double *local, const double *root_frames,
                          const int32_t *root_frame_index, double *world, size_t n_nodes,
                          const double *local_boxes, const int32_t *entity_node, const double *em_metres,
                          double point_angle, const ref_head *head, const double *prev_head, int first, double dt,
                          ref_outputs *o, size_t n) {
    // Hierarchy.
    for (size_t i = 0; i < n_nodes; ++i) {
        const dmat4 l = glm::make_mat4(local + 16 * i);
        const int32_t p = parent[i];
        dmat4 w;
        if (p >= 0 && static_cast<size_t>(p) < i) w = glm::make_mat4(world + 16 * p) * l;
        else if (root_frame_index[i] >= 0) w = glm::make_mat4(root_frames + 16 * root_frame_index[i]) * l;
        else w = l;
        std::memcpy(world + 16 * i, glm::value_ptr(w), sizeof w);
    }
    // Entities.
    const dvec3 eye(head->p[0], head->p[1], head->p[2]);
    const dvec3 prev_eye(prev_head[0], prev_head[1], prev_head[2]);
    const dquat hq(head->q[3], head->q[0], head->q[1], head->q[2]);
    const dquat inv = glm::conjugate(hq);
    const dvec3 forward = hq * dvec3(0, 0, -1), head_up = hq * dvec3(0, 1, 0);
    const double half_h = head->fov_h * 0.5, half_v = head->fov_v * 0.5;
    const double tan_h = half_h >= 90 ? INFINITY : std::tan(half_h / kDeg);
    const double tan_v = half_v >= 90 ? INFINITY : std::tan(half_v / kDeg);
    for (size_t e = 0; e < n; ++e) {
        const int32_t nd = entity_node[e];
        const dmat4 m = glm::make_mat4(world + 16 * nd);
        const double *lb = local_boxes + 6 * nd;
        dvec3 corner[8];
        dvec3 lo(INFINITY), hi(-INFINITY);
        if (lb[0] <= lb[3] && lb[1] <= lb[4] && lb[2] <= lb[5]) {
            for (int c = 0; c < 8; ++c) {
                corner[c] = dvec3(m * dvec4((c & 1) ? lb[3] : lb[0], (c & 2) ? lb[4] : lb[1], (c & 4) ? lb[5] : lb[2], 1));
                lo = glm::min(lo, corner[c]);
                hi = glm::max(hi, corner[c]);
            }
        } else {
            lo = hi = dvec3(m[3]);
            for (int c = 0; c < 8; ++c) corner[c] = lo;
        }
        const dvec3 c = (lo + hi) * 0.5, d = c - eye;
        const double dist = glm::length(d);
        const dvec3 dir = dist > 0 ? d / dist : dvec3(0);
        const dvec3 hl = inv * d;
        const double horiz = std::sqrt(hl.x * hl.x + hl.z * hl.z);
        const double az = sm_atan2(hl.x, -hl.z) * kDeg, el = sm_atan2(hl.y, horiz) * kDeg;
        const double elw = sm_atan2(d.y, std::sqrt(d.x * d.x + d.z * d.z)) * kDeg;
        const double ecc = dist > 0 ? sm_atan2(glm::length(glm::cross(forward, dir)), glm::dot(forward, dir)) * kDeg : 0;
        const dvec3 sight = dist > 0 ? dir : forward;
        dvec3 right = glm::cross(sight, head_up);
        right = glm::length(right) > 1e-12 ? glm::normalize(right) : hq * dvec3(1, 0, 0);
        const dvec3 sup = glm::cross(right, sight);
        bool ahead = true;
        dvec3 wv[8], hp[8];
        for (int k = 0; k < 8; ++k) {
            wv[k] = corner[k] - eye;
            hp[k] = inv * wv[k];
            if (!(glm::dot(wv[k], sight) > 0 && hp[k].z < 0)) ahead = false;
        }
        double width, height;
        bool in_fov, inside = true;
        if (ahead) {
            double rh0 = INFINITY, rh1 = -INFINITY, rv0 = INFINITY, rv1 = -INFINITY;
            double ra0 = INFINITY, ra1 = -INFINITY, re0 = INFINITY, re1 = -INFINITY;
            for (int k = 0; k < 8; ++k) {
                const double along = glm::dot(wv[k], sight);
                const double rh = glm::dot(wv[k], right) / along, rv = glm::dot(wv[k], sup) / along;
                rh0 = std::min(rh0, rh); rh1 = std::max(rh1, rh);
                rv0 = std::min(rv0, rv); rv1 = std::max(rv1, rv);
                const double ra = hp[k].x / -hp[k].z, re = hp[k].y / std::sqrt(hp[k].x * hp[k].x + hp[k].z * hp[k].z);
                ra0 = std::min(ra0, ra); ra1 = std::max(ra1, ra);
                re0 = std::min(re0, re); re1 = std::max(re1, re);
                if (!(std::fabs(ra) <= tan_h) || !(std::fabs(re) <= tan_v)) inside = false;
            }
            width = (sm_atan2(rh1, 1.0) - sm_atan2(rh0, 1.0)) * kDeg;
            height = (sm_atan2(rv1, 1.0) - sm_atan2(rv0, 1.0)) * kDeg;
            in_fov = sm_atan2(ra1, 1.0) * kDeg >= -half_h && sm_atan2(ra0, 1.0) * kDeg <= half_h &&
                     sm_atan2(re1, 1.0) * kDeg >= -half_v && sm_atan2(re0, 1.0) * kDeg <= half_v;
        } else {
            double h0 = INFINITY, h1 = -INFINITY, v0 = INFINITY, v1 = -INFINITY;
            double a0 = INFINITY, a1 = -INFINITY, e0 = INFINITY, e1 = -INFINITY;
            for (int k = 0; k < 8; ++k) {
                const double along = glm::dot(wv[k], sight);
                const double ha = sm_atan2(glm::dot(wv[k], right), along) * kDeg;
                const double va = sm_atan2(glm::dot(wv[k], sup), along) * kDeg;
                h0 = std::min(h0, ha); h1 = std::max(h1, ha);
                v0 = std::min(v0, va); v1 = std::max(v1, va);
                const dvec3 &p = hp[k];
                const double caz = sm_atan2(p.x, -p.z) * kDeg;
                const double cel = sm_atan2(p.y, std::sqrt(p.x * p.x + p.z * p.z)) * kDeg;
                const double rel = wrap180(caz - az);
                a0 = std::min(a0, rel); a1 = std::max(a1, rel);
                e0 = std::min(e0, cel); e1 = std::max(e1, cel);
                if (!(p.z < 0 && std::fabs(caz) <= half_h && std::fabs(cel) <= half_v)) inside = false;
            }
            width = h1 - h0; height = v1 - v0;
            in_fov = az + a1 >= -half_h && az + a0 <= half_h && e1 >= -half_v && e0 <= half_v;
        }
        const double em = em_metres[e];
        const double pt = em > 0 && dist > 0 ? 2 * sm_atan2(em / (2 * dist), 1.0) * kDeg / point_angle
                                              : std::min(width, height) / point_angle;
        double *pc = o->prev_center + 3 * e;
        const dvec3 prev(pc[0], pc[1], pc[2]);
        if (first) {
            o->angular_velocity[e] = 0; o->linear_speed[e] = 0;
        } else {
            const dvec3 a = glm::normalize(prev - prev_eye), b = glm::normalize(c - prev_eye);
            o->angular_velocity[e] = sm_atan2(glm::length(glm::cross(a, b)), glm::dot(a, b)) * kDeg / dt;
            o->linear_speed[e] = glm::length(c - prev) / dt;
        }
        pc[0] = c.x; pc[1] = c.y; pc[2] = c.z;
        o->center[3 * e] = c.x; o->center[3 * e + 1] = c.y; o->center[3 * e + 2] = c.z;
        o->distance[e] = dist; o->azimuth[e] = az; o->elevation[e] = el;
        o->elevation_world[e] = elw; o->eccentricity[e] = ecc;
        o->angular_width[e] = width; o->angular_height[e] = height; o->pt_eq[e] = pt;
        o->in_fov[e] = in_fov; o->fully_in_fov[e] = inside;
    }
}
