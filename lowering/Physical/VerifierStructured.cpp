//===- VerifierStructured.cpp - Construction verifier: structured ops ------===//
//
// [structured]: every reduce, scan, argreduce, region_fold and region_scan is
// complete and executable on its own (design.md §4.9): operands, results and
// regions match the accumulator schema; every component has an identity
// (the built-in combiner's, or the init operand for a user combine); the
// combine region takes (acc..., x...) and yields acc...; scans carry kind and
// direction, arg-reduces which/tie/nan; region ops read their member range
// through the source slicing relation and nothing else sees it. Runs after
// the structural checks (regions exist and are scoped).
//
//===----------------------------------------------------------------------===//

#include "Physical/Verifier.h"

#include "Physical/PhysAffine.h"
#include "Physical/Structured.h"

using namespace intent;
using namespace intent::phys;

namespace {

class StructuredVerifier {
public:
  StructuredVerifier(const Program &p, std::vector<std::string> &errors)
      : p(p), errors(errors), uses(countUses(p)) {}

  void run() {
    walk(*p.body, [&](const Op &op) {
      if (isStructured(op.opcode))
        verify(op);
    });
  }

private:
  const Program &p;
  std::vector<std::string> &errors;
  llvm::DenseMap<const Value *, unsigned> uses;

  void error(const Op &op, const std::string &msg) {
    errors.push_back("[structured] op " + std::to_string(op.id) + " (" +
                     opcodeName(op.opcode).str() + "): " + msg);
  }

  static std::string typeList(llvm::ArrayRef<Type> ts) {
    std::string s = "(";
    for (unsigned i = 0; i < ts.size(); ++i)
      s += (i ? ", " : "") + typeToString(ts[i]);
    return s + ")";
  }

  template <class Range> static std::vector<Type> typesOf(const Range &vs) {
    std::vector<Type> ts;
    for (const Value *v : vs)
      ts.push_back(v->type);
    return ts;
  }

  std::vector<Type> schemaTypes(const Op &op) {
    std::vector<Type> ts;
    for (const AccComponent &c : op.acc)
      ts.push_back(c.type);
    return ts;
  }

  /// `what` of `op` must have exactly the types `want`.
  void expectTypes(const Op &op, const std::string &what,
                   llvm::ArrayRef<Type> have, llvm::ArrayRef<Type> want) {
    if (std::vector<Type>(have.begin(), have.end()) ==
        std::vector<Type>(want.begin(), want.end()))
      return;
    error(op, what + " " + typeList(have) + " do not match " + typeList(want));
  }

  void expectIndex(const Op &op, const Value *v, const std::string &what) {
    if (!v->type.isIndex())
      error(op, what + " must be i64");
  }

  /// The types a region yields (its terminator's operands).
  std::vector<Type> yielded(const Region &r) {
    const Op *t = r.block.terminator();
    return t ? typesOf(t->operands) : std::vector<Type>();
  }

  void attrIn(const Op &op, llvm::StringRef name,
              std::initializer_list<llvm::StringRef> allowed) {
    std::string v = op.strAttr(name);
    for (llvm::StringRef a : allowed)
      if (v == a)
        return;
    std::string list;
    for (llvm::StringRef a : allowed)
      list += (list.empty() ? "" : " | ") + ("\"" + a.str() + "\"");
    error(op, "needs `" + name.str() + "` = " + list);
  }

  void verify(const Op &op) {
    unsigned leading = op.opcode == Opcode::ArgReduce ? 2
                       : isRegionOp(op.opcode)        ? 3
                                                      : 2;
    if (op.operands.size() < leading) {
      error(op, "needs " + std::to_string(leading) +
                    " leading operands (region index, member begin, end)");
      return;
    }
    if (isRegionOp(op.opcode))
      expectIndex(op, regionIndex(op), "the region index");
    expectIndex(op, memberBegin(op), "the member begin");
    expectIndex(op, memberEnd(op), "the member end");
    verifySchema(op);
    verifyIdentities(op);
    verifyAttrs(op);
    verifyRegions(op);
    if (isRegionOp(op.opcode)) {
      std::string why = checkRegionSlicing(p, op, uses);
      if (!why.empty())
        error(op, "source slicing relation: " + why);
    }
  }

