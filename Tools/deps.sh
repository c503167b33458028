#!/usr/bin/env bash
# Installs the system packages spatialcheck builds against, when they are missing:
#   Debian/Ubuntu: libassimp-dev libglm-dev pkg-config     macOS (Homebrew): assimp glm pkg-config
# Extra Debian packages can be named in SPATIALCHECK_EXTRA_APT (used by CI for test tools).
set -euo pipefail

have_assimp() { pkg-config --exists assimp 2>/dev/null; }
have_glm() {
  for d in /usr/include /usr/local/include /opt/homebrew/include; do
    [ -f "$d/glm/glm.hpp" ] && return 0
  done
  return 1
}

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
have_assimp || missing+=(libassimp-dev)
have_glm || missing+=(libglm-dev)
for p in ${SPATIALCHECK_EXTRA_APT:-}; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(uname)" = Darwin ]; then
  echo "spatialcheck: installing with Homebrew: assimp glm pkg-config" >&2
  brew install assimp glm pkg-config
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "spatialcheck: please install ${missing[*]} (assimp's C library and headers, GLM headers, pkg-config)" >&2
  exit 1
fi
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "spatialcheck: installing ${missing[*]}" >&2
$sudo apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
