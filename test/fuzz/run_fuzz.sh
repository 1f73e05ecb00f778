#!/usr/bin/env bash
# Differential fuzzing of the Intent compiler: random programs from
# gen_kernels.py are built twice, as plain serial C++ (g++, no plugin: the
# header's reference semantics) and through intentc, and the outputs the
# program prints (a hash of every output buffer, see gen_kernels.py) must be
# identical. Every generated value is exact, so any difference is a bug.
#
# usage: test/fuzz/run_fuzz.sh [options] BUILD_DIR
#   --seed S         generator seed (default 1)
#   --count N        number of programs (default 20)
#   --first K        first program index (default 0)
#   --features F     generator feature set: all (default), basic (no
#                    reduce/scan/argmax/region groups: the older programs) or
#                    a list such as basic,reductions (see kernelgen.py)
#   --batch B        build B programs per translation unit (one plugin run,
#                    one nvcc and one host compile per batch; each program's
#                    output is still compared on its own). A program that
#                    differs, or a batch that fails to build or run, is
#                    retested alone, so a failure names one program and
#                    keeps a single-program reproducer. Default 0: one
#                    program per translation unit.
#   --gpu            also compare a run with INTENT_DEVICE=gpu
#   --serial-only    do not use intentc: check the generator instead (each
#                    program must compile without warnings under g++ and
#                    clang++, run clean under ASan/UBSan, and print the same
#                    with -O0 as with -O2 -march=native -ffp-contract=fast)
#   -j N             programs at a time (default $INTENT_JOBS or 2)
#   --check FILE     test one program FILE (e.g. a reduced case) and exit:
#                    0 same output, 1 different output, 2 intentc build
#                    failed, 3 the Intent build's run failed, 4 the program
#                    itself is invalid (serial build or run failed)
#   --no-reduce      do not reduce failing programs (see below)
#   --lit-dir DIR    where reduced failures become lit tests (default
#                    test/lit/fuzz of this checkout)
# Long runs: run_fuzz.sh --seed S --count 5000 --batch 40 BUILD_DIR (about
# 3 s of CPU a program unbatched, 0.4 s batched).
# Prints one line per program and ends with exactly "N passed, M failed".
# A failing program is kept, with its logs, outputs and a repro.sh, under
# BUILD_DIR/fuzz/failures/<name>/, then reduced automatically by
# test/fuzz/reduce.py (at most $INTENT_FUZZ_REDUCE_TESTS candidates, default
# 300) to reduced.cpp, which is saved as the lit test LIT_DIR/<name>.cpp: it
# fails (run_fuzz.sh --check) until the bug is fixed, then guards it.
# INTENT_FUZZ_FAULT=REGEX (for the self-test, test/fuzz/selftest.sh) makes
# every program whose source matches REGEX fail as if miscompiled.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
here="$root/test/fuzz"
# shellcheck source=../../scripts/progress.sh
. "$root/scripts/progress.sh"

seed=1
count=20
first=0
features=all
batch=0
gpu=0
serial_only=0
check=""
reduce=1
lit_dir=""
jobs="${INTENT_JOBS:-2}"
build=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seed) shift; seed="${1:-}" ;;
    --count) shift; count="${1:-}" ;;
    --first) shift; first="${1:-}" ;;
    --batch) shift; batch="${1:-}" ;;
    --features) shift; features="${1:-}" ;;
    --gpu) gpu=1 ;;
    --serial-only) serial_only=1 ;;
    --check) shift; check="${1:-}" ;;
    --no-reduce) reduce=0 ;;
    --lit-dir) shift; lit_dir="${1:-}" ;;
    -j) shift; jobs="${1:-}" ;;
    -j*) jobs="${1#-j}" ;;
    -h|--help) sed -n '2,46p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run_fuzz.sh: unknown option '$1'" >&2; exit 2 ;;
    *) build="$1" ;;
  esac
  shift
