//===- IR.cpp - Physical IR types, ops, program and builder ----------------===//

#include "Physical/IR.h"

#include <algorithm>

#include "llvm/Support/ErrorHandling.h"

using namespace intent;
using namespace intent::phys;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

Type Type::fromKIR(const kir::Type &t) {
  switch (t.kind) {
  case kir::Type::Kind::None:
    return none();
  case kir::Type::Kind::Scalar:
    return scalar(t.elem);
  case kir::Type::Kind::View:
    return view(t.elem, t.rank, t.constElem);
  }
  llvm_unreachable("bad KIR type");
}

bool Type::isInteger() const {
  return isScalar() && kir::Type::scalar(elem).isInteger();
}

bool Type::isFloat() const {
  return isScalar() && kir::Type::scalar(elem).isFloat();
}

void intent::phys::printType(llvm::raw_ostream &os, const Type &t) {
  switch (t.kind) {
  case Type::Kind::None:
    os << "none";
    return;
  case Type::Kind::Scalar:
    os << kir::scalarKindName(t.elem);
    return;
  case Type::Kind::View:
    os << "view<" << (t.constElem ? "const " : "") << kir::scalarKindName(t.elem)
       << ", " << t.rank << ">";
    return;
  case Type::Kind::Buffer:
    os << "buffer<" << kir::scalarKindName(t.elem) << ", " << t.size << ">";
    return;
  }
}

std::string intent::phys::typeToString(const Type &t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  printType(os, t);
  return s;
}

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

llvm::StringRef intent::phys::execScopeName(ExecScope s) {
  switch (s) {
  case ExecScope::Thread:
    return "thread";
  case ExecScope::Warp:
    return "warp";
  case ExecScope::Warpgroup:
    return "warpgroup";
  case ExecScope::CTA:
    return "cta";
  }
  llvm_unreachable("bad exec scope");
}

llvm::StringRef intent::phys::launchExprKindName(LaunchExpr::Kind k) {
  using K = LaunchExpr::Kind;
  switch (k) {
  case K::Const:
    return "const";
  case K::Param:
    return "param";
  case K::Extent:
    return "extent";
  case K::Stride:
    return "stride";
  case K::Cast:
    return "cast";
  case K::Add:
    return "add";
  case K::Sub:
    return "sub";
  case K::Mul:
    return "mul";
  case K::Div:
    return "div";
  case K::Rem:
    return "rem";
  case K::Shr:
    return "shr";
  case K::Min:
    return "min";
  case K::Max:
    return "max";
  case K::Neg:
    return "neg";
  case K::Cmp:
    return "cmp";
  case K::SmCount:
    return "sm_count";
  case K::Select:
    return "select";
  }
  llvm_unreachable("bad launch expr kind");
}

llvm::StringRef intent::phys::bufferScopeName(BufferScope s) {
  switch (s) {
  case BufferScope::ProgramPrivate:
    return "program_private";
  case BufferScope::IterationPrivate:
    return "iteration_private";
  case BufferScope::InvocationWorkspace:
    return "invocation_workspace";
  case BufferScope::ExternalView:
    return "external_view";
  case BufferScope::CTAShared:
    return "cta_shared";
  }
  llvm_unreachable("bad buffer scope");
}

llvm::StringRef intent::phys::initModeName(InitMode m) {
  switch (m) {
  case InitMode::Host:
    return "host";
  case InitMode::Value:
    return "value";
  case InitMode::FirstWrite:
    return "first_write";
  }
  llvm_unreachable("bad init mode");
}

llvm::StringRef intent::phys::ownershipName(Ownership o) {
  switch (o) {
  case Ownership::None:
    return "none";
  case Ownership::InstanceUnique:
    return "instance_unique";
  case Ownership::SingleInstance:
    return "single_instance";
  case Ownership::Private:
    return "private";
  case Ownership::Atomic:
    return "atomic";
  }
  llvm_unreachable("bad ownership");
}

llvm::StringRef intent::phys::sharingName(Sharing s) {
  switch (s) {
  case Sharing::None:
    return "none";
  case Sharing::Instance:
    return "instance";
  case Sharing::CTA:
    return "cta";
  case Sharing::Launch:
    return "launch";
  case Sharing::System:
    return "system";
  }
  llvm_unreachable("bad sharing domain");
}

