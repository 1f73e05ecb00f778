#!/usr/bin/env bash
# Self-test of the fuzz pipeline's failure path: run_fuzz.sh with an injected
# fault (INTENT_FUZZ_FAULT: a program whose source uses atomic_max "miscompiles")
# on one generated program must report it failed, reduce it automatically and
# save a lit test that (a) is smaller than the program, (b) still uses
# atomic_max, (c) fails its RUN line (run_fuzz.sh --check) while the fault is
# there and (d) passes once it is gone, as after a fix.
# usage: test/fuzz/selftest.sh BUILD_DIR      ends with "N passed, M failed"
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="$(cd "${1:?usage: selftest.sh BUILD_DIR}" && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
pass=0; fail=0
expect() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL selftest: $1"; fi; }

# Program 10 of seed 3 (features atomics) is the first there using atomic_max.
INTENT_FUZZ_FAULT='atomic_max' INTENT_FUZZ_REDUCE_TESTS="${INTENT_FUZZ_REDUCE_TESTS:-60}" \
  "$here/run_fuzz.sh" --seed 3 --first 10 --count 1 --features atomics \
  --lit-dir "$out/lit" "$build" >"$out/run.log" 2>&1
cat "$out/run.log"
lit="$out/lit/fuzz_3_10.cpp"
orig="$build/fuzz/failures/fuzz_3_10/fuzz_3_10.cpp"
expect "the faulty program is reported" "grep -q '^0 passed, 1 failed' '$out/run.log'"
expect "a lit test is written" "[ -s '$lit' ]"
expect "it has the --check RUN line" "grep -q '^// RUN: %fuzz_check %s' '$lit'"
expect "it is smaller than the program" \
  "[ \$(wc -l <'$lit') -lt \$(wc -l <'$orig') ]"
expect "it keeps the faulty construct" "grep -q atomic_max '$lit'"
INTENT_FUZZ_FAULT='atomic_max' "$here/run_fuzz.sh" "$build" --check "$lit" >/dev/null 2>&1
expect "its RUN line fails while the fault is there" "[ $? -eq 1 ]"
"$here/run_fuzz.sh" "$build" --check "$lit" >/dev/null 2>&1
expect "its RUN line passes without the fault" "[ $? -eq 0 ]"
rm -rf "$build/fuzz/failures/fuzz_3_10"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
