//===- EmitWiden.cpp - CUDA for a widened pointwise segment ---------------===//
//
// A segment the widen pass rewrote (docs/passes.md §6): the program strides
// over its chunks of W elements; a full chunk whose views are all
// unit-stride and aligned to the vector's bytes (checked once per program
// call) loads every view with load_vec<W>, runs the instance body for the W
// lanes on the loaded registers and writes each store with store_vec<W>,
// four of the program's chunks at a time (all loads first) while four
// remain;
// other chunks (misaligned or strided views, the n % W remainder) run the
// body element by element.
//
//===----------------------------------------------------------------------===//

#include "Emit/ProgramEmitter.h"

#include <set>

using namespace intent;
using namespace intent::phys;
using namespace intent::emit::detail;

void ProgramEmitter::emitWidenedSegment(const Op &op, const std::string &pid) {
  const Segment &seg = p.segments[op.intAttr("group")];
  const Block &body = op.region(0)->block;
  const std::string w = std::to_string(seg.widen);
  const std::string id = name(op.operands[0]), off = name(op.operands[1]),
                    len = name(op.operands[2]);
  line("if (" + id + " >= " + off + " && " + id + " - " + off + " < " + len +
       ") {  // group " + std::to_string(seg.group) + ", widened: chunks of " +
       w + " elements");
  ++depth;
  line("const int64_t wn = L.e" + std::to_string(seg.widenElements) +
       ";  // elements");
  line("const int64_t wfull = wn / " + w + ";  // whole chunks");
  line("const int64_t wchunks = wfull + (wn % " + w + " != 0 ? 1 : 0);");
  // The vector path: every accessed view unit-stride, base aligned; not
  // taken when the launch checks bounds (the scalar path checks each
  // access).
  std::set<const Value *> views;
  std::string vec = uncheckedLaunch();
  for (const auto &o : body.ops)
    if ((o->opcode == Opcode::Load || o->opcode == Opcode::Store) &&
        views.insert(o->memory()).second) {
      const Value *v = o->memory();
      std::string bytes = std::to_string(seg.widen *
                                         scalarBytes(v->type.elem));
      vec += " && " + name(v) + ".stride(0) == 1 && ::intent::rt::is_aligned(" +
             name(v) + ".data(), " + bytes + ")";
    }
  line("const bool wvec = " + vec + ";");
  line("int64_t wc = " + id + " - " + off + ";");
  // The vector path for kWidenUnroll chunks at once (wc, wc + len, ...: the
  // program's own chunks, in a different order, which independent
  // instances allow): every load of every chunk is issued before the first
  // store, so kWidenUnroll times the bytes are in flight per thread.
  auto vectorChunks = [&](int64_t count) {
    auto sfx = [&](int64_t u) {
      return count > 1 ? "_" + std::to_string(u) : std::string();
    };
    for (int64_t u = 0; u < count; ++u)
      line("const int64_t wbase" + sfx(u) + " = (wc" +
           (u ? " + " + std::to_string(u) + " * " + len : std::string()) +
           ") * " + w + ";");
    for (int64_t u = 0; u < count; ++u)
      for (const auto &o : body.ops) {
        if (o->opcode != Opcode::Load)
          continue;
        std::string t = scalarCxx(o->result()->type.elem);
        line("const ::intent::rt::vec<" + t + ", " + w + "> wv" +
             std::to_string(o->id) + sfx(u) + " = ::intent::rt::load_vec<" +
             w + ">(" + name(o->memory()) + ".data() + wbase" + sfx(u) +
             ");");
      }
    for (int64_t u = 0; u < count; ++u) {
      for (const auto &o : body.ops) {
        std::string arr = "wv" + std::to_string(o->id) + sfx(u);
        if (o->opcode == Opcode::Load) {
          loadOverride[o.get()] = arr + "[wl]";
        } else if (o->opcode == Opcode::Store) {
          line("::intent::rt::vec<" + scalarCxx(o->memory()->type.elem) +
               ", " + w + "> " + arr + ";");
          storeOverride[o.get()] = arr + "[wl]";
        }
      }
      line("#pragma unroll");
      line("for (int wl = 0; wl < " + w + "; ++wl) {");
      ++depth;
      bindArgs(body, {"wbase" + sfx(u) + " + wl"});
      emitOps(body, pid);
      --depth;
      line("}");
    }
    for (int64_t u = 0; u < count; ++u)
      for (const auto &o : body.ops)
        if (o->opcode == Opcode::Store)
          line("::intent::rt::store_vec<" + w + ">(" + name(o->memory()) +
               ".data() + wbase" + sfx(u) + ", wv" + std::to_string(o->id) +
               sfx(u) + ");");
    for (const auto &o : body.ops) {
      loadOverride.erase(o.get());
      storeOverride.erase(o.get());
    }
  };
  const int64_t kWidenUnroll = 4;
  line("if (wvec) {");
  ++depth;
  line("for (; wc + " + std::to_string(kWidenUnroll - 1) + " * " + len +
       " < wfull; wc += " + std::to_string(kWidenUnroll) + " * " + len +
       ") {");
  ++depth;
  vectorChunks(kWidenUnroll);
  --depth;
  line("}");
  --depth;
  line("}");
  line("for (; wc < wchunks; wc += " + len + ") {");
  ++depth;
  line("if (wvec && wc < wfull) {");
  ++depth;
  vectorChunks(1);
  --depth;
  line("} else {");
  ++depth;
  line("const int64_t wbase = wc * " + w + ";");
  line("const int64_t wend = wbase + " + w + " < wn ? wbase + " + w +
       " : wn;");
  line("for (int64_t wk = wbase; wk < wend; ++wk) {");
  ++depth;
  bindArgs(body, {"wk"});
  emitOps(body, pid);
  --depth;
  line("}");
  --depth;
  line("}");
  --depth;
  line("}");
  --depth;
  line("}");
}