llvm::StringRef intent::phys::boundsName(Bounds b) {
  switch (b) {
  case Bounds::Unknown:
    return "unknown";
  case Bounds::Assumed:
    return "assumed";
  case Bounds::Guarded:
    return "guarded";
  case Bounds::Proven:
    return "proven";
  }
  llvm_unreachable("bad bounds");
}

llvm::StringRef intent::phys::activeSetName(ActiveSet a) {
  switch (a) {
  case ActiveSet::Self:
    return "self";
  case ActiveSet::All:
    return "all";
  case ActiveSet::Thread:
    return "thread";
  case ActiveSet::Leader:
    return "leader";
  }
  llvm_unreachable("bad active set");
}

// opcodeName, isTerminator and isPure come from the op table (OpTable.cpp).

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

Op *Op::parentOp() const {
  if (!parent || !parent->parent)
    return nullptr;
  return parent->parent->parent;
}

llvm::ArrayRef<Value *> Op::coords() const {
  unsigned first = opcode == Opcode::Store       ? 2
                   : opcode == Opcode::Atomic    ? 2
                   : opcode == Opcode::AtomicCas ? 3
                   : opcode == Opcode::VectorStore
                       ? 1 + static_cast<unsigned>(
                                 std::max<int64_t>(intAttr("width", 0), 0))
                       : 1;
  unsigned end = operands.size() - (access.hasGuard ? 1 : 0);
  if (end < first)
    return {};
  return llvm::ArrayRef<Value *>(operands).slice(first, end - first);
}

//===----------------------------------------------------------------------===//
// Program
//===----------------------------------------------------------------------===//

Program::Program() : body(std::make_unique<Region>()) {}

unsigned Program::addExpr(const LaunchExpr &e) {
  for (unsigned i = 0; i < exprs.size(); ++i)
    if (exprs[i] == e)
      return i;
  exprs.push_back(e);
  return exprs.size() - 1;
}

unsigned Program::constExpr(int64_t v) {
  LaunchExpr e;
  e.kind = LaunchExpr::Kind::Const;
  e.value = v;
  return addExpr(e);
}

unsigned Program::cmpExpr(llvm::StringRef pred, unsigned a, unsigned b) {
  LaunchExpr e;
  e.kind = LaunchExpr::Kind::Cmp;
  e.type = ScalarKind::Bool;
  e.pred = pred.str();
  e.operands = {a, b};
  return addExpr(e);
}

unsigned Program::selectExpr(unsigned c, unsigned a, unsigned b) {
  LaunchExpr e;
  e.kind = LaunchExpr::Kind::Select;
  e.type = exprs[a].type;
  e.operands = {c, a, b};
  return addExpr(e);
}

unsigned Program::binaryExpr(LaunchExpr::Kind k, unsigned a, unsigned b) {
  LaunchExpr e;
  e.kind = k;
  e.type = exprs[a].type;
  e.operands = {a, b};
  if (k == LaunchExpr::Kind::Cmp)
    e.type = ScalarKind::Bool;
  return addExpr(e);
}

std::string Program::exprToString(unsigned idx) const {
  using K = LaunchExpr::Kind;
  if (idx >= exprs.size())
    return "<bad expr e" + std::to_string(idx) + ">";
  const LaunchExpr &e = exprs[idx];
  auto sub = [&](unsigned i) { return exprToString(e.operands[i]); };
  auto paramName = [&]() -> std::string {
    if (e.param < params.size() && !params[e.param].name.empty())
      return params[e.param].name;
    return "arg" + std::to_string(e.param);
  };
  switch (e.kind) {
  case K::Const:
    return std::to_string(e.value);
  case K::Param:
    return paramName();
  case K::Extent:
    return paramName() + ".extent(" + std::to_string(e.dim) + ")";
  case K::Stride:
    return paramName() + ".stride(" + std::to_string(e.dim) + ")";
  case K::Cast:
    return "(" + kir::scalarKindName(e.type).str() + ")" + sub(0);
  case K::Add:
    return "(" + sub(0) + " + " + sub(1) + ")";
  case K::Sub:
    return "(" + sub(0) + " - " + sub(1) + ")";
  case K::Mul:
    return "(" + sub(0) + " * " + sub(1) + ")";
  case K::Div:
    return "(" + sub(0) + " / " + sub(1) + ")";
  case K::Rem:
    return "(" + sub(0) + " % " + sub(1) + ")";
  case K::Shr:
    return "(" + sub(0) + " >> " + sub(1) + ")";
  case K::Min:
    return "min(" + sub(0) + ", " + sub(1) + ")";
  case K::Max:
    return "max(" + sub(0) + ", " + sub(1) + ")";
  case K::Neg:
    return "-" + sub(0);
  case K::Cmp:
    return "(" + sub(0) + " " + e.pred + " " + sub(1) + ")";
  case K::Select:
    return "(" + sub(0) + " ? " + sub(1) + " : " + sub(2) + ")";
  case K::SmCount:
    return "sm_count()";
  }
  llvm_unreachable("bad launch expr");
}

