//===- VerifierTest.cpp - One broken program per construction check -------===//
//
// Each test builds a correct program (construction from KIR text), verifies
// it clean, breaks exactly one invariant by hand, and expects the check's
// tagged message.
//
//===----------------------------------------------------------------------===//

#include "VerifierHarness.h"

using namespace intent;
using namespace intent::test;

namespace {

const char *ReadNeighbour = R"(
kernel @neighbour (%0 y: view<f32, 1> w, %1 x: view<const f32, 1> r) {
  %2 = extent %0 {dim = 0} : i64
  parallel_for %2 {
  ^(%3: i64):
    %4 = constant {value = 1} : i64
    %5 = add %3, %4 : i64
    %6 = load %1, %5 : f32
    store %0, %6, %3
    yield
  }
  return
}
)";

const char *TwoOutputs = R"(
kernel @two (%0 y: view<f32, 1> w, %1 z: view<f32, 1> w) {
  %2 = extent %0 {dim = 0} : i64
  parallel_for %2 {
  ^(%3: i64):
    %4 = constant {value = 1.0} : f32
    store %0, %4, %3
    yield
  }
  %5 = extent %1 {dim = 0} : i64
  parallel_for %5 {
  ^(%6: i64):
    %7 = constant {value = 2.0} : f32
    store %1, %7, %6
    yield
  }
  return
}
)";

TEST(Verifier, ScopeReserved) {
  Built b = buildFile("saxpy.kir");
  b.program->scope = phys::ExecScope::Warp;
  expectError(b, "[scope]", "exec scope 'warp' is not produced by any pass");
}

TEST(Verifier, LaunchUsesOnlyLaunchVisibleValues) {
  Built b = buildFile("saxpy.kir");
  for (phys::LaunchExpr &e : b.program->exprs)
    if (e.kind == phys::LaunchExpr::Kind::Extent) {
      e.kind = phys::LaunchExpr::Kind::Param;
      e.param = 2; // the f32 scalar `a`
    }
  expectError(b, "[launch]", "is not an integer ABI scalar");
}

TEST(Verifier, SegmentLengthIsProductOfExtents) {
  // Construction's segment (the tile pass would make it a tile segment).
  Built b = buildFile("nested_2d.kir", "", true, {"tile"});
  b.program->segments[0].length = b.program->segments[0].extents[0];
  expectError(b, "[segments]", "is not the product of its extents");
}

TEST(Verifier, DispatchGuard) {
  Built b = buildFile("saxpy.kir");
  findOp(*b.program, phys::Opcode::Cmp)->setAttr("pred", std::string("le"));
  expectError(b, "[dispatch]", "the guard is not `program_id < total`");
}

TEST(Verifier, Structure) {
  Built b = buildFile("saxpy.kir");
  phys::Op *guard = findOp(*b.program, phys::Opcode::If);
  guard->regions[0]->block.terminator()->operands.push_back(
      b.program->param(2));
  expectError(b, "[structure]", "yields 1 values, parent expects 0");
}

TEST(Verifier, Types) {
  Built b = buildFile("saxpy.kir");
  findOp(*b.program, phys::Opcode::Mul)->result()->type =
      phys::Type::scalar(kir::ScalarKind::F64);
  expectError(b, "[types]", "operands and result must have one type");
}

TEST(Verifier, Attributes) {
  Built b = buildFile("while_carried.kir");
  phys::Op *math = findOp(*b.program, phys::Opcode::Cmp, 1);
  math->attrs.clear();
  expectError(b, "[attrs]", "needs a `pred`");
}

TEST(Verifier, AccessValidity) {
  Built b = buildFile("saxpy.kir");
  findOp(*b.program, phys::Opcode::Store)->access.bounds = phys::Bounds::Unknown;
  expectError(b, "[access]", "has no validity");
}

TEST(Verifier, AccessCoordinates) {
  Built b = buildFile("nested_2d.kir");
  phys::Op *load = findOp(*b.program, phys::Opcode::Load);
  load->operands.pop_back();
  expectError(b, "[access]", "needs one coordinate per dimension (2), has 1");
}

TEST(Verifier, BufferObligations) {
  Built b = buildFile("saxpy.kir");
  b.program->buffers[0].init = phys::InitMode::FirstWrite;
  expectError(b, "[buffers]", "owned by the host (init host)");
}

TEST(Verifier, PrivateBufferNeedsInitOrFirstWrite) {
  Built b = buildFile("saxpy.kir");
  phys::Buffer buf;
  buf.id = b.program->buffers.size();
  buf.name = "tmp";
  buf.scope = phys::BufferScope::ProgramPrivate;
  buf.size = 4;
  buf.init = phys::InitMode::Host;
  buf.ownership = phys::Ownership::Private;
  b.program->buffers.push_back(buf);
  expectError(b, "[buffers]", "needs an init value or a first-write obligation");
}

TEST(Verifier, Ownership) {
  Built b = buildFile("saxpy.kir");
  b.program->buffers[0].ownership = phys::Ownership::SingleInstance;
  expectError(b, "[ownership]", "ownership is single_instance, expected "
                                "instance_unique");
}

TEST(Verifier, UnorderedConflictNotClosed) {
  Built b = build(ReadNeighbour);
  // Read y(i + 1) instead of x(i + 1): another instance writes it.
  findOp(*b.program, phys::Opcode::Load)->operands[0] = b.program->param(0);
  expectError(b, "[conflicts]", "write to y(i0)");
}

TEST(Verifier, DependenceSplitAcrossGroups) {
  Built b = build(TwoOutputs);
  ASSERT_EQ(b.program->segments.size(), 2u);
  // Group 1 now writes y, which group 0 writes concurrently.
  findOp(*b.program, phys::Opcode::Store, 1)->operands[0] = b.program->param(0);
  expectError(b, "[dependences]", "groups 0 and 1 depend on each other");
}

TEST(Verifier, EffectCoverage) {
  Built b = buildFile("saxpy.kir");
  phys::Op *store = findOp(*b.program, phys::Opcode::Store);
  store->access.kirOp = findOp(*b.program, phys::Opcode::Load)->access.kirOp;
  expectError(b, "[coverage]", "is covered by 0 physical stores, expected exactly 1");
}

TEST(Verifier, CoverageUnderSameIterations) {
  Built b = buildFile("nested_ordered.kir");
  // Drop the inner ordered loop's origin: the store no longer runs under the
  // inner parallel_for's iterations.
  findOp(*b.program, phys::Opcode::For)->origin.op = -1;
  expectError(b, "[coverage]", "runs under parallel iterations");
}

} // namespace
