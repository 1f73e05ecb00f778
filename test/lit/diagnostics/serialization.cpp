// Lost parallelism is never silent (issue 15, item 3): a parallel_for whose
// group construction serializes into one instance, or a nested parallel_for
// kept as an ordered loop, is a warning at the user's line naming the cause
// and the fix, in its own group -Wintent-serialization: -Wno-... silences
// it, -Werror and -Werror=intent-serialization make it an error. Clang does
// not know the group, so the plugin also takes it as a plugin argument
// (what intentc passes).
// RUN: %intent_syntax -Xclang -verify %s
// RUN: %intent_syntax -Xclang -verify=off %s -fplugin-arg-intent-Wno-intent-serialization
// RUN: %intent_syntax -Xclang -verify=off %s -Wno-unknown-warning-option -Wno-intent-serialization
// RUN: %intent_syntax -Xclang -verify=off %s -w
// RUN: not %intent_syntax %s -Werror 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: not %intent_syntax %s -fplugin-arg-intent-Werror=intent-serialization 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: %intent_syntax %s -Werror -fplugin-arg-intent-Wno-error=intent-serialization 2>&1 | FileCheck %s --check-prefix=WARN
// off-no-diagnostics
// ERR: error: `in` is not const, so the read of in(i - 1, j) may conflict with the write of out(i, j) {{.*}}: declare it `view<const float, 2>` [-Werror,-Wintent-serialization]
// ERR-NOT: warning:
// WARN: warning: `in` is not const, so the read of in(i - 1, j) {{.*}} [-Wintent-serialization]
// WARN-NOT: error:

#include <intent/intent.hpp>
using namespace intent;

// A stencil whose input is not const: `in` may be `out`.
[[intent::kernel]] void blur(view<float, 2> out, view<float, 2> in) {
  parallel_for(out.extent(0), out.extent(1), [&](index i, index j) {
    // expected-warning@+1 {{`in` is not const, so the read of in(i - 1, j) may conflict with the write of out(i, j) by another instance (the two views may be one) and the parallel_for at 26:3 runs in a single instance: declare it `view<const float, 2>` [-Wintent-serialization]}}
    out(i, j) = in(i - 1, j) + in(i, j);
  });
}

// The same with a const input: parallel, no warning.
[[intent::kernel]] void blur_const(view<float, 2> out, view<const float, 2> in) {
  parallel_for(out.extent(0), out.extent(1), [&](index i, index j) {
    out(i, j) = in(i - 1, j) + in(i, j);
  });
}

// Two phases over one domain spelled differently: fused, no warning.
[[intent::kernel]] void phases(view<float, 1> tmp, view<float, 1> out,
                               view<const float, 1> x) {
  parallel_for(x.extent(0), [&](index i) { tmp[i] = 2 * x[i]; });
  // (each phase runs where the index is inside its own extent)
  parallel_for(out.extent(0), [&](index j) { out[j] = tmp[j]; });
}

// A reduce over what a parallel_for wrote: one instance, run by a
// cooperative grid (the dependent phases' grid form): no warning.
[[intent::kernel]] void sum_after(view<float, 1> tmp, view<float, 1> out,
                                  view<const float, 1> x) {
  parallel_for(x.extent(0), [&](index i) { tmp[i] = x[i] * x[i]; });
  out[0] = reduce(tmp.extent(0), 0.0f, ops::plus{},
                  [&](index i) { return tmp[i]; });
}

// A nested parallel_for that stays an ordered loop.
[[intent::kernel]] void scaled_rows(view<float, 2> out, view<float, 1> first,
                                    view<const float, 2> in) {
  parallel_for(in.extent(0), [&](index i) {
    first[i] = in(i, 0);
    // expected-warning@+1 {{the nested parallel_for at 62:5 runs as an ordered loop inside each instance of the parallel_for at 59:3: the enclosing body has effects outside it}}
    parallel_for(in.extent(1), [&](index j) { out(i, j) = in(i, j) * first[i]; });
  });
}

// Every instance writes one element.
[[intent::kernel]] void last(view<float, 1> out, view<const float, 1> x) {
  parallel_for(x.extent(0), [&](index i) {
    // expected-warning@+1 {{the write of out(0) is not provably a different element in every instance, so the parallel_for at 68:3 runs in a single instance: index the write by the parallel_for's index, update the element with an atomic (intent::atomic_add), or compute it with intent::reduce [-Wintent-serialization]}}
    out[0] = x[i];
  });
}

// An int index analyses like intent::index: parallel, no warning.
[[intent::kernel]] void saxpy(view<float, 1> y, view<const float, 1> x,
                              float a, int n) {
  parallel_for(n, [&](int i) { y[i] = a * x[i] + y[i]; });
}

// Top-level code alone loses no parallelism: no warning.
[[intent::kernel]] void scalar(view<float, 1> out, view<const float, 1> x) {
  out[0] = x[0] + 1.0f;
}

// A whole-array reduce with a user combine: grid-reduce splits only
// built-in combines; the grid form of the single instance folds contiguous
// chunks per thread in member order: no warning.
[[intent::kernel]] void user_max(view<float, 1> out, view<const float, 1> x) {
  out[0] = reduce(x.extent(0), 0.0f, [](float a, float b) { return a > b ? a : b; },
                  [&](index i) { return x[i]; });
}

// The same with a built-in combine: split over the grid, no warning.
[[intent::kernel]] void builtin_sum(view<float, 1> out, view<const float, 1> x) {
  out[0] = reduce(x.extent(0), 0.0f, ops::plus{}, [&](index i) { return x[i]; });
}

// An ordered reduce asked to stay serial: no warning.
[[intent::kernel]] void ordered_sum(view<float, 1> out, view<const float, 1> x) {
  out[0] = reduce(x.extent(0), 0.0f, intent::ordered(ops::plus{}),
                  [&](index i) { return x[i]; });
}

// Two phases over domains of different rank: one instance, on a
// cooperative grid (its parallel fors' outer loops spread): no warning.
[[intent::kernel]] void phases_rank(view<float, 1> tmp, view<float, 2> out,
                                    view<const float, 1> x) {
  parallel_for(x.extent(0), [&](index i) { tmp[i] = 2 * x[i]; });
  parallel_for(out.extent(0), out.extent(1), [&](index i, index j) { out(i, j) = tmp[j]; });
}