done
if [ -z "$build" ]; then
  echo "usage: test/fuzz/run_fuzz.sh [options] BUILD_DIR (see --help)" >&2
  exit 2
fi
mkdir -p "$build" && build="$(cd "$build" && pwd)"
intentc="$build/tools/intentc"
export PATH="/usr/local/cuda/bin:$PATH"
timeout_s="${INTENT_EXEC_TIMEOUT:-120}"
modes=(cpu)
[ "$gpu" -eq 1 ] && modes+=(gpu)

# Builds program $1 into directory $2 and compares; returns the --check codes
# above and leaves logs and outputs in $2.
check_program() {
  local src="$1" dir="$2" tu mode
  tu="$(basename "$src" .cpp)"
  mkdir -p "$dir"
  # Generated programs compile without warnings; reduced ones (--check) may
  # not, which does not make them invalid.
  local werror=(-Wall -Wextra -Werror)
  [ -n "$check" ] && werror=()
  g++ -std=c++17 -O1 "${werror[@]}" -I"$root/include" "$src" \
    -o "$dir/$tu.serial" >"$dir/serial.log" 2>&1 || return 4
  timeout "$timeout_s" "$dir/$tu.serial" >"$dir/serial.out" 2>>"$dir/serial.log" ||
    return 4
  "$intentc" -O2 --keep-dir "$dir/gen" "$src" -o "$dir/$tu.intent" \
    >"$dir/intent-build.log" 2>&1 || return 2
  for mode in "${modes[@]}"; do
    INTENT_DEVICE="$mode" INTENT_CHECK_LAUNCHES=1 timeout "$timeout_s" \
      "$dir/$tu.intent" >"$dir/$mode.out" 2>"$dir/$mode.log" || return 3
    if [ -n "${INTENT_FUZZ_FAULT:-}" ] && grep -Eq "$INTENT_FUZZ_FAULT" "$src"; then
      echo "injected fault (INTENT_FUZZ_FAULT)" >>"$dir/$mode.out"
    fi
    cmp -s "$dir/serial.out" "$dir/$mode.out" || return 1
  done
  return 0
}

# The generator check of --serial-only for program $1 in directory $2.
check_generator() {
  local src="$1" dir="$2" tu
  tu="$(basename "$src" .cpp)"
  mkdir -p "$dir"
  g++ -std=c++17 -O0 -Wall -Wextra -Werror -I"$root/include" "$src" \
    -o "$dir/$tu.O0" >"$dir/gen-check.log" 2>&1 || return 4
  clang++ -std=c++17 -O1 -g -Wall -Wextra -Werror \
    -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all \
    -I"$root/include" "$src" -o "$dir/$tu.san" >>"$dir/gen-check.log" 2>&1 || return 4
  g++ -std=c++17 -O2 -march=native -ffp-contract=fast -I"$root/include" "$src" \
    -o "$dir/$tu.fma" >>"$dir/gen-check.log" 2>&1 || return 4
  local b
  for b in O0 san fma; do
    timeout "$timeout_s" "$dir/$tu.$b" >"$dir/$b.out" 2>>"$dir/gen-check.log" || return 4
  done
  cmp -s "$dir/O0.out" "$dir/san.out" && cmp -s "$dir/O0.out" "$dir/fma.out" || return 1
  return 0
}

if [ -n "$check" ]; then
  [ -x "$intentc" ] || { echo "no driver at $intentc" >&2; exit 4; }
  d="$(mktemp -d "$build/fuzz-check.XXXXXX")"
  check_program "$(cd "$(dirname "$check")" && pwd)/$(basename "$check")" "$d"
  rc=$?
  rm -rf "$d"
  exit "$rc"
fi

