//===- Groups.cpp - Pass: dependence analysis and execution groups ---------===//

#include "Construction/Groups.h"

#include "Construction/Buffers.h"
#include "Construction/Dependence.h"
#include "Construction/Serialization.h"

#include <algorithm>
#include <numeric>

using namespace intent;
using namespace intent::construct;

namespace {

/// Why unit u cannot run as its own parallel workset ("" if it can), and
/// the same for the user (empty for top-level code: outsideFinding).
std::string serialReason(const ConstructionState &s, const Unit &u,
                         Serialization &finding) {
  if (!u.parallelCapable())
    return "top-level " + unitName(u) + " is outside any parallel_for";
  if (!u.launchVisible) {
    finding = extentFinding(u);
    return "the extent of the " + unitName(u) +
           " is data-dependent (" + u.notVisible +
           "); its domain is traversed inside one instance";
  }
  unsigned w, o;
  if (phys::findCrossInstanceConflictPair(u.accesses, u.space, w, o)) {
    finding = conflictFinding(s, u, u.accesses[w], u.accesses[o]);
    return unitName(u) + ": " +
           phys::findCrossInstanceConflict(u.accesses, u.space);
  }
  if (std::string b = kernelBufferSerialReason(s, u); !b.empty()) {
    finding = bufferFinding(u, b);
    return unitName(u) + ": " + b;
  }
  return "";
}

/// Why units a and b (dependent) cannot share parallel instances ("" if
/// they can), and the same for the user.
std::string fusionBlocker(const ConstructionState &s, const Unit &a,
                          const Unit &b, Serialization &finding) {
  if (usesResultOf(b, a)) {
    finding = fusionFinding(s, a, b, nullptr, nullptr);
    return unitName(b) + " uses a value computed by " + unitName(a);
  }
  // Domains of one rank fuse over their elementwise maximum, each unit
  // under the guard of its own extents (EmitPhysical), so the extents need
  // not be equal, nor be spelled alike (x.extent(0), y.extent(0)):
  // same-instance dependences are what makes fusion legal.
  if (a.domain.size() != b.domain.size()) {
    for (const phys::AccessSummary &x : a.accesses)
      for (const phys::AccessSummary &y : b.accesses)
        if ((x.write || y.write) && phys::mayAlias(x, y) && finding.empty())
          finding = fusionFinding(s, a, b, &x, &y);
    return unitName(a) + " and " + unitName(b) +
           " access the same memory over different domains";
  }
  phys::InstanceSpace space = a.space;
  for (const auto &[atom, inv] : b.space.invariant)
    space.invariant[atom] = inv;
  for (const phys::AccessSummary &x : a.accesses)
    for (const phys::AccessSummary &y : b.accesses) {
      if (!(x.write || y.write) || !phys::mayAlias(x, y))
        continue;
      if (!phys::separatedAcrossInstances(x, y, space)) {
        finding = fusionFinding(s, a, b, &x, &y);
        return unitName(b) + ": " + y.describe() + " may touch " +
               x.describe() + " of another instance" +
               (x.atomic && y.atomic
                    ? " (atomics only commute within one parallel_for; "
                      "those of two keep their order)"
                    : "");
      }
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

/// The launch checks of a parallel group's narrowed coordinates (a C `int
/// i` index analysed as the coordinate itself: Dependence.cpp), one per
/// (extent, type), with a remark each.
void addLaunchChecks(ConstructionState &s, const Group &g) {
  for (unsigned id : g.units) {
    const Unit &u = s.units[id];
    for (const auto &[k, type] : u.narrowed) {
      phys::LaunchCheck c{u.domain[k], type, u.loc};
      auto same = [&](const phys::LaunchCheck &o) {
        return o.extent == c.extent && o.type == c.type;
      };
      std::vector<phys::LaunchCheck> &checks = s.program->launchChecks;
      if (std::find_if(checks.begin(), checks.end(), same) != checks.end())
        continue;
      checks.push_back(c);
      s.remark(u.loc, "index " + std::to_string(k) + " of the " +
                          unitName(u) + " is converted to " +
                          kir::scalarKindName(type).str() +
                          ": analysed as the index itself; the launch checks "
                          "that its extent " +
                          s.program->exprToString(c.extent) + " is at most " +
                          std::to_string(phys::indexLimit(type)));
    }
  }
}

/// A finding per ordered group that holds a parallel_for (or region op):
/// its parallelism is lost. Groups of top-level code only lose nothing.
void reportSerializedGroups(ConstructionState &s) {
  for (Group &g : s.groups) {
    if (!g.ordered)
      continue;
    const Unit *par = nullptr;
    for (unsigned u : g.units)
      if (!par && s.units[u].parallelCapable())
        par = &s.units[u];
    if (!par)
      continue;
    if (g.finding.empty() && g.findingUnit >= 0)
      g.finding = outsideFinding(s, s.units[g.findingUnit], *par);
    if (g.finding.empty())
      continue;
    g.finding.group = g.id;
    s.serializations.push_back(g.finding);
  }
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
  std::vector<Serialization> unitFinding(n), pairFinding(n);
  for (unsigned i = 0; i < n; ++i)
    unitReason[i] = serialReason(s, s.units[i], unitFinding[i]);

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
      if (!pairReason[b].empty())
        continue;
      pairReason[b] = fusionBlocker(s, ua, ub, pairFinding[b]);
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
    bool own = !unitReason[i].empty();
    std::string why = own ? unitReason[i] : pairReason[i];
    if (!why.empty() && !g.ordered) {
      g.ordered = true;
      g.reason = why;
      g.finding = own ? unitFinding[i] : pairFinding[i];
      g.findingUnit = i;
    }
  }
  reportSerializedGroups(s);
  for (Group &g : s.groups) {
    if (!g.ordered) {
      // The elementwise maximum of the fused units' domains.
      g.domain = s.units[g.units.front()].domain;
      for (unsigned u : g.units)
        for (unsigned d = 0; d < g.domain.size(); ++d)
          if (s.units[u].domain[d] != g.domain[d])
            g.domain[d] = s.program->binaryExpr(phys::LaunchExpr::Kind::Max,
                                                g.domain[d],
                                                s.units[u].domain[d]);
      addLaunchChecks(s, g);
      std::string text = "group " + std::to_string(g.id) + ": parallel over [";
      for (unsigned i = 0; i < g.domain.size(); ++i)
        text += (i ? ", " : "") + s.program->exprToString(g.domain[i]);
      text += "]";
      if (g.units.size() > 1) {
        text += ", " + std::to_string(g.units.size()) +
                " parallel_fors fused (same-instance dependences only";
        bool guarded = false;
        for (unsigned u : g.units)
          guarded |= s.units[u].domain != g.domain;
        text += guarded ? "; each runs where the index is inside its own "
                          "extents)"
                        : ")";
      }
      text += atomicNote(s, g);
      s.remark(g.loc, text);
      continue;
    }
    s.remark(g.loc, "group " + std::to_string(g.id) +
                        ": serialized into a single instance: " + g.reason);
  }
}
