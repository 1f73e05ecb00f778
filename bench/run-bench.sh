#!/usr/bin/env bash
# The GPU side of the Intent benchmark harness: copied into the bundle that
# bench/bundle.sh packs (where clang-19 and the plugin are), then run on the
# GPU machine, which needs only nvcc (CUDA 12.x/13, CUB from its CCCL), a host
# C++ compiler and, for the torch/Triton peers and the chart, python3 with
# torch, triton and matplotlib:
#
#   bash BUNDLE/run-bench.sh [--quick] [--only NAME,...] [--no-torch]
#                            [--build-only | --skip-build] [--timeout S] [--seed N]
#
# 1. builds BUNDLE/build/bench with plain nvcc lines (-O3 -arch=$BENCH_ARCH,
#    default sm_90a): the Intent runtime, every generated kernel pair (a kernel
#    the plugin did not generate, or that does not compile, is left out and
#    reported as skipped with the reason), the peers, the driver;
# 2. runs each benchmark in its own process under `timeout` (default 90 s,
#    --timeout): a variant still running then is reported as a timeout, and
#    the rows written before it stay;
# 3. runs py/torch_peers.py (torch softmax/layer_norm/argmax and a Triton
#    fused softmax) with the same timing method;
# 4. py/report.py prints the table and writes results/latest.csv and
#    results/ratios.png (and copies results and logs to $OUT when set).
#
# --quick: small sizes (seconds), to check the harness itself, e.g. first, or
# under compute-sanitizer (BENCH_WRAP="compute-sanitizer --tool memcheck").
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
src="$here/src"
build="${BENCH_BUILD:-$here/build}"
res="${BENCH_RESULTS:-$here/results}"
arch="${BENCH_ARCH:-sm_90a}"
timeout_s=90
quick=()
only=""
torch=1
build_only=0
skip_build=0
seed="${BENCH_SEED:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=(--quick) ;;
    --only) only="$2"; shift ;;
    --no-torch) torch=0 ;;
    --build-only) build_only=1 ;;
    --skip-build) skip_build=1 ;;
    --timeout) timeout_s="$2"; shift ;;
    --seed) seed="$2"; shift ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) echo "run-bench.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$seed" ] || seed=$(( $(date +%s%N) % 1000000007 ))
export PATH="/usr/local/cuda/bin:$PATH"
jobs_max="$(nproc 2>/dev/null || echo 4)"

