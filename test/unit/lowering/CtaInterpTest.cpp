//===- CtaInterpTest.cpp - The physical interpreter's CTA mode -------------===//
//
// Hand-written CTA programs with the cooperative primitives
// (docs/physical-ir.md §5.8), parsed from their textual form, verified and
// run by the physical interpreter on random inputs; the results are
// compared with a host computation in the same order of operations. The
// negative tests drop a barrier (a shared-memory race), put a barrier or a
// shuffle under thread-dependent control flow (the verifier's [uniform]
// and, unverified, the interpreter's incomplete-barrier error), and break
// the [shared] and [scope] rules.
//
//===----------------------------------------------------------------------===//

#include "Interpreter/PhysInterpreter.h"
#include "Physical/Parser.h"
#include "Physical/Verifier.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <random>

using namespace intent;
using namespace intent::interp;

namespace {

/// Replaces every occurrence of `from` in `s`.
std::string replaceAll(std::string s, const std::string &from,
                       const std::string &to) {
  for (size_t at = s.find(from); at != std::string::npos;
       at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

/// A CTA program of T threads over the rows of x (rank 2, const): one
/// instance per row r (%9), `out` of rank `outRank`, one cta_shared f32
/// buffer s of `sharedElems` elements (%10 binds it). `body` is the code of
/// the instance after the alloc.
std::string rowProgram(int threads, int sharedElems, int outRank,
                       const std::string &body) {
  std::string T = std::to_string(threads), S = std::to_string(sharedElems);
  std::string outWriters =
      body.find("store %0[") != std::string::npos
          ? "instance_unique writers [0] readers []"
          : "none writers [] readers []";
  // The shared buffer's recorded groups are the ones that use it.
  bool stores = body.find("store %10[") != std::string::npos ||
                body.find("vector_store %10[") != std::string::npos;
  bool loads = body.find("load %10[") != std::string::npos;
  std::string sharedUse = std::string("writers [") + (stores ? "0" : "") +
                          "] readers [" + (loads ? "0" : "") + "]";
  return "program @cta scope(cta, threads " + T + ", shared " +
         std::to_string(sharedElems * 4) + ") (%0 out: view<f32, " +
         std::to_string(outRank) +
         "> w, %1 x: view<const f32, 2> r) {\n"
         "  launch {\n"
         "    e0 = extent(x, 0) : i64\n"
         "    e1 = const 0 : i64\n"
         "    e2 = max e0, e1 : i64\n"
         "  }\n"
         "  segment 0 (group 0, parallel) extents [e2] length e2 offset e1\n"
         "  total e2\n"
         "  buffer 0 out: external_view param 0 f32 rank " +
         std::to_string(outRank) +
         " init host ownership " + outWriters +
         "\n"
         "  buffer 1 x: external_view param 1 f32 rank 2 init host "
         "ownership none writers [] readers [0]\n"
         "  buffer 2 s: cta_shared f32 size " +
         S +
         " shared_offset 0 init first_write ownership private " + sharedUse +
         "\n"
         "  body {\n"
         "    %2 = program_id : i64 origin(synth construction)\n"
         "    %3 = launch_value {expr = 2} : i64 origin(synth construction)\n"
         "    %4 = cmp %2, %3 {pred = \"lt\"} : bool origin(synth construction)\n"
         "    if %4 origin(synth construction) {\n"
         "      %5 = launch_value {expr = 1} : i64 origin(synth construction)\n"
         "      %6 = launch_value {expr = 2} : i64 origin(synth construction)\n"
         "      segment %2, %5, %6 {group = 0} origin(synth construction) {\n"
         "      ^(%7: i64):\n"
         "        %8 = launch_value {expr = 2} : i64 origin(synth construction)\n"
         "        %9 = delinearize %7, %8 : i64 origin(synth construction)\n"
         "        %10 = alloc {buffer = 2} : buffer<f32, " +
         S + "> origin(synth test)\n" + body +
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

std::unique_ptr<phys::Program> parse(const std::string &text) {
  std::vector<std::unique_ptr<phys::Program>> ps;
  std::string err;
  EXPECT_TRUE(phys::parsePrograms(text, "cta.phys", ps, err)) << err << text;
  return ps.size() == 1 ? std::move(ps[0]) : nullptr;
}

std::vector<std::string> verify(const phys::Program &p) {
  std::vector<std::string> errors;
  phys::verifyProgram(p, nullptr, errors);
  return errors;
}

std::string joined(const std::vector<std::string> &v) {
  std::string s;
  for (const std::string &e : v)
    s += e + "\n";
  return s;
}

bool hasError(const std::vector<std::string> &errors, const std::string &what) {
  for (const std::string &e : errors)
    if (e.find(what) != std::string::npos)
      return true;
  return false;
}

/// Parses `text` and expects the verifier to accept it; null when it does
/// not parse (after a failed expectation).
std::unique_ptr<phys::Program> parseVerified(const std::string &text) {
  std::unique_ptr<phys::Program> p = parse(text);
  if (p) {
    std::vector<std::string> errors = verify(*p);
    EXPECT_TRUE(errors.empty()) << joined(errors);
  }
  return p;
}

/// Whether the verifier reports an error containing `what` for `p`; the
/// failure lists what it reported instead.
testing::AssertionResult reports(const phys::Program &p,
                                 const std::string &what) {
  std::vector<std::string> errors = verify(p);
  if (hasError(errors, what))
    return testing::AssertionSuccess();
  return testing::AssertionFailure()
         << "no error containing \"" << what << "\" among:\n"
         << joined(errors);
}

/// The same for the program `text`, which must parse.
testing::AssertionResult reports(const std::string &text,
                                 const std::string &what) {
  std::unique_ptr<phys::Program> p = parse(text);
  if (!p)
    return testing::AssertionFailure() << "the program does not parse";
  return reports(*p, what);
}

std::vector<float> randomFloats(size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> v(n);
  for (float &f : v)
    f = d(g);
  return v;
}

// The thread's index as i64 (%12), the row length n (%13) and the guard
// t < n (%14), then x[r, t] (0 past n) in %15.
const char *kLoadOwn =
    "        %11 = thread_id : i32 origin(synth test)\n"
    "        %12 = cast %11 : i64 origin(synth test)\n"
    "        %13 = extent %1 {dim = 1} : i64 origin(synth test)\n"
    "        %14 = cmp %12, %13 {pred = \"lt\"} : bool origin(synth test)\n"
    "        %15 = load %1[%9, %12] guard(%14) : f32 access(guarded, thread) "
    "prov(op 4) origin(synth test)\n";

/// The classic shared-memory tree: s[t] = x[r, t]; then for stride 32, 16,
/// ..., 1 the threads below the stride add s[t + stride]; out[r] = s[0].
/// `@B1`/`@B2` mark the two barriers.
std::string treeReduction() {
  return rowProgram(
      64, 64, 1,
      std::string(kLoadOwn) +
          "        store %10[%12], %15 access(proven, thread) origin(synth test)\n"
          "        barrier {scope = \"cta\"} origin(synth B1)\n"
          "        %16 = constant {value = 0} : i64 origin(synth test)\n"
          "        %17 = constant {value = 6} : i64 origin(synth test)\n"
          "        %18 = constant {value = 32} : i64 origin(synth test)\n"
          "        for %16, %17 origin(synth test) {\n"
          "        ^(%19: i64):\n"
          "          %20 = shr %18, %19 : i64 origin(synth test)\n"
          "          %21 = cmp %12, %20 {pred = \"lt\"} : bool origin(synth test)\n"
          "          if %21 origin(synth test) {\n"
          "            %22 = load %10[%12] : f32 access(proven, thread) origin(synth test)\n"
          "            %23 = add %12, %20 : i64 origin(synth test)\n"
          "            %24 = load %10[%23] : f32 access(assumed, thread) origin(synth test)\n"
          "            %25 = add %22, %24 : f32 origin(synth test)\n"
          "            store %10[%12], %25 access(proven, thread) origin(synth test)\n"
          "            yield origin(synth test)\n"
          "          } else {\n"
          "            yield origin(synth test)\n"
          "          }\n"
          "          barrier {scope = \"cta\"} origin(synth B2)\n"
          "          yield origin(synth test)\n"
          "        }\n"
          "        %26 = load %10[%16] : f32 access(proven, all) origin(synth test)\n"
          "        store %0[%9], %26 access(assumed, leader) prov(op 5) origin(synth test)\n");
}

/// The host's tree over one row of 64 (zero past n).
float hostTree(const float *row, int64_t n) {
  float s[64];
  for (int t = 0; t < 64; ++t)
    s[t] = t < n ? row[t] : 0.0f;
  for (int st = 32; st >= 1; st /= 2)
    for (int t = 0; t < st; ++t)
      s[t] = s[t] + s[t + st];
  return s[0];
}

struct Rows {
  std::vector<float> x, out;
  int64_t rows, n;
};

PhysRunResult runRows(const phys::Program &p, Rows &d, int64_t outCols,
                      PhysRunOptions opts = {}) {
  View x = View::contiguous(d.x.data(), ScalarKind::F32, {d.rows, d.n});
  View out = outCols ? View::contiguous(d.out.data(), ScalarKind::F32,
                                        {d.rows, outCols})
                     : View::contiguous(d.out.data(), ScalarKind::F32, {d.rows});
  return runProgram(p, {Arg::ofView(out), Arg::ofView(x)}, opts);
}

Rows makeRows(int64_t rows, int64_t n, int64_t outPerRow, unsigned seed) {
  Rows d;
  d.rows = rows;
  d.n = n;
  d.x = randomFloats(rows * n, seed);
  d.out.assign(rows * outPerRow, -7.0f);
  return d;
}

TEST(CtaInterp, TreeReductionThroughSharedMemory) {
  std::unique_ptr<phys::Program> p = parseVerified(treeReduction());
  ASSERT_TRUE(p);
  // Size-1, odd, full and empty rows; no rows at all.
  for (int64_t n : {1, 7, 63, 64, 0})
    for (int64_t rows : {5, 1, 0}) {
      Rows d = makeRows(rows, n, 1, 11 + n);
      for (auto order : {PhysRunOptions::Order::Forward,
                         PhysRunOptions::Order::Shuffled}) {
        PhysRunOptions o;
        o.order = order;
        PhysRunResult r = runRows(*p, d, 0, o);
        ASSERT_TRUE(r.ok) << r.error;
        for (int64_t i = 0; i < rows; ++i)
          EXPECT_EQ(d.out[i], hostTree(&d.x[i * n], n)) << "row " << i << " n " << n;
      }
    }
}

TEST(CtaInterp, DroppedBarrierIsASharedMemoryRace) {
  for (const char *drop : {"B1", "B2"}) {
    std::string text = replaceAll(
        treeReduction(),
        std::string("barrier {scope = \"cta\"} origin(synth ") + drop + ")\n",
        "");
    std::unique_ptr<phys::Program> p = parseVerified(text);
    ASSERT_TRUE(p);
    Rows d = makeRows(3, 64, 1, 5);
    PhysRunResult r = runRows(*p, d, 0);
    EXPECT_FALSE(r.ok) << drop;
    EXPECT_NE(r.error.find("shared-memory race on buffer s element "),
              std::string::npos)
        << r.error;
    EXPECT_NE(r.error.find(" between "), std::string::npos) << r.error;
    // Without the race check, dropping the second barrier goes unnoticed
    // (the fibers run in a fixed order): the check is what catches it.
    // Dropping the first makes thread 0 read s[32] before thread 32 wrote
    // it, which is an error of its own.
    PhysRunOptions o;
    o.detectRaces = false;
    PhysRunResult u = runRows(*p, d, 0, o);
    if (drop == std::string("B2")) {
      EXPECT_TRUE(u.ok) << u.error;
    } else {
      EXPECT_FALSE(u.ok);
      EXPECT_NE(u.error.find("thread 0, op 25 (load): reads element 32 of "
                             "shared buffer s, which this CTA never wrote"),
                std::string::npos)
          << u.error;
    }
  }
}

TEST(CtaInterp, ReadingUnwrittenSharedMemoryIsAnError) {
  // Thread t reads s[t + 1] without anyone having written s[63 + 1 - 1]...
  // here: the tree's first step with the initial stores removed.
  std::string text = replaceAll(
      treeReduction(),
      "        store %10[%12], %15 access(proven, thread) origin(synth test)\n"
      "        barrier {scope = \"cta\"} origin(synth B1)\n",
      "");
  std::unique_ptr<phys::Program> p = parse(text);
  ASSERT_TRUE(p);
  Rows d = makeRows(2, 64, 1, 3);
  PhysRunResult r = runRows(*p, d, 0);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("of shared buffer s, which this CTA never wrote"),
            std::string::npos)
      << r.error;
}

/// Warp sums by a xor butterfly of shuffles, one partial per warp through
/// shared memory, out[r] = s[0] + s[1].
std::string warpReduction() {
  std::string body = std::string(kLoadOwn) +
                     "        %16 = lane_id : i32 origin(synth test)\n"
                     "        %17 = warp_id : i32 origin(synth test)\n";
  std::string v = "%15";
  int id = 18;
  for (int k : {16, 8, 4, 2, 1}) {
    std::string c = "%" + std::to_string(id++), s = "%" + std::to_string(id++),
                a = "%" + std::to_string(id++);
    body += "        " + c + " = constant {value = " + std::to_string(k) +
            "} : i32 origin(synth test)\n"
            "        " + s + " = shuffle " + v + ", " + c +
            " {mode = \"xor\"} : f32 origin(synth test)\n"
            "        " + a + " = add " + v + ", " + s +
            " : f32 origin(synth test)\n";
    v = a;
  }
  // id is now 33.
  body += "        %33 = constant {value = 0} : i32 origin(synth test)\n"
          "        %34 = cmp %16, %33 {pred = \"eq\"} : bool origin(synth test)\n"
          "        if %34 origin(synth test) {\n"
          "          %35 = cast %17 : i64 origin(synth test)\n"
          "          store %10[%35], " + v +
          " access(proven, thread) origin(synth test)\n"
          "          yield origin(synth test)\n"
          "        } else {\n"
          "          yield origin(synth test)\n"
          "        }\n"
          "        barrier {scope = \"cta\"} origin(synth test)\n"
          "        %36 = constant {value = 0} : i64 origin(synth test)\n"
          "        %37 = constant {value = 1} : i64 origin(synth test)\n"
          "        %38 = load %10[%36] : f32 access(proven, all) origin(synth test)\n"
          "        %39 = load %10[%37] : f32 access(proven, all) origin(synth test)\n"
          "        %40 = add %38, %39 : f32 origin(synth test)\n"
          "        store %0[%9], %40 access(assumed, leader) prov(op 5) origin(synth test)\n";
  return rowProgram(64, 2, 1, body);
}

/// The butterfly's sum of 32 lanes (every lane ends with the same value;
/// lane 0's is returned).
float hostButterfly(const float *v) {
  float a[32], b[32];
  std::memcpy(a, v, sizeof(a));
  for (int k : {16, 8, 4, 2, 1}) {
    for (int l = 0; l < 32; ++l)
      b[l] = a[l] + a[l ^ k];
    std::memcpy(a, b, sizeof(a));
  }
  return a[0];
}

TEST(CtaInterp, WarpShuffleReduction) {
  std::unique_ptr<phys::Program> p = parseVerified(warpReduction());
  ASSERT_TRUE(p);
  for (int64_t n : {64, 33, 1, 0}) {
    Rows d = makeRows(4, n, 1, 21 + n);
    PhysRunResult r = runRows(*p, d, 0);
    ASSERT_TRUE(r.ok) << r.error;
    for (int64_t i = 0; i < d.rows; ++i) {
      float lanes[64] = {};
      for (int t = 0; t < n; ++t)
        lanes[t] = d.x[i * n + t];
      EXPECT_EQ(d.out[i], hostButterfly(lanes) + hostButterfly(lanes + 32))
          << "row " << i << " n " << n;
    }
  }
}

/// out[r, t] = shuffle(x[r, t], K) {mode = MODE} for every thread t < 64
/// (rows of 64).
std::string shuffleProgram(const std::string &mode, int k) {
  return rowProgram(
      64, 1, 2,
      std::string(kLoadOwn) +
          "        %16 = constant {value = " + std::to_string(k) +
          "} : i32 origin(synth test)\n"
          "        %17 = shuffle %15, %16 {mode = \"" + mode +
          "\"} : f32 origin(synth test)\n"
          "        store %0[%9, %12], %17 access(assumed, thread) prov(op 5) "
          "origin(synth test)\n");
}

TEST(CtaInterp, ShuffleModes) {
  for (const char *mode : {"xor", "down", "idx"})
    for (int k : {0, 1, 5, 31, 33}) {
      std::unique_ptr<phys::Program> p = parseVerified(shuffleProgram(mode, k));
      ASSERT_TRUE(p);
      Rows d = makeRows(2, 64, 64, 7);
      PhysRunResult r = runRows(*p, d, 64);
      ASSERT_TRUE(r.ok) << r.error;
      for (int64_t i = 0; i < 2; ++i)
        for (int t = 0; t < 64; ++t) {
          int lane = t % 32, base = t - lane, kk = k & 31;
          int src = std::string(mode) == "xor"    ? lane ^ kk
                    : std::string(mode) == "down" ? (lane + kk < 32 ? lane + kk : lane)
                                                  : kk;
          EXPECT_EQ(d.out[i * 64 + t], d.x[i * 64 + base + src])
              << mode << " " << k << " thread " << t;
        }
    }
}

TEST(CtaInterp, BitcastAndCtaSize) {
  // out[r, cta_size - 1 - t] = bitcast(bitcast(x[r, t]) ^ sign bit) = -x.
  std::string text = rowProgram(
      64, 1, 2,
      std::string(kLoadOwn) +
          "        %16 = bitcast %15 : u32 origin(synth test)\n"
          "        %17 = constant {value = 2147483648} : u32 origin(synth test)\n"
          "        %18 = bitxor %16, %17 : u32 origin(synth test)\n"
          "        %19 = bitcast %18 : f32 origin(synth test)\n"
          "        %20 = cta_size : i32 origin(synth test)\n"
          "        %21 = constant {value = 1} : i32 origin(synth test)\n"
          "        %22 = sub %20, %21 : i32 origin(synth test)\n"
          "        %23 = sub %22, %11 : i32 origin(synth test)\n"
          "        %24 = cast %23 : i64 origin(synth test)\n"
          "        store %0[%9, %24], %19 access(assumed, thread) prov(op 5) "
          "origin(synth test)\n");
  std::unique_ptr<phys::Program> p = parseVerified(text);
  ASSERT_TRUE(p);
  Rows d = makeRows(3, 64, 64, 17);
  PhysRunResult r = runRows(*p, d, 64);
  ASSERT_TRUE(r.ok) << r.error;
  for (int64_t i = 0; i < 3; ++i)
    for (int t = 0; t < 64; ++t)
      EXPECT_EQ(d.out[i * 64 + 63 - t], -d.x[i * 64 + t]);
}

/// Reverses each row (n <= 64) through shared memory.
std::string blockReverse() {
  return rowProgram(
      64, 64, 2,
      std::string(kLoadOwn) +
          "        if %14 origin(synth test) {\n"
          "          store %10[%12], %15 access(proven, thread) origin(synth test)\n"
          "          yield origin(synth test)\n"
          "        } else {\n"
          "          yield origin(synth test)\n"
          "        }\n"
          "        barrier {scope = \"cta\"} origin(synth test)\n"
          "        if %14 origin(synth test) {\n"
          "          %16 = constant {value = 1} : i64 origin(synth test)\n"
          "          %17 = sub %13, %16 : i64 origin(synth test)\n"
          "          %18 = sub %17, %12 : i64 origin(synth test)\n"
          "          %19 = load %10[%18] : f32 access(assumed, thread) origin(synth test)\n"
          "          store %0[%9, %12], %19 access(assumed, thread) prov(op 5) origin(synth test)\n"
          "          yield origin(synth test)\n"
          "        } else {\n"
          "          yield origin(synth test)\n"
          "        }\n");
}

TEST(CtaInterp, BlockReverseThroughSharedMemory) {
  std::unique_ptr<phys::Program> p = parseVerified(blockReverse());
  ASSERT_TRUE(p);
  for (int64_t n : {64, 17, 1, 0}) {
    Rows d = makeRows(3, n, n, 31 + n);
    PhysRunResult r = runRows(*p, d, n);
    ASSERT_TRUE(r.ok) << r.error;
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t t = 0; t < n; ++t)
        EXPECT_EQ(d.out[i * n + t], d.x[i * n + n - 1 - t]);
  }
}

/// Thread t scales x[r, 4t .. 4t + 3] into out: by 2 through one vector
/// load and store when both rows are aligned there, all four elements
/// exist and the launch is not the checked one; by 3 element by element
/// otherwise (so the test sees which path ran).
std::string vectorScale() {
  return rowProgram(
      32, 1, 2,
      "        %11 = thread_id : i32 origin(synth test)\n"
      "        %12 = cast %11 : i64 origin(synth test)\n"
      "        %13 = extent %1 {dim = 1} : i64 origin(synth test)\n"
      "        %14 = constant {value = 4} : i64 origin(synth test)\n"
      "        %15 = mul %12, %14 : i64 origin(synth test)\n"
      "        %16 = stride %1 {dim = 0} : i64 origin(synth test)\n"
      "        %17 = mul %9, %16 : i64 origin(synth test)\n"
      "        %18 = add %17, %15 : i64 origin(synth test)\n"
      "        %19 = aligned %1, %18 {bytes = 16} : bool origin(synth test)\n"
      "        %20 = stride %0 {dim = 0} : i64 origin(synth test)\n"
      "        %21 = mul %9, %20 : i64 origin(synth test)\n"
      "        %22 = add %21, %15 : i64 origin(synth test)\n"
      "        %23 = aligned %0, %22 {bytes = 16} : bool origin(synth test)\n"
      "        %24 = constant {value = 3} : i64 origin(synth test)\n"
      "        %25 = add %15, %24 : i64 origin(synth test)\n"
      "        %26 = cmp %25, %13 {pred = \"lt\"} : bool origin(synth test)\n"
      "        %27 = checked_launch : bool origin(synth test)\n"
      "        %28 = not %27 : bool origin(synth test)\n"
      "        %29 = bitand %19, %23 : bool origin(synth test)\n"
      "        %30 = bitand %29, %26 : bool origin(synth test)\n"
      "        %31 = bitand %30, %28 : bool origin(synth test)\n"
      "        %32 = constant {value = 2.0} : f32 origin(synth test)\n"
      "        %33 = constant {value = 3.0} : f32 origin(synth test)\n"
      "        if %31 origin(synth test) {\n"
      "          %34, %35, %36, %37 = vector_load %1[%9, %15] {width = 4} : "
      "f32, f32, f32, f32 access(assumed, thread) prov(op 4) origin(synth test)\n"
      "          %38 = mul %34, %32 : f32 origin(synth test)\n"
      "          %39 = mul %35, %32 : f32 origin(synth test)\n"
      "          %40 = mul %36, %32 : f32 origin(synth test)\n"
      "          %41 = mul %37, %32 : f32 origin(synth test)\n"
      "          vector_store %0[%9, %15], %38, %39, %40, %41 {width = 4} "
      "access(assumed, thread) prov(op 5) origin(synth test)\n"
      "          yield origin(synth test)\n"
      "        } else {\n"
      "          %42 = constant {value = 0} : i64 origin(synth test)\n"
      "          for %42, %14 origin(synth test) {\n"
      "          ^(%43: i64):\n"
      "            %44 = add %15, %43 : i64 origin(synth test)\n"
      "            %45 = cmp %44, %13 {pred = \"lt\"} : bool origin(synth test)\n"
      "            %46 = load %1[%9, %44] guard(%45) : f32 access(guarded, thread) "
      "prov(op 4) origin(synth test)\n"
      "            %47 = mul %46, %33 : f32 origin(synth test)\n"
      "            store %0[%9, %44], %47 guard(%45) access(guarded, thread) "
      "prov(op 5) origin(synth test)\n"
      "            yield origin(synth test)\n"
      "          }\n"
      "          yield origin(synth test)\n"
      "        }\n");
}

TEST(CtaInterp, VectorAccessesTakeTheAlignedOrTheScalarPath) {
  std::unique_ptr<phys::Program> p = parseVerified(vectorScale());
  ASSERT_TRUE(p);
  for (int misaligned = 0; misaligned < 2; ++misaligned)
    for (int checked = 0; checked < 2; ++checked)
      for (int64_t n : {128, 6, 1, 0}) {
        Rows d = makeRows(4, n, n, 41 + n);
        PhysRunOptions o;
        o.misalignedViews = misaligned;
        o.checkedLaunch = checked;
        PhysRunResult r = runRows(*p, d, n, o);
        ASSERT_TRUE(r.ok) << r.error;
        for (int64_t i = 0; i < 4; ++i)
          for (int64_t a = 0; a < n; a += 4) {
            // Rows are contiguous: x and out offsets agree.
            bool vec = !misaligned && !checked && a + 3 < n &&
                       (i * n + a) % 4 == 0;
            for (int64_t j = a; j < std::min(a + 4, n); ++j)
              EXPECT_EQ(d.out[i * n + j], d.x[i * n + j] * (vec ? 2.0f : 3.0f))
                  << "n " << n << " row " << i << " element " << j
                  << " misaligned " << misaligned << " checked " << checked;
          }
      }
}

TEST(CtaInterp, MisalignedVectorAccessIsAnError) {
  // Without the `aligned` test the vector path reads row 1 of a 6-wide x at
  // element offset 6: not 16-byte aligned.
  std::string text = replaceAll(vectorScale(),
                                "%31 = bitand %30, %28 : bool",
                                "%31 = bitand %26, %28 : bool");
  std::unique_ptr<phys::Program> p = parse(text);
  ASSERT_TRUE(p);
  Rows d = makeRows(2, 6, 6, 3);
  PhysRunResult r = runRows(*p, d, 6);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("vector access to x at element offset 6 is not "
                         "aligned to 16 bytes"),
            std::string::npos)
      << r.error;
}

/// A CTA barrier that only threads below 16 reach.
std::string barrierUnderThreadIf(const std::string &scope,
                                 const std::string &cond) {
  return rowProgram(
      64, 1, 1,
      std::string(kLoadOwn) +
          "        %16 = lane_id : i32 origin(synth test)\n"
          "        %17 = warp_id : i32 origin(synth test)\n"
          "        %18 = constant {value = 16} : i32 origin(synth test)\n"
          "        %19 = constant {value = 0} : i32 origin(synth test)\n"
          "        %20 = cmp %11, %18 {pred = \"lt\"} : bool origin(synth test)\n"
          "        %21 = cmp %17, %19 {pred = \"eq\"} : bool origin(synth test)\n"
          "        if " + cond + " origin(synth test) {\n"
          "          barrier {scope = \"" + scope + "\"} origin(synth test)\n"
          "          yield origin(synth test)\n"
          "        } else {\n"
          "          yield origin(synth test)\n"
          "        }\n");
}

TEST(CtaInterp, BarrierUnderThreadDependentControlFlow) {
  // thread_id < 16: rejected by the verifier, and unverified the
  // interpreter reports the barrier the others never reach.
  for (const char *scope : {"cta", "warp"}) {
    std::unique_ptr<phys::Program> p =
        parse(barrierUnderThreadIf(scope, "%20"));
    ASSERT_TRUE(p);
    std::vector<std::string> errors = verify(*p);
    EXPECT_TRUE(hasError(errors, "[uniform] op 22 (barrier): a " +
                                     std::string(scope == std::string("cta")
                                                     ? "CTA"
                                                     : "warp") +
                                     " barrier must be reached by every "
                                     "thread"))
        << joined(errors);
    EXPECT_TRUE(hasError(errors, "varies per thread (op 21, if)"))
        << joined(errors);
    Rows d = makeRows(2, 64, 1, 1);
    PhysRunResult r = runRows(*p, d, 0);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("op 22 (barrier): the " +
                           std::string(scope == std::string("cta") ? "CTA"
                                                                   : "warp") +
                           " cannot complete it: threads 0-15 wait at op 22 "
                           "(barrier); threads 16-"),
              std::string::npos)
        << r.error;
  }
  // warp_id == 0: varies per warp only; a warp barrier may sit there, a
  // CTA barrier not.
  {
    std::unique_ptr<phys::Program> p =
        parseVerified(barrierUnderThreadIf("warp", "%21"));
    ASSERT_TRUE(p);
    Rows d = makeRows(2, 64, 1, 1);
    EXPECT_TRUE(runRows(*p, d, 0).ok);
  }
  {
    std::unique_ptr<phys::Program> p = parse(barrierUnderThreadIf("cta", "%21"));
    ASSERT_TRUE(p);
    EXPECT_TRUE(reports(*p, "varies per warp (op 21, if)"));
    Rows d = makeRows(2, 64, 1, 1);
    PhysRunResult r = runRows(*p, d, 0);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("threads 0-31 wait at op 22 (barrier); threads "
                           "32-63 finished"),
              std::string::npos)
        << r.error;
  }
}

