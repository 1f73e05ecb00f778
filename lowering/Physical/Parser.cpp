//===- Parser.cpp - Physical IR textual form -> phys::Program --------------===//
//
// A hand-written recursive-descent parser over the lexer and token cursor it
// shares with KIR/Parser.cpp (KIR/Lexer.h, KIR/ParserBase.h). The grammar
// mirrors Printer.cpp:
//
//   program  ::= 'program' '@'NAME STRING? 'scope' '(' scope ')'
//                '(' params ')' loc? '{' launch segment* total check*
//                buffer* 'body' '{' op* '}' '}'
//   scope    ::= SCOPE (',' 'threads' INT ',' 'shared' INT)?
//                (',' 'stage' NAME* 'up' 'to' INT)?
//                (',' 'regs' NAME* 'K' 'up' 'to' INT 'by' NAME'.extent' '(' INT ')')?
//   param    ::= '%'ID NAME? ':' type ACCESS? 'constexpr'?
//   launch   ::= 'launch' '{' ('e'K '=' expr ':' SCALAR)* '}'
//   segment  ::= 'segment' INT '(' 'group' INT ',' ('parallel'|'ordered') ')'
//                'extents' '[' eK,* ']' 'length' eK 'offset' eK loc?
//   total    ::= 'total' eK
//   check    ::= 'launch_check' eK '<' '=' INT '(' 'index' SCALAR ')' loc?
//   buffer   ::= 'buffer' INT NAME? ':' BSCOPE ('param' INT)? SCALAR
//                ('rank' INT | 'size' INT) ('offset' INT)?
//                'init' ('host' | 'value' NUMBER | 'first_write')
//                'ownership' OWN 'writers' '[' INT,* ']' 'readers' '[' INT,* ']'
//                ('sharing' SHARING)? 'kept_zero'? ('privatizes' INT)?
//   op       ::= (vals '=')? NAME operands attrs? (':' types)? access? acc?
//                loc? origin? region*
//   access   ::= 'access' '(' BOUNDS ',' ACTIVE ')'
//                ('prov' '(' 'op' INT (';' 'coords' '%'K,*)?
//                 (';' 'views' ('op' INT),*)? ')')?
//   origin   ::= 'origin' '(' ('op' INT (',' 'arg' INT)? | 'synth' STAGE) ')'
//   operands ::= vals                                    (on the op's line)
//              | '%'M '[' vals? ']' (',' '%'V)* ('guard' '(' '%'G ')')?
//                                                        (access ops)
//   region   ::= '{' ('^' '(' '%'ID ':' type, ... ')' ':')? op* '}'
//
// An attribute dictionary and a region both start with '{'; a dictionary is
// recognised by the two-token lookahead NAME '='.
//
//===----------------------------------------------------------------------===//

#include "Physical/Parser.h"

#include "Physical/OpTable.h"

#include "KIR/ParserBase.h"

#include "llvm/ADT/Twine.h"

#include <optional>

using namespace intent;
using namespace intent::phys;

namespace {

using intent::text::Comment;
using intent::text::Tok;
using intent::text::Token;

class Parser : public intent::text::SSAParser<Program, Value> {
public:
  Parser(std::vector<Token> toks, std::vector<Comment> comments,
         llvm::StringRef bufferName, std::string &error)
      : SSAParser(std::move(toks), bufferName, error),
        comments(std::move(comments)) {}

  bool parseAll(std::vector<std::unique_ptr<Program>> &out) {
    while (!at(Tok::Eof)) {
      auto p = std::make_unique<Program>();
      if (!parseProgram(*p))
        return false;
      out.push_back(std::move(p));
    }
    return true;
  }

private:
  std::vector<Comment> comments;
  Program *prog = nullptr;

  //===--------------------------------------------------------------------===//
  // Types, values, locations
  //===--------------------------------------------------------------------===//

  bool parseScalar(ScalarKind &k) {
    return parseScalarKind(k, "a scalar type");
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
      return parseViewType(t, "a scalar type");
    }
    if (atIdent("buffer")) {
      take();
      ScalarKind k;
      int64_t size;
      if (!expectPunct('<') || !parseScalar(k) || !expectPunct(',') ||
          !parseInt(size) || !expectPunct('>'))
        return false;
      t = Type::buffer(k, size);
      return true;
    }
    if (!scalarKind(cur().text))
      return fail("unknown type '" + cur().text + "'");
    ScalarKind k;
    parseScalar(k);
    t = Type::scalar(k);
    return true;
  }

