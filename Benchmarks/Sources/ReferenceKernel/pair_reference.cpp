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
} // namespace

struct ref_pairs {
    size_t n;
    std::vector<int32_t> dyn, group;
    std::vector<uint8_t> still, control;
    double spacing, edgeGap, maxOverlap, depthWindow, padGap, largeSize, pa;
    // per slot
    std::vector<double> x0, y0, x1, y1;
    std::vector<int32_t> slotK;
    std::vector<V3> dir, au, av;
    std::vector<uint8_t> flat;
    std::vector<int32_t> cx0, cy0;
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
    p->x0.resize(n_dynamic); p->y0.resize(n_dynamic); p->x1.resize(n_dynamic); p->y1.resize(n_dynamic);
    p->slotK.resize(n_dynamic); p->dir.resize(n_dynamic); p->au.resize(n_dynamic); p->av.resize(n_dynamic);
    p->flat.resize(n_dynamic); p->cx0.resize(n_dynamic); p->cy0.resize(n_dynamic);
    p->tkeys.assign(64, UINT64_MAX); p->tvals.assign(64, -1);
    return p;
}

extern "C" void ref_pairs_destroy(ref_pairs *p) { delete p; }
extern "C" int64_t ref_pairs_checks(const ref_pairs *p) { return p->checks; }
extern "C" int64_t ref_pairs_findings(const ref_pairs *p) { return p->findings; }
extern "C" int64_t ref_pairs_aggregates(const ref_pairs *p) { return (int64_t)p->firstFrame.size(); }

static inline int32_t cellOf(double v, double cell) {
    double c = std::floor(v / cell);
    if (!std::isfinite(c)) return c > 0 ? INT32_MAX / 2 : INT32_MIN / 2;
    return (int32_t)std::max((double)(INT32_MIN / 2), std::min((double)(INT32_MAX / 2), c));
}

