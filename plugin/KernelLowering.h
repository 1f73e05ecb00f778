//===- KernelLowering.h - Clang AST of one kernel -> KIR -------*- C++ -*-===//
//
// Lowers the body of one [[intent::kernel]] function into a kir::Kernel.
// The work is split over several files by construct:
//   KernelLowering.cpp  entry point, types, constants, locals (SSA), `if`
//                       construction and speculative loop discovery
//   LowerExpr.cpp       expressions and lvalues
//   LowerCall.cpp       calls: view intrinsics, <cmath>, parallel_for,
//                       helper and lambda inlining
//   LowerStmt.cpp       statements, loops, early returns
//   LowerAggregate.cpp  structs of scalars, scalar-replaced
//   LowerReduce.cpp     reduce, scan, argmax/argmin, region_fold/scan
//   LowerAtomic.cpp     atomic_add/min/max/exch/cas, histogram
//
// Locals are renamed into SSA as they are lowered: `env` maps each local
// (VarDecl) to its current kir::Value; a local of struct type (an
// "aggregate": trivially copyable, fields scalars or aggregates) has one
// entry per scalar leaf. An `if` whose branches assign a local
// gets that local as an extra result; a loop carries every local its body,
// condition or step assigns (found by lowering them once speculatively and
// throwing the result away). Everything outside the supported subset is
// reported as a Clang error at the construct; the first error stops the
// kernel (later ones would mostly be consequences).
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PLUGIN_KERNELLOWERING_H
#define INTENT_PLUGIN_KERNELLOWERING_H

#include "Diagnostics.h"

#include "KIR/KIR.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"

#include <deque>
#include <functional>
#include <map>
#include <optional>

namespace intent::plugin {

/// What a C++ lvalue denotes: a local variable (renamed into SSA), some
/// leaves of an aggregate local (a member), an element of a view, or a
/// member of an aggregate temporary (read-only).
struct LValue {
  enum class Kind { Invalid, Local, Element, Temp };
  Kind kind = Kind::Invalid;
  const clang::VarDecl *var = nullptr; ///< Local
  /// Local and Temp: the first leaf and the number of leaves denoted; an
  /// aggregate (or a struct-typed member) denotes all its leaves.
  unsigned leaf = 0;
  unsigned count = 1;
  bool aggregate = false; ///< denotes a struct, read as an aggregate value
  kir::Value *view = nullptr; ///< Element
  llvm::SmallVector<kir::Value *, 3> indices;
  llvm::SmallVector<kir::Value *, 4> temp; ///< Temp: all leaves
  kir::Type type; ///< the type of the denoted scalar or view

  bool valid() const { return kind != Kind::Invalid; }
};

/// An env slot: a declaration (a local, a parameter of an inlined function,
/// or the FunctionDecl whose return value is being computed) and the index
/// of a scalar leaf (0 unless the declaration has aggregate type).
using Slot = std::pair<const clang::Decl *, unsigned>;

/// Lowers one kernel definition (see the file comment).
class KernelLowering {
public:
  KernelLowering(clang::ASTContext &ctx, DiagReporter &diags);

  /// Builds params and body of `k` from `fd` (a definition), infers view
  /// access modes and verifies the result. Returns false after reporting an
  /// error (a user error, or an internal one when verification fails).
  bool lower(const clang::FunctionDecl *fd, kir::Kernel &k);

  //===--------------------------------------------------------------------===//
  // Shared state and helpers (used by the Lower*.cpp files).
  //===--------------------------------------------------------------------===//

  /// Control state of the code being lowered at the insertion point.
  enum class Flow {
    Normal,     ///< falls through
    Terminated, ///< the block ended in break/continue
    Returned,   ///< the enclosing function body has been left (return)
  };

  /// A function body being lowered: the kernel, an inlined helper or lambda.
  struct Frame {
    const clang::Decl *key = nullptr; ///< env key of the return value
    unsigned loopDepth = 0;           ///< loops.size() at entry
    bool helper = false;              ///< an inlined helper or lambda call
  };

