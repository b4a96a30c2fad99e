#!/usr/bin/env bash
# Installs softmaxlab's build and test dependencies from Debian 12 packages.
# The CUDA toolkit (nvcc, CUPTI) is not a Debian package: with it (at /usr/local/cuda or on PATH)
# the build runs kernels; without it the app is built for replaying recorded sessions only.
set -euo pipefail
PACKAGES=(
  build-essential cmake ninja-build pkg-config git
  nlohmann-json3-dev libcli11-dev libgtest-dev libcairo2-dev          # core + CLI + tests
  libimgui-dev libglfw3-dev libstb-dev libmd4c-dev                    # viewer
  fonts-dejavu-core fonts-noto-cjk                                    # viewer fonts (en, zh)
  xvfb xauth                                                          # headless viewer tests
  python3                                                             # checks of bench/ scripts
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "error: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    SUDO="sudo"
  fi
  echo "installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "note: no CUDA toolkit found (nvcc is not on PATH or in /usr/local/cuda/bin): building" \
       "the replay-only app, which shows the lessons, charts and the recorded H100 session but" \
       "cannot run kernels. For GPU runs install the CUDA toolkit 12.6 or newer from NVIDIA's" \
       "Debian repository, delete build/ and re-run." >&2
fi
