//===- DiffHarness.h - Differential testing of construction -----*- C++ -*-===//
//
// Runs one KIR kernel (given as text, from test/lit/construction/) three
// ways on the same random inputs and compares every view bit for bit:
//   1. a serial C++ reference written in the test,
//   2. the KIR reference interpreter,
//   3. the physical interpreter on construct(kernel), once in program order
//      and once in shuffled order with race detection.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_TEST_DIFFHARNESS_H
#define INTENT_TEST_DIFFHARNESS_H

#include "Interpreter/KIRInterpreter.h"
#include "Interpreter/PhysInterpreter.h"
#include "KIR/Parser.h"
#include "Physical/Verifier.h"
#include "Pipeline/Pipeline.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <sstream>

namespace intent::test {

/// Path of a file in test/lit/<sub>/ (located from this header's path).
inline std::string litFile(const std::string &sub, const std::string &name) {
  std::string here = __FILE__;
  std::string dir = here.substr(0, here.rfind('/'));
  return dir + "/../../lit/" + sub + "/" + name;
}

inline std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Parses every kernel of test/lit/<sub>/<name>.
inline std::unique_ptr<kir::Module> litModule(const std::string &sub,
                                              const std::string &name) {
  std::string err;
  auto m = kir::parseModule(readFile(litFile(sub, name)), name, err);
  EXPECT_TRUE(m) << err;
  return m;
}

/// Kernel @name of `m` (the first one, after a test failure, when absent).
inline const kir::Kernel &kernelNamed(const kir::Module &m,
                                      const std::string &name) {
  for (const auto &k : m.kernels)
    if (k->name == name)
      return *k;
  ADD_FAILURE() << "no kernel @" << name;
  return *m.kernels[0];
}

/// Erases the `nth` op (counting the ops of each op's regions, ops in
/// pre-order) for which `match(block, position)` holds: a test that breaks
/// a pass's output (a dropped barrier). False when there is none.
inline bool eraseNthOp(
    phys::Program &p, int nth,
    const std::function<bool(const phys::Block &, size_t)> &match) {
  int seen = 0;
  bool erased = false;
  phys::walkMutable(*p.body, [&](phys::Op &op) {
    for (const auto &reg : op.regions) {
      auto &ops = reg->block.ops;
      for (size_t i = 0; !erased && i < ops.size(); ++i)
        if (match(reg->block, i) && seen++ == nth) {
          ops.erase(ops.begin() + i);
          erased = true;
        }
    }
  });
  return erased;
}

/// Parses the kernels of test/lit/construction/<name> (and verifies the
/// first).
inline std::unique_ptr<kir::Module> loadKernel(const std::string &name) {
  std::string err;
  auto m = kir::parseModule(readFile(litFile("construction", name)), name, err);
  EXPECT_TRUE(m) << err;
  if (m) {
    std::vector<std::string> errs;
    EXPECT_TRUE(kir::verifyKernel(*m->kernels[0], errs))
        << (errs.empty() ? "" : errs[0]);
  }
  return m;
}

/// One argument: a view (with storage) or a scalar.
struct ArgSpec {
  bool isView = false;
  kir::ScalarKind elem = kir::ScalarKind::F32;
  std::vector<int64_t> extents;
  interp::Scalar scalar;
  /// Element generator for views (default: uniform in [-4, 4)).
  std::function<interp::Scalar(std::mt19937_64 &)> gen;

