// Kernels in a library target (intent_target_sources on add_library): the
// library's host function calls the kernel; lib_main.cpp links the library.
#include <intent/intent.hpp>

#include "lib_kernels.h"

[[intent::kernel]] void lib_scale(intent::view<float, 1> y, float a) {
  intent::parallel_for(y.extent(0), [&](intent::index i) { y[i] = a * y[i]; });
}

void scale_all(intent::view<float, 1> y, float a) { lib_scale(y, a); }
