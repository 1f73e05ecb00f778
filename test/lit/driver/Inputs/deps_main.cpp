// A kernel whose source includes a local header (test/lit/driver/deps.test).
#include "deps_local.h"
#include <intent/intent.hpp>

[[intent::kernel]] void scale(intent::view<float, 1> y) {
  intent::parallel_for(y.extent(0),
                       [&](intent::index i) { y[i] = DEPS_SCALE * y[i]; });
}

void host(intent::view<float, 1> y) { scale(y); }
