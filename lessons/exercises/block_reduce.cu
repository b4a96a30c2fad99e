// EXERCISE (block-reduce): a copy of kernels/block_softmax.cu with one region left for you to write.
// The task and the hints: `softmaxlab-cli lab exercise --list`, or the viewer's Exercises.
// Check it: softmaxlab-cli lab exercise --check <id> --source <this file>.
//
// block: one block per row, values in registers, a two-level (warp, then block) reduction.
//
// The idea
//   When a row is too long for one warp's registers, spread it over a whole block. Shuffles
//   still do the heavy lifting inside each warp; only the 16 per-warp partials go through shared
//   memory, and one __syncthreads pair per reduction makes the result visible to everyone.
//
// What changed since warp
//   - 512 threads (16 warps) own a row instead of 32 lanes, so 16x more registers hold it.
//   - The reduction gains a second level: warp shuffle -> partials in shared memory -> warp 0
//     reduces the partials -> the result is broadcast through a shared variable.
//   - Each row now costs two block-wide barriers per reduction; for short rows that is pure
//     overhead, which is why the warp kernel wins below N = 1024.
//
// Valid N: 1 .. 16384
//   A 512-thread block may give each thread at most 65536 / 512 = 128 registers. A thread holds
//   up to 32 floats of the row (16384 = 512 x 32); ptxas (sm_90) fits that in 64 registers with
//   no spills, so two rows are in flight per SM. 64 floats per thread would need all 128
//   registers (ptxas: exactly 128, on the edge of spilling) and leave one block per SM, so
//   longer rows go to the shared-memory kernel instead.
//
// Predicted DRAM traffic: reads MN, writes MN elements.
//
// Special values: an all -inf row gives NaN (-inf - -inf); a NaN in a row makes the row NaN
// (exp(NaN) enters the sum). Some -inf entries with a finite max give exactly 0.
#ifndef __CUDACC_RTC__  // host side: NVRTC (the lab bench) compiles only the device code
#include <algorithm>

#include "kernels/kernel_api.h"
#include "kernels/softmax_common.cuh"
#endif
#include "kernels/softmax_device.cuh"

namespace sml {
namespace {

constexpr int kThreads = shapes::kBlockThreads;  // 512; a thread holds up to 32 floats

// @region block-reduce: level 1 shuffles inside each warp, level 2 through 16 shared partials
template <class Op>
__device__ float block_allreduce_two_level(float v, Op op) {
    __shared__ float warp_partial[kThreads / 32];
    __shared__ float broadcast;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
    for (int mask = 16; mask > 0; mask >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, mask));
    // TODO(exercise): level 2. Lane 0 of each warp stores its warp's result in warp_partial;
    // after a barrier, warp 0 reduces the kThreads / 32 partials and puts the result in
    // `broadcast`; after another barrier every thread returns it.
    (void)lane, (void)warp, (void)warp_partial, (void)broadcast;
    return v;
}
// @endregion block-reduce

template <int kPacks, int kPack>
__global__ void __launch_bounds__(kThreads)
    block_softmax_kernel(const float* in, int64_t in_stride, float* out, int64_t out_stride,
                         int64_t rows, int64_t cols) {
    constexpr int kVals = kPacks * kPack;
    for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
        // @region load-row: pack p of thread t is pack p*512 + t; lanes past N hold -inf
        float v[kVals];
#pragma unroll
        for (int p = 0; p < kPacks; ++p) {
            const int64_t col = (int64_t(p) * kThreads + threadIdx.x) * kPack;
            if (col < cols) {
                const float* src = in + row * in_stride + col;
                if constexpr (kPack == 4) {
                    const float4 q = *reinterpret_cast<const float4*>(src);
                    v[p * 4 + 0] = q.x, v[p * 4 + 1] = q.y, v[p * 4 + 2] = q.z, v[p * 4 + 3] = q.w;
                } else {
                    v[p] = *src;
                }
            } else {
#pragma unroll
                for (int k = 0; k < kPack; ++k) v[p * kPack + k] = -INFINITY;
            }
        }
        // @endregion load-row

        // @region row-stats: max, then sum of exp(x - max), each one block-wide reduction
        float m = -INFINITY;
#pragma unroll
        for (int k = 0; k < kVals; ++k) m = fmaxf(m, v[k]);
        m = block_allreduce_two_level(m, detail::MaxOp{});
        float s = 0.f;
#pragma unroll
        for (int k = 0; k < kVals; ++k) {
            v[k] = expf(v[k] - m);
            s += v[k];
        }
        s = block_allreduce_two_level(s, detail::SumOp{});
        // @endregion row-stats

        // @region write-out: divide in registers and store with the load's layout
#pragma unroll
        for (int p = 0; p < kPacks; ++p) {
            const int64_t col = (int64_t(p) * kThreads + threadIdx.x) * kPack;
            if (col >= cols) continue;
            float* dst = out + row * out_stride + col;
            if constexpr (kPack == 4) {
                *reinterpret_cast<float4*>(dst) =
                    make_float4(v[p * 4] / s, v[p * 4 + 1] / s, v[p * 4 + 2] / s, v[p * 4 + 3] / s);
            } else {
                *dst = v[p] / s;
            }
        }
        // @endregion write-out
    }
}

}  // namespace

#ifndef __CUDACC_RTC__  // host side: the lab bench (NVRTC) compiles only the kernels above
namespace {

constexpr int64_t kMaxCols = shapes::kBlockMaxCols;  // 512 x 32 = 16384

using BlockKernel = void (*)(const float*, int64_t, float*, int64_t, int64_t, int64_t);

// @region register-budget: values per thread = next_pow2(N / 512), at most 32 (the register budget)
BlockKernel pick_kernel(int64_t cols, bool vec4) {
    const int64_t per_thread = detail::next_pow2(detail::ceil_div(cols, kThreads));  // 1 .. 32
    if (vec4 && per_thread >= 4) {
        switch (per_thread) {
            case 4:
                return block_softmax_kernel<1, 4>;
            case 8:
                return block_softmax_kernel<2, 4>;
            case 16:
                return block_softmax_kernel<4, 4>;
            default:
                return block_softmax_kernel<8, 4>;
        }
    }
    switch (per_thread) {
        case 1:
            return block_softmax_kernel<1, 1>;
        case 2:
            return block_softmax_kernel<2, 1>;
        case 4:
            return block_softmax_kernel<4, 1>;
        case 8:
            return block_softmax_kernel<8, 1>;
        case 16:
            return block_softmax_kernel<16, 1>;
        default:
            return block_softmax_kernel<32, 1>;
    }
}
// @endregion register-budget

}  // namespace

int block_plan(const LaunchArgs& a, std::vector<LaunchStep>* steps) {
    const SoftmaxProblem& p = a.problem;
    if (p.dtype != DType::f32 || p.rows < 1 || p.cols < 1 || p.cols > kMaxCols)
        return cudaErrorInvalidValue;
    const DeviceLimits lim = detail::effective_limits(a.limits);
    BlockKernel kernel = pick_kernel(p.cols, detail::float4_ok(p, a.in, a.out));
    const unsigned grid =
        detail::persistent_grid(reinterpret_cast<const void*>(kernel), kThreads, 0, lim, p.rows);
    steps->push_back(detail::make_step("block", kernel, dim3(grid), dim3(kThreads), 0,
                                       static_cast<const float*>(a.in), p.in_stride,
                                       static_cast<float*>(a.out), p.out_stride, p.rows, p.cols));
    return cudaSuccess;
}
#endif  // __CUDACC_RTC__

}  // namespace sml
