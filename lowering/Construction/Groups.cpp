//===- Groups.cpp - Pass: dependence analysis and execution groups ---------===//

#include "Construction/Groups.h"

#include "Construction/Buffers.h"
#include "Construction/Dependence.h"

#include <algorithm>
#include <numeric>

using namespace intent;
using namespace intent::construct;

namespace {

std::string unitName(const Unit &u) {
  std::string what = u.isParallelFor ? "parallel_for"
                                     : kir::opcodeName(u.op->opcode).str();
  return what + " at " + locString(u.loc);
}

/// Why unit u cannot run as its own parallel workset, or "".
std::string serialReason(const ConstructionState &s, const Unit &u) {
  if (!u.parallelCapable())
    return "top-level " + unitName(u) + " is outside any parallel_for";
  if (!u.launchVisible)
    return "the extent of the " + unitName(u) +
           " is data-dependent (" + u.notVisible +
           "); its domain is traversed inside one instance";
  std::string c = phys::findCrossInstanceConflict(u.accesses, u.space);
  if (!c.empty())
    return unitName(u) + ": " + c;
  if (std::string b = kernelBufferSerialReason(s, u); !b.empty())
    return unitName(u) + ": " + b;
  return "";
}

/// Why units a and b (dependent) cannot share parallel instances, or "".
std::string fusionBlocker(const Unit &a, const Unit &b) {
  if (usesResultOf(b, a))
    return unitName(b) + " uses a value computed by " + unitName(a);
  if (a.domain != b.domain)
    return unitName(a) + " and " + unitName(b) +
           " access the same memory over different domains";
  phys::InstanceSpace space = a.space;
  for (const auto &[atom, inv] : b.space.invariant)
    space.invariant[atom] = inv;
  for (const phys::AccessSummary &x : a.accesses)
    for (const phys::AccessSummary &y : b.accesses) {
      if (!(x.write || y.write) || !phys::mayAlias(x, y))
        continue;
      if (!phys::separatedAcrossInstances(x, y, space))
        return unitName(b) + ": " + y.describe() + " may touch " +
               x.describe() + " of another instance" +
               (x.atomic && y.atomic
                    ? " (atomics only commute within one parallel_for; "
                      "those of two keep their order)"
                    : "");
    }
  return "";
}

/// "; atomic updates of y, z by different instances are closed by atomic
/// semantics, not a conflict" for a parallel group with atomics, else "".
std::string atomicNote(const ConstructionState &s, const Group &g) {
  std::vector<std::string> roots;
  for (unsigned u : g.units)
    for (const phys::AccessSummary &a : s.units[u].accesses)
      // A private buffer (no root, no kernel-level buffer) is not shared.
      if (a.atomic && (a.root >= 0 || a.buffer >= 0) &&
          std::find(roots.begin(), roots.end(), a.rootName) == roots.end())
        roots.push_back(a.rootName);
  if (roots.empty())
    return "";
  std::string list;
  for (unsigned i = 0; i < roots.size(); ++i)
    list += (i ? ", " : "") + roots[i];
  return "; atomic updates of " + list +
         " by different instances are closed by atomic semantics (not a "
         "conflict; plain loads/stores of them still are)";
}

} // namespace

void construct::formGroups(ConstructionState &s) {
  unsigned n = s.units.size();
  std::vector<std::vector<phys::AccessSummary> *> all;
  for (Unit &u : s.units) {
    summarizeUnit(s, u);
    all.push_back(&u.accesses);
  }
  phys::markWrittenRoots(all);

  std::vector<std::string> unitReason(n);
  for (unsigned i = 0; i < n; ++i)
    unitReason[i] = serialReason(s, s.units[i]);

  std::vector<unsigned> leader(n);
  std::iota(leader.begin(), leader.end(), 0);
  auto find = [&](unsigned x) {
    while (leader[x] != x)
      x = leader[x] = leader[leader[x]];
    return x;
  };
  // Pair blockers, recorded on the later unit.
  std::vector<std::string> pairReason(n);
  for (unsigned b = 0; b < n; ++b)
    for (unsigned a = 0; a < b; ++a) {
      const Unit &ua = s.units[a], &ub = s.units[b];
      bool dependent =
          usesResultOf(ub, ua) || shareKernelBuffer(ua, ub) ||
          !phys::findAnyConflict(ua.accesses, ub.accesses).empty();
      if (!dependent)
        continue;
      unsigned ra = find(a), rb = find(b);
      leader[std::max(ra, rb)] = std::min(ra, rb);
      if (!unitReason[a].empty() || !unitReason[b].empty())
        continue; // the group is ordered anyway
      std::string blocker = fusionBlocker(ua, ub);
      if (!blocker.empty() && pairReason[b].empty())
        pairReason[b] = blocker;
    }

  std::vector<int> groupOf(n, -1);
  for (unsigned i = 0; i < n; ++i) {
    unsigned r = find(i);
    if (groupOf[r] < 0) {
      groupOf[r] = s.groups.size();
      Group g;
      g.id = s.groups.size();
      g.loc = s.units[i].loc;
      s.groups.push_back(g);
    }
    Group &g = s.groups[groupOf[r]];
    g.units.push_back(i);
    std::string why = !unitReason[i].empty() ? unitReason[i] : pairReason[i];
    if (!why.empty() && !g.ordered) {
      g.ordered = true;
      g.reason = why;
    }
  }
  for (Group &g : s.groups) {
    if (!g.ordered) {
      g.domain = s.units[g.units.front()].domain;
      std::string text = "group " + std::to_string(g.id) + ": parallel over [";
      for (unsigned i = 0; i < g.domain.size(); ++i)
        text += (i ? ", " : "") + s.program->exprToString(g.domain[i]);
      text += "]";
      if (g.units.size() > 1)
        text += ", " + std::to_string(g.units.size()) +
                " parallel_fors fused (same-instance dependences only)";
      text += atomicNote(s, g);
      s.remark(g.loc, text);
      continue;
    }
    s.remark(g.loc, "group " + std::to_string(g.id) +
                        ": serialized into a single instance: " + g.reason);
  }
}
