#!/usr/bin/env bash
# Installs the system packages spatialcheck builds against, when they are missing:
#   Debian/Ubuntu: libassimp-dev libglm-dev pkg-config     macOS (Homebrew): assimp glm pkg-config
# and usd-core (Pixar's OpenUSD for Python, read by the USD importer's worker), pinned to a major
# version range: into python3's user site when pip allows it, else into a virtual environment at
# $SPATIALCHECK_USD_VENV (default ~/.local/share/spatialcheck/usd-venv), which spatialcheck finds
# by itself. Extra Debian packages can be named in SPATIALCHECK_EXTRA_APT (used by CI for test tools).
set -euo pipefail

usd_spec="usd-core>=25.5,<27"
usd_venv="${SPATIALCHECK_USD_VENV:-$HOME/.local/share/spatialcheck/usd-venv}"
have_usd() {
  if [ -n "${SPATIALCHECK_PYTHON:-}" ]; then "$SPATIALCHECK_PYTHON" -c 'import pxr.Usd' >/dev/null 2>&1; return; fi
  [ -x "$usd_venv/bin/python3" ] && "$usd_venv/bin/python3" -c 'import pxr.Usd' >/dev/null 2>&1 && return 0
  command -v python3 >/dev/null 2>&1 && python3 -c 'import pxr.Usd' >/dev/null 2>&1
}
install_usd() {
  have_usd && return 0
  echo "spatialcheck: installing $usd_spec (for USD import)" >&2
  if python3 -m pip install --quiet --user "$usd_spec" >&2 2>/dev/null && have_usd; then return 0; fi
  if python3 -m pip install --quiet "$usd_spec" >&2 2>/dev/null && have_usd; then return 0; fi
  # pip refused (PEP 668 "externally managed" on Debian and Homebrew): a virtual environment.
  if ! python3 -m venv "$usd_venv" >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1; then
      s=""; [ "$(id -u)" -ne 0 ] && s="sudo"
      $s apt-get update -qq >&2
      DEBIAN_FRONTEND=noninteractive $s apt-get install -y -qq --no-install-recommends python3-venv >&2
    fi
    python3 -m venv "$usd_venv" >&2
  fi
  "$usd_venv/bin/python3" -m pip install --quiet "$usd_spec" >&2
  have_usd || { echo "spatialcheck: could not install usd-core; USD import needs it: pip install usd-core" >&2; return 1; }
}

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
# USD import runs Python 3 (usd-core); on Debian it comes from apt like the rest.
if ! command -v python3 >/dev/null 2>&1 && [ "$(uname)" != Darwin ]; then missing+=(python3 python3-venv python3-pip); fi
for p in ${SPATIALCHECK_EXTRA_APT:-}; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  if command -v python3 >/dev/null 2>&1; then install_usd; else echo "spatialcheck: python3 is missing; USD import needs Python 3 and usd-core (pip install usd-core)" >&2; fi
  exit 0
fi

if [ "$(uname)" = Darwin ]; then
  echo "spatialcheck: installing with Homebrew: assimp glm pkg-config" >&2
  brew install assimp glm pkg-config
  command -v python3 >/dev/null 2>&1 || brew install python
  install_usd
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
if command -v python3 >/dev/null 2>&1; then install_usd; else echo "spatialcheck: python3 is missing; USD import needs Python 3 and usd-core (pip install usd-core)" >&2; fi
