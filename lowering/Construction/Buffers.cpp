//===- Buffers.cpp - Pass: scopes of kernel-level buffers ------------------===//

#include "Construction/Buffers.h"

#include "KIR/Atomic.h"

#include <cmath>
#include <set>

using namespace intent;
using namespace intent::construct;
using kir::Op;
using kir::Opcode;

std::string construct::bufferName(const Op &alloc) {
  const kir::Value *v = alloc.result();
  return v->name.empty() ? "buffer%" + std::to_string(v->id) : v->name;
}

bool construct::isZeroFill(const Op &alloc) {
  const kir::AttrValue *v = alloc.attr("value");
  if (!v)
    return false;
  if (const auto *d = std::get_if<double>(v))
    return *d == 0 && !std::signbit(*d);
  if (const auto *i = std::get_if<int64_t>(v))
    return *i == 0;
  if (const auto *b = std::get_if<bool>(v))
    return !*b;
  return false;
}

const KernelBuffer *construct::findKernelBuffer(const ConstructionState &s,
                                                unsigned allocId) {
  for (const KernelBuffer &kb : s.kernelBuffers)
    if (kb.alloc->id == allocId)
      return &kb;
  return nullptr;
}

bool construct::shareKernelBuffer(const Unit &a, const Unit &b) {
  std::set<int> used;
  for (const phys::AccessSummary &x : a.accesses)
    if (x.buffer >= 0)
      used.insert(x.buffer);
  for (const phys::AccessSummary &y : b.accesses)
    if (y.buffer >= 0 && used.count(y.buffer))
      return true;
  return false;
}

std::string construct::kernelBufferSerialReason(const ConstructionState &s,
                                                const Unit &u) {
  for (const phys::AccessSummary &a : u.accesses) {
    const KernelBuffer *kb = a.buffer >= 0 ? findKernelBuffer(s, a.buffer)
                                           : nullptr;
    if (!kb || kb->alloc->strAttr("init") != "value" || isZeroFill(*kb->alloc))
      continue;
    return "kernel-level buffer '" + bufferName(*kb->alloc) + "' (" +
           locString(kb->alloc->loc) +
           ") has a non-zero fill value: a workspace shared by the instances "
           "cannot be filled once per launch without an extra launch, so the "
           "instances are merged (fill it with 0, or declare the buffer "
           "inside the parallel_for)";
  }
  return "";
}

void construct::placeBuffers(ConstructionState &s) {
  for (KernelBuffer &kb : s.kernelBuffers) {
    kb.group = -1;
    for (const Group &g : s.groups)
      for (unsigned u : g.units)
        for (const phys::AccessSummary &a : s.units[u].accesses)
          if (a.buffer == static_cast<int>(kb.alloc->id))
            kb.group = g.id;
    std::string name = "buffer '" + bufferName(*kb.alloc) + "'";
    if (kb.group < 0) {
      s.remark(kb.alloc->loc, name + " is never accessed; nothing is "
                                     "allocated");
      continue;
    }
    const Group &g = s.groups[kb.group];
    std::string gs = "group " + std::to_string(g.id);
    if (g.ordered) {
      kb.scope = phys::BufferScope::ProgramPrivate;
      s.remark(kb.alloc->loc,
               name + ": program-private to the single instance of " + gs +
                   " (the instances that share it were merged)");
      continue;
    }
    kb.scope = phys::BufferScope::InvocationWorkspace;
    bool filled = kb.alloc->strAttr("init") == "value";
    // Shared through atomics: the group stayed parallel, so every access
    // pair on the buffer that instances could share is a pair of atomics
    // of one parallel_for (closed by atomic semantics, §4).
    bool atomics = false;
    for (unsigned u : g.units)
      for (const phys::AccessSummary &a : s.units[u].accesses)
        atomics |= a.buffer == static_cast<int>(kb.alloc->id) && a.atomic;
    std::string how =
        atomics ? " (its elements are updated by several instances, through "
                  "atomics only: the instances are not merged and the "
                  "atomics get the launch's scope)"
                : " (each element owned by the one instance that accesses it)";
    s.remark(kb.alloc->loc,
             name + ": invocation workspace shared by the instances of " + gs +
                 how +
                 (filled ? "; zero-filled by the runtime before the launch"
                         : ""));
  }

  // The author's first-write obligation (design.md §4.5): every use of an
  // alloc is in its block, after it. Walking that block in order, an op
  // that loads the buffer while neither it nor an earlier op stores to it
  // reads an element no write can have reached (on the path through that
  // load). Once some op stores, nothing more is provable here: the rest is
  // the author's obligation; nothing is synthesised.
  kir::walk(*s.kernel.body, [&](const Op &alloc) {
    if (alloc.opcode != Opcode::Alloc ||
        alloc.strAttr("init") != "first_write")
      return;
    const kir::Block &block = *alloc.parent;
    bool after = false;
    for (const auto &opPtr : block.ops) {
      if (opPtr.get() == &alloc) {
        after = true;
        continue;
      }
      if (!after)
        continue;
      const Op *load = nullptr;
      bool stores = false;
      auto visit = [&](const Op &op) {
        if (op.operands.empty() || op.operands[0] != alloc.result())
          return;
        stores |= op.opcode == Opcode::Store;
        // An atomic reads the element before updating it.
        if ((op.opcode == Opcode::Load || kir::isAtomic(op.opcode)) && !load)
          load = &op;
      };
      visit(*opPtr);
      for (const auto &r : opPtr->regions)
        kir::walk(*r, visit);
      if (stores)
        break;
      if (load) {
        s.error(load->loc,
                "buffer '" + bufferName(alloc) +
                    "' is read before any of its elements is written: it has "
                    "no fill value, so every element must be written before "
                    "it is read (write it first, or declare it as "
                    "buffer<T, N>(value))");
        break;
      }
    }
  });
}