  //===--------------------------------------------------------------------===//
  // Launch expressions and the program space
  //===--------------------------------------------------------------------===//

  /// `eK`, a launch expression index below `limit`; `why` says what a
  /// larger one is not.
  bool parseExprRef(unsigned &out, unsigned limit, llvm::StringRef why) {
    llvm::StringRef s = at(Tok::Ident) ? llvm::StringRef(cur().text) : "";
    unsigned k;
    if (!s.consume_front("e") || s.getAsInteger(10, k))
      return fail("expected a launch expression 'eK'" + found());
    if (k >= limit)
      return fail("launch expression e" + llvm::Twine(k) + " " + why);
    take();
    out = k;
    return true;
  }
  bool parseExprRef(unsigned &out) {
    return parseExprRef(out, prog->exprs.size(), "does not exist");
  }
  bool parseExprRef(int &out) {
    unsigned k;
    if (!parseExprRef(k))
      return false;
    out = static_cast<int>(k);
    return true;
  }

  /// A parameter by its printed name (`argN` for an unnamed one).
  bool parseParamRef(unsigned &out) {
    if (!at(Tok::Ident))
      return fail("expected a parameter name" + found());
    const Token &t = take();
    return resolveParam(t, t.text, out);
  }
  bool resolveParam(const Token &t, llvm::StringRef name, unsigned &out) {
    for (unsigned i = 0; i < prog->params.size(); ++i)
      if (prog->params[i].name == name) {
        out = i;
        return true;
      }
    llvm::StringRef n = name;
    if (n.consume_front("arg") && !n.getAsInteger(10, out) &&
        out < prog->params.size() && prog->params[out].name.empty())
      return true;
    return fail(t, "unknown parameter '" + name + "'");
  }

  bool parseLaunch() {
    using K = LaunchExpr::Kind;
    if (!expectIdent("launch") || !expectPunct('{'))
      return false;
    while (!atPunct('}')) {
      unsigned idx = prog->exprs.size();
      const Token &start = cur();
      if (start.text != "e" + std::to_string(idx))
        return fail("expected launch expression 'e" + llvm::Twine(idx) + "'" +
                    found());
      take();
      if (!expectPunct('='))
        return false;
      LaunchExpr e;
      std::optional<K> kind;
      for (unsigned k = 0; k <= static_cast<unsigned>(K::SmCount); ++k)
        if (at(Tok::Ident) && launchExprKindName(static_cast<K>(k)) == cur().text)
          kind = static_cast<K>(k);
      if (!kind)
        return fail("expected a launch expression kind" + found());
      take();
      e.kind = *kind;
      unsigned arity = 0;
      switch (e.kind) {
      case K::Const:
        if (!parseInt(e.value))
          return false;
        break;
      case K::Param:
        if (!expectPunct('(') || !parseParamRef(e.param) || !expectPunct(')'))
          return false;
        break;
      case K::Extent:
      case K::Stride:
        if (!expectPunct('(') || !parseParamRef(e.param) || !expectPunct(',') ||
            !parseUnsigned(e.dim) || !expectPunct(')'))
          return false;
        break;
      case K::Cmp:
        if (!parseName(e.pred, "a comparison predicate"))
          return false;
        arity = 2;
        break;
      case K::Cast:
      case K::Neg:
        arity = 1;
        break;
      case K::Select:
        arity = 3;
        break;
      case K::SmCount:
        break;
      default:
        arity = 2;
        break;
      }
      for (unsigned i = 0; i < arity; ++i) {
        unsigned o;
        if ((i && !expectPunct(',')) ||
            !parseExprRef(o, idx, "is not an earlier one"))
          return false;
        e.operands.push_back(o);
      }
      if (!expectPunct(':') || !parseScalar(e.type))
        return false;
      prog->exprs.push_back(e);
    }
    take();
    return true;
  }

  /// The comments on the lines after `line` up to the current token.
  std::vector<const Comment *> commentsAfter(unsigned line) const {
    std::vector<const Comment *> out;
    for (const Comment &c : comments)
      if (c.line > line && c.line < cur().line)
        out.push_back(&c);
    return out;
  }

