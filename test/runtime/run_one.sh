#!/usr/bin/env bash
# run_one.sh EXE [VAR=value]...: runs one test program in a clean Intent
# environment plus the given variables. Exits 77 (CTest: skipped) when the
# program asked for the GPU and the machine has none.
exe=$1
shift
unset INTENT_DEVICE INTENT_CPU_THREADS INTENT_CPU_GRAIN INTENT_MAX_GRID \
  INTENT_LAUNCH_BLOCKING
out=$(env "$@" "$exe" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ $rc -ne 0 ] &&
  grep -q "INTENT_DEVICE=gpu but no CUDA device is usable" <<<"$out"; then
  echo "SKIP: no usable CUDA device"
  exit 77
fi
exit $rc
