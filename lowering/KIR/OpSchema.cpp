//===- OpSchema.cpp - What an op of a textual IR looks like ---------------===//

#include "KIR/OpSchema.h"

#include "llvm/Support/ErrorHandling.h"

using namespace intent;
using namespace intent::schema;

namespace {

bool kindMatches(AttrKind k, const AttrValue &v) {
  switch (k) {
  case AttrKind::Int:
    return std::holds_alternative<int64_t>(v);
  case AttrKind::Bool:
    return std::holds_alternative<bool>(v);
  case AttrKind::Float:
    return std::holds_alternative<double>(v);
  case AttrKind::String:
  case AttrKind::Enum:
    return std::holds_alternative<std::string>(v);
  case AttrKind::Scalar:
    return !std::holds_alternative<std::string>(v);
  }
  llvm_unreachable("bad attr kind");
}

} // namespace

llvm::StringRef intent::schema::attrKindName(AttrKind k) {
  switch (k) {
  case AttrKind::Int:
    return "int";
  case AttrKind::Bool:
    return "bool";
  case AttrKind::Float:
    return "float";
  case AttrKind::String:
    return "string";
  case AttrKind::Enum:
    return "enum";
  case AttrKind::Scalar:
    return "scalar";
  }
  llvm_unreachable("bad attr kind");
}

bool AttrSpec::accepts(const AttrValue &v) const {
  if (!kindMatches(kind, v))
    return false;
  if (kind != AttrKind::Enum)
    return true;
  const std::string &s = std::get<std::string>(v);
  for (const std::string &allowed : values)
    if (allowed == s)
      return true;
  return false;
}

std::string AttrSpec::describe() const {
  if (kind != AttrKind::Enum)
    return attrKindName(kind).str();
  std::string s = "one of";
  for (unsigned i = 0; i < values.size(); ++i)
    s += (i ? ", \"" : " \"") + values[i] + "\"";
  return s;
}

AttrSpec intent::schema::intAttr(llvm::StringRef name, bool required) {
  return {name.str(), AttrKind::Int, required, {}};
}
AttrSpec intent::schema::boolAttr(llvm::StringRef name, bool required) {
  return {name.str(), AttrKind::Bool, required, {}};
}
AttrSpec intent::schema::enumAttr(llvm::StringRef name,
                                  std::vector<std::string> values,
                                  bool required) {
  return {name.str(), AttrKind::Enum, required, std::move(values)};
}
AttrSpec intent::schema::scalarAttr(llvm::StringRef name, bool required) {
  return {name.str(), AttrKind::Scalar, required, {}};
}
AttrSpec intent::schema::stringAttr(llvm::StringRef name, bool required) {
  return {name.str(), AttrKind::String, required, {}};
}

std::string intent::schema::countText(unsigned lo, unsigned hi) {
  if (hi == kVariadic)
    return "at least " + std::to_string(lo);
  if (lo == hi)
    return std::to_string(lo);
  return std::to_string(lo) + " to " + std::to_string(hi);
}

const AttrSpec *OpSchema::attr(llvm::StringRef n) const {
  for (const AttrSpec &a : attrs)
    if (a.name == n)
      return &a;
  return nullptr;
}

bool intent::schema::checkSchema(
    const OpSchema &row, unsigned minOperands, unsigned n, unsigned results,
    unsigned regions, llvm::ArrayRef<AttrRef> attrs,
    llvm::function_ref<void(const std::string &)> error) {
  bool ok = true;
  auto fail = [&](const std::string &msg) {
    ok = false;
    error(msg);
  };
  if (n < minOperands || (row.maxOperands != kVariadic && n > row.maxOperands))
    fail("has " + std::to_string(n) + " operands, the op table says " +
         countText(minOperands, row.maxOperands));
  if (results < row.minResults ||
      (row.maxResults != kVariadic && results > row.maxResults))
    fail("has " + std::to_string(results) + " results, the op table says " +
         countText(row.minResults, row.maxResults));
  if (regions != row.regions.size())
    fail("has " + std::to_string(regions) + " regions, the op table says " +
         std::to_string(row.regions.size()));
  for (unsigned i = 0; i < attrs.size(); ++i) {
    const AttrRef &a = attrs[i];
    for (unsigned j = 0; j < i; ++j)
      if (attrs[j].name == a.name)
        fail("attribute `" + a.name.str() + "` appears twice");
    const AttrSpec *spec = row.attr(a.name);
    if (!spec) {
      fail("unknown attribute `" + a.name.str() + "`");
      continue;
    }
    if (!kindMatches(spec->kind, *a.value))
      fail("attribute `" + a.name.str() + "` must be " + spec->describe());
    else if (!spec->accepts(*a.value))
      fail("attribute `" + a.name.str() + "` = \"" +
           std::get<std::string>(*a.value) + "\" is not " + spec->describe());
  }
  for (const AttrSpec &spec : row.attrs) {
    bool present = false;
    for (const AttrRef &a : attrs)
      present |= a.name == spec.name;
    if (spec.required && !present)
      fail("misses the required attribute `" + spec.name + "` (" +
           spec.describe() + ")");
  }
  return ok;
}

//===----------------------------------------------------------------------===//
// OpAttrs
//===----------------------------------------------------------------------===//

const AttrValue *OpAttrs::attr(llvm::StringRef name) const {
  for (const NamedAttr &a : attrs)
    if (a.name == name)
      return &a.value;
  return nullptr;
}

int64_t OpAttrs::intAttr(llvm::StringRef name, int64_t dflt) const {
  if (const AttrValue *v = attr(name))
    if (const auto *i = std::get_if<int64_t>(v))
      return *i;
  return dflt;
}

double OpAttrs::floatAttr(llvm::StringRef name, double dflt) const {
  if (const AttrValue *v = attr(name)) {
    if (const auto *d = std::get_if<double>(v))
      return *d;
    if (const auto *i = std::get_if<int64_t>(v))
      return static_cast<double>(*i);
  }
  return dflt;
}

bool OpAttrs::boolAttr(llvm::StringRef name, bool dflt) const {
  if (const AttrValue *v = attr(name))
    if (const auto *b = std::get_if<bool>(v))
      return *b;
  return dflt;
}

std::string OpAttrs::strAttr(llvm::StringRef name) const {
  if (const AttrValue *v = attr(name))
    if (const auto *s = std::get_if<std::string>(v))
      return *s;
  return "";
}

void OpAttrs::setAttr(llvm::StringRef name, AttrValue v) {
  for (NamedAttr &a : attrs)
    if (a.name == name) {
      a.value = std::move(v);
      return;
    }
  attrs.push_back({name.str(), std::move(v)});
}

llvm::SmallVector<AttrRef, 4> OpAttrs::attrRefs() const {
  llvm::SmallVector<AttrRef, 4> out;
  for (const NamedAttr &a : attrs)
    out.push_back({a.name, &a.value});
  return out;
}