TEST(CtaInterp, ShuffleReachedByHalfAWarp) {
  std::string text = rowProgram(
      64, 1, 1,
      std::string(kLoadOwn) +
          "        %16 = constant {value = 16} : i32 origin(synth test)\n"
          "        %17 = lane_id : i32 origin(synth test)\n"
          "        %18 = cmp %17, %16 {pred = \"lt\"} : bool origin(synth test)\n"
          "        %19 = if %18 : f32 origin(synth test) {\n"
          "          %20 = shuffle %15, %16 {mode = \"down\"} : f32 origin(synth test)\n"
          "          yield %20 origin(synth test)\n"
          "        } else {\n"
          "          yield %15 origin(synth test)\n"
          "        }\n");
  std::unique_ptr<phys::Program> p = parse(text);
  ASSERT_TRUE(p);
  EXPECT_TRUE(reports(*p, "[uniform] op 19 (shuffle): a shuffle "
                      "must be reached by every thread of its "
                      "warp, but it sits under control flow "
                      "that varies per thread (op 18, if)"));
  Rows d = makeRows(1, 64, 1, 1);
  PhysRunResult r = runRows(*p, d, 0);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("op 19 (shuffle): the warp cannot complete it: "
                         "threads 0-15 wait at op 19 (shuffle); threads 16-31 "
                         "finished"),
            std::string::npos)
      << r.error;
}