  /// Operands, results and the accumulator schema agree.
  void verifySchema(const Op &op) {
    if (op.opcode == Opcode::ArgReduce) {
      if (op.operands.size() != 2)
        error(op, "takes exactly (begin, end)");
      if (op.results.size() != 2 || !op.result(0)->type.isScalar() ||
          !op.result(1)->type.isIndex()) {
        error(op, "results must be (value: T, pos: i64) with T a scalar");
        return;
      }
      if (op.acc.size() != 2)
        error(op, "accumulator schema must be (T, i64)");
      else
        expectTypes(op, "accumulator schema", schemaTypes(op),
                    typesOf(op.results));
      return;
    }
    if (op.acc.empty()) {
      error(op, "has no accumulator schema");
      return;
    }
    for (const AccComponent &c : op.acc)
      if (!c.type.isScalar())
        error(op, "accumulator component " + typeToString(c.type) +
                      " is not a scalar");
    std::vector<Type> schema = schemaTypes(op);
    expectTypes(op, "init operands", typesOf(accInits(op)), schema);
    if (op.opcode == Opcode::Reduce)
      expectTypes(op, "results", typesOf(op.results), schema);
    else if (!op.results.empty())
      error(op, "has no results (its effects are the emit/store region's)");
  }

  void verifyIdentities(const Op &op) {
    std::string combiner = op.strAttr("combiner");
    for (unsigned i = 0; i < op.acc.size(); ++i) {
      const AccComponent &c = op.acc[i];
      std::string at = "accumulator component " + std::to_string(i) + ": ";
      if (c.identity == AccComponent::Identity::None) {
        error(op, at + "has no identity");
        continue;
      }
      if (c.identity == AccComponent::Identity::Init) {
        if (op.opcode == Opcode::ArgReduce || combiner != "user")
          error(op, at + "only a user combine takes its identity from init");
        continue;
      }
      bool fp = c.type.isFloat();
      if (fp ? !std::holds_alternative<double>(c.value)
             : !std::holds_alternative<int64_t>(c.value)) {
        error(op, at + "identity is not a constant of type " +
                      typeToString(c.type));
        continue;
      }
      std::optional<AttrValue> want;
      if (op.opcode == Opcode::ArgReduce) {
        bool isMax = op.strAttr("which") == "max";
        Type t = op.results.empty() ? c.type : op.result(0)->type;
        want = argReduceSchema(isMax, t)[std::min(i, 1u)].value;
      } else if (combiner != "user") {
        want = combinerIdentity(combiner, c.type.elem);
        if (!want) {
          error(op, at + "combiner \"" + combiner + "\" does not apply to " +
                        typeToString(c.type));
          continue;
        }
      }
      if (want && !sameIdentity(c.value, *want, c.type.elem))
        error(op, at + "identity is not the identity of " +
                      (op.opcode == Opcode::ArgReduce
                           ? "arg" + op.strAttr("which")
                           : "\"" + combiner + "\""));
    }
  }

  void verifyAttrs(const Op &op) {
    if (op.opcode == Opcode::ArgReduce) {
      attrIn(op, "which", {"max", "min"});
      attrIn(op, "tie", {"first", "last"});
      attrIn(op, "nan", {"propagate", "ignore"});
      return;
    }
    if (!isKnownCombiner(op.strAttr("combiner")))
      error(op, "needs a `combiner` (plus mul max min bit_and bit_or bit_xor "
                "user)");
    const AttrValue *r = op.attr("reassociate");
    if (!r || !std::holds_alternative<bool>(*r))
      error(op, "needs `reassociate` = true | false");
    if (op.opcode == Opcode::Scan || op.opcode == Opcode::RegionScan) {
      attrIn(op, "kind", {"inclusive", "exclusive"});
      attrIn(op, "direction", {"forward", "reverse"});
    }
    verifyChunk(op);
  }

  /// `chunk` (the members of a region processed in chunks whose summaries
  /// are combined): a positive i64, only on region ops, and never on a
  /// non-reassociable op, which must remain one ordered loop over its
  /// members (later passes rely on this to keep intent::ordered folds
  /// exact).
  void verifyChunk(const Op &op) {
    const AttrValue *c = op.attr("chunk");
    if (!c)
      return;
    if (!isRegionOp(op.opcode)) {
      error(op, "`chunk` applies only to region_fold and region_scan");
      return;
    }
    if (!std::holds_alternative<int64_t>(*c) || std::get<int64_t>(*c) <= 0)
      error(op, "`chunk` must be a positive i64");
    const AttrValue *r = op.attr("reassociate");
    if (r && std::holds_alternative<bool>(*r) && !std::get<bool>(*r))
      error(op, "is `reassociate = false` but split into chunks: a "
                "non-reassociable fold must remain one ordered loop over "
                "its members");
  }

