// Scan + scatter (grid-scan, docs/passes.md §12): an emit that stores at the
// scan's state runs in one pass only when the store sits under the
// condition the value counts (`if (c(k)) out[pos] = ...` with the value
// `c(k) ? 1 : 0`, an integer sum), so kept members have distinct
// positions; and a store at a fixed element only under `k == the last
// member`. Otherwise the scan stays on one thread and the remark says why.
// RUN: %intent_syntax %s -fplugin-arg-intent-remarks 2>&1 | FileCheck %s
#include <intent/intent.hpp>
#include <cstdint>
using namespace intent;

[[intent::kernel]] void keep(view<float, 1> out, view<std::int64_t, 1> count,
                             view<const float, 1> x) {
  // CHECK: [[@LINE+1]]:3: remark: grid-scan: the exclusive scan runs in one pass
  scan(x.extent(0), std::int64_t(0), ops::plus{},
       [&](index k) { return x[k] > 0.0f ? std::int64_t(1) : std::int64_t(0); },
       [&](index k, std::int64_t pos) {
         if (x[k] > 0.0f)
           out[pos] = x[k];
         if (k == x.extent(0) - 1)
           count[0] = pos;
       },
       scan_kind::exclusive);
}

// Every member stores at its position: members that count 0 share one.
[[intent::kernel]] void unguarded(view<float, 1> out, view<const float, 1> x) {
  // CHECK: [[@LINE+1]]:3: remark: grid-scan: not applied: the scan's emit stores at its state, but not under the condition its value counts
  scan(x.extent(0), std::int64_t(0), ops::plus{},
       [&](index k) { return x[k] > 0.0f ? std::int64_t(1) : std::int64_t(0); },
       [&](index k, std::int64_t pos) { out[pos] = x[k]; },
       scan_kind::exclusive);
}

// Another condition than the counted one.
[[intent::kernel]] void other(view<float, 1> out, view<const float, 1> x) {
  // CHECK: [[@LINE+1]]:3: remark: grid-scan: not applied: the scan's emit stores at its state, but not under the condition its value counts
  scan(x.extent(0), std::int64_t(0), ops::plus{},
       [&](index k) { return x[k] > 0.0f ? std::int64_t(1) : std::int64_t(0); },
       [&](index k, std::int64_t pos) {
         if (x[k] > 0.5f)
           out[pos] = x[k];
       },
       scan_kind::exclusive);
}

// The value may be negative: positions need not grow.
[[intent::kernel]] void signed_counts(view<float, 1> out, view<const float, 1> x) {
  // CHECK: [[@LINE+1]]:3: remark: grid-scan: not applied: the scan's emit stores at its state, but the state is not a count
  scan(x.extent(0), std::int64_t(0), ops::plus{},
       [&](index k) { return x[k] > 0.0f ? std::int64_t(1) : std::int64_t(-1); },
       [&](index k, std::int64_t pos) {
         if (x[k] > 0.0f)
           out[pos] = x[k];
       },
       scan_kind::exclusive);
}

// A fixed element written by every member, not only the last.
[[intent::kernel]] void every_member(view<float, 1> y, view<float, 1> last,
                                     view<const float, 1> x) {
  // CHECK: [[@LINE+1]]:3: remark: grid-scan: not applied: the scan's emit stores elsewhere than at its member
  scan(x.extent(0), 0.0f, ops::plus{}, [&](index k) { return x[k]; },
       [&](index k, float s) {
         y[k] = s;
         last[0] = s;
       });
}

// Steps of 2: a 32-bit count could wrap onto an earlier position.
[[intent::kernel]] void steps_of_two(view<float, 1> out, view<const float, 1> x) {
  // CHECK: [[@LINE+1]]:3: remark: grid-scan: not applied: the scan's emit stores at its state, but the state is not a count
  scan(x.extent(0), 0, ops::plus{}, [&](index k) { return x[k] > 0.0f ? 2 : 0; },
       [&](index k, int pos) {
         if (x[k] > 0.0f)
           out[pos] = x[k];
       },
       scan_kind::exclusive);
}

// A float state is no count.
[[intent::kernel]] void float_positions(view<float, 1> out, view<const float, 1> x) {
  // CHECK: [[@LINE+1]]:3: remark: grid-scan: not applied: the scan's emit stores elsewhere than at its member
  scan(x.extent(0), 0.0f, ops::plus{},
       [&](index k) { return x[k] > 0.0f ? 1.0f : 0.0f; },
       [&](index k, float pos) {
         if (x[k] > 0.0f)
           out[index(pos)] = x[k];
       },
       scan_kind::exclusive);
}

// Two coordinates of one view: member k's y[k + 1] is member k + 1's y[k + 1].
[[intent::kernel]] void two_shifts(view<float, 1> y, view<const float, 1> x) {
  // CHECK: [[@LINE+1]]:3: remark: grid-scan: not applied: the scan's emit stores one view in two ways or at two coordinates
  scan(x.extent(0) - 1, 0.0f, ops::plus{}, [&](index k) { return x[k]; },
       [&](index k, float s) {
         y[k] = s;
         y[k + 1] = s;
       });
}

// One view at the state and at the member: out[pos] of one member is
// out[k] of another.
[[intent::kernel]] void two_ways(view<float, 1> out, view<const float, 1> x) {
  // CHECK: [[@LINE+1]]:3: remark: grid-scan: not applied: the scan's emit stores one view in two ways or at two coordinates
  scan(x.extent(0), std::int64_t(0), ops::plus{},
       [&](index k) { return x[k] > 0.0f ? std::int64_t(1) : std::int64_t(0); },
       [&](index k, std::int64_t pos) {
         if (x[k] > 0.0f)
           out[pos] = x[k];
         out[k] = 0.0f;
       },
       scan_kind::exclusive);
}

// A shift chosen by a branch that yields the member is not invariant:
// y[k + (-k)] is y[0] for every member.
[[intent::kernel]] void branch_member(view<float, 1> y, view<const float, 1> x,
                                      index n) {
  // CHECK: [[@LINE+1]]:3: remark: grid-scan: not applied: the scan's emit stores elsewhere than at its member
  scan(x.extent(0), 0.0f, ops::plus{}, [&](index k) { return x[k]; },
       [&](index k, float s) { y[k + (n > 5 ? -k : index(0))] = s; });
}
