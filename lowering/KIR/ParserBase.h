//===- ParserBase.h - What KIR's and the physical IR's parsers share -*- C++ -*-===//
//
// Both textual IRs are read by a recursive-descent parser over the tokens of
// KIR/Lexer.h (KIR/Parser.cpp, Physical/Parser.cpp). What does not depend on
// the IR's classes lives here, so that the two parsers accept the same
// spellings and report the same errors for them:
//
// - TokenCursor: the position in the token stream, the lookahead and
//   expect/accept helpers, `FILE:LINE:COL: error: ...` reporting, integers,
//   names, keywords of an enum, attribute values, `loc(L:C)`, view access
//   keywords, and the `%a, %b =` result list of an op;
// - SSAParser: the `%N` value table of one kernel or program (a value is
//   defined once and used after its definition) and a region's
//   `^(%a: T, ...):` block arguments, over either IR's Value, Block and
//   kernel/program classes (they have the same fields for these).
//
// Each parser derives from SSAParser and adds its own grammar (types, ops,
// the kernel or program header).
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_KIR_PARSERBASE_H
#define INTENT_KIR_PARSERBASE_H

#include "KIR/KIR.h"
#include "KIR/Lexer.h"
#include "KIR/OpSchema.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace intent::text {

/// Lexes `text` with `opts`; on a character no token starts with, sets
/// `error` to `BUFFER:LINE:COL: error: unexpected character 'C'` and
/// returns false.
bool lexOrError(llvm::StringRef text, const LexOptions &opts,
                llvm::StringRef bufferName, std::vector<Token> &toks,
                std::vector<Comment> &comments, std::string &error);

/// A position in a token stream (ending in Eof) and the helpers a
/// recursive-descent parser reads it with. Every `parse`/`expect` helper
/// returns false after setting the error; the caller returns false at once.
class TokenCursor {
protected:
  TokenCursor(std::vector<Token> toks, llvm::StringRef bufferName,
              std::string &error)
      : toks(std::move(toks)), bufferName(bufferName), error(error) {}

  std::vector<Token> toks;
  size_t pos = 0;
  llvm::StringRef bufferName;
  std::string &error;

  const Token &cur() const { return toks[pos]; }
  const Token &peek(unsigned n) const {
    return toks[std::min(pos + n, toks.size() - 1)];
  }
  bool at(Tok k) const { return cur().kind == k; }
  static bool isPunct(const Token &t, char c) {
    return t.kind == Tok::Punct && t.text[0] == c;
  }
  bool atPunct(char c) const { return isPunct(cur(), c); }
  bool atIdent(llvm::StringRef s) const {
    return cur().kind == Tok::Ident && cur().text == s;
  }
  /// `NAME (`: a keyword introducing a parenthesized group.
  bool atGroup(llvm::StringRef s) const {
    return atIdent(s) && isPunct(peek(1), '(');
  }
  /// An attribute dictionary `{NAME = ...` (a region also starts with '{').
  bool isAttrDictStart() const {
    return atPunct('{') && peek(1).kind == Tok::Ident && isPunct(peek(2), '=');
  }
  /// The current token; advances unless it is the final Eof.
  const Token &take() { return toks[pos < toks.size() - 1 ? pos++ : pos]; }

  /// Reports `msg` at `t`'s position; returns false.
  bool fail(const Token &t, const llvm::Twine &msg);
  bool fail(const llvm::Twine &msg) { return fail(cur(), msg); }
  /// ", found 'TOKEN'" (or ", found end of input") for error messages.
  std::string found() const;

  bool expectPunct(char c);
  bool expectIdent(llvm::StringRef s);

  bool parseInt(int64_t &out);
  bool parseInt(int &out);
  bool parseUnsigned(unsigned &out);
  /// An identifier; `what` names it in the error.
  bool parseName(std::string &out, llvm::StringRef what);

  /// A keyword from a fixed set: `name(E(i))` spells value i, for i up to
  /// `last`.
  template <class E>
  bool parseKeyword(E &out, E last, llvm::StringRef (*name)(E),
                    llvm::StringRef what) {
    if (at(Tok::Ident))
      for (unsigned i = 0; i <= static_cast<unsigned>(last); ++i)
        if (name(static_cast<E>(i)) == cur().text) {
          out = static_cast<E>(i);
          take();
          return true;
        }
    return fail("expected " + what + found());
  }

