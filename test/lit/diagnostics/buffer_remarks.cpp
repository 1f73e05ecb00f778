// The remarks say which scope each buffer got and why instances merged.
// RUN: %intent_syntax -Xclang -verify %s -fplugin-arg-intent-remarks -fplugin-arg-intent-out=%t

#include <intent/intent.hpp>
using namespace intent;

// expected-remark@+1 {{extracted Intent kernel 'workspace'}}
[[intent::kernel]] void workspace(view<float, 1> y, view<const float, 1> x) {
  // expected-remark@+1 {{buffer 'stage': invocation workspace shared by the instances of group 0 (each element owned by the one instance that accesses it); zero-filled by the runtime before the launch}}
  buffer<float, 1024> stage(0.0f);
  // expected-remark@+1 {{group 0: parallel over [x.extent(0)], 2 parallel_fors fused (same-instance dependences only)}}
  parallel_for(x.extent(0), [&](index i) { stage[i] = x[i]; });
  parallel_for(x.extent(0), [&](index i) { y[i] = stage[i] + 1.0f; });
}
// expected-remark@12 {{group 0: segment length max(x.extent(0), 0), offset 0}}
// expected-remark@8 {{program space: 1 segment(s), total max(x.extent(0), 0)}}

// expected-remark@+1 {{extracted Intent kernel 'nonzeroFill'}}
[[intent::kernel]] void nonzeroFill(view<float, 1> y) {
  // expected-remark@+1 {{buffer 'ones': program-private to the single instance of group 0 (the instances that share it were merged)}}
  buffer<float, 1024> ones(1.0f);
  // expected-remark@+1 {{group 0: serialized into a single instance: parallel_for at 23:3: kernel-level buffer 'ones' (21:23) has a non-zero fill value: a workspace shared by the instances cannot be filled once per launch without an extra launch, so the instances are merged (fill it with 0, or declare the buffer inside the parallel_for)}}
  parallel_for(y.extent(0), [&](index i) { y[i] = ones[i]; });
}
// expected-remark@23 {{group 0: segment length 1, offset 0}}
// expected-remark@19 {{program space: 1 segment(s), total 1}}

// expected-remark@+1 {{extracted Intent kernel 'shared'}}
[[intent::kernel]] void shared(view<int, 1> out, view<const int, 1> keys) {
  // expected-remark@+1 {{buffer 'bins': program-private to the single instance of group 0 (the instances that share it were merged)}}
  buffer<int, 4> bins(0);
  // expected-remark@+1 {{group 0: serialized into a single instance: parallel_for at 33:3: write to bins(v8) at 33:65 may conflict with read of bins(v8) at 33:65 of another instance}}
  parallel_for(keys.extent(0), [&](index i) { bins[keys[i] & 3] += 1; });
  parallel_for(out.extent(0), [&](index b) { out[b] = bins[b & 3]; });
}
// expected-remark@33 {{group 0: segment length 1, offset 0}}
// expected-remark@29 {{program space: 1 segment(s), total 1}}
// expected-remark@12 {{cta-rows: not applied: the instance has top-level alloc (only pure code, loads, stores, reductions and parallel fors are distributed)}}
// The widen pass declines the fused group of workspace() (it allocates a buffer):
// expected-remark@12 {{widen: not applied: the program allocates buffer stage}}
// Both serialized groups are also -Wintent-serialization warnings:
// expected-warning@23 {{the parallel_for at 23:3 runs in a single instance: kernel-level buffer 'ones' (21:23) has a non-zero fill value}}
// expected-warning@33 {{the read of bins(keys(i) & 3) may touch the element of the write of bins(keys(i) & 3) of another instance, so the parallel_for at 33:3 runs in a single instance: update the element with an atomic (intent::atomic_add), or index it by the parallel_for's index [-Wintent-serialization]}}
// Their instances allocate a private buffer, so they stay on one thread:
// expected-remark@23 {{cta-rows: not applied: the instance allocates buffer ones (one copy per thread on a CTA)}}
// expected-remark@33 {{cta-rows: not applied: the instance allocates buffer bins (one copy per thread on a CTA)}}
