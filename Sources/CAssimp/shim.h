#ifndef SPATIALCHECK_CASSIMP_SHIM_H
#define SPATIALCHECK_CASSIMP_SHIM_H
#include <assimp/cimport.h>
#include <assimp/cfileio.h>
#include <assimp/material.h>
#include <assimp/scene.h>
#include <assimp/postprocess.h>
#include <assimp/version.h>
#include <assimp/metadata.h>

#if defined(__linux__)
#include <sys/prctl.h>
#include <signal.h>
/// The import worker's parent-death signal (prctl is variadic, so Swift cannot call it directly).
static inline int spatialcheck_set_parent_death_signal(int sig) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)sig, 0UL, 0UL, 0UL);
}
#endif
#endif
