//===- intent/intent.hpp - The Intent user API ----------------------------===//
//
// Include this to write [[intent::kernel]] functions. Everything here is
// header-only and has serial reference semantics: compiled without the
// Intent plugin, every construct runs sequentially on the host, and that
// execution is what each generated kernel is tested against.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_INTENT_HPP
#define INTENT_INTENT_HPP

// Without the plugin, [[intent::kernel]] is an attribute the compiler does not
// know: it is ignored (the function keeps the serial semantics below) but
// warned about at every kernel. Silence that warning for the rest of the
// translation unit, and only when the plugin is absent: the plugin registers
// the attribute, making __has_cpp_attribute(intent::kernel) true, and its
// compile must still report misplaced or misspelled attributes. The price is
// that a plugin-less compile also stays silent about other unknown
// attributes (GCC has no narrower switch than -Wattributes). nvcc's front end
// reports the unknown namespace as diagnostic 2803, then hands the attribute
// to the host compiler, which the GCC/Clang lines cover.
#if defined(__has_cpp_attribute)
#if !__has_cpp_attribute(intent::kernel)
#if defined(__NVCC__)
#pragma nv_diag_suppress 2803
#endif
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wunknown-attributes"
#elif defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wattributes"
#endif
#endif
#endif

#include "intent/argreduce.hpp"
#include "intent/atomic.hpp"
#include "intent/buffer.hpp"
#include "intent/core.hpp"
#include "intent/half.hpp"
#include "intent/matmul.hpp"
#include "intent/ops.hpp"
#include "intent/parallel.hpp"
#include "intent/philox.hpp"
#include "intent/reduce.hpp"
#include "intent/region.hpp"
#include "intent/view.hpp"

// Host-side arrays come with the runtime (runtime/include); the header alone
// stays usable without it.
#if __has_include(<intent/array.hpp>)
#include <intent/array.hpp>
#endif

#endif // INTENT_INTENT_HPP
