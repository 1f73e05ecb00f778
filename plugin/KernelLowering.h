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
//
// Locals are renamed into SSA as they are lowered: `env` maps each local
// (VarDecl) to its current kir::Value. An `if` whose branches assign a local
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

#include <functional>
#include <optional>

namespace intent::plugin {

/// What a C++ lvalue denotes: a local variable (renamed into SSA) or an
/// element of a view.
struct LValue {
  enum class Kind { Invalid, Local, Element };
  Kind kind = Kind::Invalid;
  const clang::VarDecl *var = nullptr; ///< Local
  kir::Value *view = nullptr;          ///< Element
  llvm::SmallVector<kir::Value *, 3> indices;
  kir::Type type; ///< the type of the denoted scalar or view

  bool valid() const { return kind != Kind::Invalid; }
};

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
    /// The locals carried around the loop (real pass).
    llvm::SmallVector<const clang::VarDecl *, 4> carried;
    /// Discovery pass: env snapshots at each break/continue.
    bool discovering = false;
    std::vector<llvm::MapVector<const clang::Decl *, kir::Value *>> exits;
  };

  using Env = llvm::MapVector<const clang::Decl *, kir::Value *>;
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
  std::unique_ptr<kir::Builder> b;

  Env env;
  llvm::DenseMap<const clang::VarDecl *, LValue> aliases;
  llvm::DenseMap<const clang::VarDecl *, const clang::LambdaExpr *> lambdaVars;
  llvm::SmallVector<Frame, 4> frames;
  llvm::SmallVector<LoopCtx *, 4> loops;
  /// Locals visible outside each enclosing parallel_for (innermost last);
  /// assigning one of them from inside is a race.
  llvm::SmallVector<llvm::DenseSet<const clang::Decl *>, 2> raceScopes;
  /// Functions being inlined (recursion check).
  llvm::SmallVector<const clang::FunctionDecl *, 4> inlineStack;
  Flow flow = Flow::Normal;
  bool failed = false;
  /// Stands for the value of a void expression (never an operand).
  kir::Value voidValue;

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
  kir::Value *read(const LValue &lv, clang::SourceLocation loc);
  bool write(const LValue &lv, kir::Value *v, clang::SourceLocation loc);
  /// Binds a new local (declaration or parameter of an inlined function).
  void bind(const clang::Decl *d, kir::Value *v) { env[d] = v; }
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
  llvm::SmallVector<const clang::VarDecl *, 4>
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
  kir::Value *parallelFor(const clang::CallExpr *e);
  /// Inlines `fd` (a definition) with `args` bound to its parameters.
  kir::Value *inlineCall(const clang::FunctionDecl *fd,
                         llvm::ArrayRef<const clang::Expr *> args,
                         clang::SourceLocation callLoc);
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
};

} // namespace intent::plugin

#endif // INTENT_PLUGIN_KERNELLOWERING_H