//===----------------------------------------------------------------------===//
// Builder
//===----------------------------------------------------------------------===//

Value *Builder::newValue(Type t) {
  auto v = std::make_unique<Value>();
  v->id = program.nextValueId++;
  v->type = t;
  Value *raw = v.get();
  program.values.push_back(std::move(v));
  return raw;
}

Value *Builder::addBlockArg(Block *b, Type t, llvm::StringRef name) {
  Value *v = newValue(t);
  v->name = name.str();
  v->owner = b;
  v->argNo = b->args.size();
  b->args.push_back(v);
  return v;
}

Op *Builder::create(Opcode opc, llvm::ArrayRef<Value *> operands,
                    llvm::ArrayRef<Type> resultTypes) {
  assert(block && "no insertion block");
  auto op = std::make_unique<Op>(opc);
  op->id = program.nextOpId++;
  op->loc = loc;
  op->origin = origin;
  op->parent = block;
  op->operands.assign(operands.begin(), operands.end());
  for (unsigned i = 0; i < resultTypes.size(); ++i) {
    Value *v = newValue(resultTypes[i]);
    v->def = op.get();
    v->resultNo = i;
    op->results.push_back(v);
  }
  Op *raw = op.get();
  block->ops.push_back(std::move(op));
  return raw;
}

Region *Builder::addRegion(Op *op) {
  auto r = std::make_unique<Region>();
  r->parent = op;
  Region *raw = r.get();
  op->regions.push_back(std::move(r));
  return raw;
}

Value *Builder::constInt(int64_t v, Type t) {
  Op *op = create(Opcode::Constant, {}, {t});
  op->setAttr("value", v);
  return op->result();
}

Value *Builder::binary(Opcode opc, Value *a, Value *b) {
  return create(opc, {a, b}, {a->type})->result();
}

Value *Builder::cmp(llvm::StringRef pred, Value *a, Value *b) {
  Op *op = create(Opcode::Cmp, {a, b}, {Type::boolean()});
  op->setAttr("pred", pred.str());
  return op->result();
}

Value *Builder::launchValue(unsigned expr) {
  Type t = Type::scalar(program.exprs[expr].type);
  Op *op = create(Opcode::LaunchValue, {}, {t});
  op->setAttr("expr", static_cast<int64_t>(expr));
  return op->result();
}

Op *Builder::yield(llvm::ArrayRef<Value *> vals) {
  return create(Opcode::Yield, vals, {});
}

void intent::phys::walk(const Region &r,
                        const std::function<void(const Op &)> &fn) {
  for (const auto &op : r.block.ops) {
    fn(*op);
    for (const auto &sub : op->regions)
      walk(*sub, fn);
  }
}

void intent::phys::walkMutable(Region &r, const std::function<void(Op &)> &fn) {
  for (auto &op : r.block.ops) {
    fn(*op);
    for (auto &sub : op->regions)
      walkMutable(*sub, fn);
  }
}

bool intent::phys::isCooperative(Opcode op) {
  switch (op) {
  case Opcode::ThreadId:
  case Opcode::LaneId:
  case Opcode::WarpId:
  case Opcode::CtaSize:
  case Opcode::GridCtas:
  case Opcode::Barrier:
  case Opcode::Shuffle:
    return true;
  default:
    return false;
  }
}

bool intent::phys::isAtomic(Opcode op) {
  return op == Opcode::Atomic || op == Opcode::AtomicCas;
}

