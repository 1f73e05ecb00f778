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

/// The scatter as one instance per thread, each updating y by a global
/// atomic (privatize-atomics, which gives it a copy per CTA, is
/// PrivatizeTest's).
Built scatter() {
  return buildFile("atomics.kir", "scatter_add", true, {"privatize-atomics"});
}

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
  EXPECT_EQ(phys::scopeFor(phys::Sharing::Instance), "thread");
  EXPECT_TRUE(phys::scopeCovers("thread", phys::Sharing::Instance));
  // Hardware atomics are not defined on the local memory of a private
  // buffer: only the instance scope is legal for it, and it covers nothing
  // wider.
  EXPECT_FALSE(phys::scopeCovers("cta", phys::Sharing::Instance));
  EXPECT_FALSE(phys::scopeCovers("thread", phys::Sharing::CTA));
  EXPECT_FALSE(phys::scopeCovers("thread", phys::Sharing::Launch));
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
  std::vector<phys::Serialization> lost;
  phys::RemarkSink sink(remarks, lost);
  phys::assignAtomicScopes(*b.program, sink);
  EXPECT_EQ(findOp(*b.program, phys::Opcode::Atomic)->strAttr("scope"), "cta");
  EXPECT_TRUE(lost.empty());
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

//===----------------------------------------------------------------------===//
// Atomics on local buffers (test/lit/construction/buffer_atomics.kir)
//===----------------------------------------------------------------------===//

Built bufferAtomics(const std::string &kernel) {
  return buildFile("buffer_atomics.kir", kernel);
}

/// The buffer record of the memory an atomic addresses.
unsigned recordOfAtomic(phys::Program &p, phys::Opcode opc = phys::Opcode::Atomic) {
  return findOp(p, opc)->memory()->def->intAttr("buffer");
}

TEST(BufferAtomics, PrivateBufferGetsInstanceScope) {
  Built b = bufferAtomics("private_atomics");
  ASSERT_TRUE(b.program);
  unsigned id = recordOfAtomic(*b.program);
  EXPECT_EQ(b.program->buffers[id].sharing, phys::Sharing::Instance);
  EXPECT_EQ(b.program->buffers[id].ownership, phys::Ownership::Private);
  EXPECT_EQ(findOp(*b.program, phys::Opcode::Atomic)->strAttr("scope"), "thread");
}

TEST(BufferAtomics, WorkspaceSharedThroughAtomicsOnly) {
  Built b = bufferAtomics("ws_atomics");
  ASSERT_TRUE(b.program);
  unsigned id = recordOfAtomic(*b.program);
  const phys::Buffer &buf = b.program->buffers[id];
  EXPECT_EQ(buf.scope, phys::BufferScope::InvocationWorkspace);
  EXPECT_EQ(buf.ownership, phys::Ownership::Atomic);
  EXPECT_EQ(buf.sharing, phys::Sharing::Launch);
  EXPECT_FALSE(b.program->segments[0].ordered) << "instances not merged";
  EXPECT_EQ(findOp(*b.program, phys::Opcode::Atomic)->strAttr("scope"), "gpu");
}

TEST(BufferAtomics, VerifierWorkspaceAtomicsNeedAtomicOwnership) {
  Built b = bufferAtomics("ws_atomics");
  b.program->buffers[recordOfAtomic(*b.program)].ownership =
      phys::Ownership::InstanceUnique;
  expectError(b, "[buffer-ownership]",
              "updated by atomics, but its ownership is instance_unique "
              "(expected atomic)");
}

TEST(BufferAtomics, VerifierAtomicOwnershipOnlyForWorkspaces) {
  Built b = bufferAtomics("private_atomics");
  b.program->buffers[recordOfAtomic(*b.program)].ownership =
      phys::Ownership::Atomic;
  expectError(b, "[buffer-ownership]",
              "atomic ownership is for an invocation workspace");
}

