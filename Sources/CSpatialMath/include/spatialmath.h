#ifndef SPATIALCHECK_SPATIALMATH_H
#define SPATIALCHECK_SPATIALMATH_H
#ifdef __cplusplus
extern "C" {
#endif
/// Version marker of the C interface (stub until the math core lands).
int sm_interface_version(void);
#ifdef __cplusplus
}
#endif
#endif
