#!/usr/bin/env bash
# The host side of the Intent benchmark harness. Here, where clang-19 and the
# Intent plugin are:
#
#   bench/bundle.sh DIR
#
# builds the plugin if needed, generates the Intent kernels of bench/kernels
# through it (phase 1 only, exactly as intentc runs it: bench/generate.py) and
# packs DIR, a self-contained folder: the generated .kernels.cu/.intent.cpp
# pairs, the Intent headers and runtime sources, the driver and peers, the
# Python scripts. A kernel the plugin rejects is packed as DIR/src/gen/
# <name>.failed (its error line): the GPU side skips it and says why.
# Then, on the GPU machine (nvcc, no clang needed):
#
#   bash DIR/run-bench.sh            # or --quick first; see its --help
#
# With the device tool from the repository root: bench/bundle.sh .bench-bundle
# (ignored by git), then run `bash .bench-bundle/run-bench.sh` carrying
# .bench-bundle; results come back through $OUT.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${INTENT_BUILD_DIR:-$root/build}"
out="${1:?usage: bench/bundle.sh DIR}"

# shellcheck source=../scripts/progress.sh
. "$root/scripts/progress.sh"

echo "== [1/3] building the plugin and the runtime"
if [ -f "$build/build.ninja" ]; then
  set +e
  ninja -C "$build" -j"${INTENT_JOBS:-2}" intentc_deps 2>&1 |
    tee "$build/bundle-build.log" | ninja_progress
  rc=${PIPESTATUS[0]}
  set -e
  [ "$rc" -eq 0 ] || { cat "$build/bundle-build.log"; exit 1; }
else
  "$root/scripts/setup.sh"
fi

rm -rf "$out"
mkdir -p "$out/src/gen" "$out/src/bench/kernels" "$out/src/bench/peers" \
  "$out/src/runtime" "$out/py"
out="$(cd "$out" && pwd)"

echo "== [2/3] generating the Intent kernels (phase 1)"
python3 "$root/bench/generate.py" "$build/tools/intentc" "$out/src/gen" \
  "$root"/bench/kernels/*.cpp

echo "== [3/3] packing $out"
cp -r "$root/include" "$out/src/include"
cp -r "$root/runtime/include" "$root/runtime/src" "$out/src/runtime/"
cp "$root"/bench/bench.cu "$root"/bench/bench_util.cu "$root"/bench/bench_util.cuh \
  "$out/src/bench/"
cp "$root"/bench/peers/*.cu "$root"/bench/peers/*.cuh "$out/src/bench/peers/"
cp "$root"/bench/kernels/*.cpp "$root"/bench/kernels/*.hpp "$out/src/bench/kernels/"
cp "$root"/bench/torch_peers.py "$root"/bench/report.py "$root"/bench/plot.py "$out/py/"
cp "$root/bench/run-bench.sh" "$out/run-bench.sh"
chmod +x "$out/run-bench.sh"
{
  echo "Intent benchmark bundle"
  echo "made: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
  echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)$(
    git -C "$root" diff --quiet HEAD 2>/dev/null || echo ' (+ uncommitted changes)')"
  echo "generated: $(cd "$out/src/gen" && ls *.kernels.cu 2>/dev/null | sed 's/.kernels.cu//' | tr '\n' ' ')"
  echo "not generated: $(cd "$out/src/gen" && ls *.failed 2>/dev/null | sed 's/.failed//' | tr '\n' ' ')"
  echo "run: bash run-bench.sh [--quick] (see --help)"
} >"$out/MANIFEST"
cat "$out/MANIFEST"
echo "== bundle: $out ($(du -sh "$out" | cut -f1))"