  /// A C++ loop being lowered.
  struct LoopCtx {
    /// The local slots carried around the loop (real pass).
    llvm::SmallVector<Slot, 4> carried;
    /// Discovery pass: env snapshots at each break/continue.
    bool discovering = false;
    std::vector<llvm::MapVector<Slot, kir::Value *>> exits;
  };

  /// The body of a parallel_for or a callback of a reduction op being
  /// lowered: locals from outside it must not be assigned inside.
  struct CaptureScope {
    llvm::DenseSet<const clang::Decl *> outer; ///< locals visible at entry
    const char *message; ///< reported as (name, what) on an assignment
    std::string what;    ///< e.g. "the combine of 'intent::reduce'"
    bool pure = false;     ///< value/combine callbacks: no stores to views
    bool callback = false; ///< a reduction callback (no parallel_for inside)
  };

  using Env = llvm::MapVector<Slot, kir::Value *>;
  using Vals = llvm::SmallVector<kir::Value *, 4>;
  /// A branch of an `if` under construction: lowers into the insertion
  /// block and returns the values it yields explicitly.
  using BranchFn = std::function<llvm::SmallVector<kir::Value *, 1>()>;
  /// Statement lists still to run after the current one (innermost last):
  /// used to put "the rest of the body" into the else branch of an `if`
  /// whose then branch returns.
  using Cont = llvm::SmallVector<llvm::ArrayRef<clang::Stmt *>, 4>;

  clang::ASTContext &ctx;
  clang::SourceManager &sm;
  DiagReporter &diags;
  kir::Kernel *kernel = nullptr;
  /// The kernel being lowered (named by notes on errors in its helpers).
  const clang::FunctionDecl *kernelDecl = nullptr;
  /// The file of the kernel's definition: KIR locations refer to it.
  clang::FileID kernelFile;
  std::unique_ptr<kir::Builder> b;

  Env env;
  llvm::DenseMap<const clang::VarDecl *, LValue> aliases;
  llvm::DenseMap<const clang::VarDecl *, const clang::LambdaExpr *> lambdaVars;
  llvm::SmallVector<Frame, 4> frames;
  llvm::SmallVector<LoopCtx *, 4> loops;
  /// The enclosing parallel_for bodies and reduction callbacks (innermost
  /// last); assigning a local from outside the innermost one is an error.
  llvm::SmallVector<CaptureScope, 2> raceScopes;
  /// Functions being inlined (recursion check).
  llvm::SmallVector<const clang::FunctionDecl *, 4> inlineStack;
  Flow flow = Flow::Normal;
  bool failed = false;
  /// Stands for the value of a void expression (never an operand).
  kir::Value voidValue;
  /// Aggregate rvalues: placeholder values (never operands) and their leaves.
  std::deque<kir::Value> aggPool;
  llvm::DenseMap<const kir::Value *, Vals> aggParts;
  /// Leaf types of the record types seen so far (nullopt: not an aggregate).
  /// (A std::map: pointers to its values stay valid.)
  mutable std::map<const clang::RecordDecl *,
                   std::optional<llvm::SmallVector<kir::Type, 4>>>
      aggLayouts;

  // KernelLowering.cpp --------------------------------------------------------
  /// Reports `text` at `loc`, marks the kernel failed; returns null.
  std::nullptr_t fail(clang::SourceLocation loc, llvm::StringRef text,
                      llvm::ArrayRef<std::string> args = {});
  std::nullptr_t unsupported(const clang::Stmt *s);
  /// Sets the location of the ops created next.
  void at(clang::SourceLocation loc);
  kir::Loc toLoc(clang::SourceLocation loc) const;

