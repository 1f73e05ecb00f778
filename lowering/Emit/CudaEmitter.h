//===- CudaEmitter.h - Physical program -> CUDA C++ -------------*- C++ -*-===//
//
// Writes a translation unit's `<tu>.kernels.cu` from its physical programs,
// following the generated-code ABI of docs/runtime.md: per program an
// argument struct, a `__host__ __device__` launch-expression evaluator shared
// by the host wrapper (grid size) and the kernel (segment dispatch), the
// program function for one program id, the `__global__` grid-stride loop, and
// the host wrapper `__intent_launch_<mangled>` that calls the runtime.
//
// Requires: verified physical programs. Guarantees: deterministic text;
// `#line` directives map statements to the user's source lines.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_EMIT_CUDAEMITTER_H
#define INTENT_EMIT_CUDAEMITTER_H

#include "Physical/IR.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace intent::emit {

struct EmitOptions {
  /// The user's source file, named in `#line` directives and error messages.
  std::string sourceFile;
  /// The file being written, named by `#line` after user-attributed code.
  std::string outputFile;
  /// Emit `#line` directives pointing at the user's source.
  bool lineDirectives = true;
  /// Prepended to every generated global symbol (derived from the TU name,
  /// so that kernels of two TUs never clash at link time).
  std::string symbolPrefix;
  /// CUDA threads per block for thread-scope programs.
  int blockSize = 256;
  /// Fast-math mode: single-precision exp, exp2, log, log2, log10, sin, cos,
  /// tan, pow and division call intent::rt::fast_* (the hardware
  /// approximations on the device, the exact functions in cpu mode).
  bool fastMath = false;
  /// Per program (by mangled name), per parameter: the element type of a
  /// view parameter as the user spelled it when that is another spelling of
  /// the standard type (`long long` for int64_t, `char` for int8_t), else
  /// "". The launch wrapper takes such a view as spelled, so the user's call
  /// passes its argument unchanged; the program sees the standard type.
  std::map<std::string, std::vector<std::string>> hostElems;
};

/// The C++ spelling of a physical type (scalars and views).
std::string cxxType(const phys::Type &t);

/// The element type the launch wrapper spells for parameter `i` of `p`
/// (EmitOptions::hostElems), or "" for the standard name.
std::string hostElem(const phys::Program &p, unsigned i,
                     const EmitOptions &opts);

/// The parameter list of a program's launch wrapper, e.g.
/// `intent::view<float, 1> y, float a, intent::view<long long, 1> z`.
std::string wrapperParams(const phys::Program &p, const EmitOptions &opts);

/// The base of every generated symbol of `p`: `<prefix><mangled>`.
std::string symbolName(const phys::Program &p, const EmitOptions &opts);

/// The name of the host wrapper of `p`: `__intent_launch_<prefix><mangled>`.
std::string launchFunctionName(const phys::Program &p,
                               const EmitOptions &opts);

/// Writes everything one program needs (struct, evaluator, program,
/// __global__, wrapper).
void emitProgram(llvm::raw_ostream &os, const phys::Program &p,
                 const EmitOptions &opts);

/// The generated-code ABI version this emitter and the plugin's rewritten
/// sources are written for: INTENT_ABI_VERSION of the runtime's
/// intent/runtime/api.hpp, which every generated file checks.
constexpr int kAbiVersion = 3;

/// Writes the compile-time check that the runtime headers have ABI version
/// kAbiVersion (an #error asking to regenerate the file otherwise); placed
/// after the runtime include.
void emitAbiCheck(llvm::raw_ostream &os);

/// Writes a whole `<tu>.kernels.cu`.
void emitKernelsFile(llvm::raw_ostream &os,
                     llvm::ArrayRef<const phys::Program *> programs,
                     const EmitOptions &opts);

} // namespace intent::emit

#endif // INTENT_EMIT_CUDAEMITTER_H