work="$build/fuzz/$seed"
rm -rf "$work"
mkdir -p "$work/src" "$build/fuzz/failures"
if [ "$batch" -gt 0 ] && [ "$serial_only" -eq 0 ]; then
  # One line per batch: its source and the names of its programs.
  python3 "$here/gen_kernels.py" --seed "$seed" --count "$count" --first "$first" \
    --features "$features" --batch "$batch" --out "$work/batch" >"$work/batches" ||
    { echo "gen_kernels.py failed"; echo "0 passed, 1 failed"; exit 1; }
else
  batch=0
  python3 "$here/gen_kernels.py" --seed "$seed" --count "$count" --first "$first" \
    --features "$features" --out "$work/src" >/dev/null ||
    { echo "gen_kernels.py failed"; echo "0 passed, 1 failed"; exit 1; }
fi

problem=""
if [ "$serial_only" -eq 0 ]; then
  if [ ! -x "$intentc" ]; then
    problem="no driver at $intentc"
  elif ! [[ "$("$intentc" --print-config 2>/dev/null)" =~ \"plugin\":\ \"[^\"] ]]; then
    problem="intentc has no plugin configured in $build"
  fi
  [ -n "$problem" ] && echo "note: $problem; every program counts as failed (--serial-only checks the generator alone)"
fi

describe() {
  case "$1" in
    1) echo "outputs differ" ;;
    2) echo "intentc failed to build it" ;;
    3) echo "the Intent build failed at run time" ;;
    4) echo "invalid program (generator bug): the serial build or run failed" ;;
    *) echo "exit $1" ;;
  esac
}

