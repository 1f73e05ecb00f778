//===- intent/view.hpp - Non-owning strided multi-dimensional views ------===//
//
// intent::view<T, R> is a pointer plus R runtime extents and R runtime
// strides (in elements). Element (i_0, ..., i_{R-1}) lives at
// data()[sum_d i_d * stride(d)]. Sub-views (slice, row, transpose, reshape,
// broadcast, expand) only rewrite the pointer, extents and strides, so any
// chain of them composes into one affine coordinate relation over the
// original allocation. The Intent plugin recognises these members by name on
// class intent::view; each is a small non-virtual inline function, callable on
// the host and in CUDA device code.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_VIEW_HPP
#define INTENT_VIEW_HPP

#include "intent/core.hpp"

#include <array>
#include <cstddef>
#include <type_traits>

namespace intent {
namespace detail {

/// The elements of a std::array, readable in CUDA device code: there
/// std::array's accessors are constexpr host functions, which need
/// --expt-relaxed-constexpr, so read its only member (a T[N]) directly.
template <class T, std::size_t N>
INTENT_HD const T *arrayData(const std::array<T, N> &A) {
#if defined(__CUDA_ARCH__)
  static_assert(sizeof(std::array<T, N>) == N * sizeof(T),
                "std::array must be a plain T[N]");
  return reinterpret_cast<const T *>(&A);
#else
  return A.data();
#endif
}

} // namespace detail

/// A non-owning view of a rank-R strided array of T. Copying a view copies
/// the handle, never the elements; element access is const on the view and
/// yields T& (use view<const T, R> for read-only access). Coordinates must lie
/// in [0, extent(d)); host builds assert it unless NDEBUG.
template <class T, int R> class view {
  static_assert(R >= 1, "intent::view needs rank >= 1");
  /// R as an array bound.
  static constexpr std::size_t Dims = static_cast<std::size_t>(R);

public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;
  /// The number of coordinates.
  static constexpr int rank = R;

  /// An empty view: null data, all extents and strides 0.
  INTENT_HD view() : Data(nullptr) {
    for (int D = 0; D < R; ++D) {
      Extents[D] = 0;
      Strides[D] = 0;
    }
  }

  /// A row-major contiguous view: the last dimension has stride 1 and
  /// stride(d) = stride(d + 1) * extent(d + 1).
  INTENT_HD view(T *Ptr, const std::array<index, Dims> &Ext) : Data(Ptr) {
    const index *E = detail::arrayData(Ext);
    index Stride = 1;
    for (int D = R - 1; D >= 0; --D) {
      Extents[D] = E[D];
      Strides[D] = Stride;
      Stride *= E[D];
    }
  }

  /// A view with explicit strides, in elements (not bytes). Strides may be
  /// zero (broadcast) or negative (reversed traversal).
  INTENT_HD view(T *Ptr, const std::array<index, Dims> &Ext,
                 const std::array<index, Dims> &Str)
      : Data(Ptr) {
    const index *E = detail::arrayData(Ext);
    const index *S = detail::arrayData(Str);
    for (int D = 0; D < R; ++D) {
      Extents[D] = E[D];
      Strides[D] = S[D];
    }
  }

  /// view<T, R> converts implicitly to view<const T, R>.
  template <class U, class = std::enable_if_t<std::is_same<const U, T>::value &&
                                              !std::is_same<U, T>::value>>
  INTENT_HD view(const view<U, R> &Other) : Data(Other.Data) {
    for (int D = 0; D < R; ++D) {
      Extents[D] = Other.Extents[D];
      Strides[D] = Other.Strides[D];
    }
  }

  /// The number of coordinates along dimension Dim.
  INTENT_HD index extent(int Dim) const { return Extents[Dim]; }
  /// The distance in elements between neighbours along dimension Dim.
  INTENT_HD index stride(int Dim) const { return Strides[Dim]; }
  /// The address of element (0, ..., 0).
  INTENT_HD T *data() const { return Data; }
  /// The number of elements (product of the extents).
  INTENT_HD index size() const {
    index N = 1;
    for (int D = 0; D < R; ++D)
      N *= Extents[D];
    return N;
  }
  /// True when some extent is 0.
  INTENT_HD bool empty() const { return size() == 0; }

  /// True when the view is row-major contiguous: the elements are exactly
  /// data()[0 .. size()), in row-major order. Dimensions of extent 1 may have
  /// any stride; an empty view is contiguous.
  INTENT_HD bool is_contiguous() const {
    if (empty())
      return true;
    index Expected = 1;
    for (int D = R - 1; D >= 0; --D) {
      if (Extents[D] != 1 && Strides[D] != Expected)
        return false;
      Expected *= Extents[D];
    }
    return true;
  }

  /// The element at coordinates (I_0, ..., I_{R-1}):
  /// data()[sum_d I_d * stride(d)].
  template <class... Is> INTENT_HD T &operator()(Is... I) const {
    static_assert(sizeof...(Is) == R, "view::operator() takes rank indices");
    static_assert((std::is_integral<Is>::value && ...),
                  "view::operator() takes integral indices");
    const index Coords[Dims] = {static_cast<index>(I)...};
    index Offset = 0;
    for (int D = 0; D < R; ++D) {
      INTENT_CHECK_INDEX(Coords[D], Extents[D], D,
                         "intent::view index out of bounds");
      Offset += Coords[D] * Strides[D];
    }
    return Data[Offset];
  }

  /// The element at I of a rank-1 view: data()[I * stride(0)].
  INTENT_HD T &operator[](index I) const {
    static_assert(R == 1, "view::operator[] needs rank 1; use v(i, j, ...)");
    INTENT_CHECK_INDEX(I, Extents[0], 0, "intent::view index out of bounds");
    return Data[I * Strides[0]];
  }

  /// The same view narrowed to coordinates [Sub.begin, Sub.end) along Dim;
  /// coordinate c of the result is coordinate Sub.begin + c of this view.
  /// Requires 0 <= Sub.begin <= Sub.end <= extent(Dim).
  INTENT_HD view slice(int Dim, range Sub) const {
    INTENT_ASSERT(Dim >= 0 && Dim < R, "view::slice dimension out of range");
    INTENT_ASSERT(Sub.begin >= 0 && Sub.begin <= Sub.end &&
                      Sub.end <= Extents[Dim],
                  "view::slice range out of bounds");
    view Result = *this;
    Result.Data = Data + Sub.begin * Strides[Dim];
    Result.Extents[Dim] = Sub.end - Sub.begin;
    return Result;
  }

  /// The rank R-1 view with the first coordinate fixed to I:
  /// row(I)(j, ...) is (*this)(I, j, ...).
  template <int RR = R> INTENT_HD view<T, RR - 1> row(index I) const {
    static_assert(RR == R && R >= 2, "view::row needs rank >= 2");
    INTENT_CHECK_INDEX(I, Extents[0], 0, "view::row index out of bounds");
    view<T, R - 1> Result;
    Result.Data = Data + I * Strides[0];
    for (int D = 1; D < R; ++D) {
      Result.Extents[D - 1] = Extents[D];
      Result.Strides[D - 1] = Strides[D];
    }
    return Result;
  }

  /// The view with dimensions D0 and D1 swapped (no data moves).
  INTENT_HD view transpose(int D0, int D1) const {
    INTENT_ASSERT(D0 >= 0 && D0 < R && D1 >= 0 && D1 < R,
                  "view::transpose dimension out of range");
    view Result = *this;
    Result.Extents[D0] = Extents[D1];
    Result.Strides[D0] = Strides[D1];
    Result.Extents[D1] = Extents[D0];
    Result.Strides[D1] = Strides[D0];
    return Result;
  }

  /// For rank 2: transpose()(j, i) is (*this)(i, j).
  INTENT_HD view transpose() const {
    static_assert(R == 2,
                  "view::transpose() needs rank 2; use transpose(d0, d1)");
    return transpose(0, 1);
  }

  /// The same elements, in the same row-major order, seen with new extents:
  /// the result is row-major contiguous over data(). Requires this view to be
  /// contiguous (is_contiguous()) and the element counts to match. Call as
  /// v.reshape<2>({m, n}) or v.reshape(std::array<index, 2>{m, n}).
  template <std::size_t R2>
  INTENT_HD view<T, static_cast<int>(R2)>
  reshape(const std::array<index, R2> &Ext) const {
    INTENT_ASSERT(is_contiguous(), "view::reshape needs a contiguous view");
    view<T, static_cast<int>(R2)> Result(Data, Ext);
    INTENT_ASSERT(Result.size() == size(),
                  "view::reshape must keep the number of elements");
    return Result;
  }

  /// Inserts a new dimension of extent N and stride 0 at position Dim
  /// (0 <= Dim <= R): the result has rank R+1 and
  /// broadcast(Dim, N)(i_0, ..., i_R) is (*this)(i_0, ..., i_R without i_Dim).
  /// E.g. for a bias b of extent n, b.broadcast(0, m) is an m x n view whose
  /// every row is b. All N copies alias one element: writing through a
  /// broadcast view from several coordinates is a data race in parallel code.
  template <int RR = R>
  INTENT_HD view<T, RR + 1> broadcast(int Dim, index N) const {
    static_assert(RR == R, "view::broadcast takes no template arguments");
    INTENT_ASSERT(Dim >= 0 && Dim <= R,
                  "view::broadcast dimension out of range");
    INTENT_ASSERT(N >= 0, "view::broadcast extent must be >= 0");
    view<T, R + 1> Result;
    Result.Data = Data;
    for (int D = 0, S = 0; D < R + 1; ++D) {
      if (D == Dim) {
        Result.Extents[D] = N;
        Result.Strides[D] = 0;
        continue;
      }
      Result.Extents[D] = Extents[S];
      Result.Strides[D] = Strides[S];
      ++S;
    }
    return Result;
  }

  /// Stretches dimension Dim, which must have extent 1, to extent N with
  /// stride 0 (NumPy's broadcast_to for one dimension): same rank, and
  /// expand(Dim, N)(..., i_Dim, ...) is (*this)(..., 0, ...).
  INTENT_HD view expand(int Dim, index N) const {
    INTENT_ASSERT(Dim >= 0 && Dim < R, "view::expand dimension out of range");
    INTENT_ASSERT(Extents[Dim] == 1, "view::expand needs extent 1");
    INTENT_ASSERT(N >= 0, "view::expand extent must be >= 0");
    view Result = *this;
    Result.Extents[Dim] = N;
    Result.Strides[Dim] = 0;
    return Result;
  }

private:
  template <class, int> friend class view;

  T *Data;
  index Extents[Dims];
  index Strides[Dims];
};

namespace detail {

/// `V` seen with element type U, another spelling of the same integer type
/// (view<long long, R> as view<int64_t, R>, view<char, R> as view<int8_t,
/// R>): generated launchers take the user's spelling and pass the standard
/// one to the kernel. Host only (launchers run on the host).
template <class U, class T, int R> view<U, R> view_as(const view<T, R> &V) {
  static_assert(sizeof(U) == sizeof(T), "view_as keeps the element size");
  std::array<index, static_cast<std::size_t>(R)> Ext, Str;
  for (int D = 0; D < R; ++D) {
    Ext[static_cast<std::size_t>(D)] = V.extent(D);
    Str[static_cast<std::size_t>(D)] = V.stride(D);
  }
  return view<U, R>(reinterpret_cast<U *>(V.data()), Ext, Str);
}

} // namespace detail

} // namespace intent

#endif // INTENT_VIEW_HPP
