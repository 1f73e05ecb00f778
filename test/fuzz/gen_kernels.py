#!/usr/bin/env python3
"""Writes random, valid Intent C++ programs for differential testing.

    gen_kernels.py --seed S --count N --out DIR [--first K] [--features F]

writes DIR/fuzz_S_K.cpp for K = first .. first+N-1. Program K depends only on
(S, K, F), so any single program can be regenerated. F = all (default) also
generates reduction groups (reducegen.py); F = basic does not, and gives the
programs of the generator before them. Each program defines one
kernel (see kernelgen.py) plus helper functions, and a main() that fills the
inputs and outputs from a fixed-seed generator, lays the views out with random
strides (padding, permuted dimensions, negative and, for inputs, zero
strides), calls the kernel once and prints one line per output buffer:
its element type, size and a 64-bit FNV-1a hash of the element bits (the
whole buffer, so a write outside the view shows). With --dump it prints every
element instead (integers exactly, floating point with %a). All values are
exact by construction (see exprgen.py), so a serial build (plain g++) and an
Intent build must print identical text. Under INTENT_CHECK_LAUNCHES=1 a
program built with the runtime also exits with status 3 unless the call
counted as exactly one launch.
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from kernelgen import KernelGen, helper, parse_features  # noqa: E402

PRELUDE = """\
#if __has_include(<intent/runtime.hpp>)
#include <intent/runtime.hpp>
#define FUZZ_HAS_RUNTIME 1
#else
#include <intent/intent.hpp>
#define FUZZ_HAS_RUNTIME 0
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
"""

SUPPORT = r"""
namespace mem {
#if FUZZ_HAS_RUNTIME
template <class T> using array = intent::array<T>;
#else
/// Host memory standing in for intent::array without the runtime.
template <class T> class array {
public:
  explicit array(const std::vector<T> &V) : Data(V) {}
  T *data() const { return Data.data(); }
  std::vector<T> to_vector() const { return Data; }

private:
  mutable std::vector<T> Data;
};
#endif
} // namespace mem

