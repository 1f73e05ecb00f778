//===- Parser.cpp - KIR textual form -> kir::Module ------------------------===//
//
// A hand-written recursive-descent parser over a small lexer. The grammar
// mirrors Printer.cpp:
//
//   module  ::= kernel*
//   kernel  ::= 'kernel' '@'NAME STRING? '(' params ')' loc? '{' op* '}'
//   param   ::= '%'ID NAME? ':' type ACCESS? 'constexpr'?
//   op      ::= (vals '=')? NAME vals? attrs? (':' (types | '(' ')'))? loc?
//               region*
//   region  ::= '{' ('^' '(' '%'ID ':' type, ... ')' ':')? op* '}'
//   attrs   ::= '{' NAME '=' attr (',' NAME '=' attr)* '}'
//   type    ::= SCALAR | 'none' | 'view' '<' 'const'? SCALAR ',' INT '>'
//
// An attribute dictionary and a region both start with '{'; a dictionary is
// recognised by the two-token lookahead NAME '='.
//
//===----------------------------------------------------------------------===//

#include "KIR/Parser.h"

#include "KIR/Lexer.h"
#include "KIR/OpTable.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>

using namespace intent::kir;

namespace {

using intent::text::Comment;
using intent::text::Tok;
using intent::text::Token;

class Parser {
public:
  Parser(std::vector<Token> toks, llvm::StringRef bufferName,
         std::string &error)
      : toks(std::move(toks)), bufferName(bufferName), error(error) {}

  bool parseModule(Module &m) {
    while (!at(Tok::Eof)) {
      auto k = std::make_unique<Kernel>();
      k->id = m.kernels.size();
      if (!parseKernel(*k))
        return false;
      m.kernels.push_back(std::move(k));
    }
    return true;
  }

private:
  std::vector<Token> toks;
  size_t pos = 0;
  llvm::StringRef bufferName;
  std::string &error;

  Kernel *kernel = nullptr;
  llvm::DenseMap<unsigned, Value *> values;

  const Token &cur() const { return toks[pos]; }
  const Token &peek(unsigned n) const {
    return toks[std::min(pos + n, toks.size() - 1)];
  }
  bool at(Tok k) const { return cur().kind == k; }
  bool atPunct(char c) const {
    return cur().kind == Tok::Punct && cur().text[0] == c;
  }
  bool atIdent(llvm::StringRef s) const {
    return cur().kind == Tok::Ident && cur().text == s;
  }
  const Token &take() { return toks[pos < toks.size() - 1 ? pos++ : pos]; }

  bool fail(const Token &t, const llvm::Twine &msg) {
    error = (bufferName + ":" + llvm::Twine(t.line) + ":" + llvm::Twine(t.col) +
             ": error: " + msg)
                .str();
    return false;
  }
  bool fail(const llvm::Twine &msg) { return fail(cur(), msg); }

  bool expectPunct(char c) {
    if (!atPunct(c))
      return fail("expected '" + llvm::Twine(c) + "'" + found());
    take();
    return true;
  }
  std::string found() const {
    if (at(Tok::Eof))
      return ", found end of input";
    return ", found '" + cur().text + "'";
  }

  bool parseUnsigned(unsigned &out) {
    if (!at(Tok::Int) || cur().text[0] == '-')
      return fail("expected an unsigned integer" + found());
    out = std::strtoul(take().text.c_str(), nullptr, 10);
    return true;
  }

  // --- types ---------------------------------------------------------------

  static std::optional<ScalarKind> scalarKind(llvm::StringRef s) {
    return llvm::StringSwitch<std::optional<ScalarKind>>(s)
        .Case("bool", ScalarKind::Bool)
        .Case("i8", ScalarKind::I8)
        .Case("i16", ScalarKind::I16)
        .Case("i32", ScalarKind::I32)
        .Case("i64", ScalarKind::I64)
        .Case("u8", ScalarKind::U8)
        .Case("u16", ScalarKind::U16)
        .Case("u32", ScalarKind::U32)
        .Case("u64", ScalarKind::U64)
        .Case("f16", ScalarKind::F16)
        .Case("bf16", ScalarKind::BF16)
        .Case("f32", ScalarKind::F32)
        .Case("f64", ScalarKind::F64)
        .Default(std::nullopt);
  }

  bool parseType(Type &t) {
    if (!at(Tok::Ident))
      return fail("expected a type" + found());
    if (atIdent("none")) {
      take();
      t = Type::none();
      return true;
    }
    if (atIdent("view")) {
      take();
      if (!expectPunct('<'))
        return false;
      bool isConst = false;
      if (atIdent("const")) {
        take();
        isConst = true;
      }
      std::optional<ScalarKind> k;
      if (at(Tok::Ident))
        k = scalarKind(cur().text);
      if (!k)
        return fail("expected an element type" + found());
      take();
      unsigned rank;
      if (!expectPunct(',') || !parseUnsigned(rank) || !expectPunct('>'))
        return false;
      t = Type::view(*k, rank, isConst);
      return true;
    }
    std::optional<ScalarKind> k = scalarKind(cur().text);
    if (!k)
      return fail("unknown type '" + cur().text + "'");
    take();
    t = Type::scalar(*k);
    return true;
  }