TEST(BufferAtomics, VerifierAtomicWorkspaceHasNoPlainAccess) {
  // A plain load of the workspace next to the atomics races with them.
  Built b = bufferAtomics("ws_atomics");
  phys::Op *op = findOp(*b.program, phys::Opcode::Atomic);
  phys::Op *load = insertBefore(*b.program, op, phys::Opcode::Load,
                                {op->operands[0], op->operands[2]},
                                {op->result()->type});
  load->access = op->access;
  expectError(b, "[buffer-ownership]",
              "atomic ownership, but 1 plain load(s)/store(s) race with the "
              "atomics");
}

TEST(BufferAtomics, VerifierAtomicWorkspaceSharedByTheLaunch) {
  Built b = bufferAtomics("ws_atomics");
  b.program->buffers[recordOfAtomic(*b.program)].sharing =
      phys::Sharing::CTA;
  expectError(b, "[buffer-ownership]",
              "a workspace shared through atomics has sharing domain launch, "
              "not cta");
}

TEST(BufferAtomics, VerifierPrivateAtomicsRecordTheInstance) {
  Built b = bufferAtomics("private_atomics");
  b.program->buffers[recordOfAtomic(*b.program)].sharing =
      phys::Sharing::Launch;
  expectError(b, "[buffer-ownership]",
              "private buffer updated by atomics must record sharing "
              "instance, not launch");
}

TEST(BufferAtomics, VerifierScopeCoversTheWorkspace) {
  Built b = bufferAtomics("ws_atomics");
  findOp(*b.program, phys::Opcode::Atomic)->setAttr("scope", std::string("cta"));
  expectError(b, "[atomic]",
              "scope 'cta' does not cover the sharing domain launch");
}

TEST(BufferAtomics, VerifierNoHardwareScopeOnPrivateBuffers) {
  Built b = bufferAtomics("private_atomics");
  findOp(*b.program, phys::Opcode::Atomic)->setAttr("scope", std::string("gpu"));
  expectError(b, "[atomic]",
              "scope 'gpu' does not cover the sharing domain instance");
}

TEST(BufferAtomics, DifferentialPrivateAndMerged) {
  auto m = loadKernel("buffer_atomics.kir");
  for (int64_t n : {0, 1, 7, 33, 1000}) {
    auto keys = [&] {
      ArgSpec k = ArgSpec::view(kir::ScalarKind::I32, {n});
      k.gen = [](std::mt19937_64 &rng) {
        return interp::Scalar::ofInt(
            kir::ScalarKind::I32,
            std::uniform_int_distribution<int>(-50, 1000)(rng));
      };
      return k;
    };
    std::vector<ArgSpec> a = {ArgSpec::view(kir::ScalarKind::I32, {n}), keys()};
    auto refPrivate = [&](Memory &mem) {
      int32_t *out = mem.as<int32_t>(0), *k = mem.as<int32_t>(1);
      for (int64_t i = 0; i < n; ++i) {
        int32_t h[4] = {0, 0, 0, 0};
        int64_t at = k[i] & 3;
        ++h[at];
        int32_t old = h[3];
        h[3] = std::max(h[3], k[i]);
        out[i] = h[at] + old;
      }
    };
    DiffOutcome o = runDifferential(*m->kernels[0], a, refPrivate, 400 + n);
    EXPECT_EQ(o.total, n) << "private buffer: one program per i";

    std::vector<ArgSpec> h = {ArgSpec::view(kir::ScalarKind::I32, {8}), keys()};
    auto refHist = [&](Memory &mem) {
      int32_t *out = mem.as<int32_t>(0), *k = mem.as<int32_t>(1);
      int32_t bins[8] = {0, 0, 0, 0, 0, 0, 0, 0};
      for (int64_t i = 0; i < n; ++i)
        ++bins[k[i] & 7];
      for (int b = 0; b < 8; ++b)
        out[b] = bins[b];
    };
    DiffOutcome oh = runDifferential(*m->kernels[2], h, refHist, 500 + n);
    EXPECT_EQ(oh.total, 1) << "read after the atomics: merged";
  }
}

} // namespace