  bool parseSegment() {
    Segment seg;
    unsigned number;
    const Token &numTok = peek(1);
    if (!expectIdent("segment") || !parseUnsigned(number))
      return false;
    if (number != prog->segments.size())
      return fail(numTok, "expected segment " +
                              llvm::Twine(prog->segments.size()));
    if (!expectPunct('(') || !expectIdent("group") ||
        !parseUnsigned(seg.group) || !expectPunct(','))
      return false;
    if (atIdent("ordered") || atIdent("parallel"))
      seg.ordered = take().text == "ordered";
    else
      return fail("expected 'ordered' or 'parallel'" + found());
    if (!expectPunct(')') || !expectIdent("extents") || !expectPunct('['))
      return false;
    while (!atPunct(']')) {
      unsigned e;
      if ((!seg.extents.empty() && !expectPunct(',')) || !parseExprRef(e))
        return false;
      seg.extents.push_back(e);
    }
    take();
    if (!expectIdent("length") || !parseExprRef(seg.length) ||
        !expectIdent("offset") || !parseExprRef(seg.offset))
      return false;
    if (atIdent("spread")) {
      take();
      const Token &t = peek(0);
      unsigned threads;
      if (!parseUnsigned(threads) || !expectIdent("instances") ||
          !parseExprRef(seg.instances))
        return false;
      if (threads == 0)
        return fail(t, "a spread segment needs a positive thread count");
      seg.spread = static_cast<int>(threads);
      if (atIdent("team")) {
        take();
        if (atIdent("lanes")) {
          take();
          if (!expectIdent("shift") || !parseExprRef(seg.shift))
            return false;
          seg.lanes = true;
        } else if (!expectIdent("parts") || !parseExprRef(seg.parts)) {
          return false;
        }
        seg.team = true;
      }
    }
    if (atIdent("tile")) {
      take();
      unsigned dim, rows;
      if (!parseUnsigned(dim) || !expectIdent("rows") || !parseUnsigned(rows) ||
          !expectIdent("instances") || !parseExprRef(seg.instances))
        return false;
      if (rows == 0)
        return fail("a tile segment needs at least one row per thread");
      seg.tile = static_cast<int>(dim);
      seg.tileRows = static_cast<int>(rows);
    }
    unsigned line = toks[pos - 1].line;
    if (!parseLoc(seg.loc))
      return false;
    if (seg.loc.valid())
      line = toks[pos - 1].line;
    // The facts the printer writes as comments under the segment line.
    for (const Comment *c : commentsAfter(line)) {
      llvm::StringRef t = c->text;
      if (t.consume_front("ordered: "))
        seg.reason = t.str();
    }
    prog->segments.push_back(std::move(seg));
    return true;
  }

  bool parseLaunchCheck() {
    LaunchCheck c;
    take();
    int64_t limit;
    if (!parseExprRef(c.extent) || !expectPunct('<') || !expectPunct('='))
      return false;
    const Token &limitTok = cur();
    if (!parseInt(limit) || !expectPunct('(') || !expectIdent("index") ||
        !parseScalar(c.type) || !expectPunct(')'))
      return false;
    if (limit != indexLimit(c.type))
      return fail(limitTok, "the index limit of " +
                                kir::scalarKindName(c.type) + " is " +
                                llvm::Twine(indexLimit(c.type)));
    if (!parseLoc(c.loc))
      return false;
    prog->launchChecks.push_back(c);
    return true;
  }

  bool parseIdList(std::vector<unsigned> &out) {
    if (!expectPunct('['))
      return false;
    while (!atPunct(']')) {
      unsigned v;
      if ((!out.empty() && !expectPunct(',')) || !parseUnsigned(v))
        return false;
      out.push_back(v);
    }
    take();
    return true;
  }