TEST(CtaInterp, UniformityFollowsLoopsAndLoads) {
  // A `for` bounded by the thread id, and one bounded by a value loaded at
  // a thread-dependent address: a barrier inside either is rejected; a
  // loop bounded by a load at a uniform address is fine.
  auto program = [](const std::string &bound) {
    return rowProgram(
        64, 64, 1,
        std::string(kLoadOwn) +
            "        %16 = constant {value = 0} : i64 origin(synth test)\n"
            "        %17 = load %1[%9, %16] : f32 access(assumed, all) prov(op 4) origin(synth test)\n"
            "        %18 = cast %17 : i64 origin(synth test)\n"
            "        %19 = cast %15 : i64 origin(synth test)\n"
            "        for %16, " + bound + " origin(synth test) {\n"
            "        ^(%20: i64):\n"
            "          barrier {scope = \"cta\"} origin(synth test)\n"
            "          yield origin(synth test)\n"
            "        }\n");
  };
  EXPECT_TRUE(reports(program("%12"),
                      "varies per thread (op 19, for)"));
  EXPECT_TRUE(reports(program("%19"),
                      "varies per thread (op 19, for)"));
  EXPECT_TRUE(parseVerified(program("%18")));
}

TEST(CtaInterp, UniformityOfLoopsIteratesToAFixpoint) {
  // A `loop` of i from 0 while i < BOUND, i += STEP, a CTA barrier in its
  // body: legal when both are uniform; not when the bound is the thread
  // id, nor when the step is (then i varies from the second iteration on,
  // which only the fixpoint over the carried value sees).
  auto program = [](const std::string &bound, const std::string &step) {
    return rowProgram(
        64, 1, 1,
        std::string(kLoadOwn) +
            "        %16 = constant {value = 0} : i64 origin(synth test)\n"
            "        %17 = constant {value = 4} : i64 origin(synth test)\n"
            "        %18 = constant {value = 1} : i64 origin(synth test)\n"
            "        %19 = loop %16 {test_first = true} : i64 origin(synth test) {\n"
            "        ^(%20: i64):\n"
            "          %21 = cmp %20, " + bound + " {pred = \"lt\"} : bool origin(synth test)\n"
            "          condition %21 origin(synth test)\n"
            "        } {\n"
            "        ^(%22: i64):\n"
            "          barrier {scope = \"cta\"} origin(synth test)\n"
            "          yield %22 origin(synth test)\n"
            "        } {\n"
            "        ^(%23: i64):\n"
            "          %24 = add %23, " + step + " : i64 origin(synth test)\n"
            "          yield %24 origin(synth test)\n"
            "        }\n");
  };
  std::unique_ptr<phys::Program> ok = parseVerified(program("%17", "%18"));
  ASSERT_TRUE(ok);
  Rows d = makeRows(2, 64, 1, 1);
  PhysRunResult r = runRows(*ok, d, 0);
  EXPECT_TRUE(r.ok) << r.error;
  for (const char *bad : {"bound", "step"}) {
    std::unique_ptr<phys::Program> p =
        parse(bad == std::string("bound") ? program("%12", "%18")
                                          : program("%17", "%12"));
    ASSERT_TRUE(p);
    EXPECT_TRUE(reports(*p, "[uniform] op 21 (barrier): a CTA "
                        "barrier must be reached by every "
                        "thread of its CTA, but it sits under "
                        "control flow that varies per thread "
                        "(op 18, loop)"))
        << bad;
  }
}

