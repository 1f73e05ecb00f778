//===- Rng.cpp - The rng op, computed by the header's Philox ---------------===//
//
// Both interpreters evaluate `rng` by calling include/intent/philox.hpp, the
// same code the generated kernels call on the host (CPU mode) and on the
// device, so u32 and uniform agree bit for bit in every execution mode.
//
//===----------------------------------------------------------------------===//

#include "Interpreter/Values.h"

#include "intent/philox.hpp"

using namespace intent;
using namespace intent::interp;

bool interp::evalRng(llvm::StringRef fn, const Scalar &seed,
                     const Scalar &stream, const Scalar &counter,
                     Scalar &out) {
  intent::philox g(static_cast<uint64_t>(seed.i),
                   static_cast<uint64_t>(stream.i));
  uint64_t c = static_cast<uint64_t>(counter.i);
  if (fn == "u32") {
    out = Scalar::ofInt(ScalarKind::U32, g.u32(c));
    return true;
  }
  if (fn == "uniform") {
    out = Scalar::ofFloat(ScalarKind::F32, g.uniform(c));
    return true;
  }
  if (fn == "normal") {
    out = Scalar::ofFloat(ScalarKind::F32, g.normal(c));
    return true;
  }
  return false;
}