  /// The KIR type of a scalar (bool, integers, floats, enums) or
  /// intent::view type; nullopt otherwise. References are looked through.
  std::optional<kir::Type> mapType(clang::QualType t) const;
  /// False (after an error) when the generated launcher cannot take
  /// parameter `p` of KIR type `kt` as the user's call passes it.
  bool launchableParam(const clang::ParmVarDecl *p, const kir::Type &kt);
  std::optional<kir::Type> scalarType(clang::QualType t) const;
  /// True for intent::view<T, R> (through references and qualifiers).
  bool isViewType(clang::QualType t) const;
  /// The declaration of a class type in namespace intent, or null.
  const clang::CXXRecordDecl *intentRecord(clang::QualType t) const;

  kir::Value *constant(const clang::APValue &v, clang::QualType t,
                       clang::SourceLocation loc);
  /// Folds a side-effect-free scalar prvalue to a constant, or returns null.
  kir::Value *tryFold(const clang::Expr *e);
  kir::Value *zero(kir::Type t);
  /// Lowers an integer expression used as an index or extent, as i64 (a
  /// constant one directly as an i64 constant).
  kir::Value *indexValue(const clang::Expr *e);
  kir::Value *convert(kir::Value *v, kir::Type to);

  kir::Value *readVar(const clang::VarDecl *vd, clang::SourceLocation loc);
  bool writeVar(const clang::VarDecl *vd, kir::Value *v,
                clang::SourceLocation loc);
  /// Reads / writes one leaf slot of a local (leaf 0 for non-aggregates).
  kir::Value *readSlot(const clang::VarDecl *vd, unsigned leaf,
                       clang::SourceLocation loc);
  bool writeSlot(const clang::VarDecl *vd, unsigned leaf, kir::Value *v,
                 clang::SourceLocation loc);
  kir::Value *read(const LValue &lv, clang::SourceLocation loc);
  bool write(const LValue &lv, kir::Value *v, clang::SourceLocation loc);
  /// Binds a new local (declaration or parameter of an inlined function);
  /// an aggregate value binds one slot per leaf.
  void bind(const clang::Decl *d, kir::Value *v);
  /// Drops env entries added after `mark` (leaving a scope).
  void popEnv(size_t mark);

  /// Builds `if %cond` with the given branches; locals assigned in a branch
  /// become results too. Returns the explicit results (of `types`), or
  /// nulls after a failure.
  llvm::SmallVector<kir::Value *, 1> buildIf(kir::Value *cond,
                                             llvm::ArrayRef<kir::Type> types,
                                             const BranchFn &thenFn,
                                             const BranchFn &elseFn);
  /// Lowers `fn` into a scratch region with every local renamed to a fresh
  /// value and diagnostics muted, records the env at each of its
  /// observation points (`fn` returns them; loops add break/continue), then
  /// removes everything it built. Returns the locals whose value changed.
  llvm::SmallVector<Slot, 4>
  discoverAssigned(const std::function<std::vector<Env>(LoopCtx &)> &fn);

  // LowerExpr.cpp -------------------------------------------------------------
  /// Lowers an expression to its value (a scalar or a view); a glvalue of
  /// scalar type is read. Returns null after an error.
  kir::Value *expr(const clang::Expr *e);
  /// Lowers an expression whose value is used: like expr().
  kir::Value *rvalue(const clang::Expr *e) { return expr(e); }
  /// Lowers an expression that denotes a place.
  LValue lvalue(const clang::Expr *e);
  /// Lowers an expression for its effects only (statements, for-increments):
  /// an assignment does not read its target back.
  void discard(const clang::Expr *e);
  kir::Value *castExpr(const clang::CastExpr *e);
  kir::Value *binaryOp(const clang::BinaryOperator *e);
  kir::Value *unaryOp(const clang::UnaryOperator *e);
  LValue assign(const clang::BinaryOperator *e);
  LValue incDec(const clang::UnaryOperator *e, kir::Value **oldValue);
  kir::Value *logical(const clang::BinaryOperator *e);
  kir::Value *conditional(const clang::ConditionalOperator *e);
  /// Strips parens, no-op casts, temporaries and copies.
  static const clang::Expr *strip(const clang::Expr *e);