TEST(CtaInterp, SharedRecordsAndScope) {
  std::string text = treeReduction();
  // Beyond the CTA's shared memory.
  std::string big = replaceAll(text, "shared_offset 0", "shared_offset 16");
  EXPECT_TRUE(reports(big,
                      "[shared] cta_shared buffer 2 (s) occupies bytes [16, "
                      "272), beyond the CTA's 256 bytes of shared memory"));
  // No offset.
  std::string none = replaceAll(text, " shared_offset 0", "");
  EXPECT_TRUE(reports(none,
                      "[shared] cta_shared buffer 2 (s) has no shared_offset"));
  // Two records over the same bytes.
  std::string two = replaceAll(
      replaceAll(text, "shared 256)", "shared 512)"),
      "  body {\n",
      "  buffer 3 t: cta_shared f32 size 4 shared_offset 240 init first_write "
      "ownership none writers [] readers []\n  body {\n");
  EXPECT_TRUE(reports(two,
                      "[shared] cta_shared buffer 3 (t) overlaps cta_shared "
                      "buffer 2 (s)"));
  // Shared memory in a thread-scope program (which also may not use the
  // primitives: lit passes/coop_uniform.test).
  std::string thread = replaceAll(text, "scope(cta, threads 64, shared 256)",
                                  "scope(thread)");
  EXPECT_TRUE(reports(thread,
                      "[shared] cta_shared buffer 2 (s) in a program of exec "
                      "scope thread"));
  EXPECT_TRUE(reports(thread,
                      "[scope] op 10 (thread_id): the cooperative primitives "
                      "need exec scope cta"));
}