#--- 1. build ---------------------------------------------------------------
build_all() {
command -v nvcc >/dev/null || { echo "run-bench.sh: nvcc not found" >&2; exit 2; }
mkdir -p "$build/obj" "$build/missing" "$build/logs"
rm -f "$build"/missing/*.txt "$build"/obj/*.ok
inc=(-I"$src/runtime/include" -I"$src/include")
nvcc_flags=(-std=c++17 -O3 -arch="$arch" -lineinfo)
t_build=$(date +%s)
echo "== building (nvcc $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), $arch, $jobs_max jobs)"

# job NAME CMD...: runs CMD in the background, logging to logs/NAME.log and
# leaving obj/NAME.ok on success; at most $jobs_max at a time.
job() {
  local name="$1"; shift
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
  ( "$@" >"$build/logs/$name.log" 2>&1 && touch "$build/obj/$name.ok" ) &
}

for f in "$src"/runtime/src/*.cpp; do
  n="rt_$(basename "$f" .cpp)"
  job "$n" nvcc -std=c++17 -O2 -x c++ "${inc[@]}" -c "$f" -o "$build/obj/$n.o"
done
for f in bench_util bench peers/handwritten peers/cub_peers; do
  n="drv_$(basename "$f")"
  job "$n" nvcc "${nvcc_flags[@]}" "${inc[@]}" -c "$src/bench/$f.cu" -o "$build/obj/$n.o"
done
kernels=()
for f in "$src"/bench/kernels/*.cpp; do
  k="$(basename "$f" .cpp)"
  kernels+=("$k")
  if [ -f "$src/gen/$k.failed" ] || [ ! -f "$src/gen/$k.kernels.cu" ]; then
    continue
  fi
  job "k_$k.kernels" nvcc "${nvcc_flags[@]}" "${inc[@]}" -x cu -c "$src/gen/$k.kernels.cu" \
    -o "$build/obj/k_$k.kernels.o"
  job "k_$k.intent" "${CXX:-c++}" -std=c++17 -O3 -iquote "$src/bench/kernels" "${inc[@]}" \
    -c "$src/gen/$k.intent.cpp" -o "$build/obj/k_$k.intent.o"
done
wait

objs=()
for f in "$build"/obj/rt_*.ok "$build"/obj/drv_*.ok; do
  [ -e "$f" ] || continue
  objs+=("${f%.ok}.o")
done
fail_build=0
for n in rt_Cuda rt_HostPool rt_Launch rt_Memory rt_Settings drv_bench_util drv_bench \
         drv_handwritten drv_cub_peers; do
  if [ ! -e "$build/obj/$n.ok" ] && [ -e "$build/logs/$n.log" ]; then
    echo "BUILD FAILED: $n"; sed 's/^/    | /' "$build/logs/$n.log" | head -30; fail_build=1
  fi
done
[ "$fail_build" -eq 0 ] || { echo "== the driver, peers or runtime did not build"; exit 1; }
for k in "${kernels[@]}"; do
  if [ -f "$src/gen/$k.failed" ]; then
    cp "$src/gen/$k.failed" "$build/missing/$k.txt"
  elif [ ! -f "$src/gen/$k.kernels.cu" ]; then
    echo "not in the bundle" >"$build/missing/$k.txt"
  elif [ -e "$build/obj/k_$k.kernels.ok" ] && [ -e "$build/obj/k_$k.intent.ok" ]; then
    objs+=("$build/obj/k_$k.kernels.o" "$build/obj/k_$k.intent.o")
    continue
  else
    for part in kernels intent; do
      [ -e "$build/obj/k_$k.$part.ok" ] && continue
      why=$(grep -m1 -E 'error' "$build/logs/k_$k.$part.log" || tail -1 "$build/logs/k_$k.$part.log")
      echo "generated $k.$part did not compile: $why" >"$build/missing/$k.txt"
      break
    done
  fi
  echo "SKIP intent kernel $k: $(cat "$build/missing/$k.txt")"
done
if ! nvcc -arch="$arch" "${objs[@]}" -o "$build/bench" -lpthread -ldl -lrt \
    >"$build/logs/link.log" 2>&1; then
  echo "LINK FAILED"; sed 's/^/    | /' "$build/logs/link.log" | head -30; exit 1
fi
echo "== built $build/bench in $(( $(date +%s) - t_build )) s"
}
if [ "$skip_build" -eq 0 ]; then
  build_all
elif [ ! -x "$build/bench" ]; then
  echo "run-bench.sh: --skip-build, but there is no $build/bench" >&2; exit 2
fi
[ "$build_only" -eq 0 ] || exit 0

#--- 2. the CUDA benchmarks ---------------------------------------------------
mkdir -p "$res" "$build/logs"
raw="$res/raw.csv"
log="$res/bench.log"
rm -f "$raw" "$log"
echo "workload,shape,impl,role,median_ms,min_ms,reps,bytes,check" >"$raw"
[ -f "$here/MANIFEST" ] && sed 's/^/# /' "$here/MANIFEST" | tee -a "$log"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu \
  --format=csv,noheader 2>/dev/null | sed 's/^/# gpu: /' | tee -a "$log"
echo "# seed $seed  (rerun the same inputs with --seed $seed)" | tee -a "$log"
t_run=$(date +%s)
status=0
for name in $("$build/bench" --list); do
  if [ -n "$only" ] && ! [[ ",$only," == *",$name,"* ]]; then continue; fi
  echo "== $name" | tee -a "$log"
  one="$build/logs/run_$name.log"
  # The @@ lines are markers for this script: kept in the per-benchmark log,
  # not shown.
  # shellcheck disable=SC2086
  timeout -k 10 "$timeout_s" ${BENCH_WRAP:-} "$build/bench" --only "$name" --csv "$raw" \
    --seed "$seed" --missing-dir "$build/missing" "${quick[@]}" 2>&1 |
    tee "$one" | grep --line-buffered -v '^@@' | tee -a "$log"
  rc=${PIPESTATUS[0]}
  last=$(grep -E '^@@(running|done)' "$one" | tail -1)
  if [[ "$last" == "@@running "* ]]; then
    row="${last#@@running }"
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
      why="timeout: still running after ${timeout_s} s (process killed)"
    else
      why="FAIL: the benchmark process exited with status $rc (see bench.log)"
    fi
    echo "$row,\"$why\"" >>"$raw"
    echo "   -> ${row%%,,,,*}: $why" | tee -a "$log"
  fi
  [ "$rc" -eq 0 ] || status=1
done
echo "== CUDA benchmarks took $(( $(date +%s) - t_run )) s" | tee -a "$log"

#--- 3. the torch / Triton peers ----------------------------------------------
if [ "$torch" -eq 1 ] && { [ -z "$only" ] || [[ ",$only" =~ ,(softmax|layernorm|argmax|mv2|colsum|rmsnorm|transpose|permute3|stencil|histogram|rowsum|rowcumsum|norms3) ]]; }; then
  echo "== torch / Triton peers" | tee -a "$log"
  t_py=$(date +%s)
  PYTHONUNBUFFERED=1 timeout -k 10 300 python3 "$here/py/torch_peers.py" --csv "$raw" \
    --seed "$seed" ${only:+--only "$only"} "${quick[@]}" 2>&1 | tee -a "$log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || { status=1; echo "(torch_peers.py failed)" | tee -a "$log"; }
  echo "== torch / Triton peers took $(( $(date +%s) - t_py )) s" | tee -a "$log"
fi

#--- 4. the table -----------------------------------------------------------
python3 "$here/py/report.py" "$raw" --out-dir "$res" 2>&1 | tee "$res/table.md"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
if [ -n "${OUT:-}" ] && [ -d "${OUT:-}" ]; then
  for f in raw.csv latest.csv ratios.png bench.log table.md; do
    [ -f "$res/$f" ] && cp "$res/$f" "$OUT/"
  done
  echo "(results copied to \$OUT)"
fi
exit "$status"