  // LowerCall.cpp -------------------------------------------------------------
  kir::Value *call(const clang::CallExpr *e);
  /// std::move, std::forward, std::as_const: the argument itself, or null.
  static const clang::Expr *identityCallArg(const clang::CallExpr *e);
  /// v(i, j) / v[i] on an intent::view: the element, else Invalid.
  LValue viewElement(const clang::CXXOperatorCallExpr *e);
  bool isViewElementAccess(const clang::Expr *e) const;
  kir::Value *viewMember(const clang::CXXMemberCallExpr *e);
  kir::Value *mathCall(const clang::CallExpr *e, const clang::FunctionDecl *fd,
                       bool &handled);
  /// printf / std::printf: a KIR `print` (LowerPrint.cpp); sets `handled`.
  kir::Value *printCall(const clang::CallExpr *e, const clang::FunctionDecl *fd,
                        bool &handled);
  kir::Value *parallelFor(const clang::CallExpr *e);
  /// Inlines `fd` (a definition) with `args` bound to its parameters.
  kir::Value *inlineCall(const clang::FunctionDecl *fd,
                         llvm::ArrayRef<const clang::Expr *> args,
                         clang::SourceLocation callLoc);
  /// One argument of an inlined call, bound to its parameter.
  struct InlineArg {
    const clang::ParmVarDecl *param = nullptr;
    kir::Value *value = nullptr;               ///< by value or const &
    LValue place;                              ///< non-const &: aliased
    const clang::LambdaExpr *lambda = nullptr; ///< a lambda argument
  };
  /// The definition of `fd` if it can be inlined with `numArgs` arguments
  /// (else reports why and returns null); `rt` is its return type without
  /// reference.
  const clang::FunctionDecl *inlinableDef(const clang::FunctionDecl *fd,
                                          unsigned numArgs,
                                          clang::SourceLocation callLoc,
                                          clang::QualType &rt);
  /// Binds `binds` and lowers the body of `def` as a helper frame.
  kir::Value *runInlined(const clang::FunctionDecl *def,
                         llvm::ArrayRef<InlineArg> binds, clang::QualType rt);
  /// The lambda an expression denotes (a lambda expression or a local
  /// variable initialized with one), or null.
  const clang::LambdaExpr *lambdaOf(const clang::Expr *e) const;
  /// The instantiated call operator of a (possibly generic) lambda.
  const clang::CXXMethodDecl *callOperator(const clang::LambdaExpr *l,
                                           unsigned numArgs) const;
  /// Binds init-captures of `l` (`[x = e]`) in the current env.
  bool bindInitCaptures(const clang::LambdaExpr *l);
  /// An integer constant argument (a dimension), or nullopt after an error.
  std::optional<int64_t> constDim(const clang::Expr *e, llvm::StringRef what,
                                  int rankLimit);

  // LowerAggregate.cpp --------------------------------------------------------
  /// The scalar leaves of a class type the front end scalar-replaces (a
  /// trivially copyable struct without bases whose fields are scalars or
  /// such structs; intent::range and intent::arg_result), or nullopt.
  const llvm::SmallVector<kir::Type, 4> *
  aggregateLeaves(clang::QualType t) const;
  bool isAggregateType(clang::QualType t) const {
    return aggregateLeaves(t) != nullptr;
  }
  /// The first leaf and leaf count of a field within its record.
  std::pair<unsigned, unsigned> fieldLeaves(const clang::FieldDecl *fd) const;
  /// A placeholder value standing for the leaves `parts` (an aggregate
  /// rvalue); never an operand of an op.
  kir::Value *makeAggregate(llvm::ArrayRef<kir::Value *> parts);
  bool isAggregateValue(const kir::Value *v) const {
    return aggParts.count(v);
  }
  /// The leaves of a value: its parts for an aggregate, else the value.
  Vals partsOf(kir::Value *v) const;
  /// Lowers an expression of aggregate type to an aggregate value.
  kir::Value *aggregateExpr(const clang::Expr *e);
  /// The value of a default-initialized object of type `t` (default member
  /// initializers, zero elsewhere).
  kir::Value *defaultValue(clang::QualType t, clang::SourceLocation loc);
  /// Converts `v` to type `t` (a scalar or view: convert; an aggregate: the
  /// same record type is required), or reports an error at `loc`.
  kir::Value *convertTo(kir::Value *v, clang::QualType t,
                        clang::SourceLocation loc);
  /// A member access `base.field` as a place.
  LValue memberLValue(const clang::MemberExpr *e);
  /// `a = b` between aggregates (the trivial copy assignment operator).
  kir::Value *aggregateAssign(const clang::CXXOperatorCallExpr *e);