  bool parseBuffer() {
    Buffer b;
    take();
    if (!parseUnsigned(b.id))
      return false;
    if (b.id != prog->buffers.size())
      return fail(toks[pos - 1],
                  "expected buffer " + llvm::Twine(prog->buffers.size()));
    if (at(Tok::Ident))
      b.name = take().text;
    if (!expectPunct(':') ||
        !parseKeyword(b.scope, BufferScope::CTAShared, bufferScopeName,
                      "a buffer scope"))
      return false;
    if (atIdent("param")) {
      take();
      if (!parseInt(b.param))
        return false;
    }
    if (!parseScalar(b.elem))
      return false;
    if (atIdent("rank")) {
      take();
      if (!parseInt(b.rank))
        return false;
    } else if (!expectIdent("size")) {
      return false;
    } else if (at(Tok::Ident)) {
      // `size eK`: sized per launch.
      if (!parseExprRef(b.sizeExpr))
        return false;
    } else if (!parseInt(b.size)) {
      return false;
    }
    if (atIdent("offset")) {
      take();
      if (!parseInt(b.workspaceOffset))
        return false;
    }
    if (atIdent("shared_offset")) {
      take();
      if (at(Tok::Ident) ? !parseExprRef(b.sharedOffsetExpr)
                         : !parseInt(b.sharedOffset))
        return false;
    }
    if (!expectIdent("init") ||
        !parseKeyword(b.init, InitMode::FirstWrite, initModeName,
                      "an init mode"))
      return false;
    if (b.init == InitMode::Value) {
      AttrValue v;
      if (!parseAttrValue(v))
        return false;
      if (const auto *d = std::get_if<double>(&v))
        b.initValue = *d;
      else if (const auto *i = std::get_if<int64_t>(&v))
        b.initValue = static_cast<double>(*i);
      else
        return fail(toks[pos - 1], "expected a number");
    }
    if (!expectIdent("ownership") ||
        !parseKeyword(b.ownership, Ownership::Atomic, ownershipName,
                      "an ownership mode") ||
        !expectIdent("writers") || !parseIdList(b.writerGroups) ||
        !expectIdent("readers") || !parseIdList(b.readerGroups))
      return false;
    if (atIdent("sharing")) {
      take();
      if (!parseKeyword(b.sharing, Sharing::System, sharingName,
                        "a sharing domain"))
        return false;
    }
    if (atIdent("kept_zero")) {
      take();
      b.keptZero = true;
    }
    if (atIdent("privatizes")) {
      take();
      if (!parseInt(b.privatizes))
        return false;
    }
    prog->buffers.push_back(std::move(b));
    return true;
  }

  //===--------------------------------------------------------------------===//
  // The program header
  //===--------------------------------------------------------------------===//

  /// Parameter names up to the keyword pair `stop1 stop2`.
  bool parseParamNames(llvm::StringRef stop1, llvm::StringRef stop2,
                       std::vector<unsigned> &out) {
    while (!(atIdent(stop1) && peek(1).kind == Tok::Ident &&
             peek(1).text == stop2)) {
      unsigned i;
      if (!parseParamRef(i))
        return false;
      out.push_back(i);
    }
    take();
    take();
    return true;
  }

  /// `scope(...)`, read after the parameters are known (it names them).
  bool parseScope(size_t scopePos, size_t resume) {
    pos = scopePos;
    if (!parseKeyword(prog->scope, ExecScope::CTA, execScopeName,
                      "an exec scope"))
      return false;
    if (atPunct(',') && peek(1).text == "threads") {
      take();
      take();
      if (!parseInt(prog->ctaThreads) || !expectPunct(',') ||
          !expectIdent("shared") || !parseInt(prog->sharedBytes))
        return false;
      if (atIdent("dynamic")) {
        // Read before the launch table: the verifier checks the index.
        take();
        unsigned e;
        if (!parseExprRef(e, ~0u, ""))
          return false;
        prog->sharedBytesExpr = static_cast<int>(e);
      }
      if (atPunct(',') && peek(1).text == "min_ctas") {
        take();
        take();
        if (!parseInt(prog->minCtasPerSm))
          return false;
      }
    }
    if (atPunct(',') && peek(1).text == "stage") {
      take();
      take();
      if (!parseParamNames("up", "to", prog->stagedParams) ||
          !parseInt(prog->stageLimitBytes))
        return false;
    }
    if (atPunct(',') && peek(1).text == "regs") {
      take();
      take();
      if (!parseParamNames("K", "up", prog->regParams) || !expectIdent("to") ||
          !parseInt(prog->regMaxK) || !expectIdent("by"))
        return false;
      llvm::StringRef ref = at(Tok::Ident) ? llvm::StringRef(cur().text) : "";
      if (!ref.consume_back(".extent"))
        return fail("expected 'NAME.extent'" + found());
      if (!resolveParam(cur(), ref, prog->regLengthParam))
        return false;
      take();
      if (!expectPunct('(') || !parseUnsigned(prog->regLengthDim) ||
          !expectPunct(')'))
        return false;
    }
    if (!expectPunct(')'))
      return false;
    pos = resume;
    return true;
  }

