//===- Parser.cpp - KIR textual form -> kir::Module ------------------------===//
//
// A hand-written recursive-descent parser over the shared lexer and token
// cursor (KIR/Lexer.h, KIR/ParserBase.h). The grammar mirrors Printer.cpp:
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

#include "KIR/OpTable.h"
#include "KIR/ParserBase.h"

#include "llvm/ADT/Twine.h"

#include <optional>

using namespace intent::kir;

namespace {

using intent::text::Comment;
using intent::text::Tok;
using intent::text::Token;

class Parser : public intent::text::SSAParser<Kernel, Value> {
public:
  Parser(std::vector<Token> toks, llvm::StringRef bufferName,
         std::string &error)
      : SSAParser(std::move(toks), bufferName, error) {}

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
  Kernel *kernel = nullptr;

  // --- types ---------------------------------------------------------------

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
      return parseViewType(t, "an element type");
    }
    std::optional<ScalarKind> k = scalarKind(cur().text);
    if (!k)
      return fail("unknown type '" + cur().text + "'");
    take();
    t = Type::scalar(*k);
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
      if (p.type.isView() && !parseViewAccess(p.access))
        return false;
      if (atIdent("constexpr")) {
        take();
        p.isConstexpr = true;
      }
      Value *v = defineValue(k, idTok, p.type);
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

  bool parseOp(Block &b) {
    const Token &start = cur();
    // Results.
    std::vector<Token> resultIds;
    if (!parseResultIds(resultIds))
      return false;
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
        if (!expectPunct('=') || !parseAttrValue(v))
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
      Value *v = defineValue(*kernel, resultIds[i], types[i]);
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
    if (!parseBlockArgs(*kernel, b, [&](Type &t) { return parseType(t); }))
      return false;
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
  if (!intent::text::lexOrError(text, intent::text::LexOptions(), bufferName,
                                toks, comments, error))
    return nullptr;
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