  // LowerTuple.cpp ------------------------------------------------------------
  /// The element types of std::pair<A, B> / std::tuple<Ts...>, else nullopt.
  std::optional<llvm::SmallVector<clang::QualType, 4>>
  tupleElements(clang::QualType t) const;
  /// The first element type of a pair or tuple `t` that keeps it from being
  /// an aggregate (a view, a reference, a class), or nullopt.
  std::optional<clang::QualType> badTupleElement(clang::QualType t) const;
  /// Reports msg::TupleElement at `loc` when `t` is a pair or tuple with an
  /// unsupported element; true when it did.
  bool reportTupleElement(clang::QualType t, clang::SourceLocation loc);
  /// The first leaf and leaf count of element `i` of pair or tuple `t`.
  std::pair<unsigned, unsigned> elementLeaves(clang::QualType t,
                                              unsigned i) const;
  /// A pair or tuple of type `t` from one expression per element.
  kir::Value *tupleFromElements(clang::QualType t,
                                llvm::ArrayRef<const clang::Expr *> args,
                                clang::SourceLocation loc);
  /// A constructor call of std::pair / std::tuple.
  kir::Value *tupleConstruct(const clang::CXXConstructExpr *c);
  /// std::get<I>(t) / std::get<T>(t) on a pair or tuple, as a place.
  LValue tupleGet(const clang::CallExpr *e, const clang::FunctionDecl *fd);
  bool isTupleGet(const clang::CallExpr *e) const;
  /// std::make_pair, std::make_tuple, std::get; reports other standard
  /// functions on pairs and tuples. `handled` false: none of them.
  kir::Value *tupleCall(const clang::CallExpr *e,
                        const clang::FunctionDecl *fd, bool &handled);

  // LowerReduce.cpp -----------------------------------------------------------
  /// intent::reduce, scan, argmax, argmin, region_fold, region_scan; null
  /// (no error) when `fd` is none of them.
  kir::Value *reductionCall(const clang::CallExpr *e,
                            const clang::FunctionDecl *fd, bool &handled);
  /// The bounds of an index domain argument: `n` (0, n) or a range.
  bool domainBounds(const clang::Expr *e, kir::Value *&begin,
                    kir::Value *&end);
  /// The call operator of a lambda or function object type taking
  /// `numArgs` arguments (of a template: the instantiation whose parameter
  /// types match the non-null `argTypes`, else any instantiated one), or
  /// null.
  const clang::FunctionDecl *
  callOperatorOf(clang::QualType t, unsigned numArgs,
                 llvm::ArrayRef<clang::QualType> argTypes = {}) const;
  /// Inlines the call operator `fd` of a lambda or functor with already
  /// lowered arguments (one value, possibly an aggregate, per parameter).
  /// Non-const reference parameters receive a copy.
  kir::Value *inlineWithValues(const clang::FunctionDecl *fd,
                               llvm::ArrayRef<kir::Value *> args,
                               clang::SourceLocation callLoc);

