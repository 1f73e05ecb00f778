//===- bench/kernels/entry.hpp - Host entry points of the Intent kernels -===//
//
// Each bench/kernels/<name>.cpp defines one [[intent::kernel]] (written as a
// user would) and the matching function below, which wraps raw device
// pointers into views and calls the kernel: the Intent compiler rewrites that
// call into a launch on the runtime's stream. The driver (bench/bench.cu)
// calls only these functions, so it never depends on generated names. A
// kernel whose generation failed is simply absent from the build (its
// BENCH_HAVE_<NAME> macro is not defined) and the driver skips it.
//
// This header is plain C++: it is read by the plugin (phase 1), the host
// compiler and nvcc alike.
//
//===----------------------------------------------------------------------===//

#ifndef INTENT_BENCH_ENTRY_HPP
#define INTENT_BENCH_ENTRY_HPP

namespace bench_entry {

/// y = a * x + y over n floats.
void saxpy(float *y, const float *x, float a, long long n);
/// Row softmax of a rows x cols row-major matrix.
void softmax(float *out, const float *in, long long rows, long long cols);
/// The same, compiled with intentc --fast-math.
void softmax_fast(float *out, const float *in, long long rows, long long cols);
/// Layer normalization forward of each row (population variance).
void layernorm(float *y, const float *x, const float *gamma, const float *beta,
               float eps, long long rows, long long cols);
/// out[0] = sum of x[0..n).
void sum(float *out, const float *x, long long n);
/// value[0], pos[0] = the largest x and its first position (NaN wins).
void argmax(float *value, long long *pos, const float *x, long long n);
/// y[k] = x[0] + ... + x[k].
void inclusive_scan(float *y, const float *x, long long n);
/// The same over 32-bit integers.
void scan_i32(int *y, const int *x, long long n);
/// h[k] = a[k] h[k - 1] + b[k] (h[-1] = 0) with x[2k] = a[k], x[2k + 1] =
/// b[k]: a scan with a user combine (composition of affine maps).
void scan_affine(float *y, const float *x, long long n);
/// Stream compaction: out[0 .. c) = the x[i] > 0 in order, count[0] = c.
void compact(float *out, long long *count, const float *x, long long n);
/// y[r] = sum of x[offsets[r] .. offsets[r + 1]) for r in [0, rows); x holds
/// n = offsets[rows] elements.
void segmented_sum(float *y, const int *offsets, const float *x,
                   long long rows, long long n);
/// bins[b] += |{i : int(x[i] * nbins) == b}| for the nbins bins.
void histogram_even(int *bins, const float *x, long long n, long long nbins);
/// Softmax over the last axis of a b x r x n row-major tensor.
void softmax3(float *out, const float *in, long long b, long long r,
              long long n);
/// p = a u and q = b v (rows x cols row-major matrices), in one kernel.
void mv2(float *p, float *q, const float *a, const float *u, const float *b,
         const float *v, long long rows, long long cols);
/// out[j] = sum over i of a[i][j] (rows x cols row-major).
void colsum(float *out, const float *a, long long rows, long long cols);
/// RMSNorm of each row of x (bfloat16 bits) with weight w, f32 math.
void rmsnorm_bf16(unsigned short *y, const unsigned short *x,
                  const unsigned short *w, long long rows, long long cols,
                  float eps);
/// Row softmax of x (bfloat16 bits), f32 math, written back as bfloat16.
void softmax_bf16(unsigned short *y, const unsigned short *x, long long rows,
                  long long cols);
/// y = exp(x - 1) / sum(exp(x - 1)): one kernel (dependent phases).
void phases_one(float *y, const float *x, long long n);
/// The same as two kernels (s[0] = the sum, then y); s is one float.
void phases_two(float *y, float *s, const float *x, long long n);
/// out[j][i] = a[i][j]: a is rows x cols, out cols x rows (row-major).
void transpose(float *out, const float *a, long long rows, long long cols);
/// out[b][j][i] = x[b][i][j]: x is b x n x m, out b x m x n (row-major).
void permute3(float *out, const float *x, long long b, long long n,
              long long m);
/// out[i][j] = 0.2 * (a[i][j] and its four neighbours, zero outside the
/// n x m row-major matrix).
void stencil(float *out, const float *a, long long n, long long m);
/// out[i] = sum over j of a[i][j] (rows x cols row-major).
void rowsum(float *out, const float *a, long long rows, long long cols);
/// y[i][j] = x[i][0] + ... + x[i][j] (rows x cols row-major).
void rowcumsum(float *y, const float *x, long long rows, long long cols);
/// out[i] = |p(i, :)|: the norm of each point of an n x 3 array.
void norms3(float *out, const float *p, long long n);

} // namespace bench_entry

#endif // INTENT_BENCH_ENTRY_HPP