  // --- values --------------------------------------------------------------

  Value *defineValue(const Token &at, unsigned id, Type t) {
    if (values.count(id)) {
      fail(at, "value %" + llvm::Twine(id) + " is defined twice");
      return nullptr;
    }
    auto v = std::make_unique<Value>();
    v->id = id;
    v->type = t;
    Value *raw = v.get();
    kernel->values.push_back(std::move(v));
    kernel->nextValueId = std::max(kernel->nextValueId, id + 1);
    values[id] = raw;
    return raw;
  }

  bool parseUse(Value *&v) {
    if (!at(Tok::ValueId))
      return fail("expected a value" + found());
    const Token &t = take();
    unsigned id = std::strtoul(t.text.c_str(), nullptr, 10);
    auto it = values.find(id);
    if (it == values.end())
      return fail(t, "use of undefined value %" + t.text);
    v = it->second;
    return true;
  }

  bool parseLoc(Loc &loc) {
    if (!atIdent("loc"))
      return true;
    take();
    if (!expectPunct('(') || !parseUnsigned(loc.line) || !expectPunct(':') ||
        !parseUnsigned(loc.col) || !expectPunct(')'))
      return false;
    return true;
  }

  // --- kernels -------------------------------------------------------------

  bool parseKernel(Kernel &k) {
    kernel = &k;
    values.clear();
    if (!atIdent("kernel"))
      return fail("expected 'kernel'" + found());
    take();
    if (!at(Tok::AtName))
      return fail("expected '@name'" + found());
    k.name = take().text;
    k.mangledName = k.name;
    k.displayName = k.name;
    if (at(Tok::String))
      k.displayName = take().text;
    if (!expectPunct('('))
      return false;
    Block &entry = k.body->block;
    while (!atPunct(')')) {
      if (!entry.args.empty() && !expectPunct(','))
        return false;
      if (!at(Tok::ValueId))
        return fail("expected a parameter '%id'" + found());
      const Token &idTok = take();
      Param p;
      if (at(Tok::Ident))
        p.name = take().text;
      if (!expectPunct(':') || !parseType(p.type))
        return false;
      if (p.type.isView()) {
        std::optional<Access> a;
        if (at(Tok::Ident))
          a = llvm::StringSwitch<std::optional<Access>>(cur().text)
                  .Case("none", Access::None)
                  .Case("r", Access::Read)
                  .Case("w", Access::Write)
                  .Case("rw", Access::ReadWrite)
                  .Default(std::nullopt);
        if (!a)
          return fail("expected a view access (none, r, w, rw)" + found());
        take();
        p.access = *a;
      }
      if (atIdent("constexpr")) {
        take();
        p.isConstexpr = true;
      }
      Value *v = defineValue(idTok, std::strtoul(idTok.text.c_str(), nullptr, 10),
                             p.type);
      if (!v)
        return false;
      v->name = p.name;
      v->owner = &entry;
      v->argNo = entry.args.size();
      entry.args.push_back(v);
      k.params.push_back(p);
    }
    take();
    if (!parseLoc(k.loc))
      return false;
    if (!expectPunct('{'))
      return false;
    if (!parseOps(entry))
      return false;
    return expectPunct('}');
  }

  /// Parses ops until the closing '}' of the block (not consumed).
  bool parseOps(Block &b) {
    while (!atPunct('}')) {
      if (at(Tok::Eof))
        return fail("expected '}'" + found());
      if (!parseOp(b))
        return false;
    }
    return true;
  }

  bool isAttrDictStart() const {
    return atPunct('{') && peek(1).kind == Tok::Ident &&
           peek(2).kind == Tok::Punct && peek(2).text == "=";
  }

  bool parseAttr(AttrValue &v) {
    const Token &t = cur();
    switch (t.kind) {
    case Tok::Int:
      v = static_cast<int64_t>(std::strtoll(t.text.c_str(), nullptr, 10));
      break;
    case Tok::Float:
      if (t.text == "nan")
        v = std::numeric_limits<double>::quiet_NaN();
      else if (t.text == "inf" || t.text == "-inf")
        v = t.text[0] == '-' ? -std::numeric_limits<double>::infinity()
                             : std::numeric_limits<double>::infinity();
      else
        v = std::strtod(t.text.c_str(), nullptr);
      break;
    case Tok::String:
      v = t.text;
      break;
    case Tok::Ident:
      if (t.text == "true" || t.text == "false") {
        v = t.text == "true";
        break;
      }
      if (t.text == "nan" || t.text == "inf") {
        v = t.text == "nan" ? std::numeric_limits<double>::quiet_NaN()
                            : std::numeric_limits<double>::infinity();
        break;
      }
      return fail("expected an attribute value" + found());
    default:
      return fail("expected an attribute value" + found());
    }
    take();
    return true;
  }

