//===- Registry.cpp - The physical passes by name, in pipeline order ------===//
//
// The order is the default pipeline: the mapping passes first (each decides
// from the program the earlier ones left), then atomic-scopes, whose choice
// depends on the final mapping, then aggregate-atomics, which needs the
// scopes (docs/passes.md).
//
//===----------------------------------------------------------------------===//

#include "Passes/Registry.h"

#include "Passes/Passes.h"

using namespace intent;
using namespace intent::passes;

namespace {

const PassInfo kPasses[] = {
    {"grid-scan", gridScan, true,
     "a single-instance scan in one pass: a CTA per tile, decoupled look-back"},
    {"grid-reduce", gridReduce, true,
     "split a single-instance reduction over many CTAs (exec scope cta)"},
    {"counted-loops", countedLoops, true,
     "independent counted loops of reductions become fors"},
    {"cta-rows", ctaRows, true,
     "one CTA per row instance: reductions and fors over its threads"},
    {"cta-rows-ops", ctaRowsOps, true,
     "cta-rows without register rows written as cooperative ops"},
    {"row-cache", rowCache, true,
     "keep a row expression in the register row slot"},
    {"col-reduce", colReduce, true,
     "reductions along an outer axis: 32 instances per CTA, split members"},
    {"region-teams", regionTeams, true,
     "region_fold regions on teams of 2^S threads sized by region length"},
    {"scan-teams", scanTeams, true,
     "scans per instance (rows, regions) on teams of 2^S lanes by length"},
    {"privatize-atomics", privatizeAtomics, true,
     "atomics of a histogram into a shared-memory copy per CTA, merged once"},
    {"tile", tile, true,
     "N-D pointwise segments in tiles; transposed accesses via shared tiles"},
    {"widen", widen, true,
     "chunks of 16 bytes per program for a pointwise 1-D segment"},
    {"atomic-scopes", atomicScopes, false,
     "the hardware scope of every atomic from its buffer's sharing domain"},
    {"aggregate-atomics", aggregateAtomics, true,
     "global atomics whose lanes may share an element combine per warp"},
};

} // namespace

llvm::ArrayRef<PassInfo> intent::passes::registeredPasses() { return kPasses; }

const PassInfo *intent::passes::lookupPass(llvm::StringRef name) {
  for (const PassInfo &p : kPasses)
    if (name == p.name)
      return &p;
  return nullptr;
}

std::string intent::passes::knownPassNames() {
  std::string s;
  for (const PassInfo &p : kPasses)
    s += (s.empty() ? "" : ", ") + std::string(p.name);
  return s;
}

std::vector<std::string> intent::passes::splitPassList(llvm::StringRef list) {
  llvm::SmallVector<llvm::StringRef, 8> parts;
  list.split(parts, ',', -1, /*KeepEmpty=*/false);
  std::vector<std::string> out;
  for (llvm::StringRef p : parts)
    if (!p.trim().empty())
      out.push_back(p.trim().str());
  return out;
}

bool intent::passes::selectPasses(
    const std::optional<std::vector<std::string>> &list,
    const std::set<std::string> &disabled, bool mapping,
    std::vector<const PassInfo *> &out, std::string &error) {
  auto unknown = [&](const std::string &name) {
    error = "unknown pass '" + name + "' (known passes: " + knownPassNames() +
            ")";
    return false;
  };
  for (const std::string &name : disabled)
    if (!lookupPass(name))
      return unknown(name);
  out.clear();
  if (list) {
    for (const std::string &name : *list) {
      const PassInfo *p = lookupPass(name);
      if (!p)
        return unknown(name);
      if (!disabled.count(name))
        out.push_back(p);
    }
    return true;
  }
  for (const PassInfo &p : kPasses)
    if ((mapping || !p.mapping) && !disabled.count(p.name) && p.byDefault)
      out.push_back(&p);
  return true;
}
