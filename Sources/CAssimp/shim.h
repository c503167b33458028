#ifndef SPATIALCHECK_CASSIMP_SHIM_H
#define SPATIALCHECK_CASSIMP_SHIM_H
#include <assimp/cimport.h>
#include <assimp/scene.h>
#include <assimp/postprocess.h>
#include <assimp/version.h>
#include <assimp/metadata.h>
#endif
