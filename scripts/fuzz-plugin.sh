#!/usr/bin/env bash
# libFuzzer on the plugin's front end: builds tools/intent-fuzz (the plugin's
# attribute and action linked with libclang-cpp, instrumented with
# -fsanitize=fuzzer-no-link,address,undefined) with clang++-19 in its own
# build folder, and runs it on mutated kernel sources. Every input must end
# with diagnostics or success; a crash, assertion, sanitizer report or hang
# (over 30 s) stops the run and leaves the input in BUILD/crashes/.
#
# usage: scripts/fuzz-plugin.sh [options] [-- libFuzzer options]
#   --time S       fuzz for S seconds (default 60)
#   --runs N       stop after N inputs instead (deterministic with --seed)
#   --seeds-only   run every seed input once and stop (a regression check)
#   --replay F...  run the given inputs once each (e.g. a crash file)
#   --build DIR    build folder (default build-fuzz)
#   -j N           parallel fuzzing processes (default 1)
# The seed corpus: examples/*.cpp, the lit tests' C++ sources (diagnostics
# tests included) and 20 generated programs (test/fuzz/gen_kernels.py); the
# growing corpus is kept in BUILD/corpus. Dictionary:
# test/fuzz/libfuzzer/intent.dict.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$root/build-fuzz"
time_s=60; runs=""; mode=fuzz; jobs=1; replay=(); extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --time) shift; time_s="$1" ;;
    --runs) shift; runs="$1" ;;
    --seeds-only) mode=seeds ;;
    --replay) mode=replay ;;
    --build) shift; build="$1" ;;
    -j) shift; jobs="$1" ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) if [ "$mode" = replay ]; then replay+=("$1"); else
         echo "fuzz-plugin.sh: unknown argument '$1'" >&2; exit 2; fi ;;
  esac
  shift
done
mkdir -p "$build"
build="$(cd "$build" && pwd)"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g1" \
    -DCMAKE_CXX_COMPILER=/usr/lib/llvm-19/bin/clang++ -DINTENT_LIBFUZZER=ON \
    "${launcher[@]}" >"$build/configure.log" 2>&1 ||
    { cat "$build/configure.log"; exit 1; }
fi
ninja -C "$build" -j"${INTENT_JOBS:-2}" intent-fuzz || exit 1
fuzzer="$build/tools/intent-fuzz/intent-fuzz"

seeds="$build/seeds"
rm -rf "$seeds"
mkdir -p "$seeds" "$build/corpus" "$build/crashes"
cp "$root"/examples/*.cpp "$seeds/"
find "$root/test/lit" -name '*.cpp' | while read -r f; do
  cp "$f" "$seeds/lit_$(basename "$(dirname "$f")")_$(basename "$f")"
done
python3 "$root/test/fuzz/gen_kernels.py" --seed 1000 --count 20 --out "$seeds" >/dev/null

# allow_user_poisoning=0: LLVM's header-inline allocators poison memory when
# compiled with ASan, which uninstrumented libclang-cpp then writes legally.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:allow_user_poisoning=0"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1:halt_on_error=1"
common=(-timeout=30 -rss_limit_mb=4096 -max_len=65536
        -dict="$root/test/fuzz/libfuzzer/intent.dict"
        -artifact_prefix="$build/crashes/")
case "$mode" in
  seeds)
    # libFuzzer runs each given file once (no mutation) and stops.
    "$fuzzer" "${common[@]}" "${extra[@]}" "$seeds"/* ;;
  replay)
    "$fuzzer" "${common[@]}" "${extra[@]}" "${replay[@]}" ;;
  fuzz)
    limit=(-max_total_time="$time_s")
    [ -n "$runs" ] && limit=(-runs="$runs")
    par=()
    [ "$jobs" -gt 1 ] && par=(-jobs="$jobs" -workers="$jobs")
    "$fuzzer" "${common[@]}" "${limit[@]}" "${par[@]}" "${extra[@]}" \
      "$build/corpus" "$seeds" ;;
esac
rc=$?
echo "intent-fuzz: exit $rc; crash inputs (if any) in $build/crashes/"
exit "$rc"