  bool parseParams() {
    if (!expectPunct('('))
      return false;
    Block &entry = prog->body->block;
    while (!atPunct(')')) {
      if (!prog->params.empty() && !expectPunct(','))
        return false;
      if (!at(Tok::ValueId))
        return fail("expected a parameter '%id'" + found());
      const Token &idTok = take();
      Param par;
      if (at(Tok::Ident))
        par.name = take().text;
      if (!expectPunct(':') || !parseType(par.type))
        return false;
      if (par.type.isView() && !parseViewAccess(par.access))
        return false;
      if (atIdent("constexpr")) {
        take();
        par.isConstexpr = true;
      }
      par.origin.arg = prog->params.size();
      Value *v = defineValue(*prog, idTok, par.type);
      if (!v)
        return false;
      v->name = par.name;
      v->owner = &entry;
      v->argNo = entry.args.size();
      entry.args.push_back(v);
      prog->params.push_back(par);
    }
    take();
    return true;
  }

  bool parseProgram(Program &p) {
    prog = &p;
    values.clear();
    if (!expectIdent("program"))
      return false;
    if (!at(Tok::AtName))
      return fail("expected '@name'" + found());
    p.name = take().text;
    p.mangledName = p.name;
    if (at(Tok::String))
      p.mangledName = take().text;
    if (!expectIdent("scope") || !expectPunct('('))
      return false;
    // The scope names parameters, which follow it: skip to the parameter
    // list, read it, then come back.
    size_t scopePos = pos;
    unsigned depth = 1;
    while (depth && !at(Tok::Eof)) {
      if (atPunct('('))
        ++depth;
      else if (atPunct(')'))
        --depth;
      take();
    }
    if (depth)
      return fail("expected ')'" + found());
    if (!parseParams())
      return false;
    size_t afterParams = pos;
    if (!parseScope(scopePos, afterParams) || !parseLoc(p.loc) ||
        !expectPunct('{') || !parseLaunch())
      return false;
    while (atIdent("segment"))
      if (!parseSegment())
        return false;
    if (!expectIdent("total") || !parseExprRef(p.total))
      return false;
    while (atIdent("launch_check"))
      if (!parseLaunchCheck())
        return false;
    while (atIdent("buffer"))
      if (!parseBuffer())
        return false;
    if (!expectIdent("body") || !expectPunct('{'))
      return false;
    if (!parseOps(p.body->block) || !expectPunct('}') || !expectPunct('}'))
      return false;
    return true;
  }

  //===--------------------------------------------------------------------===//
  // Ops
  //===--------------------------------------------------------------------===//

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

  /// `{name = value, ...}` checked against the op's schema.
  bool parseAttrs(Op &op, const OpInfo &info) {
    take();
    while (true) {
      if (!at(Tok::Ident))
        return fail("expected an attribute name" + found());
      const Token &nameTok = take();
      const AttrSpec *spec = info.attr(nameTok.text);
      if (!spec)
        return fail(nameTok, "unknown attribute '" + nameTok.text +
                                 "' for op '" + info.name + "'");
      if (op.attr(nameTok.text))
        return fail(nameTok, "attribute '" + nameTok.text + "' appears twice");
      if (!expectPunct('='))
        return false;
      const Token &valueTok = cur();
      AttrValue v;
      if (!parseAttrValue(v))
        return false;
      if (!spec->accepts(v))
        return fail(valueTok, "attribute '" + nameTok.text + "' of op '" +
                                  info.name + "' must be " + spec->describe());
      op.attrs.push_back({nameTok.text, v});
      if (atPunct('}'))
        break;
      if (!expectPunct(','))
        return false;
    }
    take();
    for (const AttrSpec &spec : info.attrs)
      if (spec.required && !op.attr(spec.name))
        return fail(toks[pos - 1], "op '" + info.name +
                                       "' needs attribute '" + spec.name + "'");
    return true;
  }