  // LowerRng.cpp --------------------------------------------------------------
  /// The seed and stream (u64) of each `intent::philox` local.
  llvm::DenseMap<const clang::VarDecl *, std::pair<kir::Value *, kir::Value *>>
      generators;
  /// True for intent::philox (through references and qualifiers).
  bool isPhiloxType(clang::QualType t) const;
  /// The (seed, stream) of a generator expression: a generator local or
  /// parameter, or a temporary `intent::philox(seed, stream)`. Reports an
  /// error and returns false otherwise.
  bool philoxOf(const clang::Expr *e,
                std::pair<kir::Value *, kir::Value *> &g);
  /// `intent::philox g(seed, stream);`: records the generator.
  void philoxLocal(const clang::VarDecl *vd);
  /// g.u32(c), g.uniform(c), g.normal(c) -> `rng`.
  kir::Value *rngCall(const clang::CXXMemberCallExpr *e);

  // LowerHalf.cpp -------------------------------------------------------------
  /// F16 for intent::half, BF16 for intent::bfloat16 (through references
  /// and qualifiers), else nullopt.
  std::optional<kir::ScalarKind> halfKind(clang::QualType t) const;
  /// `half(x)`, `half h = x`, `half{}`: a cast to f16/bf16 (via float, as
  /// the converting constructor takes a float).
  kir::Value *halfConstruct(const clang::CXXConstructExpr *e);
  /// `h.operator float()` (every implicit use of a half as a number).
  kir::Value *halfMember(const clang::CXXMemberCallExpr *e);
  /// `place = value` on a half place (trivial copy assignment).
  kir::Value *halfAssign(const clang::CXXOperatorCallExpr *e);

  // LowerContract.cpp ---------------------------------------------------------
  /// intent::matmul(C, A, B) (rank 2, or rank 3 batched): a parallel_for over
  /// C's batch and free axes whose body folds k in order (see the file).
  kir::Value *matmulCall(const clang::CallExpr *e);
  // LowerAtomic.cpp -----------------------------------------------------------
  /// intent::atomic_add/min/max/exch/cas and intent::histogram; null (no
  /// error) with handled = false when `fd` is none of them.
  kir::Value *atomicCall(const clang::CallExpr *e,
                         const clang::FunctionDecl *fd, bool &handled);

  // LowerStmt.cpp -------------------------------------------------------------
  void stmt(const clang::Stmt *s);
  /// Lowers a statement list; `cont` runs after it (see Cont).
  void seq(llvm::ArrayRef<clang::Stmt *> stmts, const Cont &cont);
  void seqOf(const clang::Stmt *s, const Cont &cont);
  void ifStmt(const clang::IfStmt *s, const Cont *cont);
  void declStmt(const clang::DeclStmt *s);
  void varDecl(const clang::VarDecl *vd);
  void loop(const clang::Stmt *init, const clang::Expr *cond,
            const clang::Stmt *body, const clang::Expr *inc, bool testFirst,
            clang::SourceLocation loc);
  void returnStmt(const clang::ReturnStmt *s);
  void loopExit(const clang::Stmt *s, kir::Opcode opc);
  /// Lowers a function body as a new frame; returns the returned value
  /// (voidValue for void functions) or null after an error.
  kir::Value *body(const clang::Stmt *s, const clang::Decl *key,
                   clang::QualType retTy, bool helper);
  static bool containsReturn(const clang::Stmt *s);

  // LowerBuffer.cpp -----------------------------------------------------------
  /// True for intent::buffer<T, N> (through references and qualifiers).
  bool isBufferType(clang::QualType t) const;
  /// A local intent::buffer: an `alloc` op bound to `vd` (a reference to a
  /// buffer aliases it).
  void bufferDecl(const clang::VarDecl *vd);
  /// b.size() (the constant N) and b.data() (reported).
  kir::Value *bufferMember(const clang::CallExpr *e,
                           const clang::CXXMethodDecl *md);
};

} // namespace intent::plugin

#endif // INTENT_PLUGIN_KERNELLOWERING_H
