//===- RngTest.cpp - The rng op: interpreters, construction, verifiers ----===//
//
// The dropout kernel of test/lit/construction/rng_dropout.kir run by the KIR
// interpreter and the physical interpreter against a reference that calls
// the header's intent::philox (bit for bit), and one broken rng op per KIR
// and physical verifier check.
//
//===----------------------------------------------------------------------===//

#include "VerifierHarness.h"

#include "KIR/Parser.h"

#include "intent/philox.hpp"

using namespace intent;
using namespace intent::test;

namespace {

const kir::ScalarKind F32 = kir::ScalarKind::F32;
const kir::ScalarKind U8 = kir::ScalarKind::U8;
const kir::ScalarKind U64 = kir::ScalarKind::U64;

TEST(Rng, DropoutMatchesTheHeaderBitForBit) {
  auto m = loadKernel("rng_dropout.kir");
  for (int64_t n : {0, 1, 7, 1001}) {
    for (uint64_t seed : {uint64_t(0), uint64_t(0xfedcba9876543210ull)}) {
      const float p = 0.25f;
      ArgSpec s = ArgSpec::f32(0);
      s.scalar = interp::Scalar::ofInt(U64, static_cast<int64_t>(seed));
      std::vector<ArgSpec> a = {ArgSpec::view(F32, {n}), ArgSpec::view(U8, {n}),
                                ArgSpec::view(F32, {n}), ArgSpec::f32(p), s};
      auto ref = [&](Memory &mem) {
        intent::philox g(seed, 0);
        for (int64_t i = 0; i < n; ++i) {
          bool keep = g.uniform(static_cast<uint64_t>(i)) >= p;
          mem.as<uint8_t>(1)[i] = keep;
          mem.as<float>(0)[i] = keep ? mem.as<float>(2)[i] / (1.0f - p) : 0.0f;
        }
      };
      DiffOutcome o = runDifferential(*m->kernels[0], a, ref, n + seed);
      EXPECT_EQ(o.total, n);
    }
  }
}

TEST(Rng, InterpreterCallsTheHeader) {
  interp::Scalar out;
  auto u64 = [](uint64_t v) {
    return interp::Scalar::ofInt(U64, static_cast<int64_t>(v));
  };
  intent::philox g(~uint64_t(0), 3);
  ASSERT_TRUE(interp::evalRng("u32", u64(~uint64_t(0)), u64(3), u64(1ull << 40), out));
  EXPECT_EQ(static_cast<uint32_t>(out.i), g.u32(1ull << 40));
  ASSERT_TRUE(interp::evalRng("normal", u64(~uint64_t(0)), u64(3), u64(9), out));
  EXPECT_EQ(static_cast<float>(out.f), g.normal(9));
  EXPECT_FALSE(interp::evalRng("gamma", u64(1), u64(2), u64(3), out));
}

//===----------------------------------------------------------------------===//
// Physical verifier: one broken rng per check
//===----------------------------------------------------------------------===//

TEST(RngVerifier, UnknownFunction) {
  Built b = buildFile("rng_dropout.kir");
  findOp(*b.program, phys::Opcode::Rng)->setAttr("fn", std::string("gamma"));
  expectError(b, "[attrs]", "`fn` is \"u32\", \"uniform\" or \"normal\"");
}

TEST(RngVerifier, ResultTypeFollowsFunction) {
  Built b = buildFile("rng_dropout.kir");
  // u32 draws produce u32, but this op still produces f32.
  findOp(*b.program, phys::Opcode::Rng)->setAttr("fn", std::string("u32"));
  expectError(b, "[types]", "result is u32 for fn \"u32\", f32 otherwise");
}

TEST(RngVerifier, OperandsAreU64) {
  Built b = buildFile("rng_dropout.kir");
  phys::Op *rng = findOp(*b.program, phys::Opcode::Rng);
  // The counter replaced by the i64 coordinate itself (without its cast).
  rng->operands[2] = rng->operands[2]->def->operands[0];
  expectError(b, "[types]", "takes (seed, stream, counter), all u64");
}

//===----------------------------------------------------------------------===//
// KIR verifier
//===----------------------------------------------------------------------===//

std::vector<std::string> kirErrors(const std::string &text) {
  std::string err;
  auto m = kir::parseModule(text, "t.kir", err);
  EXPECT_TRUE(m) << err;
  std::vector<std::string> errs;
  if (m)
    EXPECT_FALSE(kir::verifyKernel(*m->kernels[0], errs));
  return errs;
}

bool has(const std::vector<std::string> &errs, const std::string &text) {
  for (const std::string &e : errs)
    if (e.find(text) != std::string::npos)
      return true;
  return false;
}

TEST(RngKIRVerifier, ChecksOperandsFunctionAndResult) {
  auto errs = kirErrors(R"(kernel @k (%0 y: view<f32, 1> w, %1 s: u64, %2 i: i32) {
  %3 = rng %1, %1, %2 {fn = "uniform"} : f32
  %4 = rng %1, %1, %1 {fn = "poisson"} : f32
  %5 = rng %1, %1, %1 {fn = "u32"} : f32
  %6 = rng %1, %1 {fn = "normal"} : f32
  return
}
)");
  EXPECT_TRUE(has(errs, "op 0 (rng): rng operands (seed, stream, counter) must be u64"));
  EXPECT_TRUE(has(errs, "op 1 (rng): rng fn must be \"u32\", \"uniform\" or \"normal\""));
  EXPECT_TRUE(has(errs, "op 2 (rng): rng u32 must have one u32 result"));
  EXPECT_TRUE(has(errs, "op 3 (rng)"));
}

} // namespace
