//===- KIRInterpreter.h - Reference semantics straight from KIR -*- C++ -*-===//
//
// Executes a KIR kernel with the header's serial reference semantics:
// parallel_for iterates its domain row-major, sub-views are computed as
// intent::view does (pointer, extents and strides), loops follow KIR's
// cond/body/step protocol. It shares nothing with construction, so
// `runProgram(construct(k)) == runKernel(k)` on random inputs is a real
// differential test.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_INTERPRETER_KIRINTERPRETER_H
#define INTENT_INTERPRETER_KIRINTERPRETER_H

#include "Interpreter/Values.h"
#include "KIR/KIR.h"

namespace intent::interp {

struct KIRRunResult {
  bool ok = true;
  std::string error;
};

/// Runs `k` once over `args` (one per parameter).
KIRRunResult runKernel(const kir::Kernel &k, const std::vector<Arg> &args,
                       int64_t maxOps = 200000000);

} // namespace intent::interp

#endif // INTENT_INTERPRETER_KIRINTERPRETER_H
