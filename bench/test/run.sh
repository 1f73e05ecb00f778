#!/usr/bin/env bash
# Host-side tests of the benchmark harness; needs no GPU. Ends with
# "N passed, M failed".
#   bench/test/run.sh [BUILD_DIR]
# 1. test_harness.py: the table merge, ratios, GB/s and % of copy, latest.csv,
#    the chart, and run-bench.sh's rows for timeouts and crashes (fake rows,
#    a fake bench program);
# 2. the Python scripts compile (torch_peers.py needs torch only on the GPU
#    machine);
# 3. every bench kernel goes through phase 1 (bench/generate.py, as the
#    bundle does): a kernel that fails to generate is a failure;
# 4. kernels_cpu: the generated kernels, called through the driver's entry
#    points, run in CPU mode and match serial references (sizes 0, 1, odd,
#    larger), one launch per call; an entry point that is not linked (its
#    kernel was not generated) is a failure.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$(cd "${1:-${INTENT_BUILD_DIR:-$root/build}}" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "PASS $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }

# 1.
out=$(python3 "$root/bench/test/test_harness.py" 2>&1)
n=$(echo "$out" | sed -n 's/^Ran \([0-9]*\) test.*/\1/p')
if echo "$out" | grep -q '^OK'; then
  sk=$(echo "$out" | sed -n 's/^OK (skipped=\([0-9]*\)).*/\1/p')
  passed=$((passed + ${n:-0} - ${sk:-0})); echo "PASS test_harness.py (${n:-0} tests, ${sk:-0} skipped)"
else
  fail "test_harness.py"; echo "$out" | tail -30
fi

# 2.
for f in torch_peers report plot generate; do
  if python3 -m py_compile "$root/bench/$f.py" 2>"$tmp/pyc.log"; then pass "py_compile $f.py"
  else fail "py_compile $f.py"; cat "$tmp/pyc.log"; fi
done

# 3.
python3 "$root/bench/generate.py" "$build/tools/intentc" "$tmp/gen" \
  "$root"/bench/kernels/*.cpp "$root/bench/test/kernels_cpu.cpp" >"$tmp/gen.log" 2>&1
srcs=()
for f in "$root"/bench/kernels/*.cpp; do
  k="$(basename "$f" .cpp)"
  if [ -f "$tmp/gen/$k.kernels.cu" ] && [ -f "$tmp/gen/$k.intent.cpp" ]; then
    pass "generate $k"; srcs+=("$f")
  else
    fail "generate $k"
    cat "$tmp/gen/$k.failed" "$tmp/gen/$k.log" 2>/dev/null | tail -10
  fi
done
[ -f "$tmp/gen/kernels_cpu.intent.cpp" ] || { fail "generate kernels_cpu"; cat "$tmp/gen.log"; }

# 4.
if "$build/tools/intentc" -O2 --from-generated "$tmp/gen" "$root/bench/test/kernels_cpu.cpp" \
    "${srcs[@]}" -o "$tmp/kernels_cpu" >"$tmp/build.log" 2>&1; then
  INTENT_DEVICE=cpu "$tmp/kernels_cpu" >"$tmp/run.log" 2>&1
  rc=$?
  grep -E '^FAIL' "$tmp/run.log"
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$tmp/run.log" | tail -1)
  if [ -n "$line" ] && [ "$rc" -ne 0 ] && [ "$(echo "$line" | cut -d' ' -f3)" -eq 0 ]; then
    fail "kernels_cpu (exit status $rc)"; tail -20 "$tmp/run.log"
  elif [ -n "$line" ]; then
    echo "kernels_cpu: $line"
    passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
    failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
  else
    fail "kernels_cpu (no result)"; tail -20 "$tmp/run.log"
  fi
else
  fail "build kernels_cpu"; tail -30 "$tmp/build.log"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
