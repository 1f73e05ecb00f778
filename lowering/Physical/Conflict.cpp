//===- Conflict.cpp - Cross-instance conflict rules for accesses -----------===//

#include "Physical/Conflict.h"

#include <cstdlib>
#include <set>

using namespace intent;
using namespace intent::phys;

Affine Affine::ofConstant(int64_t c) {
  Affine a;
  a.valid = true;
  a.constant = c;
  return a;
}

Affine Affine::ofAtom(const std::string &atom) {
  Affine a;
  a.valid = true;
  a.terms[atom] = 1;
  return a;
}

Affine Affine::plus(const Affine &o) const {
  if (!valid || !o.valid)
    return invalid();
  Affine r = *this;
  r.constant += o.constant;
  for (const auto &[atom, c] : o.terms) {
    int64_t &slot = r.terms[atom];
    slot += c;
    if (slot == 0)
      r.terms.erase(atom);
  }
  return r;
}

Affine Affine::scaled(int64_t k) const {
  if (!valid)
    return invalid();
  if (k == 0)
    return ofConstant(0);
  Affine r = *this;
  r.constant *= k;
  for (auto &[atom, c] : r.terms)
    c *= k;
  return r;
}

std::optional<Affine> Affine::times(const Affine &o) const {
  if (valid && terms.empty())
    return o.scaled(constant);
  if (o.valid && o.terms.empty())
    return scaled(o.constant);
  return std::nullopt;
}

std::string Affine::str() const {
  if (!valid)
    return "?";
  std::string s;
  for (const auto &[atom, c] : terms) {
    if (!s.empty())
      s += c < 0 ? " - " : " + ";
    else if (c < 0)
      s += "-";
    if (std::llabs(c) != 1)
      s += std::to_string(std::llabs(c)) + "*";
    s += atom;
  }
  if (constant != 0 || s.empty()) {
    if (s.empty())
      s = std::to_string(constant);
    else
      s += (constant < 0 ? " - " : " + ") + std::to_string(std::llabs(constant));
  }
  return s;
}

std::string intent::phys::instanceAtom(unsigned dim) {
  return "i" + std::to_string(dim);
}

int InstanceSpace::instanceDim(const std::string &atom) {
  if (atom.size() < 2 || atom[0] != 'i')
    return -1;
  for (size_t i = 1; i < atom.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(atom[i])))
      return -1;
  return std::atoi(atom.c_str() + 1);
}

bool InstanceSpace::isInvariant(const std::string &atom) const {
  auto it = invariant.find(atom);
  return it != invariant.end() && it->second;
}

std::string AccessSummary::describe() const {
  std::string s = (atomic  ? "atomic update of "
                   : write ? "write to "
                           : "read of ") +
                  rootName + "(";
  for (unsigned i = 0; i < coords.size(); ++i)
    s += (i ? ", " : "") + coords[i].str();
  s += ")";
  if (loc.valid())
    s += " at " + std::to_string(loc.line) + ":" + std::to_string(loc.col);
  return s;
}

bool intent::phys::mayAlias(const AccessSummary &a, const AccessSummary &b) {
  if (a.root < 0 || b.root < 0) // buffers: only the same shared buffer;
    return a.buffer >= 0 && a.buffer == b.buffer; // private ones never

  if (a.root == b.root)
    return true;
  if (a.constView || b.constView)
    return false;
  if (a.rootWritten && b.rootWritten)
    return false;
  return a.elem == b.elem && a.rank == b.rank;
}

bool intent::phys::closedByAtomics(const AccessSummary &a,
                                   const AccessSummary &b) {
  return a.atomic && b.atomic && a.atomicUnit == b.atomicUnit;
}

