// Atomics on local buffer elements: the location is the buffer (the alloc's
// value) and its coordinate, as for view elements; the remarks say which
// scope each atomic got and why.
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=kir -fplugin-arg-intent-stop-after=kir | FileCheck %s
// RUN: %intent_syntax %s -fplugin-arg-intent-remarks -fplugin-arg-intent-out=%t 2>&1 | FileCheck %s --check-prefix=REMARK

#include <intent/intent.hpp>
using namespace intent;

[[intent::kernel]] void privateCounts(view<int, 1> out, view<const int, 1> keys) {
  parallel_for(keys.extent(0), [&](index i) {
    buffer<int, 4> h(0);
    intent::atomic_add(h[keys[i] & 3], 1);
    intent::atomic_max(h[3], keys[i], memory_order::acquire);
    out[i] = h[keys[i] & 3];
  });
}
// CHECK-LABEL: kernel @privateCounts
// CHECK: [[H:%[0-9]+]] = alloc {size = 4, init = "value", value = 0} : view<i32, 1>
// CHECK: atomic [[H]], {{%[0-9]+}}, {{%[0-9]+}} {kind = "add", order = "relaxed"} : i32
// CHECK: atomic [[H]], {{%[0-9]+}}, {{%[0-9]+}} {kind = "max", order = "acquire"} : i32
// REMARK: buffer_atomics.cpp:13:5: remark: atomic_add on h: scope thread (h is private to one instance, so the narrowest legal scope is that instance: a plain read-modify-write; memory order relaxed)
// REMARK: buffer_atomics.cpp:14:5: remark: atomic_max on h: scope thread

[[intent::kernel]] void tickets(view<int, 1> slot) {
  buffer<int, 1> next(0);
  parallel_for(slot.extent(0), [&](index i) { slot[i] = intent::atomic_add(next[0], 1); });
}
// CHECK-LABEL: kernel @tickets
// CHECK: [[N:%[0-9]+]] = alloc {size = 1, init = "value", value = 0} : view<i32, 1>
// CHECK: atomic [[N]], {{%[0-9]+}}, {{%[0-9]+}} {kind = "add", order = "relaxed"} : i32
// REMARK: remark: buffer 'next': invocation workspace shared by the instances of group 0 (its elements are updated by several instances, through atomics only: the instances are not merged and the atomics get the launch's scope); zero-filled by the runtime before the launch
// REMARK: remark: atomic_add on next: scope gpu (next is shared by all instances of the launch; memory order relaxed)

[[intent::kernel]] void histCopyOut(view<int, 1> counts, view<const int, 1> keys) {
  buffer<int, 16> bins(0);
  parallel_for(keys.extent(0), [&](index i) { intent::atomic_add(bins[keys[i] & 15], 1); });
  parallel_for(counts.extent(0), [&](index b) { counts[b] = bins[b & 15]; });
}
// REMARK: remark: buffer 'bins': program-private to the single instance of group 0 (the instances that share it were merged)
// REMARK: remark: atomic_add on bins: scope thread
