//===- intent/buffer.hpp - Fixed-size local arrays -----------------------===//
//
// intent::buffer<T, N> is a small array local to one iteration (registers or
// local memory in a kernel). Like a C array, a default-constructed buffer is
// uninitialized and must be written before it is read; buffer(value) fills
// it. Callable in CUDA device code.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_BUFFER_HPP
#define INTENT_BUFFER_HPP

#include "intent/core.hpp"

#include <cstddef>

namespace intent {

/// A local array of N elements of T, with value semantics.
template <class T, index N> class buffer {
  static_assert(N >= 1, "intent::buffer needs at least one element");

public:
  /// Uninitialized elements (for class types: default-constructed).
  buffer() = default;

  /// Every element equal to Value.
  INTENT_HD explicit buffer(const T &Value) {
    for (index I = 0; I < N; ++I)
      Elements[I] = Value;
  }

  /// Element I, 0 <= I < N.
  INTENT_HD T &operator[](index I) {
    INTENT_CHECK_INDEX(I, N, 0, "intent::buffer index out of bounds");
    return Elements[I];
  }
  /// Element I, 0 <= I < N.
  INTENT_HD const T &operator[](index I) const {
    INTENT_CHECK_INDEX(I, N, 0, "intent::buffer index out of bounds");
    return Elements[I];
  }

  /// The number of elements, N.
  INTENT_HD static constexpr index size() { return N; }

  /// The first element's address.
  INTENT_HD T *data() { return Elements; }
  /// The first element's address.
  INTENT_HD const T *data() const { return Elements; }

private:
  T Elements[static_cast<std::size_t>(N)];
};

} // namespace intent

#endif // INTENT_BUFFER_HPP