# Tests program $1 (a path) and prints its result line.
run_one() {
  local src="$1" name dir rc
  name="$(basename "$src" .cpp)"
  dir="$work/$name"
  if [ -n "$problem" ]; then
    echo "FAIL $name: $problem"
    return
  fi
  if [ "$serial_only" -eq 1 ]; then
    check_generator "$src" "$dir"
  else
    check_program "$src" "$dir"
  fi
  rc=$?
  if [ "$rc" -eq 0 ]; then
    echo "PASS $name"
    rm -rf "$dir"
    return
  fi
  local keep="$build/fuzz/failures/$name"
  rm -rf "$keep"
  mkdir -p "$keep"
  cp "$src" "$keep/"
  cp -r "$dir"/*.log "$dir"/*.out "$dir/gen" "$keep/" 2>/dev/null
  if [ "$rc" -eq 1 ] && [ "$serial_only" -eq 0 ]; then
    # Which elements differ: the programs' --dump output.
    "$dir/$name.serial" --dump >"$keep/serial.dump" 2>&1
    INTENT_DEVICE=cpu "$dir/$name.intent" --dump >"$keep/cpu.dump" 2>&1
    diff "$keep/serial.dump" "$keep/cpu.dump" >"$keep/dump.diff"
  fi
  if [ "$serial_only" -eq 1 ]; then
    cat >"$keep/repro.sh" <<EOF
#!/usr/bin/env bash
# Reproduces the generator check failure of $name: $(describe "$rc").
exec "$here/run_fuzz.sh" --serial-only --seed $seed --first ${name##*_} --count 1 "$build"
EOF
    chmod +x "$keep/repro.sh"
    echo "FAIL $name: $(describe "$rc") (kept in $keep; reproduce: $keep/repro.sh)"
    tail -n 8 "$dir/gen-check.log" 2>/dev/null | sed 's/^/    | /'
    return
  fi
  cat >"$keep/repro.sh" <<EOF
#!/usr/bin/env bash
# Reproduces $name (seed $seed): $(describe "$rc").
# Regenerate: python3 $here/gen_kernels.py --seed $seed --features $features --first ${name##*_} --count 1 --out DIR
# Exit status as run_fuzz.sh --check documents; $rc when it still fails.
exec "$here/run_fuzz.sh" --check "\${1:-$keep/$name.cpp}" "$build"$([ "$gpu" -eq 1 ] && echo " --gpu")
EOF
  chmod +x "$keep/repro.sh"
  cat >"$keep/interesting.sh" <<EOF
#!/usr/bin/env bash
# For test/fuzz/reduce.py: exit 0 when candidate \$1 still fails the same way.
"$keep/repro.sh" "\$1" >/dev/null 2>&1
[ \$? -eq $rc ]
EOF
  chmod +x "$keep/interesting.sh"
  echo "FAIL $name: $(describe "$rc") (kept in $keep; reproduce: $keep/repro.sh)"
  [ "$reduce" -eq 1 ] && reduce_to_lit "$name" "$keep" "$rc"
  if [ -f "$keep/dump.diff" ]; then
    head -n 6 "$keep/dump.diff" | sed 's/^/    | /'
  fi
  for log in "$dir/intent-build.log" "$dir/serial.log" "$dir/cpu.log" \
             "$dir/gpu.log"; do
    if [ "$rc" -ne 1 ] && [ -s "$log" ]; then
      tail -n 8 "$log" | sed 's/^/    | /'
      break
    fi
  done
}

# Reduces failure $1 kept in $2 (exit code $3 of --check) and saves the
# result as a lit test LIT_DIR/$1.cpp whose RUN line is the --check.
reduce_to_lit() {
  local name="$1" keep="$2" rc="$3" dest
  dest="${lit_dir:-$root/test/lit/fuzz}"
  if ! python3 "$here/reduce.py" --test "$keep/interesting.sh" "$keep/$name.cpp" \
      -o "$keep/reduced.cpp" --max-tests "${INTENT_FUZZ_REDUCE_TESTS:-300}" \
      >"$keep/reduce.log" 2>&1 || [ ! -s "$keep/reduced.cpp" ]; then
    echo "    | reduction failed: see $keep/reduce.log"
    return
  fi
  mkdir -p "$dest"
  {
    echo "// Reduced by test/fuzz/reduce.py from $name (run_fuzz.sh --seed $seed"
    echo "// --features $features): $(describe "$rc") when found. Passes once fixed."
    echo "// REQUIRES: nvcc"
    echo "// RUN: %fuzz_check %s"
    cat "$keep/reduced.cpp"
  } >"$dest/$name.cpp"
  echo "    | reduced $(wc -l <"$keep/$name.cpp") -> $(wc -l <"$keep/reduced.cpp") lines; lit test: $dest/$name.cpp"
}

# The source of program $1 (fuzz_S_K) alone, written on demand in batch mode.
single() {
  local k="${1##*_}"
  [ -f "$work/src/$1.cpp" ] ||
    python3 "$here/gen_kernels.py" --seed "$seed" --first "$k" --count 1 \
      --features "$features" --out "$work/src" >/dev/null
  echo "$work/src/$1.cpp"
}

# The output of program $2 in the batch output $1 (the lines after "== $2").
section() {
  awk -v h="== $2" '$0 == h {p = 1; next} /^== / {p = 0} p' "$1"
}

# Tests batch $1 holding programs $2...: one serial build and one Intent
# build; a program passes when its section of every mode's output is present
# and equal to its serial section. Any other program is retested alone
# (run_one), so its result line, kept files and reproducer are a single
# program's. One that passes alone still fails when its section was there
# and differed, or when no program of the batch fails alone (nothing then
# explains why the batch failed to build or run). Prints one result line
# per program.
run_batch() {
  local src="$1" bname dir name mode ok=1 r explained=0
  shift
  bname="$(basename "$src" .cpp)"
  dir="$work/$bname"
  if [ -n "$problem" ]; then
    for name; do echo "FAIL $name: $problem"; done
    return
  fi
  mkdir -p "$dir"
  g++ -std=c++17 -O1 -Wall -Wextra -Werror -I"$root/include" "$src" \
    -o "$dir/$bname.serial" >"$dir/serial.log" 2>&1 &&
    timeout "$timeout_s" "$dir/$bname.serial" >"$dir/serial.out" 2>>"$dir/serial.log" ||
    ok=0
  if [ "$ok" -eq 1 ]; then
    "$intentc" -O2 --keep-dir "$dir/gen" "$src" -o "$dir/$bname.intent" \
      >"$dir/intent-build.log" 2>&1 || ok=0
  fi
  if [ "$ok" -eq 1 ]; then
    for mode in "${modes[@]}"; do
      INTENT_DEVICE="$mode" INTENT_CHECK_LAUNCHES=1 timeout "$timeout_s" \
        "$dir/$bname.intent" >"$dir/$mode.out" 2>"$dir/$mode.log"
    done
  fi
  # state: pass, differ (every section there, one differs) or missing.
  local -A state alone
  for name; do
    state[$name]=pass
    if [ "$ok" -eq 0 ] || ! grep -qxF "== $name" "$dir/serial.out"; then
      state[$name]=missing
      continue
    fi
    for mode in "${modes[@]}"; do
      if ! grep -qxF "== $name" "$dir/$mode.out"; then
        state[$name]=missing
      elif [ "${state[$name]}" = pass ] &&
           ! cmp -s <(section "$dir/serial.out" "$name") \
                    <(section "$dir/$mode.out" "$name"); then
        state[$name]=differ
      fi
    done
  done
  for name; do
    [ "${state[$name]}" = pass ] && continue
    alone[$name]="$(run_one "$(single "$name")")"
    [[ "${alone[$name]}" == PASS* ]] || explained=1
  done
  local keep="$build/fuzz/failures/$bname" kept=0
  for name; do
    r="${alone[$name]:-PASS $name}"
    if [ "${state[$name]}" = pass ] || [[ "$r" != PASS* ]] ||
       { [ "${state[$name]}" = missing ] && [ "$explained" -eq 1 ]; }; then
      echo "$r"
      continue
    fi
    # It fails in the batch but passes alone: keep the batch.
    if [ "$kept" -eq 0 ]; then
      kept=1
      rm -rf "$keep"
      mkdir -p "$keep"
      cp "$src" "$dir"/*.log "$dir"/*.out "$keep/" 2>/dev/null
      cp -r "$dir/gen" "$keep/" 2>/dev/null
      {
        echo "#!/usr/bin/env bash"
        echo "# Reproduces batch $bname (seed $seed), where $name fails but passes alone."
        echo "exec \"$here/run_fuzz.sh\" --check \"\${1:-$keep/$bname.cpp}\" \"$build\"$([ "$gpu" -eq 1 ] && echo " --gpu")"
      } >"$keep/repro.sh"
      chmod +x "$keep/repro.sh"
    fi
    echo "FAIL $name: fails in batch $bname but passes alone (kept in $keep; reproduce: $keep/repro.sh)"
  done
  rm -rf "$dir"
  return 0
}

results="$work/.results"
mkdir -p "$results"
if [ "$batch" -gt 0 ]; then
  mapfile -t units <"$work/batches"
else
  mapfile -t units < <(ls "$work"/src/*.cpp | sort -t_ -k3,3n)
fi
pids=()
for i in "${!units[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  if [ "$batch" -gt 0 ]; then
    # shellcheck disable=SC2086 # a line: the batch source, then its programs
    run_batch ${units[$i]} >"$results/$i" 2>&1 &
  else
    run_one "${units[$i]}" >"$results/$i" 2>&1 &
  fi
  pids[$i]=$!
done
passed=0
failed=0
for i in "${!units[@]}"; do
  wait "${pids[$i]}" 2>/dev/null
  [ -s "$results/$i" ] || echo "FAIL $(basename "${units[$i]%% *}"): no result" >"$results/$i"
  cat "$results/$i"
  passed=$((passed + $(grep -c '^PASS ' "$results/$i")))
  failed=$((failed + $(grep -c '^FAIL ' "$results/$i")))
  progress_counter "fuzz ($passed passed, $failed failed)" $((i + 1)) "${#units[@]}"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
