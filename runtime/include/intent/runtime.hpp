//===- intent/runtime.hpp - The Intent user API plus the host runtime ----===//
//
// Everything a program that calls [[intent::kernel]] functions needs: the
// user API (intent.hpp), owning arrays (intent::array) and the runtime's host
// API (intent::rt::mode, launch_count, synchronize, error). Needs the
// runtime's include directory, which intentc and intent_add_executable put
// on the include path, and libintent_runtime at link time.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_RUNTIME_HPP
#define INTENT_RUNTIME_HPP

#include "intent/array.hpp"
#include "intent/intent.hpp"
#include "intent/runtime/api.hpp"

#endif // INTENT_RUNTIME_HPP