  /// The scalar kind spelled `s` (kir::scalarKindName), if any.
  static std::optional<kir::ScalarKind> scalarKind(llvm::StringRef s);

  /// A scalar kind; `what` names it in the error.
  bool parseScalarKind(kir::ScalarKind &k, llvm::StringRef what);

  /// `<[const] T, R>` after the keyword `view`, as both IRs spell a view
  /// type; `elemWhat` names T in the error. `TypeT` is the IR's type.
  template <class TypeT>
  bool parseViewType(TypeT &t, llvm::StringRef elemWhat) {
    if (!expectPunct('<'))
      return false;
    bool isConst = false;
    if (atIdent("const")) {
      take();
      isConst = true;
    }
    kir::ScalarKind k;
    unsigned rank;
    if (!parseScalarKind(k, elemWhat) || !expectPunct(',') ||
        !parseUnsigned(rank) || !expectPunct('>'))
      return false;
    t = TypeT::view(k, rank, isConst);
    return true;
  }

  /// An attribute value as kir::printAttr writes it: an integer, a float
  /// (`inf`, `-inf`, `nan` too), a string or `true`/`false`.
  bool parseAttrValue(schema::AttrValue &v);
  /// An optional `loc(LINE:COL)`; `loc` is left unchanged without one.
  bool parseLoc(kir::Loc &loc);
  /// A view parameter's access: `none`, `r`, `w` or `rw`.
  bool parseViewAccess(kir::Access &out);
  /// The optional `%a, %b =` before an op name: the result tokens, in
  /// order (none when the op starts with its name).
  bool parseResultIds(std::vector<Token> &out);
};

/// A TokenCursor with the `%N` value table of the kernel or program being
/// parsed. `UnitT` owns the values (`values`, `nextValueId`), `ValueT` is
/// the IR's Value class.
template <class UnitT, class ValueT> class SSAParser : public TokenCursor {
protected:
  using TokenCursor::TokenCursor;

  /// The values defined so far in the current kernel or program; cleared
  /// when the next one starts.
  llvm::DenseMap<unsigned, ValueT *> values;

  /// Defines the value `%N` named by token `t`, owned by `unit`.
  template <class TypeT>
  ValueT *defineValue(UnitT &unit, const Token &t, TypeT type) {
    unsigned id;
    if (llvm::StringRef(t.text).getAsInteger(10, id)) {
      fail(t, "bad value id %" + t.text);
      return nullptr;
    }
    if (values.count(id)) {
      fail(t, "value %" + t.text + " is defined twice");
      return nullptr;
    }
    auto v = std::make_unique<ValueT>();
    v->id = id;
    v->type = type;
    ValueT *raw = v.get();
    unit.values.push_back(std::move(v));
    unit.nextValueId = std::max(unit.nextValueId, id + 1);
    values[id] = raw;
    return raw;
  }

  /// A use `%N` of a value defined before.
  bool parseUse(ValueT *&v) {
    if (!at(Tok::ValueId))
      return fail("expected a value" + found());
    const Token &t = take();
    unsigned id = 0;
    auto it = llvm::StringRef(t.text).getAsInteger(10, id) ? values.end()
                                                           : values.find(id);
    if (it == values.end())
      return fail(t, "use of undefined value %" + t.text);
    v = it->second;
    return true;
  }

  /// A region's optional `^(%a: T, ...):` block arguments, appended to `b`;
  /// `parseType(TypeT &)` reads one type of the IR.
  template <class BlockT, class ParseType>
  bool parseBlockArgs(UnitT &unit, BlockT &b, ParseType parseType) {
    if (!atPunct('^'))
      return true;
    take();
    if (!expectPunct('('))
      return false;
    while (!atPunct(')')) {
      if (!b.args.empty() && !expectPunct(','))
        return false;
      if (!at(Tok::ValueId))
        return fail("expected a block argument '%id'" + found());
      const Token &idTok = take();
      decltype(ValueT::type) t;
      if (!expectPunct(':') || !parseType(t))
        return false;
      ValueT *v = defineValue(unit, idTok, t);
      if (!v)
        return false;
      v->owner = &b;
      v->argNo = b.args.size();
      b.args.push_back(v);
    }
    take();
    return expectPunct(':');
  }
};

} // namespace intent::text

#endif // INTENT_KIR_PARSERBASE_H