  /// Stores (and, for combine, loads) are not part of a callback's meaning.
  void noEffects(const Op &op, const Region &r, const std::string &what,
                 bool noLoads) {
    bool store = false, load = false;
    walk(r, [&](const Op &o) {
      store |= o.opcode == Opcode::Store;
      load |= o.opcode == Opcode::Load;
    });
    if (store)
      error(op, "the " + what + " region stores; only emit/store regions "
                                "have effects");
    if (noLoads && load)
      error(op, "the combine region loads memory; combine is a function of "
                "its operands");
  }

  void verifyRegions(const Op &op) {
    if (op.regions.size() != structuredRegionCount(op.opcode))
      return; // reported by [structure]
    std::vector<Type> schema = schemaTypes(op);
    Type i64 = Type::index();
    bool region = isRegionOp(op.opcode);
    // value ^(k) or ^(r, k) -> acc types (argreduce: T).
    const Region &value = *op.regions[ValueRegion];
    std::vector<Type> idx = region ? std::vector<Type>{i64, i64}
                                   : std::vector<Type>{i64};
    expectTypes(op, "value region arguments", typesOf(value.block.args), idx);
    std::vector<Type> valueOut = schema;
    if (op.opcode == Opcode::ArgReduce)
      valueOut = op.results.empty() ? std::vector<Type>()
                                    : std::vector<Type>{op.result(0)->type};
    expectTypes(op, "value region yields", yielded(value), valueOut);
    noEffects(op, value, "value", false);
    if (op.opcode == Opcode::ArgReduce)
      return;
    // combine ^(a..., b...) -> a...
    const Region &combine = *op.regions[CombineRegion];
    std::vector<Type> pair = schema;
    pair.insert(pair.end(), schema.begin(), schema.end());
    expectTypes(op, "combine region arguments", typesOf(combine.block.args),
                pair);
    expectTypes(op, "combine region yields", yielded(combine), schema);
    noEffects(op, combine, "combine", true);
    if (op.opcode == Opcode::Reduce)
      return;
    // emit ^(k, p...), store ^(r, acc...), emit ^(r, k, p...).
    const Region &out = *op.regions[OutRegion];
    std::vector<Type> outArgs;
    if (op.opcode == Opcode::RegionFold || op.opcode == Opcode::RegionScan)
      outArgs.push_back(i64);
    if (op.opcode != Opcode::RegionFold)
      outArgs.push_back(i64);
    outArgs.insert(outArgs.end(), schema.begin(), schema.end());
    std::string name = op.opcode == Opcode::RegionFold ? "store" : "emit";
    expectTypes(op, name + " region arguments", typesOf(out.block.args),
                outArgs);
    expectTypes(op, name + " region yields", yielded(out), {});
    if (op.opcode != Opcode::RegionScan)
      return;
    // The chunk flow (design.md §4.7): apply ^(r, in..., p...) -> q..., a pure
    // function of the incoming state and a chunk-local prefix; final
    // ^(r, s...) receives the region's final state.
    const Region &apply = *op.regions[ApplyRegion];
    std::vector<Type> applyArgs{i64};
    applyArgs.insert(applyArgs.end(), pair.begin(), pair.end());
    expectTypes(op, "apply region arguments", typesOf(apply.block.args),
                applyArgs);
    expectTypes(op, "apply region yields", yielded(apply), schema);
    bool applyLoads = false;
    walk(apply, [&](const Op &o) {
      applyLoads |= o.opcode == Opcode::Load || o.opcode == Opcode::Store;
    });
    if (applyLoads)
      error(op, "the apply region accesses memory; apply is a function of "
                "the incoming state and the prefix");
    const Region &final = *op.regions[FinalRegion];
    std::vector<Type> finalArgs{i64};
    finalArgs.insert(finalArgs.end(), schema.begin(), schema.end());
    expectTypes(op, "final region arguments", typesOf(final.block.args),
                finalArgs);
    expectTypes(op, "final region yields", yielded(final), {});
    noEffects(op, final, "final", false);
  }
};

} // namespace

void intent::phys::verifyStructuredOps(const Program &p,
                                       std::vector<std::string> &errors) {
  StructuredVerifier(p, errors).run();
}
