//===- PhysicalIRTest.cpp - Hand-built physical programs ------------------===//
//
// Programs built with phys::Builder alone (no KIR): a program-private buffer
// with an init value, a guarded store, and the interpreter's race detector.
//
//===----------------------------------------------------------------------===//

#include "Interpreter/PhysInterpreter.h"
#include "Physical/Verifier.h"

#include "gtest/gtest.h"

using namespace intent;
using namespace intent::phys;
using LK = LaunchExpr::Kind;

namespace {

/// y(i) = (i < 3) ? buf[1] + y(i) (through buf[0]) : y(i), over y's extent;
/// buf is program-private, initialised to 1.5. With `racy`, every program
/// instead writes y(0).
std::unique_ptr<Program> buildProgram(bool racy) {
  auto p = std::make_unique<Program>();
  p->name = "hand";
  Builder b(*p);
  b.origin.synth = "hand"; // no KIR: every op is synthesized here ([origin])
  Param y;
  y.name = "y";
  y.type = Type::view(ScalarKind::F32, 1, false);
  y.access = kir::Access::ReadWrite;
  p->params.push_back(y);
  Value *yv = b.addBlockArg(&p->body->block, y.type, "y");

  LaunchExpr ext;
  ext.kind = LK::Extent;
  unsigned e0 = p->addExpr(ext);
  unsigned zero = p->constExpr(0);
  unsigned len = p->binaryExpr(LK::Max, e0, zero);
  Segment seg;
  seg.extents = {len};
  seg.length = len;
  seg.offset = zero;
  p->segments.push_back(seg);
  p->total = len;

  Buffer ext0;
  ext0.id = 0;
  ext0.name = "y";
  ext0.param = 0;
  ext0.elem = ScalarKind::F32;
  ext0.ownership = Ownership::InstanceUnique;
  ext0.readerGroups = {0};
  ext0.writerGroups = {0};
  p->buffers.push_back(ext0);
  Buffer priv;
  priv.id = 1;
  priv.name = "scratch";
  priv.scope = BufferScope::ProgramPrivate;
  priv.size = 2;
  priv.init = InitMode::Value;
  priv.initValue = 1.5;
  priv.ownership = Ownership::Private;
  priv.readerGroups = {0}; // the segment loads and stores it
  priv.writerGroups = {0};
  p->buffers.push_back(priv);

  b.setInsertionBlock(&p->body->block);
  Value *pid = b.create(Opcode::ProgramId, {}, {Type::index()})->result();
  Value *ok = b.cmp("lt", pid, b.launchValue(p->total));
  Op *guard = b.create(Opcode::If, {ok}, {});
  Region *then = b.addRegion(guard), *els = b.addRegion(guard);
  b.setInsertionBlock(&then->block);
  Op *segOp = b.create(Opcode::Segment,
                       {pid, b.launchValue(zero), b.launchValue(len)}, {});
  segOp->setAttr("group", int64_t(0));
  Region *r = b.addRegion(segOp);
  Value *local = b.addBlockArg(&r->block, Type::index(), "local");
  b.setInsertionBlock(&r->block);
  Value *i = b.create(Opcode::Delinearize, {local, b.launchValue(len)},
                      {Type::index()})
                 ->result();
  Op *alloc = b.create(Opcode::Alloc, {}, {Type::buffer(ScalarKind::F32, 2)});
  alloc->setAttr("buffer", int64_t(1));
  Value *buf = alloc->result();
  AccessInfo info;
  info.bounds = Bounds::Assumed;
  info.kirOp = 0;
  auto load = [&](Value *mem, Value *c) {
    Op *op = b.create(Opcode::Load, {mem, c}, {Type::scalar(ScalarKind::F32)});
    op->access = info;
    return op->result();
  };
  Value *c0 = b.constInt(0), *c1 = b.constInt(1);
  Value *yc = racy ? c0 : i;
  Value *sum = b.binary(Opcode::Add, load(buf, c1), load(yv, yc));
  b.create(Opcode::Store, {buf, sum, c0}, {})->access = info;
  Value *g = b.cmp("lt", i, b.constInt(3));
  Op *st = b.create(Opcode::Store, {yv, load(buf, c0), yc, g}, {});
  st->access = info;
  st->access.bounds = Bounds::Guarded;
  st->access.hasGuard = true;
  b.yield();
  b.setInsertionBlock(&then->block);
  b.yield();
  b.setInsertionBlock(&els->block);
  b.yield();
  b.setInsertionBlock(&p->body->block);
  b.create(Opcode::Return, {}, {});
  return p;
}

std::vector<interp::Arg> bindY(std::vector<float> &y) {
  return {interp::Arg::ofView(interp::View::contiguous(
      y.data(), ScalarKind::F32, {static_cast<int64_t>(y.size())}))};
}

TEST(PhysicalIR, PrivateBufferAndGuardedStore) {
  std::unique_ptr<Program> p = buildProgram(false);
  std::vector<std::string> errs;
  EXPECT_TRUE(verifyProgram(*p, nullptr, errs)) << (errs.empty() ? "" : errs[0]);
  std::string text = programToString(*p, false);
  EXPECT_NE(text.find("buffer 1 scratch: program_private f32 size 2 init value 1.5 "
                      "ownership private"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("guard(%"), std::string::npos) << text;
  for (int n : {0, 1, 2, 5, 9}) {
    std::vector<float> y(n), expected(n);
    for (int k = 0; k < n; ++k)
      y[k] = expected[k] = 0.25f * k - 1;
    for (int k = 0; k < n && k < 3; ++k)
      expected[k] += 1.5f;
    interp::PhysRunOptions opts;
    opts.order = interp::PhysRunOptions::Order::Reverse;
    interp::PhysRunResult r = interp::runProgram(*p, bindY(y), opts);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.total, n);
    EXPECT_EQ(r.programs % opts.blockSize, 0) << "grid is rounded up";
    EXPECT_EQ(y, expected);
  }
}

TEST(PhysicalIR, RaceDetectorAndVerifierAgree) {
  std::unique_ptr<Program> p = buildProgram(true);
  std::vector<std::string> errs;
  EXPECT_FALSE(verifyProgram(*p, nullptr, errs));
  bool conflict = false;
  for (const std::string &e : errs)
    conflict |= e.rfind("[conflicts]", 0) == 0;
  EXPECT_TRUE(conflict);
  std::vector<float> y(4, 1.0f);
  interp::PhysRunResult r = interp::runProgram(*p, bindY(y));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("races on y"), std::string::npos) << r.error;
}

TEST(PhysicalIR, LaunchExpressionsAreHashConsed) {
  Program p;
  unsigned a = p.constExpr(4), b = p.constExpr(4);
  EXPECT_EQ(a, b);
  unsigned m1 = p.binaryExpr(LK::Mul, a, p.constExpr(2));
  unsigned m2 = p.binaryExpr(LK::Mul, b, p.constExpr(2));
  EXPECT_EQ(m1, m2);
  EXPECT_EQ(p.exprs.size(), 3u);
  EXPECT_EQ(p.exprToString(m1), "(4 * 2)");
}

} // namespace
