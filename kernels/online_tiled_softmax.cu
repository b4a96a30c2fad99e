// online_tiled: the seeds' 2-D tiled form of online softmax (FlashAttention-style tiles).
//
// The idea
//   The same (max, sum) merge rule as online_softmax.cu, organised the way FlashAttention tiles
//   its score matrix: a block is a TILE x TILE grid of threads covering TILE rows and a window of
//   TILE columns. For each column tile, the TILE threads of a row compute (tile_max, tile_sum)
//   together in ONE tree reduction over shared memory - at each step the larger max wins and the
//   other side's sum is rescaled by exp(smaller - larger). The tile's pair is then merged into the
//   row's running (per_max, per_sum) with the very same rule:
//       sum e^(x - C) = (sum e^(x - C_old)) * e^(C_old - C).
//   After the last tile, a second pass writes exp(x - per_max) / per_sum.
//
// What changed since online
//   Nothing in the arithmetic; the difference is the shape. online streams a whole row per
//   thread and merges once at the end. Here the merge happens per tile, through shared memory,
//   with a barrier per tree level - the form that generalises to attention, where each tile of
//   scores is produced on the fly and cannot be streamed twice. As a standalone softmax it pays
//   log2(TILE) barriers per 32 columns, so expect it to be slower than online; it is kept because
//   it is the bridge from softmax to FlashAttention.
//
// Valid N: any N >= 1 (rows in groups of TILE = 32 per block; blocks grid-stride over them).
//   It needs many rows to fill the GPU: M = 256 makes only 8 blocks. On an H100 (1 GiB fp32)
//   that measured ~640 GB/s at N = 1024 (M = 262144) but ~28 GB/s at N = 2^20 (M = 256).
//
// Predicted DRAM traffic: reads 2MN, writes MN elements.
//
// Special values: an all -inf row gives NaN (per_max stays -inf, exp(-inf - -inf) is NaN); a NaN
// in a row makes the row NaN (its pair is (NaN, NaN), which poisons the sum). -inf entries start
// as (-inf, 0), so they add nothing to a row with a finite max.
#ifndef __CUDACC_RTC__  // host side: NVRTC (the lab bench) compiles only the device code
#include <algorithm>

#include "kernels/kernel_api.h"
#include "kernels/softmax_common.cuh"
#endif
#include "kernels/softmax_device.cuh"

namespace sml {
namespace {

constexpr int kTile = shapes::kTile;  // TILE x TILE = 1024 threads: 32 rows x 32 columns per step

struct MaxSum {
    float m, s;
};

// @region tile-merge: the rescale rule - keep the larger max, rescale the other side's sum
__device__ __forceinline__ MaxSum merge(MaxSum a, MaxSum b) {
    const float m = fmaxf(a.m, b.m);
    if (m == -INFINITY) return {m, a.s + b.s};  // nothing but -inf so far (or NaN, kept in s)
    return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};
}
// @endregion tile-merge

// The pair one element contributes on its own: (x, 1), except -inf adds nothing and NaN
// must survive every merge (fmaxf would drop a NaN max, so it travels in s).
__device__ __forceinline__ MaxSum leaf(float x) {
    if (isnan(x)) return {x, x};
    return {x, x == -INFINITY ? 0.f : 1.f};
}

__global__ void __launch_bounds__(kTile* kTile)
    online_tiled_softmax_kernel(const float* in, int64_t in_stride, float* out, int64_t out_stride,
                                int64_t rows, int64_t cols) {
    __shared__ MaxSum tile[kTile][kTile];
    __shared__ MaxSum row_stats[kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    // Every thread runs the same loops (bounds depend only on blockIdx, rows and cols), so all
    // of them reach every __syncthreads; rows past the end just carry -inf.
    for (int64_t base = int64_t(blockIdx.x) * kTile; base < rows;
         base += int64_t(gridDim.x) * kTile) {
        const int64_t row = base + ty;
        const bool active = row < rows;
        const float* x = in + row * in_stride;

        // @region running-stats: walk the row one TILE-wide column tile at a time
        MaxSum running{-INFINITY, 0.f};  // meaningful in the tx == 0 thread of each row
        for (int64_t c0 = 0; c0 < cols; c0 += kTile) {
            const int64_t c = c0 + tx;
            tile[ty][tx] = leaf(active && c < cols ? x[c] : -INFINITY);
            __syncthreads();
            // @endregion running-stats

            // @region tree-reduce: (tile_max, tile_sum) of TILE values in log2(TILE) merge steps
            for (int stride = kTile / 2; stride > 0; stride >>= 1) {
                if (tx < stride) tile[ty][tx] = merge(tile[ty][tx], tile[ty][tx + stride]);
                __syncthreads();
            }
            if (tx == 0) running = merge(running, tile[ty][0]);
            __syncthreads();  // tile[] is overwritten by the next column tile
            // @endregion tree-reduce
        }
        if (tx == 0) row_stats[ty] = running;
        __syncthreads();
        const MaxSum st = row_stats[ty];

        // @region write-out: the second read of the row, normalised with the merged statistics
        if (active) {
            float* y = out + row * out_stride;
            for (int64_t c = tx; c < cols; c += kTile) y[c] = expf(x[c] - st.m) / st.s;
        }
        __syncthreads();  // row_stats[] is rewritten for the next group of rows
        // @endregion write-out
    }
}

}  // namespace

#ifndef __CUDACC_RTC__  // host side: the lab bench (NVRTC) compiles only the kernels above
int online_tiled_plan(const LaunchArgs& a, std::vector<LaunchStep>* steps) {
    const SoftmaxProblem& p = a.problem;
    if (p.dtype != DType::f32 || p.rows < 1 || p.cols < 1) return cudaErrorInvalidValue;
    const DeviceLimits lim = detail::effective_limits(a.limits);
    const unsigned grid =
        detail::persistent_grid(reinterpret_cast<const void*>(online_tiled_softmax_kernel),
                                kTile * kTile, 0, lim, detail::ceil_div(p.rows, kTile));
    steps->push_back(detail::make_step("online_tiled", online_tiled_softmax_kernel, dim3(grid),
                                       dim3(kTile, kTile), 0, static_cast<const float*>(a.in),
                                       p.in_stride, static_cast<float*>(a.out), p.out_stride,
                                       p.rows, p.cols));
    return cudaSuccess;
}
#endif  // __CUDACC_RTC__

}  // namespace sml
