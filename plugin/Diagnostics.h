//===- Diagnostics.h - Every diagnostic text of the Intent front end -----===//
//
// All user-facing texts live here so that they read consistently: each one
// says what is unsupported and what to do instead. Messages take Clang's
// %0/%1 arguments. DiagReporter reports them at the user's source location,
// drops exact duplicates (a helper inlined into two kernels reports once),
// and can be muted while the lowering explores a loop body speculatively.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_PLUGIN_DIAGNOSTICS_H
#define INTENT_PLUGIN_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <set>
#include <string>

namespace intent::plugin {

/// The diagnostic texts, one per kind of user error.
namespace msg {
// Attribute and plugin arguments.
inline constexpr const char *AttrNotFunction =
    "'intent::kernel' attribute only applies to function definitions";
inline constexpr const char *AttrOnMember =
    "'intent::kernel' cannot be applied to a member function; make the kernel "
    "a free function";
inline constexpr const char *AttrHasArgs =
    "'intent::kernel' takes no arguments";
inline constexpr const char *UnknownPluginArg =
    "unknown Intent plugin argument '%0' (expected dump=kir, dump=phys, "
    "stop-after=kir, out=DIR, remarks, no-physical-passes, passes=LIST or "
    "disable-pass=LIST)";
/// %0: the argument, %1: "unknown pass 'x' (known passes: ...)".
inline constexpr const char *BadPassList =
    "bad Intent plugin argument '%0': %1";
inline constexpr const char *BadStopAfterValue =
    "unknown value '%0' for -fplugin-arg-intent-stop-after (expected 'kir')";
inline constexpr const char *BadDumpValue =
    "unknown value '%0' for -fplugin-arg-intent-dump (expected 'kir' or 'phys')";

// Lost parallelism (construction's serialization findings): "<cause>:
// <fix>", in Intent's own warning group.
inline constexpr const char *SerializationGroup = "intent-serialization";
inline constexpr const char *Serialized =
    "%0: %1 [-Wintent-serialization]";
inline constexpr const char *SerializedError =
    "%0: %1 [-Werror,-Wintent-serialization]";

// Kernel signature.
inline constexpr const char *NonVoidKernel =
    "an Intent kernel must return void; write results to a view parameter";
inline constexpr const char *BadParamType =
    "parameter '%0' of type %1 is not supported in an Intent kernel; use a "
    "scalar (bool, integer, float, double) or an intent::view passed by value";
inline constexpr const char *VariadicKernel =
    "a variadic function cannot be an Intent kernel";
inline constexpr const char *ParamTypeNotLaunchable =
    "parameter '%0' of type %1 cannot be passed to the kernel's generated "
    "launcher, which takes %2; declare the parameter as %2";
inline constexpr const char *HalfParam =
    "parameter '%0' of type %1 is not supported in an Intent kernel's "
    "signature; pass float (or a view of float) and convert inside the kernel";

// Statements.
inline constexpr const char *Goto =
    "'goto' is not supported in an Intent kernel; use structured control flow "
    "(if, for, while, break, continue)";
inline constexpr const char *Switch =
    "'switch' is not supported in an Intent kernel; use if/else";
inline constexpr const char *Try =
    "'try' is not supported in an Intent kernel; kernels cannot handle "
    "exceptions, check conditions explicitly instead";
inline constexpr const char *RangeFor =
    "range-based 'for' is not supported in an Intent kernel; loop over an "
    "index and use v[i]";
inline constexpr const char *Asm =
    "inline assembly is not supported in an Intent kernel";
inline constexpr const char *ReturnInLoop =
    "'return' inside a loop is not supported in an Intent kernel; use 'break' "
    "and test afterwards";
inline constexpr const char *ReturnInHelperLoop =
    "early return inside a loop is not supported in inlined helpers; use "
    "'break' and return after the loop";
inline constexpr const char *CondSideEffect =
    "assignment to '%0' inside a loop condition is not supported in an Intent "
    "kernel; move it into the loop body";
inline constexpr const char *StaticLocal =
    "static local variable '%0' is not supported in an Intent kernel; use a "
    "constexpr variable or pass the value as a parameter";
inline constexpr const char *BadLocalType =
    "local variable '%0' of type %1 is not supported in an Intent kernel; use "
    "scalars and intent::view";
inline constexpr const char *ClassLocal =
    "local variable '%0' of class type %1 is not supported in an Intent "
    "kernel; use scalars, intent::view and structs whose fields are scalars";
inline constexpr const char *ContainerLocal =
    "local variable '%0' of type %1 is not supported in an Intent kernel "
    "(kernels do not allocate); for a small local array of a size known at "
    "compile time use 'intent::buffer<T, N>' (e.g. 'intent::buffer<float, 8> "
    "b;'), for data of any size pass an intent::view";
inline constexpr const char *VirtualLocal =
    "local variable '%0' of class type %1, which has virtual functions, is "
    "not supported in an Intent kernel: virtual calls cannot be compiled into "
    "a kernel; use a struct without virtual functions and free functions";
inline constexpr const char *PointerLocal =
    "pointer variable '%0' is not supported in an Intent kernel; use "
    "intent::view";
inline constexpr const char *ArrayLocal =
    "local array '%0' is not supported in an Intent kernel; use scalars or an "
    "intent::view parameter";

// Expressions.
inline constexpr const char *Throw =
    "'throw' is not supported in an Intent kernel; kernels cannot raise "
    "exceptions, check conditions explicitly instead";
inline constexpr const char *New =
    "'new' is not supported in an Intent kernel; allocate on the host and pass "
    "an intent::view";
inline constexpr const char *Delete =
    "'delete' is not supported in an Intent kernel; free memory on the host";
inline constexpr const char *AddressOf =
    "taking an address ('&') is not supported in an Intent kernel; pass views "
    "or references instead";
inline constexpr const char *Deref =
    "pointer dereference is not supported in an Intent kernel; index an "
    "intent::view instead";
inline constexpr const char *PointerArith =
    "pointer arithmetic is not supported in an Intent kernel; index an "
    "intent::view instead";
inline constexpr const char *RawPointer =
    "raw pointers are not supported in an Intent kernel; index the view "
    "instead of using data()";
inline constexpr const char *PointerValue =
    "pointer values are not supported in an Intent kernel; use intent::view";
inline constexpr const char *Subscript =
    "built-in subscript on a pointer or array is not supported in an Intent "
    "kernel; index an intent::view instead";
inline constexpr const char *FunctionPointer =
    "calls through function pointers are not supported in an Intent kernel; "
    "call the function directly";
inline constexpr const char *FunctionAddress =
    "using function '%0' as a value is not supported in an Intent kernel; "
    "call it directly";
inline constexpr const char *VirtualCall =
    "virtual call to '%0' is not supported in an Intent kernel; call a free "
    "function";
inline constexpr const char *MethodCall =
    "call to member function '%0' of %1 is not supported in an Intent kernel "
    "yet; use free functions and views";
inline constexpr const char *ClassMember =
    "member access on class type %0 is not supported in an Intent kernel yet; "
    "use scalars and views";
inline constexpr const char *ClassValue =
    "values of class type %0 are not supported in an Intent kernel yet; use "
    "scalars, views and structs whose fields are scalars";
inline constexpr const char *ClassConstructor =
    "constructing %0 with a constructor is not supported in an Intent "
    "kernel; give the struct no constructors and use brace initialization "
    "({a, b, ...})";
inline constexpr const char *This =
    "'this' is not supported in an Intent kernel; kernels and helpers must be "
    "free functions";
inline constexpr const char *NoBody =
    "call to '%0' cannot be inlined into an Intent kernel because its body is "
    "not visible; define it in this translation unit or a header";
inline constexpr const char *PrintCall =
    "'%0' is not supported in an Intent kernel; print with 'printf' (or "
    "'std::printf'), which writes to standard output (device printf on the "
    "GPU)";
inline constexpr const char *PrintFormatLiteral =
    "the format of 'printf' in an Intent kernel must be a string literal";
inline constexpr const char *PrintFormat =
    "'printf' format not supported in an Intent kernel: %0";
inline constexpr const char *PrintStringArg =
    "conversion '%0' in an Intent kernel prints only a string literal "
    "argument";
inline constexpr const char *PrintArgType =
    "conversion '%0' of 'printf' takes %1, but the argument has type %2%3";
inline constexpr const char *PrintArgCount =
    "the format of 'printf' has %0 conversion(s) but the call passes %1 "
    "argument(s) after it";
inline constexpr const char *PrintInCallback =
    "'printf' inside %0 is not supported: it may run any number of times and "
    "in any order; print from the parallel_for body or an emit/store "
    "callback instead";
inline constexpr const char *LibraryNoBody =
    "call to library function '%0' is not supported in an Intent kernel: its "
    "body is not visible, so it cannot be compiled into the kernel; use "
    "<cmath> functions, intent:: helpers or your own inline functions";
inline constexpr const char *Recursion =
    "recursive call to '%0' is not supported in an Intent kernel (helpers are "
    "inlined); rewrite it as a loop";
inline constexpr const char *RecursionChain =
    "'%0' was reached from kernel '%1' through the calls %2";
inline constexpr const char *NonConstGlobal =
    "global variable '%0' is not constexpr; an Intent kernel may only read "
    "constexpr globals, pass the value as a parameter";
inline constexpr const char *NoReturn =
    "call to '%0', which does not return, is not supported in an Intent kernel "
    "(this includes 'assert'); test the condition and return instead";
inline constexpr const char *RefReturn =
    "'%0' returns a non-const reference, which is not supported in an Intent "
    "kernel; return a value or take a reference parameter";
inline constexpr const char *NotYetSupported =
    "'%0' is not supported by this version of the Intent compiler yet";
// Random numbers (LowerRng.cpp).
inline constexpr const char *RngUse =
    "this use of 'intent::philox' is not supported in an Intent kernel; "
    "declare a local 'intent::philox g(seed, stream);' and call g.u32(c), "
    "g.uniform(c) or g.normal(c) on it";
inline constexpr const char *RngMethod =
    "'intent::philox::%0' is not supported in an Intent kernel; use u32, "
    "uniform or normal";
// Contractions (LowerContract.cpp).
inline constexpr const char *ContractTypes =
    "'intent::matmul' with element types %0 (C), %1 (A) and %2 (B) is not "
    "supported in an Intent kernel; give A and B the element type of C "
    "(convert them in a parallel_for first)";
inline constexpr const char *ContractElement =
    "'intent::matmul' on elements of type %0 is not supported in an Intent "
    "kernel; use float, double, intent::half, intent::bfloat16 or an integer "
    "type";
inline constexpr const char *ContractInCallback =
    "'intent::matmul' inside a callback of a reduction is not supported; "
    "call it from the kernel body, a loop or a parallel_for";
inline constexpr const char *LambdaEscape =
    "a lambda in an Intent kernel may only be passed to parallel_for, stored "
    "in a local variable or called directly";
inline constexpr const char *LambdaReturn =
    "returning a lambda from '%0' is not supported in an Intent kernel; call "
    "the lambda where it is defined";
inline constexpr const char *MutableLambda =
    "a 'mutable' lambda is not supported in an Intent kernel; use a local "
    "variable inside the lambda instead of modifying a copy-capture";
inline constexpr const char *ParallelRace =
    "assignment to '%0', captured from outside the parallel_for, would race "
    "between instances; use intent::reduce or write to a view";

// Reductions: reduce, scan, argmax/argmin, region_fold, region_scan.
inline constexpr const char *RegionCapture =
    "assignment to '%0', captured from outside %1, is not supported: "
    "reduction callbacks may run in any order and in parallel; return the "
    "value from the lambda, or write to a view from an emit or store lambda";
inline constexpr const char *RegionStore =
    "%0 must not write to a view: it may run any number of times and in any "
    "order; write results from an emit or store lambda, or after the "
    "reduction";
inline constexpr const char *RegionParallel =
    "parallel_for inside %0 is not supported; use an ordinary loop there, or "
    "put the reduction inside the parallel_for";
inline constexpr const char *CallbackArg =
    "the %0 argument of '%1' must be a lambda, a local variable holding one, "
    "or a function object";
inline constexpr const char *CombinePointerNotConstant =
    "the combine argument of '%0' is a function pointer whose target is not "
    "a compile-time constant; pass the function itself ('my_combine'), or a "
    "constexpr pointer to it";
inline constexpr const char *CallbackArity = "%0 must take the arguments %1";
inline constexpr const char *AccumulatorType =
    "the accumulator type %0 of '%1' is not supported in an Intent kernel; "
    "use a scalar, a struct whose fields are scalars, or a std::pair or "
    "std::tuple of scalars";
inline constexpr const char *TupleElement =
    "%0 has the element type %1, which is not supported in an Intent kernel; "
    "std::pair and std::tuple elements must be scalars, structs of scalars or "
    "such pairs and tuples (no views, references or classes)";
inline constexpr const char *TupleCall =
    "'%0' is not supported in an Intent kernel; build pairs and tuples with "
    "their constructors, std::make_pair or std::make_tuple, and read them "
    "with .first/.second, std::get<I> or a structured binding";
inline constexpr const char *OrderedArg =
    "intent::ordered(op) may only be written directly as the combine "
    "argument of intent::reduce, scan, region_fold or region_scan (not "
    "stored in a variable, nested or called)";
inline constexpr const char *ArgValueType =
    "the value type %0 of '%1' is not supported in an Intent kernel; the "
    "value lambda must return a scalar";
inline constexpr const char *ConstEnumArg =
    "the %0 argument of '%1' must be a constant enumerator (e.g. %2) so the "
    "compiler knows it; to choose at run time, branch around two calls";
inline constexpr const char *RegionOffsets =
    "the offsets of '%0' must be a rank-1 view of integers";
inline constexpr const char *ParallelBody =
    "the last argument of parallel_for must be a lambda or a local variable "
    "holding one";
inline constexpr const char *DynamicDim =
    "the dimension argument of '%0' must be an integer constant expression";
inline constexpr const char *DimRange =
    "dimension %0 is out of range for a view of rank %1";
inline constexpr const char *ViewConstruct =
    "constructing an intent::view inside an Intent kernel is not supported; "
    "take views as kernel parameters and derive sub-views (row, slice, ...)";
inline constexpr const char *ViewMember =
    "'view::%0' is not supported in an Intent kernel";
inline constexpr const char *RangeArg =
    "this argument must be written as range{begin, end} in an Intent kernel";
inline constexpr const char *ReshapeArg =
    "the extents of 'reshape' must be written as a braced list {e0, e1, ...}";
inline constexpr const char *MathArgs =
    "call to '%0' with these arguments is not supported in an Intent kernel";
inline constexpr const char *UnsupportedType =
    "type %0 is not supported in an Intent kernel; use bool, integer, float, "
    "double or intent::view";
inline constexpr const char *ReinterpretCast =
    "'reinterpret_cast' is not supported in an Intent kernel; use static_cast "
    "between scalar types";
inline constexpr const char *Generic =
    "unsupported construct '%0' in an Intent kernel";
inline constexpr const char *GenericCast =
    "unsupported conversion '%0' in an Intent kernel";

// Atomics and histogram (LowerAtomic.cpp).
inline constexpr const char *AtomicTarget =
    "the first argument of '%0' must be an element of an intent::view (y[i], "
    "y(i, j)) or of an intent::buffer (b[i]); atomics on local variables are "
    "not supported: they are private to one instance, so update the local "
    "directly";
inline constexpr const char *AtomicConstView =
    "'%0' updates an element of a view of const elements; pass the view as "
    "intent::view<T> (mutable)";
inline constexpr const char *AtomicType =
    "'%0' on elements of type %1 is not supported; atomics support int32, "
    "uint32, int64, uint64, float and double elements";
inline constexpr const char *AtomicOrder =
    "the memory order of '%0' must be a constant intent::memory_order "
    "enumerator (e.g. intent::memory_order::relaxed); to choose at run time, "
    "branch around two calls";
inline constexpr const char *AtomicInCallback =
    "%0 must not update a view atomically: it may run any number of times "
    "and in any order; update from the parallel_for body or an emit/store "
    "callback instead";
inline constexpr const char *HistogramBins =
    "the bins of 'intent::histogram' must be a mutable rank-1 intent::view "
    "with int32, uint32, int64, uint64, float or double counts";
inline constexpr const char *HistogramInCallback =
    "'intent::histogram' inside %0 is not supported (it runs one instance "
    "per sample); count with an ordinary loop and atomic_add there, or call "
    "histogram outside the reduction";
inline constexpr const char *HistogramBinOf =
    "the bin_of argument of 'intent::histogram' must be a lambda, a local "
    "variable holding one, or a function object taking one index";

// Internal errors: bugs in the front end, not in the user's code.
inline constexpr const char *InternalVerify =
    "internal error: the KIR of kernel '%0' failed verification: %1";

// Local buffers (intent::buffer<T, N>).
inline constexpr const char *BufferElementType =
    "intent::buffer of %0 is not supported in an Intent kernel; the element "
    "type must be bool, an integer or a floating-point type";
inline constexpr const char *BufferFill =
    "the fill value of an intent::buffer must be a constant expression in an "
    "Intent kernel; declare the buffer uninitialized and write its elements "
    "in a loop";
inline constexpr const char *BufferCopy =
    "copying an intent::buffer is not supported in an Intent kernel; pass it "
    "to helpers by reference and copy elements in a loop";
inline constexpr const char *BufferAssign =
    "assigning an intent::buffer is not supported in an Intent kernel; copy "
    "the elements in a loop";
inline constexpr const char *BufferData =
    "'buffer::data' is not supported in an Intent kernel (no pointers or "
    "pointer arithmetic); index the buffer with operator[]";
inline constexpr const char *BufferTemp =
    "a temporary intent::buffer is not supported in an Intent kernel; declare "
    "a local buffer variable";
inline constexpr const char *BufferInCallback =
    "an intent::buffer inside %0 is not supported; declare it in the "
    "enclosing parallel_for body or kernel";

// Rewriting the translation unit (Outputs.cpp).
inline constexpr const char *KernelInHeader =
    "kernel '%0' is defined in '%1', which the Intent compiler does not "
    "rewrite, so its calls could not launch; define it in a source file and "
    "declare it in the header (a template: define it in a source file and "
    "instantiate it there explicitly)";
inline constexpr const char *KernelInMacro =
    "a kernel defined by a macro expansion cannot be rewritten; write its "
    "definition out";
inline constexpr const char *KernelUnnamedParam =
    "an unnamed parameter of a kernel cannot be forwarded to its launcher; "
    "give it a name";
inline constexpr const char *KernelUnnamedTemplateParam =
    "an unnamed template parameter of a kernel cannot be forwarded to its "
    "launcher; give it a name";
inline constexpr const char *KernelCallsKernel =
    "a kernel cannot call another kernel ('%0'): each call is one launch; "
    "call both from host code";

} // namespace msg

/// Reports diagnostics at the user's source location. Duplicates (same
/// location and text) are dropped; while muted (speculative lowering),
/// nothing is reported (the caller records the failure itself).
class DiagReporter {
public:
  explicit DiagReporter(clang::DiagnosticsEngine &de) : engine(de) {}

