//===- CopyTestUtil.h - Helpers of the copy primitive tests ----*- C++ -*-===//
//
// Op builders for the design.md §5 cases and a coverage checker evaluating a
// plan (forEachAccess) against the tiles' own layouts: every region element
// must be moved exactly once, from its src address to its dst address, by
// accesses aligned to their width.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_TEST_COPYTESTUTIL_H
#define INTENT_TEST_COPYTESTUTIL_H

#include "Copy/Dispatch.h"
#include "Copy/Emit.h"
#include "Copy/Gate.h"

#include "gtest/gtest.h"

#include <map>
#include <string>
#include <vector>

namespace copytest {

using namespace intent::copy;

/// copy(shared, global) of a row-major `shape` tile in both buffers.
inline CopyOp globalToShared(ElemType t, std::vector<int64_t> shape,
                             ExecScope scope) {
  CopyOp op;
  op.src = Tile::rowMajor("A", MemSpace::Global, t, shape);
  op.dst = Tile::rowMajor("A_smem", MemSpace::Shared, t, shape);
  op.scope = std::move(scope);
  return op;
}

/// The reverse direction of `op` (dst and src swapped).
inline CopyOp reversed(CopyOp op) {
  std::swap(op.dst, op.src);
  return op;
}

/// Selects on CUDA sm_90 (or `target`) and requires success.
inline CopyPlan planOf(const CopyOp &op, Target target = Target::cuda()) {
  Selection sel = selectCopy(op, target);
  EXPECT_TRUE(sel.ok()) << sel.str();
  if (!sel.ok())
    return CopyPlan();
  return *sel.plan;
}

/// The reason variant `name` gave, "" when it was not rejected.
inline std::string reasonOf(const CopyOp &op, const std::string &name,
                            Target target = Target::cuda()) {
  Selection sel = selectCopy(op, target);
  const Attempt *a = sel.attempt(name);
  if (!a || a->outcome != Attempt::Outcome::Rejected)
    return "";
  return a->reason;
}

/// Enumerates the non-unit region coordinates of a tile pair in dst order.
inline void forEachCoord(const CopyOp &op,
                         const std::function<void(int64_t, int64_t)> &fn) {
  std::vector<size_t> dd, sd;
  for (size_t i = 0; i < op.dst.dims.size(); ++i)
    if (op.dst.dims[i].extent != 1)
      dd.push_back(i);
  for (size_t i = 0; i < op.src.dims.size(); ++i)
    if (op.src.dims[i].extent != 1)
      sd.push_back(i);
  int64_t n = op.dst.numElements();
  for (int64_t e = 0; e < n; ++e) {
    std::vector<int64_t> di(op.dst.dims.size(), 0), si(op.src.dims.size(), 0);
    int64_t rest = e;
    for (size_t k = dd.size(); k-- > 0;) {
      int64_t c = rest % op.dst.dims[dd[k]].extent;
      rest /= op.dst.dims[dd[k]].extent;
      di[dd[k]] = c;
      si[sd[k]] = c;
    }
    fn(op.dst.offsetOf(di), op.src.offsetOf(si));
  }
}

/// Checks that `plan`, run by every active thread, moves each region
/// element exactly once to the right place with aligned accesses.
inline void expectCovers(const CopyPlan &plan) {
  const CopyOp &op = plan.op;
  std::map<int64_t, int64_t> want; // src physical -> dst physical
  forEachCoord(op, [&](int64_t d, int64_t s) { want[s] = d; });
  std::map<int64_t, int> written;
  int64_t moved = 0;
  for (unsigned tid = 0; tid < op.scope.threads; ++tid) {
    if (!op.scope.active[tid])
      continue;
    forEachAccess(plan, tid, [&](int64_t d, int64_t s, int64_t elems) {
      EXPECT_EQ(d % elems, 0) << "misaligned dst access at " << d;
      EXPECT_EQ(s % elems, 0) << "misaligned src access at " << s;
      for (int64_t j = 0; j < elems; ++j) {
        auto it = want.find(s + j);
        ASSERT_NE(it, want.end()) << "read outside the region at " << s + j;
        EXPECT_EQ(it->second, d + j) << "element " << s + j << " misplaced";
        ++written[d + j];
        ++moved;
      }
    });
  }
  EXPECT_EQ(moved, static_cast<int64_t>(want.size()));
  for (const auto &[d, count] : written)
    EXPECT_EQ(count, 1) << "dst element " << d << " written " << count
                        << " times";
}

} // namespace copytest

#endif // INTENT_TEST_COPYTESTUTIL_H
