#!/usr/bin/env bash
# Installs what Intent needs on a fresh Debian machine (idempotent), then
# configures and builds it. Used by both top-level commands of the README.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${INTENT_BUILD_DIR:-$root/build}"

pkgs=(clang-19 libclang-19-dev llvm-19-dev llvm-19-tools cmake ninja-build libgtest-dev python3)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
fi
export PATH="/usr/local/cuda/bin:$PATH"

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
log="$build/build.log"
if ! ninja -C "$build" -j"${INTENT_JOBS:-2}" >"$log" 2>&1; then
  cat "$log"
  echo "== build failed"
  exit 1
fi
echo "== built in $build"
