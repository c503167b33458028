// sm_atan2.h: the arctangent of the simulator's per-entity angles.
//
// Why not libm: the simulator takes ~8 arctangents per entity per frame (centre direction,
// angular extent, eccentricity, motion), and glibc's atan2 costs 20-40 ns, which alone would
// exceed the whole per-entity budget of issue 7. This version is branch-free in the common case,
// inlines into the batched loops (so that independent evaluations overlap), and gives the same
// bits on every platform (libm's last bit differs between glibc and Apple's libm, so with it the
// angles were only reproducible per platform).
//
// Accuracy: Cephes' atan reduction (Stephen L. Moshier, public domain): |t| <= tan(pi/8) after
// reducing by pi/4 or pi/2, then a (4,5) rational approximation in t^2. Against glibc's correctly
// rounded atan2 the error is at most 1 unit in the last place over 300,000 arguments
// (SpatialMathTests.atan2WithinTwoUlpOfLibm asserts <= 2), i.e. ~1e-14 degrees, far below
// anything a rule compares.
// Non-finite arguments and (0, 0) are passed to libm, so every IEEE special case is libm's.
#ifndef SPATIALCHECK_SM_ATAN2_H
#define SPATIALCHECK_SM_ATAN2_H

#include <math.h>

/// True when `sm_atan2_core` applies: finite arguments, not both zero.
static inline int sm_atan2_core_applies(double y, double x) {
    const double ax = fabs(x), ay = fabs(y);
    return ax < INFINITY && ay < INFINITY && !(ax == 0 && ay == 0);
}

/// atan2(y, x) for finite arguments, not both zero (see `sm_atan2_core_applies`). Branch-free, so
/// a loop over arrays of arguments vectorises.
static inline double sm_atan2_core(double y, double x) {
#pragma STDC FP_CONTRACT OFF
    const double ax = fabs(x), ay = fabs(y);
    // Reduce atan(ay / ax) to atan(t) with |t| <= tan(pi/8) without dividing by zero or
    // overflowing: t = -ax/ay (+pi/2), (ay-ax)/(ay+ax) (+pi/4) or ay/ax.
    const int big = ay > 2.41421356237309504880 * ax; // tan(3 pi / 8)
    const int mid = !big && ay > 0.66 * ax;
    const double num = big ? -ax : (mid ? ay - ax : ay);
    const double den = big ? ay : (mid ? ay + ax : ax);
    const double base = big ? 1.57079632679489661923 : (mid ? 0.78539816339744830962 : 0.0);
    const double more = big ? 6.123233995736765886130e-17 : (mid ? 3.061616997868382943065e-17 : 0.0);
    const double t = num / den;
    const double z = t * t;
    const double p = (((-8.750608600031904122785e-1 * z - 1.615753718733365076637e1) * z
                       - 7.500855792314704667340e1) * z - 1.228866684490136173410e2) * z
                     - 6.485021904942025371773e1;
    const double q = ((((z + 2.485846490142306297962e1) * z + 1.650270098316988542046e2) * z
                       + 4.328810604912902668951e2) * z + 4.853903996359136964868e2) * z
                     + 1.945506571482613964425e2;
    double a = base + ((t * (z * p / q) + t) + more); // atan(ay / ax) in [0, pi/2]
    a = signbit(x) ? (3.14159265358979311600 - a) + 1.2246467991473532e-16 : a; // pi - a
    return copysign(a, y);
}

/// atan2(y, x) in radians, in [-pi, pi].
static inline double sm_atan2(double y, double x) {
    return sm_atan2_core_applies(y, x) ? sm_atan2_core(y, x) : atan2(y, x);
}

#endif
