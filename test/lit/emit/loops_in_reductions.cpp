// Loops inside the value lambda of a reduction (issue 15 item 2): the
// annotated cta-rows emitter writes a reduce's value region several times
// (the unrolled strided steps and their tail, and again in the register
// variant); each emission of a loop in it gets its own exit/step labels
// (stepN, stepN_1, ...). Passes that write their code as ops (cta-rows-ops,
// grid-reduce) copy the region as ops: each copy is its own loop op with
// its own labels. Either way the generated file compiles with nvcc. Covers for/while/do loops with break, continue and
// carried values in reduce, argmin/argmax and scan value lambdas, in a
// parallel_for, at kernel level and in a nested parallel_for.
// RUN: rm -rf %t && %intent_syntax -I%intent_runtime_include -fplugin-arg-intent-out=%t %s
// RUN: FileCheck %s < %t/loops_in_reductions.kernels.cu
// RUN: %nvcc_kernels %t/loops_in_reductions.kernels.cu -o %t/k.o
// REQUIRES: nvcc
#include <intent/intent.hpp>
using intent::index;
using intent::view;
namespace ops = intent::ops;

// The k-means distance loop: one CTA per point (cta-rows, written as ops:
// no register rows for a user-sized row of centroids), the argmin's value
// region copied into the unrolled steps and the tail, each copy a loop of
// its own labels.
// CHECK-LABEL: kmeans_assign
// CHECK: goto exit[[L:[0-9]+]];
// CHECK: step[[L]]:;
// CHECK: exit[[L]]:;
// CHECK: goto exit[[M:[0-9]+]];
// CHECK: step[[M]]:;
// CHECK: exit[[M]]:;
[[intent::kernel]] void kmeans_assign(view<index, 1> assign,
                                      view<float, 1> dist,
                                      view<const float, 2> x,
                                      view<const float, 2> c) {
  intent::parallel_for(x.extent(0), [&](index i) {
    auto best = intent::argmin(c.extent(0), [&](index j) {
      float s = 0.0f;
      for (index t = 0; t < x.extent(1); ++t) {
        float d = x(i, t) - c(j, t);
        s += d * d;
      }
      return s;
    });
    assign[i] = best.pos;
    dist[i] = best.value;
  });
}

// break, continue and two carried values in a reduce of a row (cta-rows).
// CHECK-LABEL: row_pruned
// CHECK: step[[P:[0-9]+]]:;
// CHECK: step[[Q:[0-9]+]]:;
[[intent::kernel]] void row_pruned(view<float, 1> out, view<const float, 2> x,
                                   view<const int, 1> mask) {
  intent::parallel_for(x.extent(0), [&](index i) {
    out[i] = intent::reduce(x.extent(1), 0.0f, ops::plus{}, [&](index k) {
      float s = 0.0f;
      int n = 0;
      index t = 0;
      while (t < mask.extent(0)) {
        index u = t++;
        if (mask[u] == 0)
          continue;
        s += x(i, k) * static_cast<float>(u);
        if (++n > 3)
          break;
      }
      return s + static_cast<float>(n);
    });
  });
}

// argmax with a do loop, then a nested parallel_for over the row.
// CHECK-LABEL: row_argmax_loop
[[intent::kernel]] void row_argmax_loop(view<index, 1> pos, view<int, 2> y,
                                        view<const int, 2> x) {
  intent::parallel_for(x.extent(0), [&](index i) {
    auto best = intent::argmax(x.extent(1), [&](index k) {
      int v = x(i, k), steps = 0;
      do {
        v = v / 2 + (v & 1);
        ++steps;
      } while (v > 1 && steps < 8);
      return v * 16 + steps;
    });
    pos[i] = best.pos;
    intent::parallel_for(x.extent(1), [&](index k) {
      int acc = 0;
      for (int t = 0; t < 4; ++t) {
        if (t == static_cast<int>(k % 4))
          continue;
        acc += x(i, k) * t;
      }
      y(i, k) = acc + static_cast<int>(best.value);
    });
  });
}

// A kernel-level reduce: grid-reduce (value region once per vector step).
// CHECK-LABEL: total_loop
[[intent::kernel]] void total_loop(view<float, 1> out, view<const float, 1> x) {
  out[0] = intent::reduce(x.extent(0), 0.0f, ops::plus{}, [&](index k) {
    float s = x[k];
    for (int t = 0; t < 3; ++t) {
      if (s > 100.0f)
        break;
      s = s * 2.0f;
    }
    return s;
  });
}

// A scan per row and a reduce in a nested parallel_for, both with loops.
// CHECK-LABEL: scan_nested
[[intent::kernel]] void scan_nested(view<int, 2> out, view<int, 2> sums,
                                    view<const int, 2> x) {
  intent::parallel_for(x.extent(0), [&](index i) {
    intent::scan(
        x.extent(1), 0, ops::plus{},
        [&](index k) {
          int v = 0;
          for (index t = 0; t <= k && t < 4; ++t)
            v += x(i, t);
          return v;
        },
        [&](index k, int p) { out(i, k) = p; });
  });
  intent::parallel_for(sums.extent(0), [&](index i) {
    intent::parallel_for(sums.extent(1), [&](index j) {
      sums(i, j) = intent::reduce(x.extent(1), 0, ops::max{}, [&](index k) {
        int m = 0;
        for (index t = 0; t < 3; ++t) {
          if (x(i, k) < static_cast<int>(t))
            continue;
          m += static_cast<int>(j);
        }
        return m;
      });
    });
  });
}
