//===- OpTableTest.cpp - The op table and the verifier's [schema] check ---===//
//
// The table has one row per opcode, in order, with unique names; and every
// [schema] check fails on a program broken in exactly that way (operand,
// result and region counts, a guard on a non-access, an unknown attribute,
// one of the wrong kind, an enum value not allowed, a missing required one,
// a duplicate).
//
//===----------------------------------------------------------------------===//

#include "VerifierHarness.h"

#include "Physical/OpTable.h"

#include <set>

using namespace intent;
using namespace intent::test;
using phys::Opcode;

namespace {

TEST(OpTable, OneRowPerOpcodeWithUniqueNames) {
  std::set<std::string> names;
  ASSERT_EQ(phys::opTable().size(), unsigned(phys::LastOpcode) + 1);
  for (unsigned i = 0; i <= unsigned(phys::LastOpcode); ++i) {
    const phys::OpInfo &info = phys::opInfo(Opcode(i));
    EXPECT_EQ(unsigned(info.opcode), i);
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    EXPECT_EQ(phys::opcodeByName(info.name), Opcode(i));
    EXPECT_EQ(phys::opcodeName(Opcode(i)), info.name);
    for (const phys::AttrSpec &a : info.attrs)
      EXPECT_EQ(a.kind == phys::AttrKind::Enum, !a.values.empty())
          << info.name << "." << a.name;
  }
  EXPECT_FALSE(phys::opcodeByName("nope"));
  EXPECT_TRUE(phys::isTerminator(Opcode::Yield));
  EXPECT_FALSE(phys::isTerminator(Opcode::Add));
  EXPECT_TRUE(phys::isPure(Opcode::Math));
  EXPECT_FALSE(phys::isPure(Opcode::Store));
}

TEST(OpTable, AttrSpecAccepts) {
  const phys::AttrSpec *scope = phys::opInfo(Opcode::Atomic).attr("scope");
  ASSERT_TRUE(scope);
  EXPECT_TRUE(scope->accepts(std::string("gpu")));
  EXPECT_FALSE(scope->accepts(std::string("warp")));
  EXPECT_FALSE(scope->accepts(int64_t(1)));
  const phys::AttrSpec *value = phys::opInfo(Opcode::Constant).attr("value");
  ASSERT_TRUE(value);
  EXPECT_TRUE(value->accepts(1.5) && value->accepts(int64_t(1)) &&
              value->accepts(true));
  EXPECT_FALSE(value->accepts(std::string("1")));
}

/// The first op of `opc` whose schema is clean before it is broken.
phys::Op *clean(Built &b, Opcode opc) {
  phys::Op *op = findOp(*b.program, opc);
  std::vector<std::string> errs;
  EXPECT_TRUE(phys::checkOpSchema(*op, errs));
  return op;
}

TEST(OpTableSchema, OperandCount) {
  Built b = buildFile("saxpy.kir");
  phys::Op *add = clean(b, Opcode::Add);
  add->operands.push_back(add->operands[0]);
  expectError(b, "[schema]", "(add): has 3 operands, the op table says 2");
}

TEST(OpTableSchema, AccessOperandCount) {
  Built b = buildFile("saxpy.kir");
  phys::Op *store = clean(b, Opcode::Store);
  store->operands.resize(1); // no stored value
  expectError(b, "[schema]", "(store): has 1 operands, the op table says at "
                             "least 2");
}

TEST(OpTableSchema, ResultCount) {
  Built b = buildFile("saxpy.kir");
  phys::Op *store = clean(b, Opcode::Store);
  phys::Builder bld(*b.program);
  phys::Value *v = bld.newValue(phys::Type::scalar(kir::ScalarKind::F32));
  v->def = store;
  store->results.push_back(v);
  expectError(b, "[schema]", "(store): has 1 results, the op table says 0");
}

TEST(OpTableSchema, RegionCount) {
  Built b = buildFile("saxpy.kir");
  phys::Op *add = clean(b, Opcode::Add);
  phys::Builder bld(*b.program);
  bld.setInsertionBlock(&bld.addRegion(add)->block);
  bld.yield();
  expectError(b, "[schema]", "(add): has 1 regions, the op table says 0");
}

TEST(OpTableSchema, GuardOnlyOnAccesses) {
  Built b = buildFile("saxpy.kir");
  phys::Op *add = clean(b, Opcode::Add);
  add->access.hasGuard = true;
  expectError(b, "[schema]", "(add): has a guard but is not a memory access");
}

TEST(OpTableSchema, UnknownAttribute) {
  Built b = buildFile("saxpy.kir");
  phys::Op *cmp = clean(b, Opcode::Cmp);
  cmp->setAttr("bogus", int64_t(1));
  expectError(b, "[schema]", "(cmp): unknown attribute `bogus`");
}

TEST(OpTableSchema, AttributeKind) {
  Built b = buildFile("saxpy.kir");
  phys::Op *lv = clean(b, Opcode::LaunchValue);
  lv->setAttr("expr", std::string("2"));
  expectError(b, "[schema]", "(launch_value): attribute `expr` must be int");
}

TEST(OpTableSchema, EnumValueNotAllowed) {
  Built b = buildFile("atomics.kir");
  phys::Op *atomic = clean(b, Opcode::Atomic);
  atomic->setAttr("scope", std::string("warp"));
  expectError(b, "[schema]",
              "(atomic): attribute `scope` = \"warp\" is not one of "
              "\"thread\", \"cta\", \"gpu\", \"sys\"");
}

TEST(OpTableSchema, MissingRequiredAttribute) {
  Built b = buildFile("while_carried.kir");
  phys::Op *loop = clean(b, Opcode::Loop);
  loop->attrs.clear();
  expectError(b, "[schema]",
              "(loop): misses the required attribute `test_first` (bool)");
}

TEST(OpTableSchema, DuplicateAttribute) {
  Built b = buildFile("saxpy.kir");
  phys::Op *cmp = clean(b, Opcode::Cmp);
  cmp->attrs.push_back(cmp->attrs[0]);
  expectError(b, "[schema]", "(cmp): attribute `pred` appears twice");
}

} // namespace