  /// Reports `text` at `loc`, with `args` substituted for %0, %1, ...
  void error(clang::SourceLocation loc, llvm::StringRef text,
             llvm::ArrayRef<std::string> args = {}) {
    report(clang::DiagnosticIDs::Error, loc, text, args);
  }
  /// Reports a note attached to the last error or warning; dropped with it
  /// when that one was muted or a duplicate.
  void note(clang::SourceLocation loc, llvm::StringRef text,
            llvm::ArrayRef<std::string> args = {}) {
    report(clang::DiagnosticIDs::Note, loc, text, args);
  }
  void report(clang::DiagnosticIDs::Level level, clang::SourceLocation loc,
              llvm::StringRef text, llvm::ArrayRef<std::string> args = {}) {
    bool isNote = level == clang::DiagnosticIDs::Note;
    if (muted || (isNote && lastDropped)) {
      lastDropped = lastDropped || !isNote;
      return;
    }
    unsigned id = engine.getDiagnosticIDs()->getCustomDiagID(level, text);
    std::string key = std::to_string(loc.getRawEncoding()) + ":" +
                      std::to_string(id);
    for (const std::string &a : args)
      key += "\x1f" + a;
    bool fresh = seen.insert(key).second || isNote;
    if (!isNote)
      lastDropped = !fresh;
    if (!fresh)
      return;
    clang::DiagnosticBuilder db = engine.Report(loc, id);
    for (const std::string &a : args)
      db << a;
  }

  /// Nonzero while speculative lowering runs: nothing is shown.
  unsigned muted = 0;
  clang::DiagnosticsEngine &engine;

private:
  std::set<std::string> seen;
  /// The last error or warning was not shown (muted or a duplicate).
  bool lastDropped = false;
};

/// Quotes a type the way Clang's diagnostics do: 'float *'.
inline std::string quoted(const std::string &s) { return "'" + s + "'"; }

} // namespace intent::plugin

#endif // INTENT_PLUGIN_DIAGNOSTICS_H