extern "C" void ref_pairs_frame(ref_pairs *p, int64_t frame, const uint8_t *visible, const double *distance,
                                const double *azimuth, const double *elevation, const double *aw, const double *ah,
                                const double *ptEq, const double *center, const double *box, const double head_[3],
                                const double headUp_[3]) {
    const V3 head{head_[0], head_[1], head_[2]}, headUp{headUp_[0], headUp_[1], headUp_[2]};
    auto C = [&](int e) { return V3{center[4 * e], center[4 * e + 1], center[4 * e + 2]}; };
    size_t n = 0;
    for (size_t k = 0; k < p->dyn.size(); k++) {
        int e = p->dyn[k];
        if (!visible[e] || !(distance[e] > 0)) continue;
        double hw = aw[e] / 2, hh = ah[e] / 2;
        p->x0[n] = azimuth[e] - hw; p->x1[n] = azimuth[e] + hw; p->y0[n] = elevation[e] - hh; p->y1[n] = elevation[e] + hh;
        p->slotK[n] = (int32_t)k;
        p->dir[n] = normalize(sub(C(e), head));
        const double *b = box + 12 * e;
        V3 a0{b[3], b[4], b[5]}, a1{b[6], b[7], b[8]}, a2{b[9], b[10], b[11]};
        bool z0 = isZero(a0), z1 = isZero(a1), z2 = isZero(a2);
        p->flat[n] = (z0 + z1 + z2 == 1) && std::isfinite(distance[e]);
        if (p->flat[n]) { p->au[n] = z0 ? a1 : a0; p->av[n] = z2 ? a1 : a2; }
        n++;
    }
    const double pa = p->pa, cell = p->spacing * pa, half = std::max(p->edgeGap, p->padGap) * pa / 2;
    // Uniform grid: entries (cell, slot), counting-sorted by cell.
    p->keys.clear(); p->items.clear();
    int32_t loX = INT32_MAX, hiX = INT32_MIN, loY = INT32_MAX, hiY = INT32_MIN;
    for (size_t i = 0; i < n; i++) {
        int32_t a = cellOf(p->x0[i] - half, cell), b = cellOf(p->x1[i] + half, cell);
        int32_t c = cellOf(p->y0[i] - half, cell), d = cellOf(p->y1[i] + half, cell);
        p->cx0[i] = a; p->cy0[i] = c;
        loX = std::min(loX, a); hiX = std::max(hiX, b); loY = std::min(loY, c); hiY = std::max(hiY, d);
        for (int32_t x = a; x <= b; x++)
            for (int32_t y = c; y <= d; y++) { p->keys.push_back(((int64_t)x << 32) | (uint32_t)y); p->items.push_back((int32_t)i); }
    }
    if (p->keys.empty()) return;
    const int64_t H = (int64_t)hiY - loY + 1, W = (int64_t)hiX - loX + 1;
    auto dense = [&](int64_t key) { return ((int64_t)(int32_t)(key >> 32) - loX) * H + ((int64_t)(int32_t)key - loY); };
    p->bucket.assign((size_t)(W * H + 1), 0);
    for (int64_t key : p->keys) p->bucket[dense(key) + 1]++;
    for (int64_t c = 0; c < W * H; c++) p->bucket[c + 1] += p->bucket[c];
    p->order.resize(p->keys.size());
    for (size_t k = 0; k < p->keys.size(); k++) p->order[p->bucket[dense(p->keys[k])]++] = (int32_t)k;
    const bool haveOverlap = true;
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
                if (std::max(p->cx0[i], p->cx0[j]) != cx || std::max(p->cy0[i], p->cy0[j]) != cy) continue;
                int ka = p->slotK[i], kb = p->slotK[j], a = p->dyn[ka], b = p->dyn[kb];
                if (p->group[ka] == p->group[kb] && p->still[a] && p->still[b]) continue;
                Gap g = rectGap(p->x0[i], p->y0[i], p->x1[i], p->y1[i], p->x0[j], p->y0[j], p->x1[j], p->y1[j]);
                if (!(g.overlap / pa > p->maxOverlap || g.gap / pa < p->edgeGap || g.gap / pa < p->padGap)) continue;
                if (p->flat[i] || p->flat[j]) {
                    V3 mid = normalize(sub(add(C(a), C(b)), mul(head, 2)));
                    V3 r = cross(mid, headUp); double lr = len(r);
                    V3 right = lr > 1e-12 ? mul(r, 1 / lr) : V3{1, 0, 0}, up = cross(right, mid);
                    bool tilted = false;
                    auto quad = [&](int slot, int ent) {
                        Quad q{{(p->x0[slot] + p->x1[slot]) / 2, (p->y0[slot] + p->y1[slot]) / 2},
                               {(p->x1[slot] - p->x0[slot]) / 2, 0}, {0, (p->y1[slot] - p->y0[slot]) / 2}};
                        if (!p->flat[slot]) return q;
                        double k = 180 / M_PI / distance[ent];
                        V2 u{dot(p->au[slot], right) * k, dot(p->au[slot], up) * k}, v{dot(p->av[slot], right) * k, dot(p->av[slot], up) * k};
                        auto skew = [](V2 w) { return std::min(std::fabs(w.x), std::fabs(w.y)) > 1e-6 * std::max(std::fabs(w.x), std::fabs(w.y)); };
                        if (!(skew(u) || skew(v))) return q;
                        tilted = true;
                        return Quad{{azimuth[ent], elevation[ent]}, u, v};
                    };
                    Quad qa = quad(i, a), qb = quad(j, b);
                    if (tilted) {
                        g = quadGap(qa, qb);
                        if (!(g.overlap / pa > p->maxOverlap || g.gap / pa < p->edgeGap || g.gap / pa < p->padGap)) continue;
                    }
                }
                double cosv = std::max(-1.0, std::min(1.0, dot(p->dir[i], p->dir[j])));
                double sep = std::acos(cosv) * (180 / M_PI) / pa, gap = g.gap / pa, ov = g.overlap / pa;
                bool bothLarge = ptEq[a] >= p->largeSize && ptEq[b] >= p->largeSize && p->control[a] && p->control[b];
                bool sameDepth = std::fabs(distance[a] - distance[b]) <= p->depthWindow;
                int lo = std::min(a, b), hi = std::max(a, b);
                if (haveOverlap && ov > p->maxOverlap && sameDepth) report(p, 0, lo, hi, frame, ov, gap, false);
                if (sep < p->spacing && gap < p->edgeGap) report(p, 1, lo, hi, frame, sep, gap, true);
                if (bothLarge && gap < p->padGap) report(p, 2, lo, hi, frame, gap, sep, true);
            }
        }
        s = e;
    }
}