namespace support {

/// splitmix64: the same sequence on every platform.
struct Rng {
  std::uint64_t State;
  std::uint64_t next() {
    std::uint64_t Z = (State += 0x9e3779b97f4a7c15ull);
    Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
    Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
    return Z ^ (Z >> 31);
  }
  /// A uniform integer in [Lo, Hi].
  std::int64_t in(std::int64_t Lo, std::int64_t Hi) {
    return Lo + static_cast<std::int64_t>(
                    next() % static_cast<std::uint64_t>(Hi - Lo + 1));
  }
};

template <class T> std::vector<T> ints(Rng &G, std::size_t N, std::int64_t Lo,
                                       std::int64_t Hi) {
  std::vector<T> V(N);
  for (T &X : V)
    X = static_cast<T>(G.in(Lo, Hi));
  return V;
}

inline std::vector<std::uint32_t> words(Rng &G, std::size_t N) {
  std::vector<std::uint32_t> V(N);
  for (std::uint32_t &X : V)
    X = static_cast<std::uint32_t>(G.next() >> 32);
  return V;
}

/// Multiples of 1/4 in [-64, 64].
template <class T> std::vector<T> quarters(Rng &G, std::size_t N) {
  std::vector<T> V(N);
  for (T &X : V)
    X = static_cast<T>(G.in(-256, 256)) / 4;
  return V;
}

/// The bits of X; -0.0 counts as +0.0 (fmin/fmax may pick either zero).
template <class T> std::uint64_t bits(T X) {
  if (std::is_floating_point<T>::value && X == 0)
    X = 0;
  std::uint64_t B = 0;
  std::memcpy(&B, &X, sizeof(T));
  return B;
}

template <class T> void report(const char *Name, const char *Type,
                               const std::vector<T> &V, bool Dump) {
  if (Dump) {
    for (std::size_t I = 0; I < V.size(); ++I) {
      if (std::is_floating_point<T>::value)
        std::printf("%s[%zu] = %a\n", Name, I,
                    static_cast<double>(V[I] == 0 ? T(0) : V[I]));
      else if (std::is_signed<T>::value)
        std::printf("%s[%zu] = %lld\n", Name, I, static_cast<long long>(V[I]));
      else
        std::printf("%s[%zu] = %llu\n", Name, I,
                    static_cast<unsigned long long>(V[I]));
    }
    return;
  }
  std::uint64_t H = 0xcbf29ce484222325ull;
  for (const T &X : V) {
    std::uint64_t B = bits(X);
    for (std::size_t K = 0; K < sizeof(T); ++K) {
      H ^= (B >> (8 * K)) & 0xff;
      H *= 0x100000001b3ull;
    }
  }
  std::printf("%s %s[%zu] %016llx\n", Name, Type, V.size(),
              static_cast<unsigned long long>(H));
}

} // namespace support
using namespace support;
"""


def layout(rng, extents, output, fixed=False):
    """(offset, strides, buffer size) of a random injective layout (inputs may
    also broadcast a dimension with stride 0); `fixed`: contiguous, so region
    offsets stay non-decreasing."""
    if fixed:
        return 0, [1] * len(extents), max(extents[0], 1)
    rank = len(extents)
    order = list(range(rank))
    if rng.random() < 0.3:
        rng.shuffle(order)
    strides = [0] * rank
    running = 1
    for d in reversed(order):
        s = running * rng.choice([1, 1, 1, 2])
        strides[d] = s
        running = s * max(extents[d], 1) + rng.choice([0, 0, 1, 3])
    for d in range(rank):
        if not output and rng.random() < 0.08:
            strides[d] = 0
        elif rng.random() < 0.15:
            strides[d] = -strides[d]
    offset = sum(max(e - 1, 0) * -s for e, s in zip(extents, strides) if s < 0)
    offset += rng.choice([0, 0, 2, 5])
    top = offset + sum(max(e - 1, 0) * s for e, s in zip(extents, strides) if s > 0)
    return offset, strides, top + 1 + rng.choice([0, 0, 3])


def fill(p, n):
    lo, hi, _ = p.fill
    if getattr(p, "int_fill", None) is not None:  # integer-valued floats
        return f"ints<{p.ctype}>(G, {n}, {p.int_fill[0]}, {p.int_fill[1]})"
    if p.values is not None:
        return f"std::vector<{p.ctype}>{{{', '.join(map(str, p.values))}}}"
    if p.st == "u32":
        return f"words(G, {n})"
    if p.st in ("f32", "f64"):
        return f"quarters<{p.ctype}>(G, {n})"
    return f"ints<{p.ctype}>(G, {n}, {lo}, {hi})"


def parts(seed, index, features="all"):
    """Program `index` of `seed` in three parts: the header comment line, the
    `namespace fuzz { ... }` lines (helpers and the kernel) and the lines of
    the body of main() (which reads `bool Dump` and returns an int)."""
    rng = random.Random(f"intent-fuzz:{seed}:{index}")
    helpers, helper_lines = [], []
    for h in range(rng.randint(0, 2)):
        lines, sig = helper(rng, f"helper{h}")
        helper_lines += lines + [""]
        helpers.append(sig)
    kg = KernelGen(rng, "kernel", helpers, features)
    kernel = kg.generate()

    head = (f"// Generated by test/fuzz/gen_kernels.py --seed {seed} "
            f"(program {index}). Do not edit.")
    ns = ["namespace fuzz {", "using intent::index;", "using intent::parallel_for;",
          "using intent::range;", "using intent::view;", ""]
    ns += helper_lines + kernel + ["", "} // namespace fuzz"]
    body = [f"  Rng G{{{rng.randrange(2**63)}ull}};"]
    args = []
    for p in kg.outputs + kg.inputs:
        off, strides, size = layout(rng, p.extents, p.output,
                                    p.values is not None)
        const = "" if p.output else "const "
        ext = ", ".join(str(e) for e in p.extents)
        st = ", ".join(str(s) for s in strides)
        body += [f"  mem::array<{p.ctype}> A_{p.name}({fill(p, size)});",
                 f"  intent::view<{const}{p.ctype}, {p.rank}> {p.name}("
                 f"A_{p.name}.data() + {off}, {{{ext}}}, {{{st}}});"]
        args.append(p.name)
    args += [text for _, _, text in kg.scalars]
    body += ["#if FUZZ_HAS_RUNTIME",
             "  std::uint64_t Before = intent::rt::launch_count();",
             "#endif",
             f"  fuzz::kernel({', '.join(args)});",
             "#if FUZZ_HAS_RUNTIME",
             "  std::uint64_t Calls = intent::rt::launch_count() - Before;",
             "  const char *Check = std::getenv(\"INTENT_CHECK_LAUNCHES\");",
             "  if (Check && Check[0] == '1' && Calls != 1) {",
             "    std::fprintf(stderr, \"one kernel call counted as %llu launches\\n\",",
             "                 static_cast<unsigned long long>(Calls));",
             "    return 3;",
             "  }",
             "  if (Check && Check[0] == '1')",
             "    std::fprintf(stderr, \"mode %s: %llu launch, %llu programs\\n\",",
             "                 intent::rt::mode_name(intent::rt::mode()),",
             "                 static_cast<unsigned long long>(Calls),",
             "                 static_cast<unsigned long long>(intent::rt::program_count()));",
             "#endif"]
    for p in kg.outputs:
        body.append(f"  report(\"{p.name}\", \"{p.ctype}\", A_{p.name}.to_vector(), Dump);")
    body += ["  return 0;"]
    return head, ns, body


def program(seed, index, features="all"):
    """The text of program `index` of `seed`; features "basic" leaves out the
    reduction groups (the programs of the generator before them)."""
    head, ns, body = parts(seed, index, features)
    out = [head, PRELUDE] + ns + [SUPPORT]
    out += ["int main(int argc, char **argv) {",
            "  bool Dump = argc > 1 && std::strcmp(argv[1], \"--dump\") == 0;"]
    out += body + ["}", ""]
    return "\n".join(out)


def batch(seed, indices, features="all"):
    """One translation unit holding the programs `indices` of `seed`: program
    K's helpers and kernel in namespace fuzz_S_K::fuzz, its main() as
    fuzz_S_K::run(Dump). main() runs them in order, printing "== fuzz_S_K"
    before each program's output and "exit R" after it when run() returned R
    != 0; with --dump it dumps every element (as a single program does) and
    with a program name as argument it runs only that program. One plugin
    run, one nvcc and one host compile test the whole batch."""
    names = [f"fuzz_{seed}_{k}" for k in indices]
    progs = [parts(seed, k, features) for k in indices]
    out = [f"// Generated by test/fuzz/gen_kernels.py --seed {seed} --batch "
           f"(programs {', '.join(map(str, indices))}). Do not edit.", PRELUDE]
    for name, (head, ns, _) in zip(names, progs):
        out += [head, f"namespace {name} {{"] + ns + [f"}} // namespace {name}", ""]
    out.append(SUPPORT)
    for name, (_, _, body) in zip(names, progs):
        out += [f"namespace {name} {{", "int run(bool Dump) {"] + body
        out += ["}", f"}} // namespace {name}", ""]
    out += ["int main(int argc, char **argv) {",
            "  bool Dump = false;",
            "  const char *Only = nullptr;",
            "  for (int I = 1; I < argc; ++I) {",
            "    if (std::strcmp(argv[I], \"--dump\") == 0)",
            "      Dump = true;",
            "    else",
            "      Only = argv[I];",
            "  }",
            "  struct Program {",
            "    const char *Name;",
            "    int (*Run)(bool);",
            "  };",
            "  static const Program Programs[] = {"]
    out += [f"      {{\"{name}\", {name}::run}}," for name in names]
    out += ["  };",
            "  for (const Program &P : Programs) {",
            "    if (Only && std::strcmp(Only, P.Name) != 0)",
            "      continue;",
            "    std::printf(\"== %s\\n\", P.Name);",
            "    std::fflush(stdout);",
            "    int R = P.Run(Dump);",
            "    if (R != 0)",
            "      std::printf(\"exit %d\\n\", R);",
            "    std::fflush(stdout);",
            "  }",
            "  return 0;",
            "}", ""]
    return "\n".join(out)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, default=1)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--out", required=True)
    ap.add_argument("--features", default="all",
                    help="all, basic, or a comma-separated list of the "
                         "group features of kernelgen.GROUP_FEATURES "
                         "(basic: none of them)")
    ap.add_argument("--batch", type=int, default=0, metavar="B",
                    help="write the programs B at a time into one "
                         "translation unit, DIR/batch_S_K.cpp (K: its first "
                         "program), instead of one file per program")
    a = ap.parse_args(argv)
    try:
        parse_features(a.features)
    except ValueError as e:
        ap.error(str(e))
    os.makedirs(a.out, exist_ok=True)
    ks = list(range(a.first, a.first + a.count))
    if a.batch > 0:
        for i in range(0, len(ks), a.batch):
            part = ks[i:i + a.batch]
            path = os.path.join(a.out, f"batch_{a.seed}_{part[0]}.cpp")
            with open(path, "w") as f:
                f.write(batch(a.seed, part, a.features))
            print(path, " ".join(f"fuzz_{a.seed}_{k}" for k in part))
        return 0
    for k in ks:
        path = os.path.join(a.out, f"fuzz_{a.seed}_{k}.cpp")
        with open(path, "w") as f:
            f.write(program(a.seed, k, a.features))
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
