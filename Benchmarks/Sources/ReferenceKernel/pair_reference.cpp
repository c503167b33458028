// pair_reference.cpp: see include/pair_reference.h. Plain C++17, no SIMD intrinsics, no tricks
// beyond what the header describes: the loop a C++ programmer would write first.
#include "pair_reference.h"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace {
struct V3 { double x, y, z; };
inline V3 sub(V3 a, V3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline V3 add(V3 a, V3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline V3 mul(V3 a, double k) { return {a.x * k, a.y * k, a.z * k}; }
inline double dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline V3 cross(V3 a, V3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
inline double len(V3 a) { return std::sqrt(dot(a, a)); }
inline V3 normalize(V3 a) { double l = len(a); return mul(a, 1 / l); }
inline bool isZero(V3 a) { return a.x == 0 && a.y == 0 && a.z == 0; }

struct V2 { double x, y; };
struct Quad { V2 c, u, v; };

struct Gap { double gap, overlap; };
inline Gap rectGap(double ax0, double ay0, double ax1, double ay1, double bx0, double by0, double bx1, double by1) {
    double dx = std::max(0.0, std::max(bx0 - ax1, ax0 - bx1));
    double dy = std::max(0.0, std::max(by0 - ay1, ay0 - by1));
    double ox = std::min(ax1, bx1) - std::max(ax0, bx0), oy = std::min(ay1, by1) - std::max(ay0, by0);
    return {std::sqrt(dx * dx + dy * dy), ox > 0 && oy > 0 ? std::min(ox, oy) : 0};
}

double pointSegment(V2 p, V2 s0, V2 s1) {
    V2 e{s1.x - s0.x, s1.y - s0.y}, w{p.x - s0.x, p.y - s0.y};
    double ee = e.x * e.x + e.y * e.y;
    double t = ee > 0 ? std::min(1.0, std::max(0.0, (w.x * e.x + w.y * e.y) / ee)) : 0;
    double cx = w.x - t * e.x, cy = w.y - t * e.y;
    return std::sqrt(cx * cx + cy * cy);
}

Gap quadGap(const Quad &a, const Quad &b) {
    V2 d{b.c.x - a.c.x, b.c.y - a.c.y};
    bool separated = false;
    double pen = INFINITY;
    const V2 sides[4] = {a.u, a.v, b.u, b.v};
    for (const V2 &s : sides) {
        double l = std::sqrt(s.x * s.x + s.y * s.y);
        if (!(l > 0) || !std::isfinite(l)) continue;
        V2 n{-s.y / l, s.x / l};
        auto reach = [&](const Quad &q) { return std::fabs(n.x * q.u.x + n.y * q.u.y) + std::fabs(n.x * q.v.x + n.y * q.v.y); };
        double sep = std::fabs(n.x * d.x + n.y * d.y) - reach(a) - reach(b);
        if (sep > 0) separated = true; else pen = std::min(pen, -sep);
    }
    if (!separated) return {0, std::isfinite(pen) ? pen : 0};
    auto corners = [](const Quad &q, V2 *c) {
        c[0] = {q.c.x - q.u.x - q.v.x, q.c.y - q.u.y - q.v.y}; c[1] = {q.c.x + q.u.x - q.v.x, q.c.y + q.u.y - q.v.y};
        c[2] = {q.c.x + q.u.x + q.v.x, q.c.y + q.u.y + q.v.y}; c[3] = {q.c.x - q.u.x + q.v.x, q.c.y - q.u.y + q.v.y};
    };
    V2 ca[4], cb[4];
    corners(a, ca); corners(b, cb);
    double best = INFINITY;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            best = std::min(best, std::min(pointSegment(ca[i], cb[j], cb[(j + 1) % 4]), pointSegment(cb[i], ca[j], ca[(j + 1) % 4])));
    return {std::isfinite(best) ? best : 0, 0};
}
// The gap and overlap of the upright rectangles (±hwa, ±hha) and (dx, dy) ± (hwb, hhb).
inline Gap uprightGap(double dx, double dy, double hwa, double hha, double hwb, double hhb) {
    double adx = std::fabs(dx), ady = std::fabs(dy), sx = hwa + hwb, sy = hha + hhb;
    double gx = std::max(0.0, adx - sx), gy = std::max(0.0, ady - sy);
    double ox = std::min(sx - adx, 2 * std::min(hwa, hwb)), oy = std::min(sy - ady, 2 * std::min(hha, hhb));
    return {std::sqrt(gx * gx + gy * gy), ox > 0 && oy > 0 ? std::min(ox, oy) : 0};
}

constexpr double kDeg = 180 / M_PI;

// World right and up across the unit direction m (right = m × world up normalized, up = right × m;
// world +x made square to m within 1e-9 of the vertical).
inline void acrossSight(V3 m, V3 &right, V3 &up) {
    V3 r{-m.z, 0, m.x};
    double l = len(r);
    if (!(l > 1e-9)) { r = sub(V3{1, 0, 0}, mul(m, m.x)); l = len(r); }
    right = l > 0 ? mul(r, 1 / l) : V3{1, 0, 0};
    up = cross(right, m);
}

inline int32_t cellOf(double v, double cell) {
    double c = std::floor(v / cell);
    if (!std::isfinite(c)) return c > 0 ? INT32_MAX / 2 : INT32_MIN / 2;
    return (int32_t)std::max((double)(INT32_MIN / 2), std::min((double)(INT32_MAX / 2), c));
}

// The first column two cyclic column ranges share, or -1.
inline int32_t firstColumn(int32_t xa, int32_t la, int32_t xb, int32_t lb, int w) {
    int ab = xa - xb, ba = xb - xa;
    if (ab < 0) ab += w;
    if (ba < 0) ba += w;
    bool aInB = ab < lb, bInA = ba < la;
    return aInB && bInA ? std::min(xa, xb) : bInA ? xb : aInB ? xa : -1;
}
} // namespace

struct ref_pairs {
    size_t n;
    std::vector<int32_t> dyn, group;
    std::vector<uint8_t> still, control;
    double spacing, edgeGap, maxOverlap, depthWindow, padGap, largeSize, pa;
    // per slot
    std::vector<double> hw, hh, cosR, sinR, rad;
    std::vector<int32_t> slotK;
    std::vector<V3> dir, au, av;
    std::vector<uint8_t> flat, present, large;
    std::vector<int32_t> cx0, clen, cy0, cy1;
    // grid entries
    std::vector<int64_t> keys; std::vector<int32_t> items, order, bucket;
    // findings: flat open-addressing table and aggregates in flat arrays
    std::vector<uint64_t> tkeys; std::vector<int32_t> tvals; size_t tcount = 0; int shift = 58;
    std::vector<int64_t> firstFrame, lastFrame, frameCount, runs;
    std::vector<double> worst, aux;
    int64_t checks = 0, findings = 0;
};

static inline size_t home(const ref_pairs *p, uint64_t k) { return (size_t)((k * 0x9E3779B97F4A7C15ull) >> p->shift); }

static void grow(ref_pairs *p) {
    std::vector<uint64_t> ok = std::move(p->tkeys); std::vector<int32_t> ov = std::move(p->tvals);
    p->tkeys.assign(ok.size() * 2, UINT64_MAX); p->tvals.assign(ok.size() * 2, -1); p->shift -= 1;
    size_t mask = p->tkeys.size() - 1;
    for (size_t j = 0; j < ok.size(); j++) if (ok[j] != UINT64_MAX) {
        size_t i = home(p, ok[j]);
        while (p->tkeys[i] != UINT64_MAX) i = (i + 1) & mask;
        p->tkeys[i] = ok[j]; p->tvals[i] = ov[j];
    }
}

static void report(ref_pairs *p, int rule, int a, int b, int64_t frame, double measured, double auxv, bool lowerWorse) {
    p->findings++;
    uint64_t span = p->n + 1;
    uint64_t k = ((uint64_t)rule * span + (uint64_t)(a + 1)) * span + (uint64_t)(b + 1);
    size_t mask = p->tkeys.size() - 1, i = home(p, k);
    int32_t s = -1;
    while (true) {
        if (p->tkeys[i] == k) { s = p->tvals[i]; break; }
        if (p->tkeys[i] == UINT64_MAX) break;
        i = (i + 1) & mask;
    }
    if (s < 0) {
        if ((p->tcount + 1) * 2 > p->tkeys.size()) { grow(p); mask = p->tkeys.size() - 1; i = home(p, k); while (p->tkeys[i] != UINT64_MAX) i = (i + 1) & mask; }
        s = (int32_t)p->firstFrame.size();
        p->tkeys[i] = k; p->tvals[i] = s; p->tcount++;
        p->firstFrame.push_back(frame); p->lastFrame.push_back(frame); p->frameCount.push_back(1); p->runs.push_back(1);
        p->worst.push_back(measured); p->aux.push_back(auxv);
        return;
    }
    if (p->lastFrame[s] != frame - 1) p->runs[s]++;
    p->lastFrame[s] = frame; p->frameCount[s]++;
    if (lowerWorse ? measured < p->worst[s] : measured > p->worst[s]) { p->worst[s] = measured; p->aux[s] = auxv; }
}

extern "C" ref_pairs *ref_pairs_create(size_t n_entities, const int32_t *dynamic, const int32_t *group, size_t n_dynamic,
                                       const uint8_t *still, const uint8_t *control, double spacing, double edge_gap,
                                       double max_overlap, double depth_window, double pad_gap, double large_size,
                                       double point_angle) {
    ref_pairs *p = new ref_pairs();
    p->n = n_entities;
    p->dyn.assign(dynamic, dynamic + n_dynamic); p->group.assign(group, group + n_dynamic);
    p->still.assign(still, still + n_entities); p->control.assign(control, control + n_entities);
    p->spacing = spacing; p->edgeGap = edge_gap; p->maxOverlap = max_overlap; p->depthWindow = depth_window;
    p->padGap = pad_gap; p->largeSize = large_size; p->pa = point_angle;
    for (auto *v : {&p->hw, &p->hh, &p->cosR, &p->sinR, &p->rad}) v->resize(n_dynamic);
    p->slotK.resize(n_dynamic); p->dir.resize(n_dynamic); p->au.resize(n_dynamic); p->av.resize(n_dynamic);
    p->flat.resize(n_dynamic); p->present.resize(n_dynamic); p->large.resize(n_dynamic);
    for (auto *v : {&p->cx0, &p->clen, &p->cy0, &p->cy1}) v->resize(n_dynamic);
    p->tkeys.assign(64, UINT64_MAX); p->tvals.assign(64, -1);
    return p;
}

extern "C" void ref_pairs_destroy(ref_pairs *p) { delete p; }
extern "C" int64_t ref_pairs_checks(const ref_pairs *p) { return p->checks; }
extern "C" int64_t ref_pairs_findings(const ref_pairs *p) { return p->findings; }
extern "C" int64_t ref_pairs_aggregates(const ref_pairs *p) { return (int64_t)p->firstFrame.size(); }

extern "C" void ref_pairs_frame(ref_pairs *p, int64_t frame, const uint8_t *visible, const double *distance,
                                const double *azimuth, const double *elevation, const double *aw, const double *ah,
                                const double *ptEq, const double *center, const double *box, const double head_[3],
                                const double headUp_[3]) {
    (void)azimuth; (void)elevation; (void)ah; (void)headUp_;
    const V3 head{head_[0], head_[1], head_[2]};
    auto C = [&](int e) { return V3{center[4 * e], center[4 * e + 1], center[4 * e + 2]}; };
    const double pa = p->pa, margin = std::max(p->edgeGap, p->padGap) * pa;
    const double cell = p->spacing * pa;
    const int w = cell > 0 && std::isfinite(cell) ? std::max(1, std::min(1 << 16, (int)std::floor(360 / cell))) : 1;
    const double width = 360.0 / w;
    // Per entity: direction, upright extent around its own sight (world up), cone, cells.
    size_t n = 0;
    for (size_t k = 0; k < p->dyn.size(); k++) {
        int e = p->dyn[k];
        if (!visible[e] || !(distance[e] > 0)) continue;
        p->slotK[n] = (int32_t)k;
        V3 d = normalize(sub(C(e), head));
        p->dir[n] = d;
        const double *b = box + 12 * e;
        V3 c{b[0], b[1], b[2]}, a0{b[3], b[4], b[5]}, a1{b[6], b[7], b[8]}, a2{b[9], b[10], b[11]};
        double hw = 180, hh = 90;
        if (aw[e] < 360) {
            V3 right, up;
            acrossSight(d, right, up);
            double lx = INFINITY, hx = -INFINITY, ly = INFINITY, hy = -INFINITY;
            for (int q = 0; q < 8; q++) {
                V3 v = add(sub(c, head), add(mul(a0, q & 1 ? 1 : -1), add(mul(a1, q & 2 ? 1 : -1), mul(a2, q & 4 ? 1 : -1))));
                double z = dot(v, d), x = std::atan2(dot(v, right), z) * kDeg, y = std::atan2(dot(v, up), z) * kDeg;
                lx = std::min(lx, x); hx = std::max(hx, x); ly = std::min(ly, y); hy = std::max(hy, y);
            }
            hw = (hx - lx) / 2; hh = (hy - ly) / 2;
        }
        p->hw[n] = hw; p->hh[n] = hh;
        double r = std::sqrt(hw * hw + hh * hh) + margin / 2;
        if (std::isfinite(r)) r = std::min(360.0, r * (1 + 1e-9) + 1e-9);
        p->rad[n] = r; p->cosR[n] = std::cos(r / kDeg); p->sinR[n] = std::sin(r / kDeg);
        // Cone cells: world azimuth columns that wrap, elevation rows; the whole circle around a pole.
        double az = std::atan2(d.x, -d.z) * kDeg, el = std::atan2(d.y, std::sqrt(d.x * d.x + d.z * d.z)) * kDeg;
        p->present[n] = std::isfinite(r) && std::isfinite(az) && std::isfinite(el);
        if (p->present[n]) {
            double half = INFINITY;
            if (std::fabs(el) + r < 90) {
                double s = std::sin(r / kDeg) / std::cos(el / kDeg);
                if (s < 1) half = std::asin(s) * kDeg * (1 + 1e-9) + 1e-9;
            }
            int32_t y0 = cellOf(std::max(-90.0, el - r), width), y1 = cellOf(std::min(90.0, el + r), width);
            int32_t x0 = 0, l = w;
            if (half < 180) {
                int32_t c0 = cellOf(az - half, width), c1 = cellOf(az + half, width);
                if (c1 - c0 + 1 < w) { x0 = ((c0 % w) + w) % w; l = c1 - c0 + 1; }
            }
            p->cx0[n] = x0; p->clen[n] = l; p->cy0[n] = y0; p->cy1[n] = std::max(y0, y1);
            p->large[n] = (int64_t)l * std::max(1, y1 - y0 + 1) > 1024;
        }
        bool z0 = isZero(a0), z1 = isZero(a1), z2 = isZero(a2);
        p->flat[n] = (z0 + z1 + z2 == 1) && std::isfinite(distance[e]);
        if (p->flat[n]) { p->au[n] = z0 ? a1 : a0; p->av[n] = z2 ? a1 : a2; }
        n++;
    }
    const double clearlyBeyond = std::isfinite(margin) && margin >= 0 ? margin * (1 + 1e-9) : INFINITY;
    // The pair test, in the pair's own frame.
    auto test = [&](int i, int j) {
        int ka = p->slotK[i], kb = p->slotK[j], a = p->dyn[ka], b = p->dyn[kb];
        if (p->group[ka] == p->group[kb] && p->still[a] && p->still[b]) return;
        double cosv = std::max(-1.0, std::min(1.0, dot(p->dir[i], p->dir[j])));
        if (p->maxOverlap >= 0 && p->rad[i] + p->rad[j] < 180 && cosv < p->cosR[i] * p->cosR[j] - p->sinR[i] * p->sinR[j] - 1e-12) return;
        V3 s = add(sub(C(a), head), sub(C(b), head));
        double l = len(s);
        V3 mid = l > 1e-12 && std::isfinite(l) ? mul(s, 1 / l) : p->dir[i], right, up;
        acrossSight(mid, right, up);
        V3 ia{dot(p->dir[i], right), dot(p->dir[i], up), dot(p->dir[i], mid)};
        V3 ib{dot(p->dir[j], right), dot(p->dir[j], up), dot(p->dir[j], mid)};
        double dx = std::atan2(ia.x * ib.z - ia.z * ib.x, ia.z * ib.z + ia.x * ib.x) * kDeg;
        double dy = std::atan2(ia.y * ib.z - ia.z * ib.y, ia.z * ib.z + ia.y * ib.y) * kDeg;
        Gap g = uprightGap(dx, dy, p->hw[i], p->hh[i], p->hw[j], p->hh[j]);
        if (g.overlap == 0 && p->maxOverlap >= 0 && g.gap > clearlyBeyond) return;
        if (!(g.overlap / pa > p->maxOverlap || g.gap / pa < p->edgeGap || g.gap / pa < p->padGap)) return;
        if (p->flat[i] || p->flat[j]) {
            bool tilted = false;
            auto quad = [&](int slot, int ent, V3 q) {
                Quad u{{std::atan2(q.x, q.z) * kDeg, std::atan2(q.y, q.z) * kDeg}, {p->hw[slot], 0}, {0, p->hh[slot]}};
                if (!p->flat[slot] || !std::isfinite(distance[ent])) return u;
                double k = kDeg / distance[ent];
                V2 au{dot(p->au[slot], right) * k, dot(p->au[slot], up) * k}, av{dot(p->av[slot], right) * k, dot(p->av[slot], up) * k};
                auto skew = [](V2 v) { return std::min(std::fabs(v.x), std::fabs(v.y)) > 1e-6 * std::max(std::fabs(v.x), std::fabs(v.y)); };
                if (!(skew(au) || skew(av))) return u;
                tilted = true;
                return Quad{u.c, au, av};
            };
            Quad qa = quad(i, a, ia), qb = quad(j, b, ib);
            if (tilted) {
                g = quadGap(qa, qb);
                if (!(g.overlap / pa > p->maxOverlap || g.gap / pa < p->edgeGap || g.gap / pa < p->padGap)) return;
            }
        }
        double sep = std::acos(cosv) * kDeg / pa, gap = g.gap / pa, ov = g.overlap / pa;
        bool bothLarge = ptEq[a] >= p->largeSize && ptEq[b] >= p->largeSize && p->control[a] && p->control[b];
        bool sameDepth = std::fabs(distance[a] - distance[b]) <= p->depthWindow;
        int lo = std::min(a, b), hi = std::max(a, b);
        if (ov > p->maxOverlap && sameDepth) report(p, 0, lo, hi, frame, ov, gap, false);
        if (sep < p->spacing && gap < p->edgeGap) report(p, 1, lo, hi, frame, sep, gap, true);
        if (bothLarge && gap < p->padGap) report(p, 2, lo, hi, frame, gap, sep, true);
    };
    // Grid over world azimuth (w columns that wrap) and elevation: entries (cell, slot) of the
    // cones that are not large, counting-sorted by cell.
    p->keys.clear(); p->items.clear();
    int32_t loY = INT32_MAX, hiY = INT32_MIN;
    for (size_t i = 0; i < n; i++) {
        if (!p->present[i] || p->large[i]) continue;
        loY = std::min(loY, p->cy0[i]); hiY = std::max(hiY, p->cy1[i]);
        for (int32_t k = 0; k < p->clen[i]; k++) {
            int32_t x = (p->cx0[i] + k) % w;
            for (int32_t y = p->cy0[i]; y <= p->cy1[i]; y++) { p->keys.push_back(((int64_t)x << 32) | (uint32_t)y); p->items.push_back((int32_t)i); }
        }
    }
    if (!p->keys.empty()) {
        const int64_t H = (int64_t)hiY - loY + 1;
        auto dense = [&](int64_t key) { return (int64_t)(int32_t)(key >> 32) * H + ((int64_t)(int32_t)key - loY); };
        p->bucket.assign((size_t)(w * H + 1), 0);
        for (int64_t key : p->keys) p->bucket[dense(key) + 1]++;
        for (int64_t c = 0; c < w * H; c++) p->bucket[c + 1] += p->bucket[c];
        p->order.resize(p->keys.size());
        for (size_t k = 0; k < p->keys.size(); k++) p->order[p->bucket[dense(p->keys[k])]++] = (int32_t)k;
        size_t s = 0, m = p->order.size();
        while (s < m) {
            size_t e = s + 1;
            int64_t key = p->keys[p->order[s]];
            while (e < m && p->keys[p->order[e]] == key) e++;
            int32_t cx = (int32_t)(key >> 32), cy = (int32_t)key;
            for (size_t q0 = s; q0 + 1 < e; q0++) {
                for (size_t q1 = q0 + 1; q1 < e; q1++) {
                    int i = p->items[p->order[q0]], j = p->items[p->order[q1]];
                    if (i > j) std::swap(i, j);
                    p->checks++;
                    // Only in the first cell the two share.
                    if (std::max(p->cy0[i], p->cy0[j]) != cy || firstColumn(p->cx0[i], p->clen[i], p->cx0[j], p->clen[j], w) != cx) continue;
                    test(i, j);
                }
            }
            s = e;
        }
    }
    // Cones covering more than 1,024 cells: compared with everything.
    for (size_t l = 0; l < n; l++) {
        if (!p->present[l] || !p->large[l]) continue;
        for (size_t j = 0; j < n; j++) {
            if (j == l || !p->present[j] || (p->large[j] && j < l)) continue;
            p->checks++;
            test((int)std::min(l, j), (int)std::max(l, j));
        }
    }
}