bool intent::phys::separatedAcrossInstances(const AccessSummary &a,
                                            const AccessSummary &b,
                                            const InstanceSpace &space) {
  if (space.rank == 0)
    return true;
  if (a.coords.size() != b.coords.size())
    return false;
  // Every instance coordinate p must be pinned by some root coordinate d on
  // which both accesses agree, as c*p + (instance-invariant terms): two
  // different instances then differ in some p, hence in coordinate d. A
  // member atom of p's region (c*k + invariant terms) pins p as well: the
  // regions of different p are disjoint.
  auto pins = [&](const std::string &atom, unsigned p) {
    if (InstanceSpace::instanceDim(atom) == static_cast<int>(p))
      return true;
    auto it = space.memberOf.find(atom);
    return it != space.memberOf.end() && it->second == p;
  };
  // A triangle: a writes (.., i_p, .., J, ..) and b (.., J', .., i_p, ..)
  // with the instance coordinate and a loop counter swapped, J >= i_p in
  // a's instance and J' >= i_p in b's (or both <=): an element they share
  // has i_p = J' >= i'_p and i'_p = J >= i_p, so i_p = i'_p (mirrored
  // writes of a symmetric matrix's upper triangle, cov(i, j) and cov(j, i)
  // for j >= i).
  auto exactly = [](const Affine &x, const std::string &atom) {
    return x.valid && x.constant == 0 && x.terms.size() == 1 &&
           x.terms.begin()->first == atom && x.terms.begin()->second == 1;
  };
  auto counter = [&](const Affine &x, const std::string &inst, bool up) {
    if (!x.valid || x.constant != 0 || x.terms.size() != 1 ||
        x.terms.begin()->second != 1)
      return false;
    const auto &bounds = up ? space.atLeast : space.atMost;
    auto it = bounds.find(x.terms.begin()->first);
    if (it == bounds.end() || !it->second.valid ||
        it->second.terms.size() != 1 || !it->second.terms.count(inst) ||
        it->second.terms.at(inst) != 1)
      return false;
    return up ? it->second.constant >= 0 : it->second.constant <= 0;
  };
  auto triangle = [&](unsigned p) {
    const std::string inst = instanceAtom(p);
    for (unsigned da = 0; da < a.coords.size(); ++da)
      for (unsigned db = 0; db < b.coords.size(); ++db) {
        if (da == db || !exactly(a.coords[da], inst) ||
            !exactly(b.coords[db], inst))
          continue;
        for (bool up : {true, false})
          if (counter(a.coords[db], inst, up) &&
              counter(b.coords[da], inst, up))
            return true;
      }
    return false;
  };
  // Swapped: a writes (.., i_p, .., E, ..) and b (.., E, .., i_p, ..) with
  // E the same instance-invariant expression: an element they share has
  // i_p = E (b's coordinate where a has i_p) and i'_p = E (a's where b has
  // i'_p), so i_p = i'_p (a counted loop j writing cov(i, j) and cov(j, i)
  // for a fixed i, counted-loops).
  auto invariant = [&](const Affine &x) {
    if (!x.valid)
      return false;
    for (const auto &[atom, c] : x.terms)
      if (InstanceSpace::instanceDim(atom) >= 0 || !space.isInvariant(atom))
        return false;
    return true;
  };
  auto swapped = [&](unsigned p) {
    const std::string inst = instanceAtom(p);
    for (unsigned da = 0; da < a.coords.size(); ++da)
      for (unsigned db = 0; db < b.coords.size(); ++db)
        if (da != db && exactly(a.coords[da], inst) &&
            exactly(b.coords[db], inst) && invariant(a.coords[db]) &&
            a.coords[db] == b.coords[da])
          return true;
    return false;
  };
  for (unsigned p = 0; p < space.rank; ++p) {
    bool pinned = triangle(p) || swapped(p);
    for (unsigned d = 0; d < a.coords.size() && !pinned; ++d) {
      const Affine &x = a.coords[d], &y = b.coords[d];
      if (!x.valid || !(x == y))
        continue;
      for (const auto &[atom, coeff] : x.terms) {
        if (!pins(atom, p))
          continue;
        bool onlyInvariant = true;
        for (const auto &[other, c] : x.terms) {
          if (other == atom)
            continue;
          if (InstanceSpace::instanceDim(other) >= 0 ||
              !space.isInvariant(other))
            onlyInvariant = false;
        }
        pinned |= onlyInvariant;
      }
    }
    if (!pinned)
      return false;
  }
  return true;
}

bool intent::phys::findCrossInstanceConflictPair(
    const std::vector<AccessSummary> &acc, const InstanceSpace &space,
    unsigned &write, unsigned &other) {
  for (unsigned i = 0; i < acc.size(); ++i) {
    if (!acc[i].write)
      continue;
    for (unsigned j = 0; j < acc.size(); ++j) {
      if (acc[j].write && j < i)
        continue; // write pairs are checked once
      if (!mayAlias(acc[i], acc[j]) || closedByAtomics(acc[i], acc[j]))
        continue;
      if (separatedAcrossInstances(acc[i], acc[j], space))
        continue;
      write = i;
      other = j;
      return true;
    }
  }
  return false;
}

std::string
intent::phys::findCrossInstanceConflict(const std::vector<AccessSummary> &acc,
                                        const InstanceSpace &space) {
  unsigned i, j;
  if (!findCrossInstanceConflictPair(acc, space, i, j))
    return "";
  if (i == j)
    return acc[i].describe() + " is not provably unique per instance";
  return acc[i].describe() + " may conflict with " + acc[j].describe() +
         " of another instance";
}

std::string
intent::phys::findAnyConflict(const std::vector<AccessSummary> &a,
                              const std::vector<AccessSummary> &b) {
  for (const AccessSummary &x : a)
    for (const AccessSummary &y : b)
      if ((x.write || y.write) && mayAlias(x, y))
        return x.describe() + " and " + y.describe();
  return "";
}

void intent::phys::markWrittenRoots(
    const std::vector<std::vector<AccessSummary> *> &all) {
  std::set<int> written;
  for (const auto *v : all)
    for (const AccessSummary &a : *v)
      if (a.write)
        written.insert(a.root);
  for (auto *v : all)
    for (AccessSummary &a : *v)
      a.rootWritten = written.count(a.root) != 0;
}
