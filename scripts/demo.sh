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

echo "== 1. KIR extracted by the plugin from $example"
/usr/lib/llvm-19/bin/clang++ -std=c++17 -fsyntax-only \
  -fplugin="$build/plugin/libIntentPlugin.so" -fplugin-arg-intent-dump=kir \
  -I"$root/include" "$example"
