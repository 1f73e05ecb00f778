//===- BufferTest.cpp - Local buffers: differential and verifier tests ----===//
//
// The kernels of test/lit/construction/buffers.kir run through the C++
// serial reference, the KIR interpreter and the physical interpreter (program
// order and shuffled with race detection), and one broken program per
// buffer check of the construction verifier.
//
//===----------------------------------------------------------------------===//

#include "DiffHarness.h"
#include "VerifierHarness.h"

using namespace intent;
using namespace intent::test;
using kir::ScalarKind;

namespace {

const ScalarKind F32 = ScalarKind::F32;

/// The kernel named `name` in buffers.kir.
const kir::Kernel &kernelNamed(const kir::Module &m, const std::string &name) {
  for (const auto &k : m.kernels)
    if (k->name == name)
      return *k;
  ADD_FAILURE() << "no kernel " << name;
  return *m.kernels[0];
}

/// The alloc op of buffer record `id`.
phys::Op *allocOf(phys::Program &p, unsigned id) {
  phys::Op *found = nullptr;
  phys::walkMutable(*p.body, [&](phys::Op &op) {
    if (op.opcode == phys::Opcode::Alloc && op.intAttr("buffer") == id)
      found = &op;
  });
  EXPECT_TRUE(found) << "no alloc of buffer " << id;
  return found;
}

//===----------------------------------------------------------------------===//
// Differential
//===----------------------------------------------------------------------===//

TEST(BufferDiff, PrivateAndIterationPrivate) {
  auto m = loadKernel("buffers.kir");
  for (int64_t n : {0, 1, 7, 33, 1000}) {
    std::vector<ArgSpec> a = {ArgSpec::view(F32, {n})};
    auto ref = [&](Memory &mem) {
      float *y = mem.as<float>(0);
      for (int64_t i = 0; i < n; ++i) {
        float win[4] = {0.5f, 0.5f, 0.5f, 0.5f}, s = 0.0f;
        for (int64_t k = 0; k < 4; ++k) {
          int32_t tmp[2];
          tmp[1] = static_cast<int32_t>(k);
          s += static_cast<float>(tmp[1]) + win[k];
        }
        y[i] = s;
      }
    };
    DiffOutcome o = runDifferential(kernelNamed(*m, "private_scopes"), a, ref,
                                    300 + n);
    EXPECT_EQ(o.total, n) << "private buffers keep one program per i";
  }
}

TEST(BufferDiff, WorkspaceSharedByFusedInstances) {
  auto m = loadKernel("buffers.kir");
  for (int64_t n : {0, 1, 7, 33, 100}) { // the workspace holds 100 elements
    std::vector<ArgSpec> a = {ArgSpec::view(F32, {n}), ArgSpec::view(F32, {n})};
    auto ref = [&](Memory &mem) {
      float *y = mem.as<float>(0), *x = mem.as<float>(1);
      for (int64_t i = 0; i < n; ++i)
        y[i] = (x[i] + 0.0f) + 1.0f;
    };
    DiffOutcome o = runDifferential(kernelNamed(*m, "workspace"), a, ref,
                                    310 + n);
    EXPECT_EQ(o.total, n) << "workspace: one program per i";
  }
}

TEST(BufferDiff, SharedBufferMergesInstances) {
  auto m = loadKernel("buffers.kir");
  for (int64_t n : {0, 1, 7, 33, 1000}) {
    ArgSpec keys = ArgSpec::view(ScalarKind::I32, {n});
    keys.gen = [](std::mt19937_64 &rng) {
      return interp::Scalar::ofInt(
          ScalarKind::I32, std::uniform_int_distribution<int>(0, 99)(rng));
    };
    std::vector<ArgSpec> a = {ArgSpec::view(ScalarKind::I32, {4}), keys};
    auto ref = [&](Memory &mem) {
      int32_t *out = mem.as<int32_t>(0), *k = mem.as<int32_t>(1);
      int32_t bins[4] = {0, 0, 0, 0};
      for (int64_t i = 0; i < n; ++i)
        ++bins[k[i] & 3];
      for (int b = 0; b < 4; ++b)
        out[b] = bins[b];
    };
    DiffOutcome o = runDifferential(kernelNamed(*m, "merged"), a, ref, 320 + n);
    EXPECT_EQ(o.total, 1) << "merged into one ordered instance";
  }
}

TEST(BufferDiff, BufferAroundInnerParallelFor) {
  auto m = loadKernel("buffers.kir");
  for (auto [r, c] : std::vector<std::pair<int64_t, int64_t>>{
           {0, 5}, {5, 0}, {1, 1}, {3, 7}, {31, 17}}) {
    std::vector<ArgSpec> a = {ArgSpec::view(F32, {r, c})};
    auto ref = [&](Memory &mem) {
      float *y = mem.as<float>(0);
      for (int64_t i = 0; i < r; ++i)
        for (int64_t j = 0; j < c; ++j)
          y[i * c + j] = static_cast<float>(j);
    };
    DiffOutcome o = runDifferential(kernelNamed(*m, "nested_shared"), a, ref,
                                    330 + r * c);
    EXPECT_EQ(o.total, r) << "the inner parallel_for stays inside row i";
  }
}

//===----------------------------------------------------------------------===//
// Verifier: one broken program per buffer check
//===----------------------------------------------------------------------===//

TEST(BufferVerifier, ScopeIterationPrivateAllocatedPerInstance) {
  Built b = buildFile("buffers.kir", "private_scopes");
  b.program->buffers[1].scope = phys::BufferScope::IterationPrivate;
  expectError(b, "[buffer-scope]", "allocates it once per program instance");
}

TEST(BufferVerifier, ScopeProgramPrivateAllocatedPerIteration) {
  Built b = buildFile("buffers.kir", "private_scopes");
  b.program->buffers[2].scope = phys::BufferScope::ProgramPrivate;
  expectError(b, "[buffer-scope]", "allocates it inside a region of the "
                                   "instance");
}

TEST(BufferVerifier, InstanceIdentityOneAllocPerRecord) {
  Built b = buildFile("buffers.kir", "private_scopes");
  phys::Op *alloc = allocOf(*b.program, 1);
  phys::Op *dup = insertBefore(*b.program, alloc, phys::Opcode::Alloc, {},
                               {alloc->result()->type});
  dup->setAttr("buffer", int64_t(1));
  expectError(b, "[buffer-instance]",
              "2 alloc ops claim one logical allocation instance");
}

TEST(BufferVerifier, InstanceIdentityWorkspaceSlicesDisjoint) {
  Built b = buildFile("buffers.kir", "workspace");
  b.program->buffers[3].workspaceOffset = 256; // stage covers [0, 400)
  expectError(b, "[buffer-instance]", "workspace slice overlaps buffer 2");
}

TEST(BufferVerifier, InstanceIdentityWorkspaceAligned) {
  Built b = buildFile("buffers.kir", "workspace");
  b.program->buffers[3].workspaceOffset = 520;
  expectError(b, "[buffer-instance]", "aligned to 256 bytes");
}

TEST(BufferVerifier, InitWorkspaceOnlyZeroFilled) {
  Built b = buildFile("buffers.kir", "workspace");
  b.program->buffers[2].initValue = 1.5;
  expectError(b, "[buffer-init]", "can only be zero-filled by the runtime");
}

TEST(BufferVerifier, InitFirstWriteReadNeverWritten) {
  Built b = buildFile("buffers.kir", "private_scopes");
  b.program->buffers[1].init = phys::InitMode::FirstWrite; // only read
  expectError(b, "[buffer-init]", "read but never written");
}

TEST(BufferVerifier, OwnershipRecordedReaders) {
  Built b = buildFile("buffers.kir", "private_scopes");
  b.program->buffers[1].readerGroups.clear();
  expectError(b, "[buffer-ownership]", "recorded readers/writers differ");
}

TEST(BufferVerifier, OwnershipWorkspaceNeedsUniqueSlices) {
  Built b = buildFile("buffers.kir", "workspace");
  b.program->buffers[2].ownership = phys::Ownership::Private;
  expectError(b, "[buffers]", "needs an ownership slice per instance");
}

TEST(BufferVerifier, WorkspaceElementSharedByInstancesConflicts) {
  Built b = buildFile("buffers.kir", "workspace");
  // Every instance now writes stage[0]: not an ownership slice.
  phys::Op *store = nullptr;
  phys::walkMutable(*b.program->body, [&](phys::Op &op) {
    if (op.opcode == phys::Opcode::Store && !store &&
        op.memory()->type.isBuffer())
      store = &op;
  });
  ASSERT_TRUE(store);
  phys::Op *zero = insertBefore(*b.program, store, phys::Opcode::Constant, {},
                                {phys::Type::index()});
  zero->setAttr("value", int64_t(0));
  store->operands[2] = zero->result();
  expectError(b, "[conflicts]", "unordered conflict not closed");
}

} // namespace

namespace {

TEST(BufferVerifier, ScopeAllocOutsideSegments) {
  Built b = buildFile("buffers.kir", "private_scopes");
  phys::Op *alloc = allocOf(*b.program, 1);
  phys::Op *guard = findOp(*b.program, phys::Opcode::If);
  phys::Op *outside = insertBefore(*b.program, guard, phys::Opcode::Alloc, {},
                                   {alloc->result()->type});
  outside->setAttr("buffer", int64_t(1));
  expectError(b, "[buffer-scope]", "is outside every segment");
}

TEST(BufferVerifier, InstanceIdentityOffsetOnlyForWorkspace) {
  Built b = buildFile("buffers.kir", "private_scopes");
  b.program->buffers[1].workspaceOffset = 0;
  expectError(b, "[buffer-instance]", "only an invocation workspace has a "
                                      "slice offset");
}

TEST(BufferVerifier, InitWorkspaceNegativeZeroIsNotZeroFill) {
  Built b = buildFile("buffers.kir", "workspace");
  b.program->buffers[2].initValue = -0.0;
  expectError(b, "[buffer-init]", "-0.0 is not the runtime's zero fill");
}

} // namespace
