#!/usr/bin/env bash
# test/runtime/run.sh [BUILD_DIR]: configures the runtime on its own
# (cmake -S runtime), builds it with its tests, runs every runtime test in
# every mode (CTest), and prints "N passed, M failed, K skipped". GPU runs
# are skipped on a machine without a GPU and run on one that has it.
# BUILD_DIR defaults to <repo>/build-rt; set JOBS to change the parallelism.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${1:-$repo/build-rt}
jobs=${JOBS:-2}

if [ ! -f "$build/CMakeCache.txt" ]; then
  mkdir -p "$build"
  cmake -G Ninja -S "$repo/runtime" -B "$build" >"$build/run-configure.log" 2>&1 || {
    cat "$build/run-configure.log"; echo "0 passed, 1 failed (configure)"; exit 1; }
fi
if ! cmake --build "$build" -j "$jobs" >"$build/run-build.log" 2>&1; then
  tail -40 "$build/run-build.log"
  echo "0 passed, 1 failed (build)"
  exit 1
fi

log="$build/run-tests.log"
ctest --test-dir "$build/test" -j "$jobs" --output-on-failure >"$log" 2>&1
passed=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* Passed' "$log")
failed=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*(\*\*\*Failed|\*\*\*Timeout|\*\*\*Exception|Not Run)' "$log")
skipped=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*\*\*\*Skipped' "$log")
if [ "$failed" -ne 0 ]; then
  grep -E '\*\*\*(Failed|Timeout|Exception)|Not Run' "$log"
  echo "(details: $log)"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
