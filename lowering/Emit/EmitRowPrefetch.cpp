//===- EmitRowPrefetch.cpp - cta-rows: the next row through shared memory -===//
//
// Cross-row prefetch of register rows (docs/passes.md §3), for programs
// with `regPrefetch`. The launch is persistent, so a CTA runs rows r,
// r + S, r + 2 S, ... (S = program_stride, the CTA count). In the variant
// K = regMaxK, when `<m>_prefetch_bytes(args)` is not 0 (the register
// views' rows are contiguous and 16-byte aligned, and their buffers fit),
// the CTA's program for row r does:
//
//   if r >= S (row r was prefetched by the CTA's previous program):
//     async_copy_wait_all(); cta_barrier();     (B1: the copies are visible)
//     fill the registers from the shared buffer
//     cta_barrier();                            (B2: every thread read it)
//   else fill the registers from global memory (as without prefetch)
//   if r + S < rows: start copying row r + S of every register view into
//     the buffer (16-byte cp.async pieces strided over the threads, the
//     last n * bytes % 16 bytes with plain stores); async_copy_commit()
//   ... the row's reductions and fors, on the registers only
//
// One buffer per view (no double buffering: a 32768-float row takes 128 KiB
// of the 227 KiB). B2 separates every thread's last read of the buffer from
// any thread's next copy into it (copies start after B2 in program order);
// B1 after each thread's wait makes every thread's copies (async and plain)
// visible to all. Nothing else touches the buffer: it lies after the
// reduction scratch (shared offset sharedBytes). The decisions (the
// variant, prefetch_bytes, r >= S, r + S < rows) are uniform over the CTA,
// so the barriers are reached by all its threads. The values are the same
// bits as from global memory, so the combine order is unchanged.
//
//===----------------------------------------------------------------------===//

#include "Emit/ProgramEmitter.h"

#include "Physical/Coop.h"
#include "Physical/Structured.h"

using namespace intent;
using namespace intent::phys;
using namespace intent::emit::detail;

namespace {
const char *const kRt = "::intent::rt::";

std::string str(int64_t v) { return std::to_string(v); }

/// Dynamic shared memory a CTA may opt into on sm_80 / sm_90 (227 KiB).
constexpr int64_t kMaxDynamicShared = 227 * 1024;
} // namespace

std::string ProgramEmitter::prefetchBytesFunction() const {
  return m + "_prefetch_bytes";
}

std::string ProgramEmitter::rowPrefetchOffset(unsigned k,
                                              const std::string &n) const {
  // Each view's buffer rounded to 32 bytes: load_vec<4> of a double row
  // needs 32-byte alignment.
  std::string off = str(p.sharedBytes);
  for (unsigned j = 0; j < k; ++j)
    off += " + (" + n + " * " + str(elemBytes(p.params[p.regParams[j]].type.elem)) +
           " + 31) / 32 * 32";
  return off;
}

void ProgramEmitter::emitPrefetchBytesFunction() {
  if (!p.regPrefetch || !p.regMaxK)
    return;
  os << "/// Shared bytes of the cross-row prefetch buffers of " << p.name
     << " for this launch (docs/passes.md §3), after the scratch: the next "
        "row of every register view; 0 (no prefetch) unless the launch runs "
        "the variant K = "
     << p.regMaxK << " and those rows are contiguous and 16-byte aligned.\n";
  os << "static INTENT_HD inline int64_t " << prefetchBytesFunction()
     << "(const " << m << "_args &a) {\n";
  os << "  const int64_t n = a." << p.params[p.regLengthParam].name
     << ".extent(" << p.regLengthDim << ");\n";
  // Only for 1024-thread CTAs (one per SM: nothing else overlaps its
  // reductions with loads). Measured on the H200 (bench/, 2026-11-30):
  // 4096x32768 softmax 0.383 -> 0.374 ms, layernorm 0.475 -> 0.437 ms with
  // prefetch; where several CTAs share an SM (1024 and 8192 columns) the
  // persistent grid and the extra barriers made it slower (softmax 0.082 ->
  // 0.096 ms, 0.155 -> 0.179 ms).
  os << "  if (" << m << "_row_k(a) != " << p.regMaxK << " || " << m
     << "_row_threads(a) != 1024 || n <= 0) return 0;\n";
  for (unsigned i : p.regParams) {
    const std::string v = "a." + p.params[i].name;
    const int64_t eb = elemBytes(p.params[i].type.elem);
    os << "  if (" << v << ".stride(1) != 1 || !" << kRt << "is_aligned(" << v
       << ".data(), 16) || " << v << ".stride(0) * " << eb
       << " % 16 != 0) return 0;\n";
  }
  os << "  const int64_t bytes = " << rowPrefetchOffset(p.regParams.size(), "n")
     << " - " << p.sharedBytes << ";\n";
  os << "  return " << p.sharedBytes << " + bytes <= " << kMaxDynamicShared
     << " ? bytes : 0;\n}\n\n";
}

std::string ProgramEmitter::rowPrefetchRows(const Value *row) const {
  if (!p.regPrefetch || !row->def || row->def->opcode != Opcode::Delinearize ||
      row->def->results.size() != 1)
    return "";
  const Op *seg = row->def->parentOp();
  if (!seg || seg->opcode != Opcode::Segment || seg->operands.size() < 3 ||
      seg->regions.empty() || seg->region(0)->block.args.empty() ||
      row->def->operands[0] != seg->region(0)->block.args[0])
    return "";
  // Row r is the segment's instance; its rows are [0, length).
  return name(seg->operands[2]);
}

void ProgramEmitter::emitRowPrefetchIssue(const Value *row,
                                          const std::string &rows) {
  line("// cross-row prefetch: start copying the CTA's next row into shared "
       "memory");
  line("if (rpf && " + name(row) + " + rps < " + rows + ") {");
  ++depth;
  for (unsigned k = 0; k < p.regParams.size(); ++k) {
    const unsigned i = p.regParams[k];
    const std::string t = scalarCxx(p.params[i].type.elem);
    const std::string v = name(p.param(i)), s = str(i);
    const int64_t eb = elemBytes(p.params[i].type.elem);
    line("const " + t + " *const rg" + s + " = " + v + ".data() + (" +
         name(row) + " + rps) * " + v + ".stride(0);");
    line("const int rnb" + s + " = static_cast<int>(rn) * " + str(eb) + ";");
    line("#pragma unroll");
    line("for (int rv = 0; rv < (RK * " + str(eb) + " + 15) / 16; ++rv) {");
    line("  const int rc = (rv * " + std::string(kRt) + "cta_size() + " + kRt +
         "cta_thread()) * 16;");
    line("  if (rc + 16 <= rnb" + s + ") " + kRt +
         "async_copy16(reinterpret_cast<unsigned char *>(rs" + s +
         ") + rc, reinterpret_cast<const unsigned char *>(rg" + s + ") + rc);");
    line("}");
    if (16 % eb == 0 && eb < 16)
      line("for (int re = rnb" + s + " / 16 * " + str(16 / eb) + " + " + kRt +
           "cta_thread(); re < rn; re += " + kRt + "cta_size()) rs" + s +
           "[re] = rg" + s + "[re];");
  }
  line(std::string(kRt) + "async_copy_commit();");
  --depth;
  line("}");
}
