//===- AccessChecksTest.cpp - Bounds, active sets, origins, provenance ----===//
//
// The access checks of the construction verifier (VerifierAccess.cpp):
// construction proves what the range analysis proves and nothing else; and
// each rule of [bounds], [active], [origin] and [provenance] rejects a
// program broken by hand.
//
//===----------------------------------------------------------------------===//

#include "VerifierHarness.h"

#include "Physical/InBounds.h"

using namespace intent;
using namespace intent::test;

namespace {

/// y[i] = x[i + 1] over x's extent.
const char *ShiftedRead = R"(
kernel @shifted (%0 y: view<f32, 1> w, %1 x: view<const f32, 1> r) {
  %2 = extent %1 {dim = 0} : i64
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

/// y[n - 1 - i] = y[i - 1] over y's extent n, then y[j] for j in [1, n) of
/// an ordered loop.
const char *Reversed = R"(
kernel @reversed (%0 y: view<f32, 1> rw) {
  %1 = extent %0 {dim = 0} : i64
  %2 = constant {value = 1} : i64
  %3 = sub %1, %2 : i64
  parallel_for %1 {
  ^(%4: i64):
    %5 = sub %3, %4 : i64
    %6 = sub %4, %2 : i64
    %7 = load %0, %6 : f32
    %8 = load %0, %5 : f32
    %9 = add %7, %8 : f32
    store %0, %9, %4
    yield
  }
  return
}
)";

phys::Op *access(phys::Program &p, phys::Opcode opc, unsigned nth = 0) {
  return findOp(p, opc, nth);
}

//===--- Bounds ---------------------------------------------------------===//

TEST(Bounds, SameViewInLoopOverItsExtentIsProven) {
  // Construction's program: widen rewrites these accesses.
  Built b = buildFile("saxpy.kir", "", /*passes=*/false);
  // x[i] (another view's extent bounds i): assumed; y[i]: proven.
  phys::Op *loadX = access(*b.program, phys::Opcode::Load, 0);
  phys::Op *loadY = access(*b.program, phys::Opcode::Load, 1);
  phys::Op *store = access(*b.program, phys::Opcode::Store);
  EXPECT_EQ(loadX->access.bounds, phys::Bounds::Assumed);
  EXPECT_EQ(loadY->access.bounds, phys::Bounds::Proven);
  EXPECT_EQ(store->access.bounds, phys::Bounds::Proven);
  EXPECT_EQ(phys::whyNotInBounds(*b.program, *loadX),
            "coordinate 0 may reach x.extent(0)");
}

TEST(Bounds, OffsetsAreProvenOnlyWhenTheRangeStaysInside) {
  Built b = build(Reversed);
  phys::Op *prev = access(*b.program, phys::Opcode::Load, 0);   // y[i - 1]
  phys::Op *mirror = access(*b.program, phys::Opcode::Load, 1); // y[n-1-i]
  EXPECT_EQ(prev->access.bounds, phys::Bounds::Assumed);
  EXPECT_EQ(phys::whyNotInBounds(*b.program, *prev),
            "coordinate 0 is not provably >= 0");
  EXPECT_EQ(mirror->access.bounds, phys::Bounds::Proven);
}

TEST(Bounds, FalseProvenClaimIsRejected) {
  Built b = build(ShiftedRead);
  phys::Op *load = access(*b.program, phys::Opcode::Load);
  ASSERT_EQ(load->access.bounds, phys::Bounds::Assumed);
  load->access.bounds = phys::Bounds::Proven; // x[i + 1]
  expectError(b, "[bounds]",
              "claims to be proven in bounds, but coordinate 0 may reach "
              "x.extent(0)");
}

TEST(Bounds, ProvenClaimOnAnotherViewIsRejected) {
  // Construction's program: widen rewrites these accesses.
  Built b = buildFile("saxpy.kir", "", /*passes=*/false);
  access(*b.program, phys::Opcode::Load, 0)->access.bounds =
      phys::Bounds::Proven; // x[i] in a loop over y's extent
  expectError(b, "[bounds]", "may reach x.extent(0)");
}

TEST(Bounds, GuardsOfEnclosingIfsNarrowTheRange) {
  // fused_extents.kir: x[i] under `if (i < x.extent(0))` is proven although
  // i ranges over max(x.extent(0), out.extent(0)).
  Built b = buildFile("fused_extents.kir", "", /*passes=*/false);
  phys::Op *load = access(*b.program, phys::Opcode::Load);
  ASSERT_EQ(load->access.bounds, phys::Bounds::Proven);
  // `i <= x.extent(0)` does not keep x[i] inside: the claim is now false.
  phys::Op *guard = load->parentOp();
  ASSERT_EQ(guard->opcode, phys::Opcode::If);
  guard->operands[0]->def->setAttr("pred", std::string("le"));
  expectError(b, "[bounds]", "claims to be proven in bounds");
}

TEST(Bounds, LoopRangesAndReductionMembers) {
  // softmax reads x(r, k) for k in [0, x.extent(1)) of each row r of
  // x.extent(0): proven through the reduce's member range.
  Built b = buildFile("softmax.kir");
  unsigned proven = 0, loads = 0;
  phys::walk(*b.program->body, [&](const phys::Op &op) {
    if (op.opcode != phys::Opcode::Load)
      return;
    ++loads;
    proven += op.access.bounds == phys::Bounds::Proven;
  });
  EXPECT_GT(loads, 0u);
  EXPECT_EQ(proven, loads);
}

//===--- Active sets ----------------------------------------------------===//

TEST(Active, ThreadProgramAccessesAreSelf) {
  Built b = buildFile("saxpy.kir");
  access(*b.program, phys::Opcode::Store)->access.active =
      phys::ActiveSet::Leader;
  expectError(b, "[active]", "done by its one member (active `self`) "
                             "(active `leader`)");
}

TEST(Active, CtaProgramAccessesAreNotSelf) {
  Built b = buildFile("layernorm.kir");
  ASSERT_EQ(b.program->scope, phys::ExecScope::CTA);
  access(*b.program, phys::Opcode::Store)->access.active =
      phys::ActiveSet::Self;
  expectError(b, "[active]", "`self` is the one member of a thread-scope "
                             "instance");
}

TEST(Active, ThreadOnlyInDistributedRegions) {
  Built b = buildFile("layernorm.kir");
  access(*b.program, phys::Opcode::Store)->access.active =
      phys::ActiveSet::Thread;
  expectError(b, "[active]", "active `thread` (each thread its own members) "
                             "outside a distributed region");
}

TEST(Active, DistributedRegionAccessesAreThread) {
  Built b = buildFile("softmax.kir");
  phys::Op *reduce = access(*b.program, phys::Opcode::Reduce);
  ASSERT_TRUE(reduce->attr("dist"));
  phys::Op *load = nullptr;
  phys::walkMutable(*reduce->regions[0], [&](phys::Op &op) {
    if (!load && op.opcode == phys::Opcode::Load)
      load = &op;
  });
  ASSERT_TRUE(load);
  load->access.active = phys::ActiveSet::Leader;
  expectError(b, "[active]", "is done by each thread for its own members "
                             "(active `thread`) (active `leader`)");
}

TEST(Active, GridReduceAccessesAreThreadOrAll) {
  // A grid reduction is written with the cooperative primitives: every
  // access is each thread's own (the result store sits under
  // `if (thread_id == 0)`), or a load all threads do alike; none is
  // `leader`, and none may be `self`.
  Built b = build(readFile(litFile("emit", "grid_reduce.kir")), "sum_f32");
  ASSERT_TRUE(findOp(*b.program, phys::Opcode::Barrier));
  unsigned accesses = 0;
  phys::Op *store = nullptr;
  phys::walkMutable(*b.program->body, [&](phys::Op &op) {
    if (op.opcode != phys::Opcode::Load && op.opcode != phys::Opcode::Store &&
        op.opcode != phys::Opcode::VectorLoad && !phys::isAtomic(op.opcode))
      return;
    ++accesses;
    EXPECT_TRUE(op.access.active == phys::ActiveSet::Thread ||
                (op.opcode == phys::Opcode::Load &&
                 op.access.active == phys::ActiveSet::All))
        << "op " << op.id;
    if (op.opcode == phys::Opcode::Store && !op.memory()->type.isBuffer())
      store = &op;
  });
  EXPECT_GT(accesses, 5u);
  ASSERT_TRUE(store);
  store->access.active = phys::ActiveSet::Self;
  expectError(b, "[active]", "`self` is the one member of a thread-scope "
                             "instance");
}

TEST(Active, StoresAreNeverAll) {
  Built b = buildFile("layernorm.kir");
  access(*b.program, phys::Opcode::Store)->access.active = phys::ActiveSet::All;
  expectError(b, "[active]", "only a load may be done by all threads");
}

//===--- Origins --------------------------------------------------------===//

TEST(Origin, EveryOpHasOne) {
  Built b = buildFile("saxpy.kir");
  phys::Op *pid = access(*b.program, phys::Opcode::ProgramId);
  EXPECT_EQ(pid->origin.synth, "construction");
  pid->origin.synth.clear();
  expectError(b, "[origin]", "has no origin: neither a KIR op nor the stage");
}

TEST(Origin, NamesAnExistingKirOp) {
  Built b = buildFile("saxpy.kir");
  access(*b.program, phys::Opcode::Mul)->origin.op = 999;
  expectError(b, "[origin]", "names KIR op 999, which the kernel does not have");
}

//===--- Provenance -----------------------------------------------------===//

TEST(Provenance, SameKindOfKirAccess) {
  Built b = buildFile("saxpy.kir");
  phys::Op *store = access(*b.program, phys::Opcode::Store);
  store->access.kirOp = access(*b.program, phys::Opcode::Load)->access.kirOp;
  expectError(b, "[provenance]", "is a load, not a store");
}

TEST(Provenance, KirOpExists) {
  Built b = buildFile("saxpy.kir");
  access(*b.program, phys::Opcode::Load)->access.kirOp = 999;
  expectError(b, "[provenance]", "names KIR op 999");
}

TEST(Provenance, RecordedCoordinates) {
  Built b = buildFile("nested_2d.kir");
  phys::Op *load = access(*b.program, phys::Opcode::Load);
  std::swap(load->access.kirCoords[0], load->access.kirCoords[1]);
  expectError(b, "[provenance]", "recorded KIR coordinates are not the "
                                 "coordinates of KIR op");
}

TEST(Provenance, RecordedViewChain) {
  Built b = buildFile("subviews.kir");
  phys::Op *found = nullptr;
  phys::walkMutable(*b.program->body, [&](phys::Op &op) {
    if (!found && op.opcode == phys::Opcode::Load &&
        !op.access.kirViewChain.empty())
      found = &op;
  });
  ASSERT_TRUE(found);
  found->access.kirViewChain.pop_back();
  expectError(b, "[provenance]", "recorded view chain is not the sub-views");
}

TEST(Provenance, SameRoot) {
  Built b = build(ShiftedRead);
  // Read y instead of x (a load may address a written view).
  access(*b.program, phys::Opcode::Load)->operands[0] = b.program->param(0);
  expectError(b, "[provenance]", "addresses another root than KIR op");
}

TEST(Provenance, RewrittenCoordinatesEqualKirCoordinates) {
  // Construction's program: widen rewrites these accesses.
  Built b = buildFile("saxpy.kir", "", /*passes=*/false);
  phys::Op *load = access(*b.program, phys::Opcode::Load);
  // x[i] becomes x[i + 1]: not the KIR access any more.
  phys::Value *i = load->operands[1];
  phys::Op *one = insertBefore(*b.program, load, phys::Opcode::Constant, {},
                               {phys::Type::index()});
  one->setAttr("value", int64_t(1));
  phys::Op *add = insertBefore(*b.program, load, phys::Opcode::Add,
                               {i, one->result()}, {phys::Type::index()});
  add->origin = load->origin;
  one->origin = load->origin;
  load->operands[1] = add->result();
  expectError(b, "[provenance]", "coordinate 0 is ");
}

TEST(Provenance, ComposedCoordinatesEqualKirCoordinatesOnTheRoot) {
  // in.transpose().slice(0, 1, ...)(i, j) is in(j, i + 1) on the root:
  // the physical load's coordinates are compared with the KIR ones composed
  // through the sub-view chain (KIR/ViewRelations.h).
  Built b = buildFile("subviews.kir", "", /*passes=*/false);
  phys::Op *load = access(*b.program, phys::Opcode::Load);
  ASSERT_EQ(load->coords().size(), 2u);
  // Swapping them reads in(i + 1, j): the transpose is lost.
  std::swap(load->operands[1], load->operands[2]);
  expectError(b, "[provenance]", "coordinate 0 is ");
}

TEST(Provenance, ComposedCoordinatesSeeThroughProducts) {
  // A reshape composes to a linear index i * n + j on the root; dropping the
  // product (i + j) is caught even though neither side is affine in i.
  Built b = buildFile("reshape_broadcast.kir", "", /*passes=*/false);
  bool found = false;
  phys::walkMutable(*b.program->body, [&](phys::Op &op) {
    if (found || op.opcode != phys::Opcode::Store || op.access.kirViewChain.empty())
      return;
    for (unsigned d = 0; d < op.coords().size(); ++d) {
      phys::Value *c = op.coords()[d];
      if (c->def && c->def->opcode == phys::Opcode::Add && c->def->operands[0]->def &&
          c->def->operands[0]->def->opcode == phys::Opcode::Mul) {
        // (a * n) + b  ->  a + b
        c->def->operands[0] = c->def->operands[0]->def->operands[0];
        found = true;
        return;
      }
    }
  });
  ASSERT_TRUE(found) << phys::programToString(*b.program);
  expectError(b, "[provenance]", ", but KIR op ");
}

TEST(Provenance, PassRewritesKeepCoordinates) {
  // Programs after every physical pass still verify with provenance on:
  // grid-reduce, cta-rows (staged and register rows), widen.
  for (const char *f : {"softmax.kir", "layernorm.kir", "argmax_rows.kir",
                        "saxpy.kir", "csr_spmv.kir", "subviews.kir",
                        "reshape_broadcast.kir", "segmented_scan.kir",
                        "buffers.kir", "atomics.kir"}) {
    SCOPED_TRACE(f);
    buildFile(f); // build() expects a clean verification
  }
}

} // namespace
