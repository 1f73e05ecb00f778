#!/usr/bin/env bash
# Builds the Intent compiler (lowering library, plugin, intent-opt, unit tests)
# with AddressSanitizer and UndefinedBehaviorSanitizer in its own build folder
# and runs the whole test suite (scripts/test.sh) on it. The plugin runs in
# the ordinary clang++ with the ASan runtime preloaded (tools/clang++-san in
# the build folder); the runtime library and the test programs are not
# instrumented. Every sanitizer report is also written to
# BUILD/sanitizer-logs/; the script ends with the suite's result line and
# "sanitizer reports: N", and fails if either shows a problem.
#
# usage: scripts/sanitize.sh [BUILD_DIR]     (default: build-san)
#   INTENT_JOBS=N         parallel jobs (default 2)
#   INTENT_FUZZ_COUNT=N   fuzz programs of the suite (default 300)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build-san}"
mkdir -p "$build"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1" \
  -DINTENT_SANITIZE=ON "${launcher[@]}" >"$build/configure.log" 2>&1 ||
  { cat "$build/configure.log"; exit 1; }
ninja -C "$build" -j"${INTENT_JOBS:-2}" || exit 1

logs="$build/sanitizer-logs"
rm -rf "$logs"
mkdir -p "$logs"
# The instrumented executables (intent-opt, unit tests) report here too.
# allow_user_poisoning=0: see cmake/IntentSanitize.cmake (LLVM's inline allocators).
export ASAN_OPTIONS="log_path=$logs/exe:allow_user_poisoning=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$logs/exe"
INTENT_BUILD_DIR="$build" "$root/scripts/test.sh"
rc=$?
reports=$(find "$logs" -type f | wc -l)
for f in $(find "$logs" -type f | head -5); do
  echo "== $f"; head -40 "$f"
done
echo "sanitizer reports: $reports (in $logs)"
[ "$rc" -eq 0 ] && [ "$reports" -eq 0 ]
