//===- intent/runtime/kernel.hpp - The include of every <tu>.kernels.cu --===//
//
// A generated <tu>.kernels.cu includes this header and nothing else from
// Intent: the user API (view, ops, philox, buffer, ...), the device helpers
// and scoped atomics, and the launch helper its host wrappers call. See
// docs/runtime.md "Generated code ABI".
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_RUNTIME_KERNEL_HPP
#define INTENT_RUNTIME_KERNEL_HPP

#if !defined(__CUDACC__)
#error "a generated .kernels.cu file must be compiled by nvcc"
#endif

#include "intent/intent.hpp"
#include "intent/runtime/api.hpp"
#include "intent/runtime/bounds.hpp"
#include "intent/runtime/device.hpp"
#include "intent/runtime/launch.hpp"
#include "intent/runtime/alias.hpp"

#endif // INTENT_RUNTIME_KERNEL_HPP
