#include "spatialmath.h"
#include <glm/glm.hpp>
extern "C" int sm_interface_version(void) { return 1; }
