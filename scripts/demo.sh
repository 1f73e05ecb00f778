#!/usr/bin/env bash
# The main job: set up and build Intent, compile an example through the
# plugin, show what was generated, and run it (on the GPU if one is present,
# else on the CPU).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${INTENT_BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"
export PATH="/usr/local/cuda/bin:$PATH"
example="${1:-$root/examples/saxpy.cpp}"
name="$(basename "$example" .cpp)"
out="$build/demo/$name"
mkdir -p "$out"

intentc="$build/tools/intentc"
plugin="$build/plugin/libIntentPlugin.so"
flags=(-std=c++17 -fsyntax-only -I"$root/include" -I"$root/runtime/include")

echo "== 1. KIR the plugin extracted from $(basename "$example")"
/usr/lib/llvm-19/bin/clang++ "${flags[@]}" -fplugin="$plugin" \
  -fplugin-arg-intent-dump=kir "$example"

echo
echo "== 2. The physical program it built (and what construction decided)"
/usr/lib/llvm-19/bin/clang++ "${flags[@]}" -fplugin="$plugin" \
  -fplugin-arg-intent-dump=phys -fplugin-arg-intent-remarks "$example" 2>&1 |
  grep -v '^ *[0-9]* |' | grep -v '^ *|'

echo
echo "== 3. Compile: intentc $(basename "$example") -o $out/$name"
"$intentc" -O2 -v --keep-dir "$out/generated" "$example" -o "$out/$name"

echo
echo "== 4. Generated CUDA ($out/generated/$name.kernels.cu), the program function:"
sed -n '/_program(int64_t pid/,/^}/p' "$out/generated/$name.kernels.cu"
echo "   ... and the kernel's dispatch prologue ($out/generated/$name.intent.cpp):"
grep -n 'intent::rt::mode() != ' "$out/generated/$name.intent.cpp" | sed 's/^/   /'

echo
mode="${INTENT_DEVICE:-}"
if [ -z "$mode" ]; then
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then mode=gpu; else mode=cpu; fi
fi
echo "== 5. Run (INTENT_DEVICE=$mode; the reference serial body runs with INTENT_DEVICE=reference)"
INTENT_DEVICE="$mode" "$out/$name"
