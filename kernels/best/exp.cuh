// best's arithmetic: exp on the special-function unit, one exp per element, and the (max, sum)
// pairs every reduction merges.
#pragma once

#include <type_traits>

#include "kernels/best/packs.cuh"

namespace sml {
namespace best {

constexpr float kLog2e = 1.4426950408889634f;

// 2^x on the special-function unit (MUFU.EX2), results below 2^-126 flushed to zero. exp2f keeps
// those denormals with a range check and two multiplies around every call; a softmax output that
// small is zero to any tolerance, and fp16/bf16 rows are short of instruction issue.
__device__ __forceinline__ float ex2(float x) {
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

// @region one-exp: each value's exponential is computed once and kept where the value was
// The on-chip kernels hold the row, so they take the max first, then replace every value by
// exp(x - max) *in its register* while summing, and the output is that times one factor:
//     exp(x - row_max) / row_sum = exp(x - m) * [exp(m - row_max) / row_sum]
// for any m (here the thread's or the group's max). One MUFU.EX2 per element instead of two:
// an fp16 pack holds 8 values, and with two exps each an fp16 row ran out of instruction issue
// before it ran out of bandwidth. For fp16/bf16 the exps are stored rounded to the dtype, which
// the output is anyway (one more rounding: still within tolerance_for(dtype)), fp16's scaled to
// stay clear of its subnormals (exp_in_place).

// The max of a pack. fp16/bf16 compare in pairs (HMNMX2: a max is exact in any format), then
// widen two values instead of eight. NaN is skipped, as fmaxf does; the sum catches it.
template <typename T>
__device__ __forceinline__ float pack_max(float m, uint4 raw) {
    float x[Vec<T>::kSize];
    unpack<T>(raw, x);
#pragma unroll
    for (int k = 0; k < Vec<T>::kSize; ++k) m = fmaxf(m, x[k]);
    return m;
}
template <typename H2>
__device__ __forceinline__ float pair_max(float m, uint4 raw) {
    const H2* h = reinterpret_cast<const H2*>(&raw);
    const H2 p = __hmax2(__hmax2(h[0], h[1]), __hmax2(h[2], h[3]));
    return fmaxf(m, fmaxf(__low2float(p), __high2float(p)));
}
template <>
__device__ __forceinline__ float pack_max<__half>(float m, uint4 raw) {
    return pair_max<__half2>(m, raw);
}
template <>
__device__ __forceinline__ float pack_max<__nv_bfloat16>(float m, uint4 raw) {
    return pair_max<__nv_bfloat162>(m, raw);
}

// The shift for a thread's exps: its max, or 0 while every value it holds is -inf.
__device__ __forceinline__ float sum_shift(float m) {
    return m == kNegInf ? 0.0f : m;
}

// Replaces each value x of the pack by exp(x - shift) and returns s plus their sum.
// fp16 keeps its exps times 2^15: fp16 is normal only down to 2^-14, and an exp stored below
// that would lose relative precision that the sum (taken in fp32) does not. Scaled, exps stay
// normal down to e^-20, and the largest is 32768. The sum carries the same factor, and every
// kernel divides the exps by their own sum, so it cancels; it costs an FFMA for the FMUL. A
// safeguard for rows with a wide spread in one thread's values. bf16 has fp32's range.
template <typename T>
__device__ __forceinline__ float exp_in_place(uint4& raw, float shift, float s) {
    constexpr float kBias = std::is_same_v<T, __half> ? 15.0f : 0.0f;  // log2 of the scale
    float x[Vec<T>::kSize];
    unpack<T>(raw, x);
#pragma unroll
    for (int k = 0; k < Vec<T>::kSize; ++k) {
        if constexpr (kBias != 0.0f)
            x[k] = ex2(fmaf(x[k] - shift, kLog2e, kBias));
        else
            x[k] = ex2((x[k] - shift) * kLog2e);
        s += x[k];
    }
    raw = pack<T>(x);
    return s;
}

// An exp pack times the row's factor: the output values.
template <typename T>
__device__ __forceinline__ void scale_pack(uint4 raw, float factor, float (&y)[Vec<T>::kSize]) {
    unpack<T>(raw, y);
#pragma unroll
    for (int k = 0; k < Vec<T>::kSize; ++k) y[k] *= factor;
}

// A running (max, sum) per thread, updated as each pack arrives (the two-pass kernel), and the
// (max, sum) pairs the reductions merge. Step 6's merge rule: the exponentials are summed while
// later packs are still on their way from DRAM, so when the last pack lands only one reduction of
// (max, sum) pairs is left -- one round through the cluster instead of one for the max and another
// for the sum.
// Special values follow torch.softmax: an all -inf row has max -inf and sum 0, and its output
// exp(-inf - (-inf)) is NaN; a NaN anywhere reaches the sum and makes the row NaN.
struct MaxSum {
    float m, s;
};

// The factor that turns exp(x - m), m the thread's max, into the output exp(x - row.m) / row.s.
// A thread holding only -inf has shift 0 and exps of 0: factor 0, except in an all -inf row,
// where 1 / sum is inf and 0 * inf makes the row NaN, as torch.softmax does.
__device__ __forceinline__ float output_factor(float m, MaxSum row) {
    const float inv = 1.0f / row.s;
    return m == kNegInf ? 0.0f * inv : ex2((m - row.m) * kLog2e) * inv;
}

// A thread's max over the packs it holds (live(p)), then exp(x - max) in place of every value,
// and their sum.
template <typename T, int PACKS, class Live>
__device__ __forceinline__ MaxSum thread_exps(uint4 (&x)[PACKS], Live live) {
    float m = kNegInf;
#pragma unroll
    for (int p = 0; p < PACKS; ++p)
        if (live(p)) m = pack_max<T>(m, x[p]);
    const float shift = sum_shift(m);
    float s = 0.0f;
#pragma unroll
    for (int p = 0; p < PACKS; ++p)
        if (live(p)) s = exp_in_place<T>(x[p], shift, s);
    return MaxSum{m, s};
}
// @endregion one-exp

// A running (max, sum) per thread, one value at a time (the two-pass kernel's first read, the
// held grid's rows): step 6's merge rule.
__device__ __forceinline__ void absorb(MaxSum& acc, const float* x, int n) {
    float pm = acc.m;
    for (int k = 0; k < n; ++k) pm = fmaxf(pm, x[k]);  // fmaxf skips NaN; the sum catches it
    if (pm > acc.m) {  // rescale what is summed so far to the new max (0 if it was empty)
        acc.s *= ex2((acc.m - pm) * kLog2e);
        acc.m = pm;
    }
    const float shift = sum_shift(acc.m);  // all -inf so far: avoid -inf - -inf
    for (int k = 0; k < n; ++k) acc.s += ex2((x[k] - shift) * kLog2e);
}

template <typename T>
__device__ __forceinline__ void absorb_pack(MaxSum& acc, uint4 raw) {
    float x[Vec<T>::kSize];
    unpack<T>(raw, x);
    absorb(acc, x, Vec<T>::kSize);
}

// The normalised pack from raw input (the two-pass kernel's second read, the held grid's store):
// exp(x - m) / sum, as exp2((x - m) * log2(e)) times one reciprocal.
template <typename T>
__device__ __forceinline__ void normalise(uint4 raw, float m, float inv,
                                          float (&y)[Vec<T>::kSize]) {
    unpack<T>(raw, y);
#pragma unroll
    for (int k = 0; k < Vec<T>::kSize; ++k) y[k] = ex2((y[k] - m) * kLog2e) * inv;
}

}  // namespace best
}  // namespace sml
