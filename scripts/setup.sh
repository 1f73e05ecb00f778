#!/usr/bin/env bash
# Installs what Intent needs on a fresh Debian machine (idempotent), then
# configures and builds it. Used by both top-level commands of the README.
# Says which step runs (apt, configure, build) and shows ninja's [n/N]
# progress: in place on a terminal, a line per 10% otherwise. The build's
# full output is in <build>/build.log (printed when the build fails).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${INTENT_BUILD_DIR:-$root/build}"
# shellcheck source=progress.sh
. "$root/scripts/progress.sh"

pkgs=(clang-19 libclang-19-dev llvm-19-dev llvm-19-tools cmake ninja-build libgtest-dev python3)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== [1/3] apt: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
fi
export PATH="/usr/local/cuda/bin:$PATH"

if [ ! -f "$build/build.ninja" ]; then
  echo "== [2/3] configure: cmake -S $root -B $build"
  mkdir -p "$build"
  if ! cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
       >"$build/configure.log" 2>&1; then
    cat "$build/configure.log"
    echo "== configure failed"
    exit 1
  fi
fi
log="$build/build.log"
echo "== [3/3] build: ninja -C $build (log: $log)"
set +e
ninja -C "$build" -j"${INTENT_JOBS:-2}" 2>&1 | tee "$log" | ninja_progress
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -ne 0 ]; then
  cat "$log"
  echo "== build failed"
  exit 1
fi
echo "== built in $build"