TEST(CtaInterp, ThreadRangesProveSharedAccesses) {
  // s[t] is proven for 64 threads and a buffer of 64; s[t + 1] is not.
  std::string text = replaceAll(
      treeReduction(),
      "store %10[%12], %15 access(proven, thread)",
      "%90 = constant {value = 1} : i64 origin(synth test)\n"
      "        %91 = add %12, %90 : i64 origin(synth test)\n"
      "        store %10[%91], %15 access(proven, thread)");
  EXPECT_TRUE(reports(text,
                      "claims to be proven in bounds, but coordinate 0 may "
                      "reach the buffer's size 64"));
  // A vector access's proof covers its last element.
  std::string vec = replaceAll(
      vectorScale(), "vector_load %1[%9, %15] {width = 4} : f32, f32, f32, f32 access(assumed",
      "vector_load %10[%15] {width = 4} : f32, f32, f32, f32 access(proven");
  vec = replaceAll(vec, "prov(op 4) origin(synth test)\n          %38",
                   "origin(synth test)\n          %38");
  EXPECT_TRUE(reports(vec,
                      "claims to be proven in bounds, but coordinate 0 may "
                      "reach the buffer's size 1"));
}

TEST(CtaInterp, ThreadsOfOneProgramRaceOnGlobalMemory) {
  // Every thread stores its own value to out[r] (`thread`, not `leader`).
  std::string text = rowProgram(
      64, 1, 1,
      std::string(kLoadOwn) +
          "        store %0[%9], %15 access(assumed, thread) prov(op 5) origin(synth test)\n");
  std::unique_ptr<phys::Program> p = parse(text);
  ASSERT_TRUE(p);
  Rows d = makeRows(2, 64, 1, 1);
  PhysRunResult r = runRows(*p, d, 0);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("write races on out: the element was written by "
                         "thread 0 (op 15) of this program with no barrier "
                         "between"),
            std::string::npos)
      << r.error;
  // With a barrier between one thread's write and the others' reads of it,
  // no race.
  std::string ordered = rowProgram(
      64, 1, 1,
      std::string(kLoadOwn) +
          "        store %0[%9], %15 access(assumed, leader) prov(op 5) origin(synth test)\n"
          "        barrier {scope = \"cta\"} origin(synth test)\n"
          "        %16 = load %0[%9] : f32 access(assumed, all) prov(op 5) origin(synth test)\n");
  std::unique_ptr<phys::Program> q = parse(ordered);
  ASSERT_TRUE(q);
  PhysRunResult ok = runRows(*q, d, 0);
  EXPECT_TRUE(ok.ok) << ok.error;
  // Without it, the readers race with thread 0's write.
  std::unique_ptr<phys::Program> u = parse(replaceAll(
      ordered, "        barrier {scope = \"cta\"} origin(synth test)\n", ""));
  ASSERT_TRUE(u);
  PhysRunResult bad = runRows(*u, d, 0);
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.error.find("read races on out: the element was written by "
                           "thread 0"),
            std::string::npos)
      << bad.error;
}