  static ArgSpec view(kir::ScalarKind k, std::vector<int64_t> ext) {
    ArgSpec a;
    a.isView = true;
    a.elem = k;
    a.extents = std::move(ext);
    return a;
  }
  static ArgSpec f32(float v) {
    ArgSpec a;
    a.scalar = interp::Scalar::ofFloat(kir::ScalarKind::F32, v);
    return a;
  }
  static ArgSpec i64(int64_t v) {
    ArgSpec a;
    a.scalar = interp::Scalar::ofInt(kir::ScalarKind::I64, v);
    return a;
  }
};

/// The memory of one run: one byte vector per view argument.
struct Memory {
  std::vector<std::vector<unsigned char>> views;
  template <class T> T *as(unsigned i) {
    return reinterpret_cast<T *>(views[i].data());
  }
};

inline int64_t count(const std::vector<int64_t> &ext) {
  int64_t n = 1;
  for (int64_t e : ext)
    n *= e;
  return n;
}

inline Memory makeMemory(const std::vector<ArgSpec> &specs, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Memory m;
  for (const ArgSpec &s : specs) {
    if (!s.isView) {
      m.views.emplace_back();
      continue;
    }
    unsigned size = interp::elemSize(s.elem);
    std::vector<unsigned char> bytes(std::max<int64_t>(count(s.extents), 1) * size);
    for (int64_t i = 0; i < count(s.extents); ++i) {
      interp::Scalar v;
      if (s.gen) {
        v = s.gen(rng);
      } else {
        double d = std::uniform_real_distribution<double>(-4, 4)(rng);
        v = kir::Type::scalar(s.elem).isFloat()
                ? interp::Scalar::ofFloat(s.elem, d)
                : interp::Scalar::ofInt(s.elem, static_cast<int64_t>(d * 8));
      }
      interp::storeElem(bytes.data() + i * size, v);
    }
    m.views.push_back(std::move(bytes));
  }
  return m;
}

inline std::vector<interp::Arg> bind(const std::vector<ArgSpec> &specs,
                                     Memory &m) {
  std::vector<interp::Arg> args;
  for (unsigned i = 0; i < specs.size(); ++i) {
    if (!specs[i].isView) {
      args.push_back(interp::Arg::ofScalar(specs[i].scalar));
      continue;
    }
    args.push_back(interp::Arg::ofView(interp::View::contiguous(
        m.views[i].data(), specs[i].elem, specs[i].extents)));
  }
  return args;
}

/// What a differential run observed (for extra assertions).
struct DiffOutcome {
  std::vector<int64_t> segmentLengths;
  int64_t total = 0;
};

/// How strictly the C++ reference is matched.
struct DiffOptions {
  /// Relative tolerance for f32/f64 views against the C++ reference, for ops
  /// that may be reassociated (0: bit for bit). The KIR interpreter and the
  /// physical program always agree bit for bit with each other.
  double floatTolerance = 0;
  /// Applied to the pipeline's program before it runs (then verified):
  /// a hand-made mapping under test.
  std::function<void(phys::Program &)> rewrite;
  /// The pipeline's options (default: the default pipeline).
  PipelineOptions pipeline;
};

/// Element-wise comparison of one view's bytes: bit for bit, or for floats
/// within a relative tolerance (NaN matches NaN). Returns "" or a message.
inline std::string compareView(const ArgSpec &spec,
                               const std::vector<unsigned char> &got,
                               const std::vector<unsigned char> &want,
                               double tol) {
  bool fp = kir::Type::scalar(spec.elem).isFloat();
  if (tol == 0 || !fp)
    return got == want ? "" : "differs bit for bit";
  unsigned size = interp::elemSize(spec.elem);
  for (int64_t i = 0; i < count(spec.extents); ++i) {
    double a = interp::loadElem(got.data() + i * size, spec.elem).f;
    double b = interp::loadElem(want.data() + i * size, spec.elem).f;
    if (std::isnan(a) && std::isnan(b))
      continue;
    double scale = std::max({1.0, std::fabs(a), std::fabs(b)});
    if (!(std::fabs(a - b) <= tol * scale) && a != b)
      return "element " + std::to_string(i) + ": " + std::to_string(a) +
             " vs " + std::to_string(b);
  }
  return "";
}

/// Whether every view argument of `got` equals `want`'s bit for bit.
inline bool sameViews(const std::vector<ArgSpec> &specs, const Memory &got,
                      const Memory &want) {
  for (unsigned i = 0; i < specs.size(); ++i)
    if (specs[i].isView && got.views[i] != want.views[i])
      return false;
  return true;
}

/// Runs the three executions and compares them; `reference` mutates the
/// reference memory serially.
inline DiffOutcome runDifferential(const kir::Kernel &k,
                                   const std::vector<ArgSpec> &specs,
                                   const std::function<void(Memory &)> &reference,
                                   uint64_t seed, DiffOptions diff = {}) {
  DiffOutcome out;
  PipelineResult r = runPipeline(k, diff.pipeline);
  EXPECT_TRUE(r.ok()) << (r.internalErrors.empty() ? "" : r.internalErrors[0])
                      << (r.errors.empty() ? "" : r.errors[0].message);
  if (!r.ok())
    return out;
  if (diff.rewrite) {
    diff.rewrite(*r.program);
    std::vector<std::string> errs;
    EXPECT_TRUE(phys::verifyProgram(*r.program, &k, errs))
        << "after the rewrite: " << (errs.empty() ? "" : errs[0]);
    if (!errs.empty())
      return out;
  }
  Memory ref = makeMemory(specs, seed), kirMem = ref, fwd = ref, shuf = ref;
  reference(ref);
  interp::KIRRunResult kr = interp::runKernel(k, bind(specs, kirMem));
  EXPECT_TRUE(kr.ok) << kr.error;
  interp::PhysRunResult pr = interp::runProgram(*r.program, bind(specs, fwd));
  EXPECT_TRUE(pr.ok) << pr.error;
  interp::PhysRunOptions opts;
  opts.order = interp::PhysRunOptions::Order::Shuffled;
  opts.seed = seed;
  opts.blockSize = 7;
  interp::PhysRunResult sr = interp::runProgram(*r.program, bind(specs, shuf), opts);
  EXPECT_TRUE(sr.ok) << sr.error;
  for (unsigned i = 0; i < specs.size(); ++i) {
    if (!specs[i].isView)
      continue;
    std::string d = compareView(specs[i], kirMem.views[i], ref.views[i],
                                diff.floatTolerance);
    EXPECT_TRUE(d.empty())
        << k.name << ": KIR interpreter differs from the C++ reference in arg "
        << i << ": " << d;
    EXPECT_TRUE(fwd.views[i] == kirMem.views[i])
        << k.name << ": physical program differs from the KIR interpreter in arg " << i;
    EXPECT_TRUE(shuf.views[i] == kirMem.views[i])
        << k.name << ": shuffled physical program differs in arg " << i;
  }
  out.segmentLengths = pr.segmentLengths;
  out.total = pr.total;
  return out;
}

/// Non-decreasing offsets over `nnz` members describing `rows` regions,
/// with empty regions.
inline std::vector<int64_t> randomOffsets(int64_t rows, int64_t maxPerRow,
                                          uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int64_t> off{0};
  for (int64_t r = 0; r < rows; ++r)
    off.push_back(off.back() +
                  (rng() % 4 == 0 ? 0 : static_cast<int64_t>(rng() % (maxPerRow + 1))));
  return off;
}

/// An ArgSpec whose elements come from `values` in order.
template <class T>
ArgSpec fixedView(kir::ScalarKind k, const std::vector<T> &values) {
  ArgSpec a = ArgSpec::view(k, {static_cast<int64_t>(values.size())});
  auto shared = std::make_shared<std::vector<T>>(values);
  auto next = std::make_shared<size_t>(0);
  a.gen = [k, shared, next](std::mt19937_64 &) {
    T v = (*shared)[(*next)++ % shared->size()];
    return kir::Type::scalar(k).isFloat()
               ? interp::Scalar::ofFloat(k, static_cast<double>(v))
               : interp::Scalar::ofInt(k, static_cast<int64_t>(v));
  };
  return a;
}

/// A team segment's edit for the [coop] store rule: the `if` around the
/// last store to a view in segment op `seg`'s region gets the condition
/// `true`, so every thread of a team would store, inactive ones a copy of
/// the last instance. False when there is no such guarded store.
inline bool unguardViewStore(phys::Program &p, phys::Op *seg) {
  phys::Op *store = nullptr;
  phys::walkMutable(*seg->regions[0], [&](phys::Op &o) {
    if (o.opcode == phys::Opcode::Store && o.memory()->type.isView())
      store = &o;
  });
  if (!store || store->parentOp()->opcode != phys::Opcode::If)
    return false;
  phys::Op *guard = store->parentOp();
  phys::Builder b(p);
  phys::Block &blk = seg->regions[0]->block;
  b.setInsertionBlock(&blk);
  phys::Op *t = b.create(phys::Opcode::Constant, {}, {phys::Type::boolean()});
  t->setAttr("value", true);
  auto &ops = blk.ops;
  std::rotate(ops.begin(), ops.end() - 1, ops.end());
  guard->operands[0] = t->result();
  return true;
}

} // namespace intent::test

#endif // INTENT_TEST_DIFFHARNESS_H
