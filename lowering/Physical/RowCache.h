//===- RowCache.h - Register rows: a value kept in the row slot -*- C++ -*-===//
//
// The facts behind the row-cache pass (docs/passes.md §3), shared by the
// pass (Passes/RowCache.cpp) and the construction verifier
// (VerifierCoop.cpp):
//
// In a register-row program (cta-rows with regMaxK) every distributed op
// reads element c of row r of a register view V from the thread's register
// slot of c. When a distributed op D computes a *row expression* e(V[r][c])
// -- pure, single-result, region-free ops over the `reg` loads of V, D's
// member index, constants and values defined before D -- of V's element
// type, and every later distributed op reads V only through expressions
// structurally equal to e, then D may overwrite the slot with e's value
// (`row_cache` = V's parameter index on e's op) and the later ops read the
// slot for their copy of e (`row_cached` on its root op), skipping its
// recomputation: softmax's exp(x - max), computed once per element instead
// of twice. Both attributes are hints on unchanged semantics: the
// interpreters ignore them, the emitter uses them only in the register
// variants.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PHYSICAL_ROWCACHE_H
#define INTENT_PHYSICAL_ROWCACHE_H

#include "Physical/IR.h"

#include <set>
#include <string>
#include <vector>

namespace intent::phys {

/// The member block of distributed op `d` (a for's body, a reduction's
/// value region).
const Block &memberBlock(const Op &d);

/// The ops of the row expression of `v` in member block `b` over register
/// view parameter `param` (its reg loads, b's member argument, constants
/// and values defined outside b); empty with `why` set when `v` is not one
/// (an op with regions or several results, an impure op, another load, a
/// value of a nested region) or reads no reg load of `param`.
std::set<const Op *> rowExpression(const Value *v, const Block &b,
                                   unsigned param, std::string *why = nullptr);

/// Whether row expressions `a` (in member block `ba`) and `b` (in `bb`)
/// compute the same value for the same member: same opcodes, attributes
/// and types, reg loads of the same parameter, the member arguments paired,
/// identical outside values.
bool sameRowExpression(const Value *a, const Block &ba, const Value *b,
                       const Block &bb);

/// Whether, with the row slots of `param` holding `cached` (a row
/// expression in `bc`), member block `b` reads `param` only through
/// expressions equal to it: every reg load of `param` in `b` and every op
/// between it and such an expression's root is used only inside those
/// expressions. `roots` receives the roots; `why` says what is not covered.
bool rowReadsCovered(const Value *cached, const Block &bc, const Block &b,
                     unsigned param, std::vector<const Op *> *roots,
                     std::string *why = nullptr);

/// Whether `op` may write its value into the row slots of register view
/// `param`: it sits at the top of the member block of a distributed op, its
/// result is a row expression of `param` of the view's element type (not a
/// bare load), and no reg load of `param` follows it in the block (they
/// would read the overwritten slot). `why` says why not.
bool rowCacheSite(const Program &p, const Op &op, unsigned param,
                  std::string *why = nullptr);

} // namespace intent::phys

#endif // INTENT_PHYSICAL_ROWCACHE_H
