#!/usr/bin/env bash
# Builds every example and execution-test program through the plugin (here,
# where clang-19 is) into a self-contained folder that a GPU machine without
# clang can run: scripts/gpu-bundle.sh DIR, then on the GPU machine
# DIR/run-gpu.sh. The binaries link the CUDA runtime statically.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${INTENT_BUILD_DIR:-$root/build}"
out="${1:?usage: scripts/gpu-bundle.sh DIR}"
"$root/scripts/setup.sh"
mkdir -p "$out/bin" "$out/generated"
progs=()
# Programs as test/exec/run.sh finds them: single files, and folders whose
# main.cpp is built with the folder's other sources; a "// INTENTC-FLAGS:"
# line adds driver flags.
for src in "$root"/examples/*.cpp "$root"/test/exec/*.cpp "$root"/test/exec/*/main.cpp; do
  [ -f "$src" ] || continue
  if [ "$(basename "$src")" = main.cpp ] && [ "$(dirname "$src")" != "$root/examples" ]; then
    name="$(basename "$(dirname "$src")")"
    srcs=("$(dirname "$src")"/*.cpp)
  else
    name="$(basename "$src" .cpp)"
    srcs=("$src")
  fi
  # GPU_BUNDLE_FILTER=RE: only the programs whose name matches RE.
  if [ -n "${GPU_BUNDLE_FILTER:-}" ] && ! [[ "$name" =~ $GPU_BUNDLE_FILTER ]]; then
    continue
  fi
  read -r -a flags <<<"$(sed -n 's|^// INTENTC-FLAGS:||p' "$src" | head -1)"
  echo "[${#progs[@]}] $name"
  "$build/tools/intentc" -O2 "${flags[@]}" --keep-dir "$out/generated/$name" "${srcs[@]}" -o "$out/bin/$name"
  progs+=("$name")
done
cat >"$out/run-gpu.sh" <<'EOS'
#!/usr/bin/env bash
# Runs every bundled program on the GPU (and in CPU mode, for comparison),
# then under compute-sanitizer memcheck and racecheck. Ends with
# "N passed, M failed".
here="$(cd "$(dirname "$0")" && pwd)"
export PATH="/usr/local/cuda/bin:$PATH"
passed=0; failed=0
check() { # label, command...
  local label="$1"; shift
  if out=$("$@" 2>&1); then passed=$((passed + 1)); echo "PASS $label"
  else failed=$((failed + 1)); echo "FAIL $label"; echo "$out" | tail -15 | sed 's/^/    | /'; fi
}
nvidia-smi -L || true
for exe in "$here"/bin/*; do
  name="$(basename "$exe")"
  check "$name [gpu]" env INTENT_DEVICE=gpu "$exe"
  check "$name [cpu]" env INTENT_DEVICE=cpu "$exe"
  check "$name [memcheck]" env INTENT_DEVICE=gpu compute-sanitizer --tool memcheck --error-exitcode 1 "$exe"
  check "$name [racecheck]" env INTENT_DEVICE=gpu compute-sanitizer --tool racecheck --error-exitcode 1 "$exe"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
EOS
chmod +x "$out/run-gpu.sh"
echo "bundled ${#progs[@]} programs into $out: ${progs[*]}"