TEST(CtaInterp, ThousandsOfCtasOf256Threads) {
  std::string text = replaceAll(
      replaceAll(replaceAll(treeReduction(), "threads 64", "threads 256"),
                 "shared 256)", "shared 1024)"),
      "size 64 ", "size 256 ");
  text = replaceAll(text, "buffer<f32, 64>", "buffer<f32, 256>");
  text = replaceAll(text, "{value = 6} : i64", "{value = 8} : i64");
  text = replaceAll(text, "{value = 32} : i64", "{value = 128} : i64");
  std::unique_ptr<phys::Program> p = parseVerified(text);
  ASSERT_TRUE(p);
  // A thousand instances of 256 fibers, each thread ~100 ops: about half a
  // million thread runs with 9 CTA barriers each.
  Rows d = makeRows(1000, 256, 1, 9);
  auto t0 = std::chrono::steady_clock::now();
  PhysRunResult r = runRows(*p, d, 0);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
                 .count();
  ASSERT_TRUE(r.ok) << r.error;
  for (int64_t i = 0; i < d.rows; ++i) {
    float v[256];
    for (int t = 0; t < 256; ++t)
      v[t] = d.x[i * 256 + t];
    for (int st = 128; st >= 1; st /= 2)
      for (int t = 0; t < st; ++t)
        v[t] += v[t + st];
    ASSERT_EQ(d.out[i], v[0]) << "row " << i;
  }
  RecordProperty("seconds", std::to_string(s));
  std::printf("1000 CTAs of 256 threads: %.3f s\n", s);
}

} // namespace

