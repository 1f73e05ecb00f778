//===- VerifierHarness.h - Build, break and re-verify programs --*- C++ -*-===//
//
// Shared by the verifier tests: construct a program from KIR text (it must
// verify clean), find ops to break by hand, and expect a tagged message.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_TEST_VERIFIERHARNESS_H
#define INTENT_TEST_VERIFIERHARNESS_H

#include "DiffHarness.h"

#include "Physical/Verifier.h"

#include <set>

namespace intent::test {

/// A KIR module and the program built from one of its kernels.
struct Built {
  std::unique_ptr<kir::Module> module;
  std::unique_ptr<phys::Program> program;
  unsigned index = 0; ///< the kernel's position in the module
  const kir::Kernel &kernel() const { return *module->kernels[index]; }
};

/// Builds kernel `name` (default: the first) of the KIR text; with
/// `passes` false, as construction leaves it (no physical passes); with
/// `longRows`, the long-row alternative (Program::longRows: rows of a
/// runtime length go to cta-rows, not region-teams).
inline Built build(const std::string &text, const std::string &name = "",
                   bool passes = true,
                   const std::set<std::string> &disabled = {},
                   bool longRows = false) {
  Built b;
  std::string err;
  b.module = kir::parseModule(text, "test.kir", err);
  EXPECT_TRUE(b.module) << err;
  for (unsigned i = 0; !name.empty() && i < b.module->kernels.size(); ++i)
    if (b.module->kernels[i]->name == name)
      b.index = i;
  PipelineOptions o;
  o.physicalPasses = passes;
  o.disabledPasses = disabled;
  o.longRows = longRows;
  PipelineResult r = runPipeline(b.kernel(), o);
  EXPECT_TRUE(r.ok()) << (r.internalErrors.empty() ? "" : r.internalErrors[0]);
  b.program = std::move(r.program);
  std::vector<std::string> errs;
  EXPECT_TRUE(phys::verifyProgram(*b.program, &b.kernel(), errs))
      << (errs.empty() ? "" : errs[0]);
  return b;
}

/// Builds kernel `kernel` (default: the first) of test/lit/construction/<name>.
inline Built buildFile(const std::string &name, const std::string &kernel = "",
                       bool passes = true,
                       const std::set<std::string> &disabled = {},
                       bool longRows = false) {
  return build(readFile(litFile("construction", name)), kernel, passes,
               disabled, longRows);
}

/// The long-row alternative of a construction test file's kernel: what
/// cta-rows makes of rows of a runtime length.
inline Built buildLongRows(const std::string &name,
                           const std::string &kernel = "") {
  return buildFile(name, kernel, true, {}, true);
}

/// The `nth` op with opcode `opc` in pre-order.
inline phys::Op *findOp(phys::Program &p, phys::Opcode opc, unsigned nth = 0) {
  phys::Op *found = nullptr;
  phys::walkMutable(*p.body, [&](phys::Op &op) {
    if (op.opcode == opc && !found && nth-- == 0)
      found = &op;
  });
  EXPECT_TRUE(found) << "no " << phys::opcodeName(opc).str() << " op";
  return found;
}

/// Creates an op right before `anchor`, in anchor's block.
inline phys::Op *insertBefore(phys::Program &p, phys::Op *anchor,
                              phys::Opcode opc,
                              llvm::ArrayRef<phys::Value *> operands,
                              llvm::ArrayRef<phys::Type> types) {
  phys::Builder b(p);
  phys::Block *block = anchor->parent;
  b.setInsertionBlock(block);
  phys::Op *op = b.create(opc, operands, types);
  std::unique_ptr<phys::Op> owned = std::move(block->ops.back());
  block->ops.pop_back();
  auto at = std::find_if(block->ops.begin(), block->ops.end(),
                         [&](const auto &o) { return o.get() == anchor; });
  block->ops.insert(at, std::move(owned));
  return op;
}

/// Verifies and expects a message starting with `tag` that contains `text`.
inline void expectError(const Built &b, const std::string &tag,
                        const std::string &text) {
  std::vector<std::string> errs;
  EXPECT_FALSE(phys::verifyProgram(*b.program, &b.kernel(), errs));
  bool found = false;
  for (const std::string &e : errs)
    found |= e.rfind(tag, 0) == 0 && e.find(text) != std::string::npos;
  std::string all;
  for (const std::string &e : errs)
    all += "\n  " + e;
  EXPECT_TRUE(found) << "expected " << tag << " ... " << text << ", got:" << all;
}

} // namespace intent::test

#endif // INTENT_TEST_VERIFIERHARNESS_H
