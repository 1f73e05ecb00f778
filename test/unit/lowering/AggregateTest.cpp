//===- AggregateTest.cpp - Warp-aggregated atomics --------------------------===//
//
// The aggregate-atomics pass (docs/passes.md §14) and what `aggregate =
// warp | ticket` means: hand-written CTA programs (64 threads, a row per
// program) whose threads update one element per row, run by the physical
// interpreter, where the lanes of a warp that reach the atomic together
// combine first (divergent lanes included) and the lowest applies it; the
// results must equal a host computation, and groups must really form. A
// ticket's lanes get old + their rank: the tickets of a row are a
// permutation, consecutive within a group in lane order. The verifier
// rejects each misuse of the marking; the pass marks data-dependent and
// constant elements (histogram fallbacks, counters) and leaves per-instance
// elements, ordered atomics and a pass's own atomics alone.
//
//===----------------------------------------------------------------------===//

#include "DiffHarness.h"

#include "Interpreter/PhysInterpreter.h"
#include "Physical/Parser.h"
#include "Physical/Verifier.h"

#include <algorithm>
#include <random>

using namespace intent;
using namespace intent::interp;
using namespace intent::test;

namespace {

std::string replaceAll(std::string s, const std::string &from,
                       const std::string &to) {
  for (size_t at = s.find(from); at != std::string::npos;
       at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

/// A CTA program of 64 threads, one instance per row r (%9) of x (rank
/// 2): thread t < x.extent(1) loads x[r, t] into %15 and runs `body`.
/// `out` (param 0) is updated only by atomics; `slot` (param 2, when
/// `withSlot`) is written at [r, t].
std::string aggProgram(const std::string &outElem, bool withSlot,
                       const std::string &body) {
  return "program @agg scope(cta, threads 64, shared 0) (%0 out: view<" + outElem +
         ", 1> rw, %1 x: view<const f32, 2> r" +
         (withSlot ? ", %2 slot: view<i32, 2> w" : "") +
         ") {\n"
         "  launch {\n"
         "    e0 = extent(x, 0) : i64\n"
         "    e1 = const 0 : i64\n"
         "    e2 = max e0, e1 : i64\n"
         "  }\n"
         "  segment 0 (group 0, parallel) extents [e2] length e2 offset e1\n"
         "  total e2\n"
         "  buffer 0 out: external_view param 0 " + outElem +
         " rank 1 init host ownership atomic writers [0] readers [] sharing "
         "launch\n"
         "  buffer 1 x: external_view param 1 f32 rank 2 init host "
         "ownership none writers [] readers [0]\n" +
         (withSlot ? "  buffer 2 slot: external_view param 2 i32 rank 2 init "
                     "host ownership instance_unique writers [0] readers []\n"
                   : "") +
         "  body {\n"
         "    %3 = program_id : i64 origin(synth construction)\n"
         "    %4 = launch_value {expr = 2} : i64 origin(synth construction)\n"
         "    %5 = cmp %3, %4 {pred = \"lt\"} : bool origin(synth construction)\n"
         "    if %5 origin(synth construction) {\n"
         "      %6 = launch_value {expr = 1} : i64 origin(synth construction)\n"
         "      %60 = launch_value {expr = 2} : i64 origin(synth construction)\n"
         "      segment %3, %6, %60 {group = 0} origin(synth construction) {\n"
         "      ^(%7: i64):\n"
         "        %8 = launch_value {expr = 2} : i64 origin(synth construction)\n"
         "        %9 = delinearize %7, %8 : i64 origin(synth construction)\n"
         "        %11 = thread_id : i32 origin(synth test)\n"
         "        %12 = cast %11 : i64 origin(synth test)\n"
         "        %13 = extent %1 {dim = 1} : i64 origin(synth test)\n"
         "        %14 = cmp %12, %13 {pred = \"lt\"} : bool origin(synth test)\n"
         "        if %14 origin(synth test) {\n"
         "          %15 = load %1[%9, %12] : f32 access(assumed, thread) "
         "prov(op 4) origin(synth test)\n" +
         body +
         "          yield origin(synth test)\n"
         "        } else {\n"
         "          yield origin(synth test)\n"
         "        }\n"
         "        yield origin(synth test)\n"
         "      }\n"
         "      yield origin(synth construction)\n"
         "    } else {\n"
         "      yield origin(synth construction)\n"
         "    }\n"
         "    return origin(synth construction)\n"
         "  }\n"
         "}\n";
}

/// out[r] (kind) x[r, t], aggregated; only where x[r, t] > 0 when
/// `divergent` (a warp's lanes reach the atomic in two groups or none).
std::string updateProgram(const std::string &kind, bool divergent) {
  std::string atomic = "atomic %0[%9], %15 {kind = \"" + kind +
                       "\", order = \"relaxed\", scope = \"gpu\", aggregate = "
                       "\"warp\"} : f32 access(assumed, thread) prov(op 5) "
                       "origin(synth test)\n";
  if (!divergent)
    return aggProgram("f32", false, "          %16 = " + atomic);
  return aggProgram(
      "f32", false,
      "          %16 = constant {value = 0.0} : f32 origin(synth test)\n"
      "          %17 = cmp %15, %16 {pred = \"gt\"} : bool origin(synth test)\n"
      "          if %17 origin(synth test) {\n"
      "            %18 = " + atomic +
      "            yield origin(synth test)\n"
      "          } else {\n"
      "            yield origin(synth test)\n"
      "          }\n");
}

/// Where x[r, t] > 0: slot[r, t] = atomic_add(out[0], 1) as a ticket.
std::string ticketProgram() {
  return aggProgram(
      "i32", true,
      "          %16 = constant {value = 0.0} : f32 origin(synth test)\n"
      "          %17 = cmp %15, %16 {pred = \"gt\"} : bool origin(synth test)\n"
      "          if %17 origin(synth test) {\n"
      "            %18 = constant {value = 1} : i32 origin(synth test)\n"
      "            %19 = constant {value = 0} : i64 origin(synth test)\n"
      "            %20 = atomic %0[%19], %18 {kind = \"add\", order = "
      "\"relaxed\", scope = \"gpu\", aggregate = \"ticket\"} : i32 "
      "access(assumed, thread) prov(op 5) origin(synth test)\n"
      "            store %2[%9, %12], %20 access(assumed, thread) prov(op 6) "
      "origin(synth test)\n"
      "            yield origin(synth test)\n"
      "          } else {\n"
      "            yield origin(synth test)\n"
      "          }\n");
}

std::unique_ptr<phys::Program> parse(const std::string &text) {
  std::vector<std::unique_ptr<phys::Program>> ps;
  std::string err;
  EXPECT_TRUE(phys::parsePrograms(text, "agg.phys", ps, err)) << err << text;
  return ps.size() == 1 ? std::move(ps[0]) : nullptr;
}

std::string verifyText(const std::string &text) {
  std::unique_ptr<phys::Program> p = parse(text);
  if (!p)
    return "does not parse";
  std::vector<std::string> errors;
  phys::verifyProgram(*p, nullptr, errors);
  std::string s;
  for (const std::string &e : errors)
    s += e + "\n";
  return s;
}

/// Parses `text`, which the verifier must accept; null when it does not
/// parse.
std::unique_ptr<phys::Program> parseVerified(const std::string &text) {
  EXPECT_EQ(verifyText(text), "");
  return parse(text);
}

std::vector<float> randomFloats(size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> v(n);
  for (float &f : v)
    f = d(g);
  return v;
}

const PhysRunOptions::Order kOrders[] = {PhysRunOptions::Order::Forward,
                                         PhysRunOptions::Order::Shuffled};

} // namespace

TEST(Aggregate, WarpGroupsCombineBeforeOneAtomic) {
  for (const char *kind : {"add", "min", "max"})
    for (bool divergent : {false, true}) {
      std::unique_ptr<phys::Program> p =
          parseVerified(updateProgram(kind, divergent));
      ASSERT_TRUE(p) << kind;
      for (int64_t n : {0, 1, 31, 33, 64})
        for (auto order : kOrders) {
          const int64_t rows = 5;
          std::vector<float> x = randomFloats(rows * n, 17 + n);
          // Small integers: the sums are exact in any order.
          for (float &f : x)
            f = std::round(f * 8);
          std::vector<float> out(rows, 3.0f), want(rows, 3.0f);
          for (int64_t r = 0; r < rows; ++r)
            for (int64_t t = 0; t < n; ++t) {
              float v = x[r * n + t];
              if (divergent && !(v > 0))
                continue;
              float &w = want[r];
              w = std::string(kind) == "add"   ? w + v
                  : std::string(kind) == "min" ? std::min(w, v)
                                               : std::max(w, v);
            }
          PhysRunOptions opts;
          opts.order = order;
          opts.seed = 5;
          PhysRunResult res = runProgram(
              *p,
              {Arg::ofView(View::contiguous(out.data(), kir::ScalarKind::F32,
                                            {rows})),
               Arg::ofView(View::contiguous(x.data(), kir::ScalarKind::F32,
                                            {rows, n}))},
              opts);
          ASSERT_TRUE(res.ok) << res.error;
          EXPECT_EQ(out, want) << kind << " n " << n;
          // Lanes on one element form groups: at most one atomic per warp
          // and row (two warps of 32 lanes when n > 32), at least one
          // combined group whenever a warp has two lanes in it.
          int64_t groups = 0;
          for (int64_t w = 0; w * 32 < n; ++w)
            groups += std::min<int64_t>(32, n - w * 32) >= 2;
          if (!divergent)
            EXPECT_EQ(res.combinedAtomics, rows * groups) << kind;
          if (n < 2)
            EXPECT_EQ(res.combinedAtomics, 0) << kind;
        }
    }
}

TEST(Aggregate, TicketsAreRanksWithinTheirGroup) {
  std::unique_ptr<phys::Program> p = parseVerified(ticketProgram());
  ASSERT_TRUE(p);
  for (int64_t n : {0, 1, 2, 40, 64})
    for (auto order : kOrders) {
      const int64_t rows = 3;
      std::vector<float> x = randomFloats(rows * n, 3 + n);
      std::vector<int32_t> count(1, 100), slot(rows * n, -1);
      PhysRunOptions opts;
      opts.order = order;
      opts.seed = 9;
      PhysRunResult res = runProgram(
          *p,
          {Arg::ofView(View::contiguous(count.data(), kir::ScalarKind::I32, {1})),
           Arg::ofView(View::contiguous(x.data(), kir::ScalarKind::F32, {rows, n})),
           Arg::ofView(View::contiguous(slot.data(), kir::ScalarKind::I32,
                                        {rows, n}))},
          opts);
      ASSERT_TRUE(res.ok) << res.error;
      std::vector<int32_t> got;
      for (int64_t i = 0; i < rows * n; ++i)
        if (x[i] > 0)
          got.push_back(slot[i]);
        else
          EXPECT_EQ(slot[i], -1);
      // Every ticket once: 100, 101, ... in some order.
      EXPECT_EQ(count[0], 100 + static_cast<int32_t>(got.size()));
      std::vector<int32_t> sorted = got;
      std::sort(sorted.begin(), sorted.end());
      for (size_t k = 0; k < sorted.size(); ++k)
        EXPECT_EQ(sorted[k], 100 + static_cast<int32_t>(k));
      // A warp's lanes of a row are one group: consecutive tickets in lane
      // order.
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t w = 0; w * 32 < n; ++w) {
          int32_t prev = -1;
          for (int64_t t = w * 32; t < std::min(n, w * 32 + 32); ++t)
            if (x[r * n + t] > 0) {
              if (prev >= 0)
                EXPECT_EQ(slot[r * n + t], prev + 1) << "row " << r << " lane " << t;
              prev = slot[r * n + t];
            }
        }
    }
}

TEST(Aggregate, VerifierRejectsMisuse) {
  const std::string warp = "aggregate = \"warp\"";
  const std::string ticket = "aggregate = \"ticket\"";
  struct Case {
    std::string text, error;
  };
  const std::string add = updateProgram("add", false);
  const std::string tick = ticketProgram();
  const Case cases[] = {
      {replaceAll(updateProgram("min", false), warp, ticket),
       "an aggregated atomic min (ticket combines add)"},
      {replaceAll(add, "order = \"relaxed\"", "order = \"acq_rel\""),
       "an aggregated atomic has memory order acq_rel (only relaxed)"},
      {replaceAll(add, "scope = \"gpu\", ", ""),
       "an aggregated atomic needs a scope wider than the thread"},
      {replaceAll(tick, ticket, warp),
       "the old value of an aggregate = warp atomic is used"},
      {replaceAll(tick, "%20 = atomic %0[%19], %18", "%20 = atomic %0[%19], %21")
           .insert(tick.find("            %20 = atomic"),
                   "            %21 = add %18, %18 : i32 origin(synth test)\n"),
       "a ticket adds an integer constant"},
  };
  for (const Case &c : cases) {
    std::string got = verifyText(c.text);
    EXPECT_NE(got.find(c.error), std::string::npos)
        << "wanted \"" << c.error << "\", got:\n" << got;
  }
}

TEST(Aggregate, VerifierRejectsAnUnknownMarking) {
  // The parser already refuses it; a pass could still set it.
  std::unique_ptr<phys::Program> p = parse(updateProgram("add", false));
  ASSERT_TRUE(p);
  phys::walkMutable(*p->body, [](phys::Op &op) {
    if (op.opcode == phys::Opcode::Atomic)
      op.setAttr("aggregate", std::string("block"));
  });
  std::vector<std::string> errors;
  phys::verifyProgram(*p, nullptr, errors);
  bool found = false;
  for (const std::string &e : errors)
    found |= e.find("aggregate 'block' is not warp or ticket") != std::string::npos;
  EXPECT_TRUE(found);
}

TEST(Aggregate, PassMarksSharedElementsOnly) {
  // The privatize-atomics kernels: a histogram's global fallback and a
  // ticket counter are combined; the merge (a pass's own atomic, one
  // element per thread) and an ordered atomic are not.
  std::unique_ptr<kir::Module> m = litModule("emit", "privatize.kir");
  auto marks = [&](const char *name) {
    PipelineResult r = runPipeline(kernelNamed(*m, name), {});
    std::vector<std::string> out;
    if (!r.ok())
      return out;
    phys::walk(*r.program->body, [&](const phys::Op &op) {
      if (op.opcode == phys::Opcode::Atomic)
        out.push_back(op.strAttr("aggregate"));
    });
    return out;
  };
  // count_u32: the copy's cta atomic, the fallback, the merge.
  EXPECT_EQ(marks("count_u32"), (std::vector<std::string>{"", "warp", ""}));
  EXPECT_EQ(marks("tickets"), (std::vector<std::string>{"ticket"}));
  EXPECT_EQ(marks("ordered_counts"), (std::vector<std::string>{""}));
}