namespace {

/// n programs (n = x.extent(0)), thread scope: program i publishes x[i]
/// into workspace word 1 + i, takes a ticket with an atomic add of order
/// `order` on word 0, and the last to arrive sums the published words into
/// out[0] (the last-arriving-program pattern of grid-reduce).
std::string ticketProgram(const std::string &order) {
  return "program @ticket scope(thread) (%0 out: view<f32, 1> w, %1 x: "
         "view<const f32, 1> r) {\n"
         "  launch {\n"
         "    e0 = extent(x, 0) : i64\n"
         "    e1 = const 0 : i64\n"
         "    e2 = max e0, e1 : i64\n"
         "  }\n"
         "  segment 0 (group 0, parallel) extents [e2] length e2 offset e1\n"
         "  total e2\n"
         "  buffer 0 out: external_view param 0 f32 rank 1 init host "
         "ownership single_instance writers [0] readers []\n"
         "  buffer 1 x: external_view param 1 f32 rank 1 init host "
         "ownership none writers [] readers [0]\n"
         "  buffer 2 ws: invocation_workspace f32 size 64 offset 0 init value "
         "0.0 ownership instance_unique writers [0] readers [0]\n"
         "  body {\n"
         "    %2 = program_id : i64 origin(synth construction)\n"
         "    %3 = launch_value {expr = 2} : i64 origin(synth construction)\n"
         "    %4 = cmp %2, %3 {pred = \"lt\"} : bool origin(synth construction)\n"
         "    if %4 origin(synth construction) {\n"
         "      %5 = launch_value {expr = 1} : i64 origin(synth construction)\n"
         "      segment %2, %5, %3 {group = 0} origin(synth construction) {\n"
         "      ^(%7: i64):\n"
         "        %8 = alloc {buffer = 2} : buffer<f32, 64> origin(synth test)\n"
         "        %9 = load %1[%7] : f32 access(assumed, self) prov(op 1) origin(synth test)\n"
         "        %10 = constant {value = 1} : i64 origin(synth test)\n"
         "        %11 = add %7, %10 : i64 origin(synth test)\n"
         "        store %8[%11], %9 access(assumed, self) origin(synth test)\n"
         "        %12 = constant {value = 0} : i64 origin(synth test)\n"
         "        %13 = constant {value = 1.0} : f32 origin(synth test)\n"
         "        %14 = atomic %8[%12], %13 {kind = \"add\", order = \"" +
         order +
         "\"} : f32 access(assumed, self) origin(synth test)\n"
         "        %15 = cast %14 : i64 origin(synth test)\n"
         "        %16 = add %15, %10 : i64 origin(synth test)\n"
         "        %17 = cmp %16, %3 {pred = \"eq\"} : bool origin(synth test)\n"
         "        if %17 origin(synth test) {\n"
         "          %18 = constant {value = 0.0} : f32 origin(synth test)\n"
         "          %30, %19 = loop %10, %18 {test_first = true} : i64, f32 origin(synth test) {\n"
         "          ^(%20: i64, %21: f32):\n"
         "            %22 = cmp %20, %16 {pred = \"le\"} : bool origin(synth test)\n"
         "            condition %22 origin(synth test)\n"
         "          } {\n"
         "          ^(%23: i64, %24: f32):\n"
         "            %25 = load %8[%23] : f32 access(assumed, self) origin(synth test)\n"
         "            %26 = add %24, %25 : f32 origin(synth test)\n"
         "            %27 = add %23, %10 : i64 origin(synth test)\n"
         "            yield %27, %26 origin(synth test)\n"
         "          } {\n"
         "          ^(%28: i64, %29: f32):\n"
         "            yield %28, %29 origin(synth test)\n"
         "          }\n"
         "          store %0[%12], %19 access(assumed, self) prov(op 2) origin(synth test)\n"
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

} // namespace

// Programs are never ordered by the launch, but an atomic with release
// semantics publishes what its program did before it, and one with acquire
// semantics on the same element orders that before what the acquiring
// program does next: the last-arriving program may read the other
// programs' partials after an acq_rel ticket; after a relaxed one, the
// race check reports the read.
TEST(CtaInterp, AcquireReleaseTicketOrdersPrograms) {
  for (int64_t n : {1, 2, 7, 40}) {
    for (const char *order : {"acq_rel", "seq_cst", "relaxed"}) {
      auto p = parse(ticketProgram(order));
      ASSERT_TRUE(p);
      std::vector<float> x = randomFloats(n, 7 + n), out(1, -1.0f);
      View xv = View::contiguous(x.data(), ScalarKind::F32, {n});
      View ov = View::contiguous(out.data(), ScalarKind::F32, {1});
      PhysRunOptions opts;
      for (auto o : {PhysRunOptions::Order::Forward,
                     PhysRunOptions::Order::Shuffled}) {
        opts.order = o;
        out[0] = -1.0f;
        PhysRunResult r = runProgram(*p, {Arg::ofView(ov), Arg::ofView(xv)},
                                     opts);
        if (std::string(order) == "relaxed" && n > 1) {
          EXPECT_FALSE(r.ok) << "n = " << n;
          EXPECT_NE(r.error.find("races on workspace buffer ws"),
                    std::string::npos)
              << r.error;
          continue;
        }
        ASSERT_TRUE(r.ok) << order << ", n = " << n << ": " << r.error;
        float want = 0;
        // The last program sums words 1..n in index order.
        for (int64_t i = 0; i < n; ++i)
          want += x[i];
        EXPECT_EQ(out[0], want) << order << ", n = " << n;
      }
    }
  }
}
