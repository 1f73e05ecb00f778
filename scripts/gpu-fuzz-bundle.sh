#!/usr/bin/env bash
# Differential fuzzing on a GPU machine without clang: builds a fixed-seed
# set of random programs (test/fuzz/gen_kernels.py, B per translation unit)
# HERE through phase 1 (clang + the plugin) and as plain serial C++, and
# writes a bundle folder with the generated .kernels.cu/.intent.cpp files,
# the headers, the runtime library, each batch's serial output and
# run-gpu.sh. On the GPU machine, DIR/run-gpu.sh compiles every batch with
# nvcc -arch=sm_90a and the host compiler, runs it with INTENT_DEVICE=gpu and
# compares each program's output with the serial one. It prints one line per
# program and ends with "N passed, M failed".
#
# usage: scripts/gpu-fuzz-bundle.sh [--seed S] [--count N] [--batch B]
#                                   [--features F] DIR
#   defaults: seed 1, 300 programs, batches of 30, features all
# A failing program K is regenerated here with
#   python3 test/fuzz/gen_kernels.py --seed S --first K --count 1 --out D
# and retested alone with test/fuzz/run_fuzz.sh --check D/fuzz_S_K.cpp --gpu.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${INTENT_BUILD_DIR:-$root/build}"
seed=1; count=300; batch=30; features=all; out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seed) shift; seed="$1" ;;
    --count) shift; count="$1" ;;
    --batch) shift; batch="$1" ;;
    --features) shift; features="$1" ;;
    -h|--help) sed -n '2,19p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "gpu-fuzz-bundle.sh: unknown option '$1'" >&2; exit 2 ;;
    *) out="$1" ;;
  esac
  shift
done
[ -n "$out" ] || { echo "usage: scripts/gpu-fuzz-bundle.sh [options] DIR" >&2; exit 2; }
"$root/scripts/setup.sh"
clangxx="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["clangxx"])' "$build/tools/intentc.json")"
plugin="$build/plugin/libIntentPlugin.so"
[ -f "$plugin" ] || { echo "no plugin at $plugin (build first)" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/src" "$out/gen" "$out/expected" "$out/lib"
out="$(cd "$out" && pwd)"
cp -r "$root/include" "$out/include"
cp -r "$root/runtime/include" "$out/runtime-include"
cp "$build/runtime/libintent_runtime.a" "$out/lib/"
python3 "$root/test/fuzz/gen_kernels.py" --seed "$seed" --count "$count" \
  --batch "$batch" --features "$features" --out "$out/src" >"$out/batches.txt"
sed -i "s|^$out/src/||" "$out/batches.txt"

# Phase 1 and the serial reference, two batches at a time.
build_one() {
  local name="$1"
  "$clangxx" -std=c++17 -fsyntax-only -fplugin="$plugin" \
    -fplugin-arg-intent-out="$out/gen/$name" -I"$root/runtime/include" \
    -I"$root/include" "$out/src/$name.cpp" &&
  g++ -std=c++17 -O1 -I"$root/include" "$out/src/$name.cpp" -o "$out/$name.serial" &&
  "$out/$name.serial" >"$out/expected/$name.out" &&
  rm -f "$out/$name.serial"
}
pids=()
while read -r file _; do
  while [ "$(jobs -rp | wc -l)" -ge "${INTENT_JOBS:-2}" ]; do wait -n; done
  build_one "${file%.cpp}" &
  pids+=($!)
done <"$out/batches.txt"
for p in "${pids[@]}"; do wait "$p" || { echo "building the bundle failed" >&2; exit 1; }; done

cat >"$out/run-gpu.sh" <<EOS
#!/usr/bin/env bash
# Compiles and runs the fuzz bundle (seed $seed, $count programs, batches of
# $batch, features $features) on the GPU; ends with "N passed, M failed".
#   --cpu        also compare a run with INTENT_DEVICE=cpu
#   --cpu-only   only CPU mode (checks the bundle on a machine without a GPU)
#   -j N    batches compiled at a time (default: the number of cores)
EOS
cat >>"$out/run-gpu.sh" <<'EOS'
here="$(cd "$(dirname "$0")" && pwd)"
export PATH="/usr/local/cuda/bin:$PATH"
modes=(gpu); jobs="$(nproc)"
while [ $# -gt 0 ]; do
  case "$1" in --cpu) modes+=(cpu) ;; --cpu-only) modes=(cpu) ;; -j) shift; jobs="$1" ;; esac; shift
done
cuda_lib="$(dirname "$(command -v nvcc)")/../lib64"
[ -f "$cuda_lib/libcudart_static.a" ] || cuda_lib="$(dirname "$(command -v nvcc)")/../lib"
nvidia-smi -L || true
work="$here/work"; mkdir -p "$work"
compile() { # batch name
  local n="$1" g="$here/gen/$1"
  nvcc -std=c++17 -arch=sm_90a -lineinfo -O2 -I"$here/runtime-include" -I"$here/include" \
    -x cu -c "$g/$n.kernels.cu" -o "$work/$n.kernels.o" &&
  c++ -std=c++17 -O2 -I"$here/runtime-include" -I"$here/include" \
    -c "$g/$n.intent.cpp" -o "$work/$n.intent.o" &&
  c++ -O2 "$work/$n.intent.o" "$work/$n.kernels.o" "$here/lib/libintent_runtime.a" \
    "$cuda_lib/libcudart_static.a" -ldl -lrt -lpthread -o "$work/$n"
}
while read -r file _; do
  n="${file%.cpp}"
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  compile "$n" >"$work/$n.build.log" 2>&1 &
done <"$here/batches.txt"
wait
section() { awk -v h="== $2" '$0 == h {p = 1; next} /^== / {p = 0} p' "$1"; }
passed=0; failed=0
while read -r file names; do
  n="${file%.cpp}"
  for mode in "${modes[@]}"; do
    if [ -x "$work/$n" ]; then
      INTENT_DEVICE=$mode INTENT_CHECK_LAUNCHES=1 timeout 300 "$work/$n" \
        >"$work/$n.$mode.out" 2>"$work/$n.$mode.log"
    else
      : >"$work/$n.$mode.out"
    fi
  done
  for p in $names; do
    why=""
    [ -x "$work/$n" ] || why="batch $n did not build (see work/$n.build.log)"
    for mode in "${modes[@]}"; do
      [ -n "$why" ] && break
      if ! grep -qxF "== $p" "$work/$n.$mode.out"; then
        why="no output in $mode mode (batch stopped; see work/$n.$mode.log)"
      elif ! cmp -s <(section "$here/expected/$n.out" "$p") <(section "$work/$n.$mode.out" "$p"); then
        why="$mode output differs from the serial one"
      fi
    done
    if [ -z "$why" ]; then passed=$((passed + 1)); echo "PASS $p"
    else failed=$((failed + 1)); echo "FAIL $p: $why"; fi
  done
done <"$here/batches.txt"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
EOS
chmod +x "$out/run-gpu.sh"
echo "bundled $count fuzz programs (seed $seed, $(wc -l <"$out/batches.txt") batches) into $out; run $out/run-gpu.sh on the GPU machine"
