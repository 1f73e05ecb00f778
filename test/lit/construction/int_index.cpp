// Integer index types (issue 15, item 15): a parallel_for index declared as
// int, unsigned, short or long (and an int reduce index) analyses like
// intent::index. The conversion of the instance coordinate to the narrower
// type is the coordinate itself when the extent fits the type: the program
// records that precondition (launch_check) and the generated launcher
// raises intent::rt::error before the kernel runs when it does not hold.
// Accesses that really conflict stay serialized.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %intent_syntax %s -fplugin-arg-intent-remarks 2>&1 | FileCheck %s --check-prefix=REM
// RUN: %intent_syntax %s -fplugin-arg-intent-dump=phys 2>/dev/null | FileCheck %s --check-prefix=PHYS
// RUN: %intent_syntax %s -fplugin-arg-intent-out=%t 2>/dev/null
// RUN: FileCheck %s --check-prefix=CU < %t/int_index.kernels.cu

#include <intent/intent.hpp>
using namespace intent;

// REM-DAG: int_index.cpp:20:3: remark: group 0: parallel over [(i64)n]
// REM-DAG: int_index.cpp:20:3: remark: index 0 of the parallel_for at 20:3 is converted to i32: analysed as the index itself; the launch checks that its extent (i64)n is at most 2147483648
[[intent::kernel]] void saxpy(view<float, 1> y, view<const float, 1> x, float a, int n) {
  parallel_for(n, [&](int i) { y[i] = a * x[i] + y[i]; });
}
// PHYS-LABEL: program @saxpy
// PHYS: launch_check e{{[0-9]+}} <= 2147483648 (index i32)
// CU-LABEL: void __intent_launch_{{.*}}saxpy
// CU: > INT64_C(2147483648))
// CU-NEXT: ::intent::rt::detail::fail(std::string("kernel 'saxpy' ({{.*}}int_index.cpp:19): the parallel_for at 20:3 has ") + std::to_string({{.*}}) + " iterations, more than its index type int32_t can number (2147483648): use intent::index (or a wider integer) for the index");

// REM-DAG: int_index.cpp:30:3: remark: group 0: parallel over [y.extent(0)]
[[intent::kernel]] void shift(view<int, 1> y, view<const int, 1> x) {
  parallel_for(y.extent(0), [&](unsigned i) { y[i] = x[i] + i; });
}
// PHYS-LABEL: program @shift
// PHYS: launch_check e{{[0-9]+}} <= 4294967296 (index u32)

// REM-DAG: int_index.cpp:37:3: remark: group 0: parallel over [y.extent(0)]
[[intent::kernel]] void neg(view<int, 1> y, view<const int, 1> x) {
  parallel_for(y.extent(0), [&](short i) { y[i] = -x[i]; });
}
// PHYS-LABEL: program @neg
// PHYS: launch_check e{{[0-9]+}} <= 32768 (index i16)

// A long index is not narrower than intent::index: no check.
// REM-DAG: int_index.cpp:45:3: remark: group 0: parallel over [y.extent(0)]
[[intent::kernel]] void copy_long(view<int, 1> y, view<const int, 1> x) {
  parallel_for(y.extent(0), [&](long i) { y[i] = x[i]; });
}
// PHYS-LABEL: program @copy_long
// PHYS-NOT: launch_check
// PHYS: total

// 2-D with int indices (and int arithmetic on them): one check per extent.
// REM-DAG: int_index.cpp:54:3: remark: group 0: parallel over [c.extent(0), c.extent(1)]
[[intent::kernel]] void add2(view<float, 2> c, view<const float, 2> a) {
  parallel_for(c.extent(0), c.extent(1), [&](int i, int j) {
    c(i, j) = a(i, j) + a(i + 1, j - 1);
  });
}
// PHYS-LABEL: program @add2
// PHYS: launch_check e{{[0-9]+}} <= 2147483648 (index i32)
// PHYS: launch_check e{{[0-9]+}} <= 2147483648 (index i32)

// A reduce with an int index and an int loop counter inside a parallel_for
// over int rows.
// REM-DAG: int_index.cpp:66:3: remark: group 0: parallel over [out.extent(0)]
[[intent::kernel]] void rows(view<float, 1> out, view<float, 2> scratch, view<const float, 2> a) {
  parallel_for(out.extent(0), [&](int i) {
    out[i] = reduce(a.extent(1), 0.0f, ops::plus{}, [&](int k) { return a(i, k); });
    for (int k = 0; k < a.extent(1); ++k)
      scratch(i, k) = a(i, k) * 2.0f;
  });
}

// An in-place stencil with an int index still conflicts across instances.
// REM-DAG: int_index.cpp:76:3: remark: group 0: serialized into a single instance: parallel_for at 76:3: write to y(i0) at {{.*}} may conflict with read of y(i0 + 1)
[[intent::kernel]] void stencil(view<float, 1> y) {
  parallel_for(y.extent(0) - 1, [&](int i) { y[i] = y[i + 1]; });
}
// REM-DAG: int_index.cpp:20:3: remark: widen: each program owns chunks of 4
// REM-DAG: int_index.cpp:37:3: remark: index 0 of the parallel_for at 37:3 is converted to i16: analysed as the index itself; the launch checks that its extent y.extent(0) is at most 32768
// REM-DAG: int_index.cpp:54:3: remark: index 1 of the parallel_for at 54:3 is converted to i32