  /// Operands as the op table lays them out. Plain operands must be on the
  /// op's line (an op without operands may be followed by `%r = ...`).
  bool parseOperands(Op &op, const OpInfo &info, const Token &nameTok) {
    if (info.hasAccess()) {
      Value *v;
      if (!parseUse(v) || !expectPunct('['))
        return false;
      op.operands.push_back(v);
      llvm::SmallVector<Value *, 4> coords;
      while (!atPunct(']')) {
        if ((!coords.empty() && !expectPunct(',')) || !parseUse(v))
          return false;
        coords.push_back(v);
      }
      take();
      if (info.accessValues == kVariadic) {
        // vector_store: every `, %v` up to the attributes.
        while (atPunct(',') && peek(1).kind == Tok::ValueId) {
          take();
          if (!parseUse(v))
            return false;
          op.operands.push_back(v);
        }
      }
      for (unsigned i = 0; info.accessValues != kVariadic &&
                           i < info.accessValues; ++i) {
        if (!expectPunct(',') || !parseUse(v))
          return false;
        op.operands.push_back(v);
      }
      op.operands.append(coords.begin(), coords.end());
      if (atGroup("guard")) {
        take();
        take();
        if (!parseUse(v) || !expectPunct(')'))
          return false;
        op.operands.push_back(v);
        op.access.hasGuard = true;
      }
      return true;
    }
    if (!at(Tok::ValueId) || cur().line != nameTok.line)
      return true;
    while (true) {
      Value *v;
      if (!parseUse(v))
        return false;
      op.operands.push_back(v);
      if (!atPunct(','))
        return true;
      take();
    }
  }

  /// `access(BOUNDS, ACTIVE) prov(op N; coords %a, ...; views op P, ...)`:
  /// AccessInfo as printAccess (Printer.cpp) writes it.
  bool parseAccess(Op &op) {
    AccessInfo &a = op.access;
    if (!atGroup("access"))
      return fail("expected 'access(...)' on a memory access" + found());
    take();
    take();
    if (!parseKeyword(a.bounds, Bounds::Proven, boundsName, "a bounds kind") ||
        !expectPunct(',') ||
        !parseKeyword(a.active, ActiveSet::Leader, activeSetName,
                      "an active member set") ||
        !expectPunct(')'))
      return false;
    if (!atGroup("prov"))
      return true;
    take();
    take();
    if (!expectIdent("op") || !parseInt(a.kirOp))
      return false;
    while (atPunct(';')) {
      take();
      bool coords = atIdent("coords");
      if (!coords && !atIdent("views"))
        return fail("expected 'coords' or 'views'" + found());
      take();
      do {
        if ((coords ? !a.kirCoords.empty() : !a.kirViewChain.empty()) &&
            !expectPunct(','))
          return false;
        unsigned id;
        if (coords) {
          if (!at(Tok::ValueId) ||
              llvm::StringRef(cur().text).getAsInteger(10, id))
            return fail("expected a KIR value '%id'" + found());
          take();
          a.kirCoords.push_back(id);
        } else {
          if (!expectIdent("op") || !parseUnsigned(id))
            return false;
          a.kirViewChain.push_back(id);
        }
      } while (atPunct(','));
    }
    return expectPunct(')');
  }

  /// ` acc(T = identity, ...)`: the accumulator schema.
  bool parseAcc(Op &op) {
    take();
    take();
    while (!atPunct(')')) {
      if (!op.acc.empty() && !expectPunct(','))
        return false;
      AccComponent c;
      if (!parseType(c.type) || !expectPunct('='))
        return false;
      if (atPunct('?')) {
        take();
        c.identity = AccComponent::Identity::None;
      } else if (atIdent("init")) {
        take();
        c.identity = AccComponent::Identity::Init;
      } else {
        if (!parseAttrValue(c.value))
          return false;
        c.identity = AccComponent::Identity::Value;
      }
      op.acc.push_back(c);
    }
    take();
    return true;
  }

  /// `origin(op N[, arg A])` or, for an op that stands for no KIR op,
  /// `origin(synth STAGE)`: the stage that synthesized it (printOrigin).
  bool parseOrigin(Op &op) {
    if (!atGroup("origin"))
      return true;
    take();
    take();
    if (atIdent("synth")) {
      take();
      if (!parseName(op.origin.synth, "the synthesizing stage"))
        return false;
      return expectPunct(')');
    }
    if (!expectIdent("op") || !parseInt(op.origin.op))
      return false;
    if (atPunct(',')) {
      take();
      if (!expectIdent("arg") || !parseInt(op.origin.arg))
        return false;
    }
    return expectPunct(')');
  }

