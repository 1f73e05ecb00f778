// Cross-translation-unit kernel calls (issue 15 item 4): the kernels are
// defined in k.cpp and called from main.cpp through these declarations.
#ifndef XTU_K_H
#define XTU_K_H

#include <intent/intent.hpp>

/// Declared with the attribute.
[[intent::kernel]] void axpy(intent::view<float, 1> y,
                             intent::view<const float, 1> x, float a);

/// Declared without it: calls still launch (the definition dispatches).
void scale_rows(intent::view<float, 2> m, intent::view<const float, 1> s);

namespace lib {
[[intent::kernel]] void fill(intent::view<int, 1> y, int v);
} // namespace lib

/// A template defined in k.cpp and instantiated there explicitly.
template <class T>
[[intent::kernel]] void add_one(intent::view<T, 1> y);

/// Host code of k.cpp calling k.cpp's own static and internal kernels.
void twice_local(intent::view<int, 1> y);

#endif // XTU_K_H
