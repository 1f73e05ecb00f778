//===- ParserBase.cpp - What KIR's and the physical IR's parsers share ----===//

#include "KIR/ParserBase.h"

#include <cstdlib>
#include <limits>
#include <optional>

using namespace intent;
using namespace intent::text;

bool intent::text::lexOrError(llvm::StringRef text, const LexOptions &opts,
                              llvm::StringRef bufferName,
                              std::vector<Token> &toks,
                              std::vector<Comment> &comments,
                              std::string &error) {
  Token bad;
  if (lex(text, opts, toks, comments, bad))
    return true;
  error = (bufferName + ":" + llvm::Twine(bad.line) + ":" +
           llvm::Twine(bad.col) + ": error: unexpected character '" +
           bad.text + "'")
              .str();
  return false;
}

bool TokenCursor::fail(const Token &t, const llvm::Twine &msg) {
  error = (bufferName + ":" + llvm::Twine(t.line) + ":" + llvm::Twine(t.col) +
           ": error: " + msg)
              .str();
  return false;
}

std::string TokenCursor::found() const {
  if (at(Tok::Eof))
    return ", found end of input";
  return ", found '" + cur().text + "'";
}

bool TokenCursor::expectPunct(char c) {
  if (!atPunct(c))
    return fail("expected '" + llvm::Twine(c) + "'" + found());
  take();
  return true;
}

bool TokenCursor::expectIdent(llvm::StringRef s) {
  if (!atIdent(s))
    return fail("expected '" + s + "'" + found());
  take();
  return true;
}

bool TokenCursor::parseInt(int64_t &out) {
  if (!at(Tok::Int) || llvm::StringRef(cur().text).getAsInteger(10, out))
    return fail("expected an integer" + found());
  take();
  return true;
}

bool TokenCursor::parseInt(int &out) {
  int64_t v;
  const Token &t = cur();
  if (!parseInt(v))
    return false;
  if (v < std::numeric_limits<int>::min() ||
      v > std::numeric_limits<int>::max())
    return fail(t, "integer out of range");
  out = static_cast<int>(v);
  return true;
}

bool TokenCursor::parseUnsigned(unsigned &out) {
  if (!at(Tok::Int) || cur().text[0] == '-' ||
      llvm::StringRef(cur().text).getAsInteger(10, out))
    return fail("expected an unsigned integer" + found());
  take();
  return true;
}

bool TokenCursor::parseName(std::string &out, llvm::StringRef what) {
  if (!at(Tok::Ident))
    return fail("expected " + what + found());
  out = take().text;
  return true;
}

std::optional<kir::ScalarKind> TokenCursor::scalarKind(llvm::StringRef s) {
  for (unsigned i = 0; i <= static_cast<unsigned>(kir::ScalarKind::F64); ++i)
    if (kir::scalarKindName(static_cast<kir::ScalarKind>(i)) == s)
      return static_cast<kir::ScalarKind>(i);
  return std::nullopt;
}

bool TokenCursor::parseScalarKind(kir::ScalarKind &k, llvm::StringRef what) {
  std::optional<kir::ScalarKind> s;
  if (at(Tok::Ident))
    s = scalarKind(cur().text);
  if (!s)
    return fail("expected " + what + found());
  take();
  k = *s;
  return true;
}

bool TokenCursor::parseAttrValue(schema::AttrValue &v) {
  const Token &t = cur();
  switch (t.kind) {
  case Tok::Int: {
    int64_t i;
    if (llvm::StringRef(t.text).getAsInteger(10, i))
      return fail("bad integer '" + t.text + "'");
    v = i;
    break;
  }
  case Tok::Float:
    // The lexer's floats: digits, or `-inf` (`inf` and `nan` are names).
    if (t.text == "-inf") {
      v = -std::numeric_limits<double>::infinity();
    } else {
      char *end = nullptr;
      double d = std::strtod(t.text.c_str(), &end);
      if (!end || *end)
        return fail("bad number '" + t.text + "'");
      v = d;
    }
    break;
  case Tok::String:
    v = t.text;
    break;
  case Tok::Ident:
    if (t.text == "true" || t.text == "false")
      v = t.text == "true";
    else if (t.text == "nan")
      v = std::numeric_limits<double>::quiet_NaN();
    else if (t.text == "inf")
      v = std::numeric_limits<double>::infinity();
    else
      return fail("expected an attribute value" + found());
    break;
  default:
    return fail("expected an attribute value" + found());
  }
  take();
  return true;
}

bool TokenCursor::parseLoc(kir::Loc &loc) {
  if (!atGroup("loc"))
    return true;
  take();
  take();
  return parseUnsigned(loc.line) && expectPunct(':') &&
         parseUnsigned(loc.col) && expectPunct(')');
}

bool TokenCursor::parseViewAccess(kir::Access &out) {
  return parseKeyword(out, kir::Access::ReadWrite, kir::accessName,
                      "a view access (none, r, w, rw)");
}

bool TokenCursor::parseResultIds(std::vector<Token> &out) {
  if (!at(Tok::ValueId))
    return true;
  while (true) {
    if (!at(Tok::ValueId))
      return fail("expected a result '%id'" + found());
    out.push_back(take());
    if (!atPunct(','))
      break;
    take();
  }
  return expectPunct('=');
}
