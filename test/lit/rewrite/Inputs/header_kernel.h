#include <intent/intent.hpp>

template <class T>
[[intent::kernel]] void header_fill(intent::view<T, 1> y, T v) {
  intent::parallel_for(y.extent(0), [&](intent::index i) { y[i] = v; });
}
