#!/usr/bin/env bash
# Round-trip tests of the copy primitive (docs/copy.md): builds the generator
# (test/copy/roundtrip_gen.cpp + lowering/Copy, plain C++17, no LLVM), writes
# the round-trip kernels (global->shared, barrier, shared->global, for
# f32/f16/bf16/u8/i8/fp8 and more), compiles them with nvcc and runs them.
# Tests counted:
#   [generate]      the generator builds and every case selects the expected
#                   variant and width;
#   [sm_90a build]  roundtrip.cu compiles with nvcc -arch=sm_90a;
#   [sm_100a build] the 256-bit cases compile with nvcc -arch=sm_100a;
#   NAME [cpu]      each case, every CTA emulated on the host (both files);
#   NAME [gpu]      with --gpu: each case on the GPU (sm_90a cases);
#   [memcheck], [racecheck]
#                   with --sanitize: the GPU run under compute-sanitizer
#                   (implies --gpu), zero errors.
#
# usage: test/copy/run.sh [--gpu] [--sanitize] [--out DIR]
#   --out DIR   where binaries and generated files go (default
#               <repo>/build-copy/copy-rt)
# Environment: CXX (default g++, else c++), NVCC (default
# /usr/local/cuda/bin/nvcc, else nvcc on PATH), COMPUTE_SANITIZER.
# Prints PASS/FAIL lines and ends with exactly "N passed, M failed"; exits
# non-zero when a test failed or none ran.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
gpu=0
sanitize=0
out="$root/build-copy/copy-rt"
while [ $# -gt 0 ]; do
  case "$1" in
    --gpu) gpu=1 ;;
    --sanitize) sanitize=1; gpu=1 ;;
    --out) out="$2"; shift ;;
    *) echo "usage: test/copy/run.sh [--gpu] [--sanitize] [--out DIR]" >&2; exit 2 ;;
  esac
  shift
done

cxx="${CXX:-$(command -v g++ || command -v c++)}"
nvcc="${NVCC:-}"
if [ -z "$nvcc" ]; then
  if [ -x /usr/local/cuda/bin/nvcc ]; then nvcc=/usr/local/cuda/bin/nvcc; else nvcc=$(command -v nvcc); fi
fi
sanitizer="${COMPUTE_SANITIZER:-}"
if [ -z "$sanitizer" ]; then
  if [ -x /usr/local/cuda/bin/compute-sanitizer ]; then
    sanitizer=/usr/local/cuda/bin/compute-sanitizer
  else
    sanitizer=$(command -v compute-sanitizer)
  fi
fi

mkdir -p "$out"
passed=0
failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); [ -f "$2" ] && tail -30 "$2"; }

# Counts the PASS/FAIL lines a round-trip binary printed; a crash or a
# non-zero exit without a FAIL line counts as one failure.
count_run() { # label log rc
  local p f
  p=$(grep -c '^PASS ' "$2")
  f=$(grep -c '^FAIL ' "$2")
  grep -E '^(PASS|FAIL) |^  ' "$2"
  passed=$((passed + p))
  failed=$((failed + f))
  if [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; then
    fail "$1 (exit $3)" "$2"
  elif [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
    fail "$1 (no case ran)" "$2"
  fi
}

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
  exit $?
}

gen="$out/roundtrip_gen"
if "$cxx" -std=c++17 -O1 -I "$root/lowering" "$root/test/copy/roundtrip_gen.cpp" \
     "$root"/lowering/Copy/*.cpp -o "$gen" >"$out/generate.log" 2>&1 &&
   "$gen" "$out/roundtrip.cu" >>"$out/generate.log" 2>&1 &&
   "$gen" --sm100 "$out/wide.cu" >>"$out/generate.log" 2>&1; then
  pass "[generate]"
else
  fail "[generate]" "$out/generate.log"
  finish
fi

nvflags=(-std=c++17 -O2 -I "$root/test/copy" -I "$root/include" -I "$root/runtime/include")
built90=0
if "$nvcc" "${nvflags[@]}" -arch=sm_90a "$out/roundtrip.cu" -o "$out/roundtrip" >"$out/build90.log" 2>&1; then
  pass "[sm_90a build]"; built90=1
else
  fail "[sm_90a build]" "$out/build90.log"
fi
built100=0
if "$nvcc" "${nvflags[@]}" -arch=sm_100a "$out/wide.cu" -o "$out/wide" >"$out/build100.log" 2>&1; then
  pass "[sm_100a build]"; built100=1
else
  fail "[sm_100a build]" "$out/build100.log"
fi

if [ "$built90" -eq 1 ]; then
  "$out/roundtrip" cpu >"$out/cpu.log" 2>&1
  count_run "roundtrip [cpu]" "$out/cpu.log" $?
fi
if [ "$built100" -eq 1 ]; then
  "$out/wide" cpu >"$out/wide-cpu.log" 2>&1
  count_run "wide [cpu]" "$out/wide-cpu.log" $?
fi

if [ "$gpu" -eq 1 ] && [ "$built90" -eq 1 ]; then
  "$out/roundtrip" gpu >"$out/gpu.log" 2>&1
  count_run "roundtrip [gpu]" "$out/gpu.log" $?
fi

if [ "$sanitize" -eq 1 ] && [ "$built90" -eq 1 ]; then
  for tool in memcheck racecheck; do
    log="$out/$tool.log"
    "$sanitizer" --tool "$tool" --error-exitcode 99 "$out/roundtrip" gpu >"$log" 2>&1
    rc=$?
    # memcheck ends with "ERROR SUMMARY: 0 errors", racecheck with
    # "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)".
    if [ "$rc" -eq 0 ] && grep -qE 'ERROR SUMMARY: 0 errors|SUMMARY: 0 hazards displayed \(0 errors' "$log" &&
       ! grep -q '^FAIL ' "$log"; then
      pass "[$tool]"
    else
      fail "[$tool] (exit $rc)" "$log"
    fi
  done
fi

finish
