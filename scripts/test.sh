#!/usr/bin/env bash
# Runs every Intent test suite (lit, unit, execution) and ends with one line
# "N passed, M failed" over all of them. Exits non-zero on any failure.
# Each suite is announced ("== [k/8] name"); while one runs, a progress line
# (in place on a terminal, a line a minute otherwise) shows its time and the
# tests done so far.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${INTENT_BUILD_DIR:-$root/build}"
# shellcheck source=progress.sh
. "$root/scripts/progress.sh"
"$root/scripts/setup.sh" || { echo "0 passed, 1 failed"; exit 1; }
export PATH="/usr/local/cuda/bin:$PATH"

passed=0
failed=0
logdir="$build/test-logs"
mkdir -p "$logdir"

# lit: FileCheck and -verify tests.
echo "== [1/8] lit"
progress_watch lit "$logdir/lit.log" & watcher=$!
python3 /usr/lib/llvm-19/build/utils/lit/lit.py -s -j"${INTENT_JOBS:-2}" "$build/test/lit" \
  >"$logdir/lit.log" 2>&1
progress_stop "$watcher"
cat "$logdir/lit.log"
p=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$logdir/lit.log" | head -1)
f=$(grep -E '^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *:' "$logdir/lit.log" |
    awk -F: '{s += $2} END {if (NR) print s}')
passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
if [ -z "$p" ] && [ -z "$f" ]; then failed=$((failed + 1)); echo "lit ran nothing"; fi

# GoogleTest unit tests.
for t in "$build"/test/intent_*_tests; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  echo "== [2/8] unit: $name"
  # From the build directory: with CCACHE_BASEDIR, __FILE__ (which the
  # tests use to find test/lit inputs) is relative to it.
  (cd "$build" && "$t" --gtest_brief=1) >"$logdir/$name.log" 2>&1
  tail -n 3 "$logdir/$name.log"
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$logdir/$name.log")
  f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$logdir/$name.log")
  if [ -z "$p" ] && [ -z "$f" ]; then f=1; cat "$logdir/$name.log"; fi
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
done

# CTest: the runtime's tests (hand-written "as if generated" kernels in every
# execution mode, launch helper, device helpers, driver, CMake package). GPU
# runs are skipped without a GPU.
echo "== [3/8] ctest (runtime)"
progress_watch ctest "$logdir/ctest.log" 'Test +#[0-9]+:' & watcher=$!
ctest --test-dir "$build" -j"${INTENT_JOBS:-2}" --output-on-failure >"$logdir/ctest.log" 2>&1
progress_stop "$watcher"
p=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* Passed' "$logdir/ctest.log")
f=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*(\*\*\*Failed|\*\*\*Timeout|\*\*\*Exception|Not Run)' "$logdir/ctest.log")
sk=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*\*\*\*Skipped' "$logdir/ctest.log")
grep -E 'tests passed|\*\*\*(Failed|Timeout|Exception)' "$logdir/ctest.log"
echo "ctest: $p passed, $f failed, $sk skipped (GPU runs need a GPU)"
if [ "$p" -eq 0 ]; then f=$((f + 1)); fi
passed=$((passed + p)); failed=$((failed + f))

# The copy primitive's round trips (global -> shared -> global), CPU mode.
echo "== [4/8] copy round trips"
progress_watch copy "$logdir/copy.log" & watcher=$!
"$root/test/copy/run.sh" >"$logdir/copy.log" 2>&1
progress_stop "$watcher"
grep -E '^FAIL' "$logdir/copy.log"
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logdir/copy.log" | tail -1)
echo "copy: ${line:-no result}"
if [ -n "$line" ]; then
  passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
  failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
else
  failed=$((failed + 1)); tail -20 "$logdir/copy.log"
fi

# Execution tests: every example and test program, compiled through the
# plugin, run in CPU mode and compared with the serial reference.
if [ -x "$root/test/exec/run.sh" ]; then
  echo "== [5/8] execution tests"
  "$root/test/exec/run.sh" "$build" 2>&1 | tee "$logdir/exec.log"
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logdir/exec.log" | tail -1)
  if [ -n "$line" ]; then
    passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
    failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
  else
    failed=$((failed + 1))
  fi
fi

# Differential fuzzing: a fixed-seed batch of random kernels, each built as
# plain serial C++ and through the plugin (CPU mode); outputs must be equal.
# Features "all" (the default): every group feature, the effects (atomics,
# histogram, rng, buffers, matmul) included.
# test/fuzz/run_fuzz.sh --seed S --count N runs longer batches.
echo "== [6/8] fuzz (fixed seed)"
progress_watch fuzz "$logdir/fuzz.log" & watcher=$!
# A failure is reduced automatically (here with at most 100 candidates) and
# saved as a lit test under test/lit/fuzz/.
INTENT_FUZZ_REDUCE_TESTS="${INTENT_FUZZ_REDUCE_TESTS:-100}" \
"$root/test/fuzz/run_fuzz.sh" --seed 1 --count "${INTENT_FUZZ_COUNT:-300}" --batch 30 \
  --features all "$build" \
  >"$logdir/fuzz.log" 2>&1
progress_stop "$watcher"
grep -E '^FAIL' -A12 "$logdir/fuzz.log"
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logdir/fuzz.log" | tail -1)
echo "fuzz: ${line:-no result}"
if [ -n "$line" ]; then
  passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
  failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
else
  failed=$((failed + 1)); tail -20 "$logdir/fuzz.log"
fi

# The fuzz pipeline's failure path (injected fault -> report -> automatic
# reduction -> lit test that fails, then passes without the fault).
echo "== [7/8] fuzz self-test"
"$root/test/fuzz/selftest.sh" "$build" >"$logdir/fuzz-selftest.log" 2>&1
grep -E '^FAIL selftest' "$logdir/fuzz-selftest.log"
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logdir/fuzz-selftest.log" | tail -1)
echo "fuzz self-test: ${line:-no result}"
if [ -n "$line" ]; then
  passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
  failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
else
  failed=$((failed + 1)); tail -20 "$logdir/fuzz-selftest.log"
fi

# The benchmark harness, host side: table merge, run script, the bench
# kernels generated and checked in CPU mode (the GPU run is bench/README.md).
echo "== [8/8] bench harness (host side)"
progress_watch bench "$logdir/bench.log" & watcher=$!
"$root/bench/test/run.sh" "$build" >"$logdir/bench.log" 2>&1
progress_stop "$watcher"
grep -E '^FAIL' -A12 "$logdir/bench.log"
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logdir/bench.log" | tail -1)
echo "bench: ${line:-no result}"
if [ -n "$line" ]; then
  passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
  failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
else
  failed=$((failed + 1)); tail -20 "$logdir/bench.log"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
