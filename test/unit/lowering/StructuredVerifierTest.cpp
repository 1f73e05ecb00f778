//===- StructuredVerifierTest.cpp - One broken structured op per check ----===//
//
// Each test builds a correct program with a structured op from a
// test/lit/construction kernel, verifies it clean, breaks exactly one
// [structured] invariant by hand (identity per component, typed combine
// region, accumulator schema, scan kind/direction, arg-reduce rules,
// region-op completeness and source slicing, no leaked segment bound,
// effect-free callbacks) and expects the check's message. Also: the
// member-index rule of the conflict analysis and region-op coverage. The
// csr_spmv programs keep construction's region_fold (region-teams off).
//
//===----------------------------------------------------------------------===//

#include "VerifierHarness.h"

#include "Physical/Structured.h"

#include <algorithm>
#include <limits>

using namespace intent;
using namespace intent::test;
using phys::AccComponent;
using phys::Opcode;

namespace {

const phys::Type F32 = phys::Type::scalar(kir::ScalarKind::F32);
const phys::Type F64 = phys::Type::scalar(kir::ScalarKind::F64);

//===----------------------------------------------------------------------===//
// Identity per component and accumulator schema
//===----------------------------------------------------------------------===//

TEST(StructuredVerifier, EveryComponentHasAnIdentity) {
  Built b = buildFile("linear_recurrence.kir", "", true, {"scan-teams"});
  findOp(*b.program, Opcode::Scan)->acc[1].identity = AccComponent::Identity::None;
  expectError(b, "[structured]", "accumulator component 1: has no identity");
}

TEST(StructuredVerifier, BuiltinCombinerIdentityIsChecked) {
  Built b = buildFile("softmax.kir");
  // The max reduce claims identity 0.0 instead of -inf.
  findOp(*b.program, Opcode::Reduce)->acc[0].value = 0.0;
  expectError(b, "[structured]", "identity is not the identity of \"max\"");
}

TEST(StructuredVerifier, InitIdentityOnlyForUserCombine) {
  Built b = buildFile("layernorm.kir");
  findOp(*b.program, Opcode::Reduce)->acc[0].identity = AccComponent::Identity::Init;
  expectError(b, "[structured]", "only a user combine takes its identity from init");
}

TEST(StructuredVerifier, IdentityHasTheComponentType) {
  Built b = buildFile("mixed_groups.kir");
  // An i64 plus-scan with a floating-point identity.
  findOp(*b.program, Opcode::Scan)->acc[0].value = 0.0;
  expectError(b, "[structured]", "identity is not a constant of type i64");
}

TEST(StructuredVerifier, BitwiseCombinerDoesNotApplyToFloats) {
  Built b = buildFile("layernorm.kir");
  findOp(*b.program, Opcode::Reduce)->setAttr("combiner", std::string("bit_and"));
  expectError(b, "[structured]", "combiner \"bit_and\" does not apply to f32");
}

TEST(StructuredVerifier, AccumulatorSchemaMatchesInits) {
  Built b = buildFile("mean_var.kir", "", /*passes=*/false);
  findOp(*b.program, Opcode::Reduce)->acc[0].type = F32; // the count is i64
  expectError(b, "[structured]", "init operands (i64, f32, f32) do not match "
                                 "(f32, f32, f32)");
}

TEST(StructuredVerifier, ReduceResultsFollowTheSchema) {
  Built b = buildFile("mean_var.kir", "", /*passes=*/false);
  phys::Op *red = findOp(*b.program, Opcode::Reduce);
  phys::Builder builder(*b.program);
  phys::Value *extra = builder.newValue(F32);
  extra->def = red;
  extra->resultNo = red->results.size();
  red->results.push_back(extra);
  expectError(b, "[structured]", "results (i64, f32, f32, f32) do not match "
                                 "(i64, f32, f32)");
}

TEST(StructuredVerifier, SchemaIsPresent) {
  Built b = buildFile("mixed_groups.kir");
  findOp(*b.program, Opcode::Scan)->acc.clear();
  expectError(b, "[structured]", "has no accumulator schema");
}

//===----------------------------------------------------------------------===//
// Typed regions
//===----------------------------------------------------------------------===//

TEST(StructuredVerifier, CombineRegionArgumentsAreTyped) {
  Built b = buildFile("linear_recurrence.kir", "", true, {"scan-teams"});
  phys::Op *scan = findOp(*b.program, Opcode::Scan);
  // combine takes (a1, b1, a2, b2) and one stray f64.
  phys::Builder builder(*b.program);
  builder.addBlockArg(&scan->region(phys::CombineRegion)->block, F64);
  expectError(b, "[structured]",
              "combine region arguments (f32, f32, f32, f32, f64) do not match "
              "(f32, f32, f32, f32)");
}

TEST(StructuredVerifier, CombineRegionYieldsTheAccumulator) {
  Built b = buildFile("linear_recurrence.kir", "", true, {"scan-teams"});
  phys::Op *scan = findOp(*b.program, Opcode::Scan);
  scan->region(phys::CombineRegion)->block.terminator()->operands.pop_back();
  expectError(b, "[structured]", "combine region yields (f32) do not match");
}

TEST(StructuredVerifier, ValueRegionTakesTheMemberIndex) {
  Built b = buildFile("csr_spmv.kir", "", true, {"region-teams"});
  phys::Op *fold = findOp(*b.program, Opcode::RegionFold);
  // The (unused) region index of the value region retyped.
  fold->region(phys::ValueRegion)->block.args[0]->type =
      phys::Type::scalar(kir::ScalarKind::I32);
  expectError(b, "[structured]", "value region arguments (i32, i64) do not "
                                 "match (i64, i64)");
}

TEST(StructuredVerifier, EmitRegionTakesIndexAndPrefix) {
  Built b = buildFile("segmented_scan.kir");
  phys::Op *scan = findOp(*b.program, Opcode::RegionScan);
  // The (unused) region index of the emit region retyped.
  scan->region(phys::OutRegion)->block.args[0]->type = F32;
  expectError(b, "[structured]", "emit region arguments (f32, i64, i32) do not "
                                 "match (i64, i64, i32)");
}

TEST(StructuredVerifier, ValueRegionHasNoEffects) {
  Built b = buildFile("segmented_scan.kir");
  phys::Op *scan = findOp(*b.program, Opcode::RegionScan);
  // Move the emit region's store y(k) = p into the value region, storing
  // the loaded member there: y(k) = x(k).
  phys::Block &emit = scan->region(phys::OutRegion)->block;
  phys::Block &value = scan->region(phys::ValueRegion)->block;
  std::unique_ptr<phys::Op> store = std::move(emit.ops.front());
  emit.ops.erase(emit.ops.begin());
  store->operands[1] = value.ops.front()->result();
  store->operands[2] = value.args[1];
  store->parent = &value;
  value.ops.insert(value.ops.begin() + 1, std::move(store));
  expectError(b, "[structured]", "the value region stores; only emit/store "
                                 "regions have effects");
}

TEST(StructuredVerifier, CombineRegionDoesNotLoad) {
  Built b = buildFile("csr_spmv.kir", "", true, {"region-teams"});
  phys::Op *fold = findOp(*b.program, Opcode::RegionFold);
  phys::Block &combine = fold->region(phys::CombineRegion)->block;
  // x(r) loaded inside combine (r dominates the op).
  phys::Op *xLoad = findOp(*b.program, Opcode::Load, 3); // rowptr x2, col, x
  ASSERT_EQ(xLoad->memory(), b.program->param(4));
  phys::Op *load = insertBefore(*b.program, combine.ops.front().get(),
                                Opcode::Load,
                                {b.program->param(4), phys::regionIndex(*fold)},
                                {F32});
  load->access = xLoad->access;
  expectError(b, "[structured]", "the combine region loads memory");
}

//===----------------------------------------------------------------------===//
// Attributes: combiner, reassociate, scan kind/direction, arg-reduce rules
//===----------------------------------------------------------------------===//

TEST(StructuredVerifier, CombinerIsKnown) {
  Built b = buildFile("csr_spmv.kir", "", true, {"region-teams"});
  findOp(*b.program, Opcode::RegionFold)->setAttr("combiner", std::string("sum"));
  expectError(b, "[structured]", "needs a `combiner`");
}

TEST(StructuredVerifier, ReassociationIsRecorded) {
  Built b = buildFile("layernorm.kir");
  phys::Op *red = findOp(*b.program, Opcode::Reduce);
  red->setAttr("reassociate", std::string("yes"));
  expectError(b, "[structured]", "needs `reassociate` = true | false");
}

TEST(StructuredVerifier, ScanKind) {
  Built b = buildFile("mixed_groups.kir");
  findOp(*b.program, Opcode::Scan)->setAttr("kind", std::string("prefix"));
  expectError(b, "[structured]", "needs `kind` = \"inclusive\" | \"exclusive\"");
}

TEST(StructuredVerifier, ScanDirection) {
  Built b = buildFile("segmented_scan.kir", "segscan_rev");
  phys::Op *scan = findOp(*b.program, Opcode::RegionScan);
  scan->attrs.erase(std::remove_if(scan->attrs.begin(), scan->attrs.end(),
                                   [](const phys::NamedAttr &a) {
                                     return a.name == "direction";
                                   }),
                    scan->attrs.end());
  expectError(b, "[structured]", "needs `direction` = \"forward\" | \"reverse\"");
}

TEST(StructuredVerifier, ArgReduceTieAndNaNRules) {
  Built b = buildLongRows("argmax_rows.kir");
  phys::Op *arg = findOp(*b.program, Opcode::ArgReduce);
  arg->setAttr("tie", std::string("any"));
  arg->setAttr("nan", std::string("maybe"));
  expectError(b, "[structured]", "needs `tie` = \"first\" | \"last\"");
  expectError(b, "[structured]", "needs `nan` = \"propagate\" | \"ignore\"");
}

TEST(StructuredVerifier, ArgReduceIdentities) {
  // The constructed program: grid-reduce would write this whole-view argmin
  // out as cooperative ops.
  Built b;
  std::string err;
  b.module = kir::parseModule(
      readFile(litFile("construction", "argmax_rows.kir")), "a", err);
  ASSERT_TRUE(b.module) << err;
  for (unsigned i = 0; i < b.module->kernels.size(); ++i)
    if (b.module->kernels[i]->name == "argmin_last_ignore")
      b.index = i;
  PipelineOptions off;
  off.physicalPasses = false;
  b.program = runPipeline(b.kernel(), off).program;
  ASSERT_TRUE(b.program);
  phys::Op *arg = findOp(*b.program, Opcode::ArgReduce);
  arg->acc[0].value = -std::numeric_limits<double>::infinity(); // argmin: +inf
  expectError(b, "[structured]", "identity is not the identity of argmin");
}

TEST(StructuredVerifier, ArgReduceResultsAreValueAndPosition) {
  Built b = buildLongRows("argmax_rows.kir");
  phys::Op *arg = findOp(*b.program, Opcode::ArgReduce);
  phys::Builder builder(*b.program);
  phys::Value *extra = builder.newValue(phys::Type::index());
  extra->def = arg;
  extra->resultNo = 2;
  arg->results.push_back(extra);
  expectError(b, "[structured]", "results must be (value: T, pos: i64)");
}

//===----------------------------------------------------------------------===//
// Region ops: completeness, source slicing relation, leaks
//===----------------------------------------------------------------------===//

TEST(StructuredVerifier, RegionOpNeedsAllItsRegions) {
  Built b = buildFile("csr_spmv.kir", "", true, {"region-teams"});
  findOp(*b.program, Opcode::RegionFold)->regions.pop_back();
  expectError(b, "[structure]", "needs 3 regions");
}

TEST(StructuredVerifier, RegionOpNeedsItsRegionIndex) {
  Built b = buildFile("csr_spmv.kir", "", true, {"region-teams"});
  phys::Op *fold = findOp(*b.program, Opcode::RegionFold);
  fold->operands.erase(fold->operands.begin() + 1, fold->operands.end());
  expectError(b, "[structured]", "needs 3 leading operands");
}

TEST(StructuredVerifier, MemberEndIsLoadedAtBeginPlusOne) {
  Built b = buildFile("csr_spmv.kir", "", true, {"region-teams"});
  phys::Op *fold = findOp(*b.program, Opcode::RegionFold);
  // end = rowptr(r) as well: an empty segment claimed as the region.
  phys::Op *endLoad = phys::memberEnd(*fold)->def;
  endLoad->operands[1] = phys::memberBegin(*fold)->def->operands[1];
  expectError(b, "[structured]",
              "source slicing relation: the end is not loaded at the begin's "
              "coordinate + 1");
}

TEST(StructuredVerifier, MemberBoundsComeFromTheOffsets) {
  Built b = buildFile("csr_spmv.kir", "", true, {"region-teams"});
  phys::Op *fold = findOp(*b.program, Opcode::RegionFold);
  // begin = r + r: a computed bound, not a slicing relation.
  phys::Value *r = phys::regionIndex(*fold);
  phys::Op *add = insertBefore(*b.program, fold, Opcode::Add, {r, r},
                               {phys::Type::index()});
  fold->operands[1] = add->result();
  expectError(b, "[structured]", "the segment begin %" +
                                     std::to_string(add->result()->id) +
                                     " is not loaded from the offsets");
}

TEST(StructuredVerifier, BeginIsLoadedAtTheRegionIndex) {
  Built b = buildFile("region_fold_ordered.kir", "batched");
  phys::Op *fold = findOp(*b.program, Opcode::RegionFold);
  // The op claims the batch coordinate as its region index while its
  // bounds are loaded at the loop's region r.
  fold->operands[0] = findOp(*b.program, Opcode::Delinearize)->result();
  expectError(b, "[structured]",
              "the begin is not loaded at offsets(r + invariant)");
}

TEST(StructuredVerifier, SegmentBoundDoesNotLeak) {
  Built b = buildFile("segmented_scan.kir");
  phys::Op *scan = findOp(*b.program, Opcode::RegionScan);
  // Store the loaded segment begin (i32) instead of the prefix: the
  // segment's extent becomes an observable value.
  phys::Value *loadedBegin = phys::memberBegin(*scan)->def->operands[0];
  phys::Op *store = scan->region(phys::OutRegion)->block.ops.front().get();
  store->operands[1] = loadedBegin;
  expectError(b, "[structured]", "is used outside its slicing relation; the "
                                 "segment extent would leak as an observable "
                                 "value");
}

TEST(StructuredVerifier, RegionLoopCoversTheKIRRegionIteration) {
  Built b = buildFile("region_fold_ordered.kir");
  // The ordered `for` over the regions loses its origin: the store region's
  // store no longer runs under the KIR region_fold's region iteration.
  findOp(*b.program, Opcode::For)->origin.op = -1;
  expectError(b, "[coverage]", "runs under parallel iterations");
}

//===----------------------------------------------------------------------===//
// Member indices pin the instance that owns their region
//===----------------------------------------------------------------------===//

phys::AccessSummary write(std::vector<phys::Affine> coords) {
  phys::AccessSummary a;
  a.root = 0;
  a.rootName = "y";
  a.rank = 1;
  a.write = true;
  a.coords = std::move(coords);
  return a;
}

TEST(StructuredVerifier, MemberAtomSeparatesInstances) {
  phys::InstanceSpace space;
  space.rank = 1;
  space.memberOf["k"] = 0;
  space.invariant["k"] = false;
  space.invariant["n"] = true;
  phys::Affine k = phys::Affine::ofAtom("k");
  phys::Affine n = phys::Affine::ofAtom("n");
  phys::Affine i0 = phys::Affine::ofAtom(phys::instanceAtom(0));
  // y(k), y(2k + n): unique per instance (regions are disjoint).
  EXPECT_TRUE(phys::separatedAcrossInstances(write({k}), write({k}), space));
  phys::Affine twoKn = k.scaled(2).plus(n);
  EXPECT_TRUE(phys::separatedAcrossInstances(write({twoKn}), write({twoKn}), space));
  // y(k + i0): two instances may meet.
  phys::Affine ki = k.plus(i0);
  EXPECT_FALSE(phys::separatedAcrossInstances(write({ki}), write({ki}), space));
  // A member of another dimension's region does not pin dim 0 ...
  space.rank = 2;
  space.memberOf["k"] = 1;
  EXPECT_FALSE(phys::separatedAcrossInstances(write({k}), write({k}), space));
  // ... and a plain loop index never does.
  space.rank = 1;
  space.memberOf.clear();
  EXPECT_FALSE(phys::separatedAcrossInstances(write({k}), write({k}), space));
}

TEST(StructuredVerifier, RegionScanStoresAtMembersStayParallel) {
  // The verifier re-proves segmented_scan's parallel group from the physical
  // program alone (y(k), k a member of the instance's region); storing at a
  // fixed element instead is a cross-instance conflict.
  Built b = buildFile("segmented_scan.kir");
  ASSERT_FALSE(b.program->segments[0].ordered);
  phys::Op *scan = findOp(*b.program, Opcode::RegionScan);
  phys::Op *store = scan->region(phys::OutRegion)->block.ops.front().get();
  // The constant 1 of the end's coordinate r + 1.
  phys::Op *endLoad = phys::memberEnd(*scan)->def->operands[0]->def;
  store->operands[2] = endLoad->operands[1]->def->operands[1];
  expectError(b, "[conflicts]", "write to y(1) at 4:30 is not provably unique "
                                "per instance");
}

} // namespace
