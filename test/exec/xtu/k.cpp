// The kernels of the cross-TU test; main.cpp calls them.
#include "k.h"

using intent::index;
using intent::parallel_for;
using intent::view;

[[intent::kernel]] void axpy(view<float, 1> y, view<const float, 1> x,
                             float a) {
  parallel_for(y.extent(0), [&](index i) { y[i] = a * x[i] + y[i]; });
}

[[intent::kernel]] void scale_rows(view<float, 2> m, view<const float, 1> s) {
  parallel_for(m.extent(0), m.extent(1),
               [&](index i, index j) { m(i, j) = m(i, j) * s[i]; });
}

namespace lib {
[[intent::kernel]] void fill(view<int, 1> y, int v) {
  parallel_for(y.extent(0), [&](index i) { y[i] = v; });
}
} // namespace lib

template <class T>
[[intent::kernel]] void add_one(view<T, 1> y) {
  parallel_for(y.extent(0), [&](index i) { y[i] = y[i] + T(1); });
}
template void add_one<float>(view<float, 1>);
template void add_one<int>(view<int, 1>);

static void helper_count(); // a plain static function, untouched

[[intent::kernel]] static void twice_static(view<int, 1> y) {
  parallel_for(y.extent(0), [&](index i) { y[i] = 2 * y[i]; });
}

namespace {
[[intent::kernel]] void plus_three(view<int, 1> y) {
  parallel_for(y.extent(0), [&](index i) { y[i] = y[i] + 3; });
}
} // namespace

void twice_local(view<int, 1> y) {
  twice_static(y);
  plus_three(y);
  helper_count();
}

static void helper_count() {}