int64_t intent::phys::indexLimit(ScalarKind type) {
  kir::Type t = kir::Type::scalar(type);
  unsigned bits = t.bitWidth() - (t.isSigned() ? 1 : 0);
  if (bits >= 63)
    return INT64_MAX;
  return int64_t(1) << bits;
}

bool intent::phys::containsPrint(const Region &r) {
  bool found = false;
  walk(r, [&](const Op &op) { found |= op.opcode == Opcode::Print; });
  return found;
}

//===----------------------------------------------------------------------===//
// Invocation workspace layout
//===----------------------------------------------------------------------===//

int64_t intent::phys::scalarBytes(ScalarKind k) {
  return std::max<int64_t>(kir::Type::scalar(k).bitWidth() / 8, 1);
}

int64_t intent::phys::workspaceBytes(const Program &p) {
  int64_t end = 0;
  for (const Buffer &b : p.buffers)
    if (b.scope == BufferScope::InvocationWorkspace && b.workspaceOffset >= 0)
      end = std::max(end, b.workspaceOffset + b.size * scalarBytes(b.elem));
  return end;
}

const Buffer *intent::phys::launchSizedWorkspace(const Program &p) {
  for (const Buffer &b : p.buffers)
    if (b.scope == BufferScope::InvocationWorkspace && b.sizeExpr >= 0)
      return &b;
  return nullptr;
}

std::set<int> intent::phys::writtenParams(const Program &p) {
  std::set<int> written;
  walk(*p.body, [&](const Op &op) {
    if (op.opcode != Opcode::Store && op.opcode != Opcode::VectorStore &&
        !isAtomic(op.opcode))
      return;
    const Value *m = op.memory();
    if (m->isBlockArg() && m->owner == &p.body->block)
      written.insert(static_cast<int>(m->argNo));
  });
  return written;
}

bool intent::phys::keepsEveryValue(ScalarKind from, ScalarKind to) {
  const kir::Type f = kir::Type::scalar(from), t = kir::Type::scalar(to);
  if (!f.isInteger() || !t.isInteger())
    return false;
  if (f.isSigned())
    return t.isSigned() && t.bitWidth() >= f.bitWidth();
  return t.bitWidth() > f.bitWidth() ||
         (t.bitWidth() == f.bitWidth() && !t.isSigned());
}

bool intent::phys::definedInside(const Value *v, const Op &op) {
  const Op *d = v->def ? v->def
                       : (v->owner && v->owner->parent ? v->owner->parent->parent
                                                       : nullptr);
  for (; d; d = d->parentOp())
    if (d == &op)
      return true;
  return false;
}

bool intent::phys::dependsOnArgs(const Value *v, const Block &blk,
                                 const Op &op) {
  if (!v->def)
    return std::find(blk.args.begin(), blk.args.end(), v) != blk.args.end();
  if (!definedInside(v, op))
    return false;
  for (const Value *x : v->def->operands)
    if (dependsOnArgs(x, blk, op))
      return true;
  return false;
}

bool intent::phys::isPrivatizedMerge(const Program &p, const Op &op) {
  if (op.opcode != Opcode::Atomic || op.origin.synth.empty() ||
      op.access.kirOp >= 0)
    return false;
  const Value *m = op.memory();
  if (!m->isBlockArg() || m->owner != &p.body->block || !m->type.isView())
    return false;
  const Op *load = op.storedValue()->def;
  if (!load || load->opcode != Opcode::Load || !load->memory()->def ||
      load->memory()->def->opcode != Opcode::Alloc)
    return false;
  int64_t id = load->memory()->def->intAttr("buffer", -1);
  return id >= 0 && id < static_cast<int64_t>(p.buffers.size()) &&
         p.buffers[id].scope == BufferScope::CTAShared &&
         p.buffers[id].privatizes == static_cast<int>(m->argNo);
}

bool intent::phys::workspaceKeptZero(const Program &p) {
  for (const Buffer &b : p.buffers)
    if (b.scope == BufferScope::InvocationWorkspace && b.keptZero)
      return true;
  return false;
}

bool intent::phys::workspaceZeroed(const Program &p) {
  for (const Buffer &b : p.buffers)
    if (b.scope == BufferScope::InvocationWorkspace &&
        b.init == InitMode::Value)
      return true;
  return false;
}
