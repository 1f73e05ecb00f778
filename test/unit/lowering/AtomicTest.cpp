//===- AtomicTest.cpp - Atomics: verifier checks, scope pass, differential ===//
//
// One broken program per [atomic] check (memory order present and legal,
// kind, typed old value / CAS success, sharing domain recorded, a scope that
// covers the sharing domain) and the [ownership] / [conflicts] rules of
// atomics; the atomic-scopes pass's choice per sharing domain; and a
// scatter-add run by the KIR and physical interpreters (shuffled, with race
// detection: atomics of different programs do not race) against a serial
// reference.
//
//===----------------------------------------------------------------------===//

#include "DiffHarness.h"
#include "VerifierHarness.h"

#include "Physical/AtomicScope.h"

using namespace intent;
using namespace intent::test;

namespace {

Built scatter() { return buildFile("atomics.kir", "scatter_add"); }

TEST(AtomicVerifier, MemoryOrderPresent) {
  Built b = scatter();
  phys::Op *op = findOp(*b.program, phys::Opcode::Atomic);
  op->attrs.erase(std::remove_if(op->attrs.begin(), op->attrs.end(),
                                 [](const phys::NamedAttr &a) {
                                   return a.name == "order";
                                 }),
                  op->attrs.end());
  expectError(b, "[atomic]", "memory order '' is not one of");
}

TEST(AtomicVerifier, MemoryOrderLegal) {
  Built b = scatter();
  findOp(*b.program, phys::Opcode::Atomic)
      ->setAttr("order", std::string("consume"));
  expectError(b, "[atomic]", "memory order 'consume' is not one of");
}

TEST(AtomicVerifier, KindLegal) {
  Built b = scatter();
  findOp(*b.program, phys::Opcode::Atomic)->setAttr("kind", std::string("sub"));
  expectError(b, "[atomic]", "kind 'sub' is not add, min, max or exch");
}

TEST(AtomicVerifier, OldValueTyped) {
  Built b = scatter();
  findOp(*b.program, phys::Opcode::Atomic)->result()->type =
      phys::Type::scalar(kir::ScalarKind::F64);
  expectError(b, "[atomic]", "must return the old value (one f32)");
}

TEST(AtomicVerifier, CasSuccessTyped) {
  Built b = buildFile("atomics.kir", "two_units");
  findOp(*b.program, phys::Opcode::AtomicCas)->result(1)->type =
      phys::Type::scalar(kir::ScalarKind::I32);
  expectError(b, "[atomic]",
              "must return the old value and the success flag (i32, bool)");
}

TEST(AtomicVerifier, ValueOperandTyped) {
  Built b = buildFile("atomics.kir", "mod_add");
  phys::Op *op = findOp(*b.program, phys::Opcode::Atomic);
  op->operands[1] = op->coords()[0]; // an i64 value on an i32 element
  expectError(b, "[atomic]", "value operand 1 differs from the element type i32");
}

TEST(AtomicVerifier, SharingDomainRecorded) {
  Built b = scatter();
  b.program->buffers[0].sharing = phys::Sharing::None;
  expectError(b, "[atomic]", "the sharing domain of y is not recorded");
}

TEST(AtomicVerifier, ScopeCoversSharingDomain) {
  Built b = scatter();
  findOp(*b.program, phys::Opcode::Atomic)->setAttr("scope", std::string("cta"));
  expectError(b, "[atomic]",
              "scope 'cta' does not cover the sharing domain launch of y "
              "(needs gpu or wider)");
}

TEST(AtomicVerifier, ScopeKnown) {
  Built b = scatter();
  findOp(*b.program, phys::Opcode::Atomic)
      ->setAttr("scope", std::string("block"));
  expectError(b, "[atomic]", "scope 'block' does not cover");
}

TEST(AtomicVerifier, WiderScopeIsLegal) {
  Built b = scatter();
  findOp(*b.program, phys::Opcode::Atomic)->setAttr("scope", std::string("sys"));
  std::vector<std::string> errs;
  EXPECT_TRUE(phys::verifyProgram(*b.program, &b.kernel(), errs))
      << (errs.empty() ? "" : errs[0]);
}

TEST(AtomicVerifier, OwnershipIsAtomic) {
  Built b = scatter();
  b.program->buffers[0].ownership = phys::Ownership::InstanceUnique;
  expectError(b, "[ownership]",
              "ownership is instance_unique, expected atomic");
}

TEST(AtomicVerifier, AtomicAgainstPlainStoreIsAConflict) {
  // Turn the scatter's atomic into a plain store: y(idx[i]) written by
  // several instances without atomic semantics is an unclosed conflict.
  Built b = scatter();
  phys::Op *op = findOp(*b.program, phys::Opcode::Atomic);
  phys::Op *store = insertBefore(*b.program, op, phys::Opcode::Store,
                                 {op->operands[0], op->operands[1],
                                  op->operands[2]},
                                 {});
  store->access = op->access;
  expectError(b, "[conflicts]", "unordered conflict not closed");
}

TEST(AtomicScopes, ScopePerSharingDomain) {
  EXPECT_EQ(phys::scopeFor(phys::Sharing::Instance), "cta");
  EXPECT_EQ(phys::scopeFor(phys::Sharing::CTA), "cta");
  EXPECT_EQ(phys::scopeFor(phys::Sharing::Launch), "gpu");
  EXPECT_EQ(phys::scopeFor(phys::Sharing::System), "sys");
  EXPECT_FALSE(phys::scopeCovers("cta", phys::Sharing::Launch));
  EXPECT_TRUE(phys::scopeCovers("gpu", phys::Sharing::CTA));
  EXPECT_FALSE(phys::scopeCovers("gpu", phys::Sharing::System));
  EXPECT_FALSE(phys::scopeCovers("gpu", phys::Sharing::None));
}

TEST(AtomicScopes, PassFollowsTheBufferAndRemarks) {
  Built b = scatter();
  b.program->buffers[0].sharing = phys::Sharing::CTA; // as if CTA-shared
  std::vector<phys::Remark> remarks;
  phys::assignAtomicScopes(*b.program, remarks);
  EXPECT_EQ(findOp(*b.program, phys::Opcode::Atomic)->strAttr("scope"), "cta");
  ASSERT_EQ(remarks.size(), 1u);
  EXPECT_NE(remarks[0].text.find("atomic_add on y: scope cta (y is shared "
                                 "only by the instances of one CTA"),
            std::string::npos)
      << remarks[0].text;
}

TEST(AtomicDifferential, ModuloAddAndCas) {
  auto m = loadKernel("atomics.kir");
  const kir::Kernel *k = nullptr;
  for (const auto &kk : m->kernels)
    if (kk->name == "mod_add")
      k = kk.get();
  ASSERT_TRUE(k);
  for (int64_t n : {0, 1, 7, 33, 1000}) {
    std::vector<ArgSpec> a = {ArgSpec::view(kir::ScalarKind::I32, {4}),
                              ArgSpec::view(kir::ScalarKind::I32, {n})};
    auto ref = [&](Memory &mem) {
      int32_t *y = mem.as<int32_t>(0), *x = mem.as<int32_t>(1);
      for (int64_t i = 0; i < n; ++i)
        y[i % 4] = static_cast<int32_t>(static_cast<uint32_t>(y[i % 4]) +
                                        static_cast<uint32_t>(x[i]));
    };
    DiffOutcome o = runDifferential(*k, a, ref, 900 + n);
    EXPECT_EQ(o.total, n) << "one program per sample";
  }
}

} // namespace