  bool parseOp(Block &b) {
    const Token &start = cur();
    // Results.
    std::vector<std::pair<Token, unsigned>> resultIds;
    if (at(Tok::ValueId)) {
      while (true) {
        if (!at(Tok::ValueId))
          return fail("expected a result '%id'" + found());
        const Token &t = take();
        resultIds.push_back({t, (unsigned)std::strtoul(t.text.c_str(), nullptr, 10)});
        if (!atPunct(','))
          break;
        take();
      }
      if (!expectPunct('='))
        return false;
    }
    if (!at(Tok::Ident))
      return fail("expected an op name" + found());
    const Token &nameTok = take();
    std::optional<Opcode> opc = opcodeByName(nameTok.text);
    if (!opc)
      return fail(nameTok, "unknown op '" + nameTok.text + "'");
    auto op = std::make_unique<Op>(*opc);
    op->id = kernel->nextOpId++;
    op->parent = &b;
    // Operands (comma separated, none when the next token is not a value).
    if (at(Tok::ValueId)) {
      while (true) {
        Value *v;
        if (!parseUse(v))
          return false;
        op->operands.push_back(v);
        if (!atPunct(','))
          break;
        take();
      }
    }
    if (isAttrDictStart()) {
      take();
      while (true) {
        if (!at(Tok::Ident))
          return fail("expected an attribute name" + found());
        std::string name = take().text;
        AttrValue v;
        if (!expectPunct('=') || !parseAttr(v))
          return false;
        op->attrs.push_back({name, v});
        if (atPunct('}'))
          break;
        if (!expectPunct(','))
          return false;
      }
      take();
    }
    std::vector<Type> types;
    if (atPunct(':') && peek(1).kind == Tok::Punct && peek(1).text == "(" &&
        peek(2).kind == Tok::Punct && peek(2).text == ")") {
      // `: ()`, an explicitly empty result list (never printed).
      take();
      take();
      take();
    } else if (atPunct(':')) {
      take();
      while (true) {
        Type t;
        if (!parseType(t))
          return false;
        types.push_back(t);
        if (!atPunct(','))
          break;
        take();
      }
    }
    if (types.size() != resultIds.size())
      return fail(start, "op '" + nameTok.text + "' has " +
                             llvm::Twine(resultIds.size()) + " results but " +
                             llvm::Twine(types.size()) + " result types");
    if (!parseLoc(op->loc))
      return false;
    // Results are visible after the op (not inside its own regions).
    Op *raw = op.get();
    b.ops.push_back(std::move(op));
    while (atPunct('{')) {
      take();
      if (!parseRegion(*raw))
        return false;
    }
    for (unsigned i = 0; i < resultIds.size(); ++i) {
      Value *v = defineValue(resultIds[i].first, resultIds[i].second, types[i]);
      if (!v)
        return false;
      v->def = raw;
      v->resultNo = i;
      raw->results.push_back(v);
    }
    return true;
  }

  /// Parses a region body after its '{' up to and including its '}'.
  bool parseRegion(Op &parent) {
    auto r = std::make_unique<Region>();
    r->id = kernel->nextRegionId++;
    r->parent = &parent;
    Region *raw = r.get();
    parent.regions.push_back(std::move(r));
    Block &b = raw->block;
    if (atPunct('^')) {
      take();
      if (!expectPunct('('))
        return false;
      while (!atPunct(')')) {
        if (!b.args.empty() && !expectPunct(','))
          return false;
        if (!at(Tok::ValueId))
          return fail("expected a block argument '%id'" + found());
        const Token &idTok = take();
        Type t;
        if (!expectPunct(':') || !parseType(t))
          return false;
        Value *v = defineValue(idTok, std::strtoul(idTok.text.c_str(), nullptr, 10), t);
        if (!v)
          return false;
        v->owner = &b;
        v->argNo = b.args.size();
        b.args.push_back(v);
      }
      take();
      if (!expectPunct(':'))
        return false;
    }
    if (!parseOps(b))
      return false;
    return expectPunct('}');
  }

};

} // namespace

std::unique_ptr<Module> intent::kir::parseModule(llvm::StringRef text,
                                                 llvm::StringRef bufferName,
                                                 std::string &error) {
  auto m = std::make_unique<Module>();
  std::vector<Token> toks;
  std::vector<Comment> comments;
  Token bad;
  if (!intent::text::lex(text, intent::text::LexOptions(), toks, comments, bad)) {
    error = (bufferName + ":" + llvm::Twine(bad.line) + ":" +
             llvm::Twine(bad.col) + ": error: unexpected character '" +
             bad.text + "'")
                .str();
    return nullptr;
  }
  // The printer's header, `// KIR for FILE`, before the first token.
  for (const Comment &c : comments)
    if (c.line <= toks.front().line &&
        llvm::StringRef(c.text).starts_with("KIR for ")) {
      m->sourceFile = llvm::StringRef(c.text).drop_front(8).rtrim().str();
      break;
    }
  if (m->sourceFile.empty())
    m->sourceFile = bufferName.str();
  Parser p(std::move(toks), bufferName, error);
  if (!p.parseModule(*m))
    return nullptr;
  return m;
}