  bool parseOp(Block &b) {
    const Token &start = cur();
    std::vector<Token> resultIds;
    if (!parseResultIds(resultIds))
      return false;
    if (!at(Tok::Ident))
      return fail("expected an op name" + found());
    const Token &nameTok = take();
    std::optional<Opcode> opc = opcodeByName(nameTok.text);
    if (!opc)
      return fail(nameTok, "unknown op '" + nameTok.text + "'");
    const OpInfo &info = opInfo(*opc);
    auto op = std::make_unique<Op>(*opc);
    op->id = prog->nextOpId++;
    op->parent = &b;
    if (!parseOperands(*op, info, nameTok))
      return false;
    unsigned n = op->operands.size(), lo = info.minOperands;
    if (info.hasAccess() && op->access.hasGuard)
      ++lo;
    if (n < lo || (info.maxOperands != kVariadic && n > info.maxOperands))
      return fail(nameTok, "op '" + info.name + "' takes " +
                               schema::countText(lo, info.maxOperands) +
                               " operands, has " + llvm::Twine(n));
    if (isAttrDictStart()) {
      if (!parseAttrs(*op, info))
        return false;
    } else {
      for (const AttrSpec &spec : info.attrs)
        if (spec.required)
          return fail(nameTok, "op '" + info.name + "' needs attribute '" +
                                   spec.name + "'");
    }
    std::vector<Type> types;
    if (atPunct(':')) {
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
      return fail(start, "op '" + info.name + "' has " +
                             llvm::Twine(resultIds.size()) + " results but " +
                             llvm::Twine(types.size()) + " result types");
    if (types.size() < info.minResults ||
        (info.maxResults != kVariadic && types.size() > info.maxResults))
      return fail(start, "op '" + info.name + "' has " +
                             schema::countText(info.minResults, info.maxResults) +
                             " results, not " + llvm::Twine(types.size()));
    if (info.hasAccess() && !parseAccess(*op))
      return false;
    if (atGroup("acc") && !parseAcc(*op))
      return false;
    if (!parseLoc(op->loc) || !parseOrigin(*op))
      return false;
    // Results are visible after the op (not inside its own regions).
    Op *raw = op.get();
    b.ops.push_back(std::move(op));
    unsigned regions = 0;
    while (atPunct('{') || (atIdent("else") && isPunct(peek(1), '{'))) {
      const Token &open = cur();
      bool isElse = atIdent("else");
      if (regions >= info.regions.size())
        return fail(open, "op '" + info.name + "' has " +
                              llvm::Twine(info.regions.size()) + " regions");
      if (isElse != (info.regions[regions] == "else"))
        return fail(open, isElse ? "unexpected 'else'"
                                 : "expected 'else' before the else region");
      if (isElse)
        take();
      take();
      if (!parseRegion(*raw))
        return false;
      ++regions;
    }
    if (regions != info.regions.size())
      return fail(nameTok, "op '" + info.name + "' needs " +
                               llvm::Twine(info.regions.size()) +
                               " regions, has " + llvm::Twine(regions));
    for (unsigned i = 0; i < resultIds.size(); ++i) {
      Value *v = defineValue(*prog, resultIds[i], types[i]);
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
    r->parent = &parent;
    Region *raw = r.get();
    parent.regions.push_back(std::move(r));
    Block &b = raw->block;
    if (!parseBlockArgs(*prog, b, [&](Type &t) { return parseType(t); }))
      return false;
    if (!parseOps(b))
      return false;
    return expectPunct('}');
  }
};

} // namespace

bool intent::phys::parsePrograms(llvm::StringRef text,
                                 llvm::StringRef bufferName,
                                 std::vector<std::unique_ptr<Program>> &out,
                                 std::string &error) {
  std::vector<Token> toks;
  std::vector<Comment> comments;
  intent::text::LexOptions opts;
  opts.punct = "(){}<>[],:;=^?";
  opts.percentInNames = true;
  opts.dashJoinsNames = true;
  if (!intent::text::lexOrError(text, opts, bufferName, toks, comments, error))
    return false;
  Parser p(std::move(toks), std::move(comments), bufferName, error);
  return p.parseAll(out);
}
