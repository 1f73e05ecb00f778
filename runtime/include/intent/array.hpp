//===- intent/array.hpp - Owning arrays in the execution mode's memory ---===//
//
// intent::array<T> owns a 1-D allocation that kernels of the current
// execution mode can access: device memory in gpu mode, host memory in cpu
// and reference modes. Views of it are what kernel calls take. Free of CUDA
// headers: every device operation goes through libintent_runtime.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_ARRAY_HPP
#define INTENT_ARRAY_HPP

#include "intent/core.hpp"
#include "intent/runtime/api.hpp"
#include "intent/view.hpp"

#include <string>
#include <type_traits>
#include <vector>

namespace intent {

/// An owning, movable, non-copyable array of N elements of T in the memory
/// of the current execution mode (intent::rt::mode()). data() is a device
/// pointer in gpu mode: read the elements on the host with to_vector().
template <class T> class array {
  static_assert(std::is_trivially_copyable<T>::value,
                "intent::array needs a trivially copyable element type");
  static_assert(!std::is_const<T>::value && !std::is_volatile<T>::value,
                "intent::array needs an unqualified element type");

public:
  using value_type = T;

  /// An empty array (size 0, null data).
  array() = default;

  /// N zero-filled elements (all bits zero). Requires N >= 0.
  explicit array(index N) : Size(N) {
    if (N < 0)
      rt::detail::fail("array size must be >= 0, got " + std::to_string(N));
    Data = static_cast<T *>(rt::detail::allocate(bytes()));
  }

  /// A copy of Values.
  explicit array(const std::vector<T> &Values)
      : array(static_cast<index>(Values.size())) {
    rt::detail::copy_to_mode(Data, Values.data(), bytes());
  }

  array(const array &) = delete;
  array &operator=(const array &) = delete;

  /// Takes Other's allocation; Other becomes empty.
  array(array &&Other) noexcept : Data(Other.Data), Size(Other.Size) {
    Other.Data = nullptr;
    Other.Size = 0;
  }

  /// Frees this array's allocation and takes Other's; Other becomes empty.
  array &operator=(array &&Other) noexcept {
    if (this != &Other) {
      rt::detail::deallocate(Data);
      Data = Other.Data;
      Size = Other.Size;
      Other.Data = nullptr;
      Other.Size = 0;
    }
    return *this;
  }

  /// Waits for launches that may still use the memory, then frees it.
  ~array() { rt::detail::deallocate(Data); }

  /// The number of elements.
  index size() const { return Size; }
  /// The first element's address in mode memory (a device pointer in gpu
  /// mode); null when empty.
  T *data() const { return Data; }

  /// The rank-1 view of all elements.
  ::intent::view<T, 1> view() const {
    return ::intent::view<T, 1>(Data, {Size});
  }

  /// The row-major N0 x N1 view of all elements. Requires N0 * N1 == size().
  ::intent::view<T, 2> view(index N0, index N1) const {
    checkShape(N0 * N1, N0 >= 0 && N1 >= 0);
    return ::intent::view<T, 2>(Data, {N0, N1});
  }

  /// The row-major N0 x N1 x N2 view of all elements. Requires
  /// N0 * N1 * N2 == size().
  ::intent::view<T, 3> view(index N0, index N1, index N2) const {
    checkShape(N0 * N1 * N2, N0 >= 0 && N1 >= 0 && N2 >= 0);
    return ::intent::view<T, 3>(Data, {N0, N1, N2});
  }

  /// The elements, copied to the host after every earlier launch finished.
  std::vector<T> to_vector() const {
    std::vector<T> Result(static_cast<std::size_t>(Size));
    rt::detail::copy_from_mode(Result.data(), Data, bytes());
    return Result;
  }

  /// Overwrites every element with Values (after earlier launches). Requires
  /// Values.size() == size().
  void copy_from(const std::vector<T> &Values) {
    if (static_cast<index>(Values.size()) != Size)
      rt::detail::fail("array::copy_from: " + std::to_string(Values.size()) +
                       " values for an array of " + std::to_string(Size));
    rt::detail::copy_to_mode(Data, Values.data(), bytes());
  }

private:
  std::size_t bytes() const {
    return static_cast<std::size_t>(Size) * sizeof(T);
  }

  void checkShape(index Elements, bool NonNegative) const {
    if (!NonNegative || Elements != Size)
      rt::detail::fail("array::view: shape of " + std::to_string(Elements) +
                       " elements (or a negative extent) for an array of " +
                       std::to_string(Size));
  }

  T *Data = nullptr;
  index Size = 0;
};

} // namespace intent

#endif // INTENT_ARRAY_HPP
