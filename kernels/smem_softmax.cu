// smem: the row cached in dynamic shared memory, in a layout with no bank conflicts.
//
// The idea
//   Registers ran out at N = 16384 (block). Shared memory is the next on-chip store: up to
//   227 KB per block on an H100 once the kernel opts in with cudaFuncSetAttribute. Read the row
//   from DRAM once into shared memory, then do the max, exp/sum and divide passes on the copy.
//
// What changed since block
//   - The row lives in `extern __shared__` memory instead of a register array, sized at launch
//     (N * 4 bytes), so N is no longer a template parameter.
//   - Layout matters now. Shared memory has 32 banks of 4 bytes; a warp's access is split into as
//     many passes as the most-hit bank. A thread that loaded a float4 pack p stores element k at
//     buf[p + k * num_packs] (OneFlow's transposed layout): for a fixed k the 32 lanes write 32
//     consecutive words, one per bank. The "bank-conflicted" variant stores at buf[p * 4 + k]
//     instead, the layout that mirrors the load, one float at a time: lanes 0, 8, 16, 24 hit the
//     same bank, a 4-way conflict on every access, which the CUPTI bank-conflict counters show.
//     It has to go through a volatile pointer to stay scalar: left alone, nvcc merges the four
//     stores to buf[4p..4p+3] into one 16-byte st.shared.v4, which a warp completes in 4
//     conflict-free wavefronts (measured on H100: 0 conflicts). Wide accesses are the other fix.
//     (Both layouts coincide when the scalar path runs: N % 4 != 0 or unaligned pointers.)
//   - Each thread only ever touches its own slots of the buffer, so no barrier is needed between
//     passes beyond the two inside the reductions.
//
// Valid N: 1 .. (smem_per_block_optin - 512) / 4
//   The whole row must fit in one block's shared memory next to the reduction scratch
//   (512 bytes reserved; ptxas reports 272): 57984 floats on an H100 (227 KB opt-in).
//   Longer rows need the online kernel, which never holds a row on chip. Its regime is the
//   rows past the register kernels (N > 16384): for short rows most of its 512 threads idle.
//
// Predicted DRAM traffic: reads MN, writes MN elements. Shared memory: each element is stored
// twice (the copy, then exp) and loaded twice (for exp, for the divide).
//
// Special values: an all -inf row gives NaN (-inf - -inf); a NaN in a row makes the row NaN
// (exp(NaN) enters the sum). Some -inf entries with a finite max give exactly 0.
#include <type_traits>  // std::conditional_t, below (the lab bench gives NVRTC its own)

#ifndef __CUDACC_RTC__  // host side: NVRTC (the lab bench) compiles only the device code
#include <algorithm>

#include "kernels/kernel_api.h"
#include "kernels/softmax_common.cuh"
#endif
#include "kernels/softmax_device.cuh"

namespace sml {
namespace {

constexpr int kThreads = shapes::kSmemThreads;  // 512

// @region smem-layout: where element k of pack p lives - transposed (conflict-free) or mirrored
template <int kPack, bool kConflictFree>
__device__ __forceinline__ int64_t slot(int64_t pack, int k, int64_t num_packs) {
    if constexpr (kConflictFree)
        return pack + k * num_packs;  // lanes -> consecutive banks
    else
        return pack * kPack + k;  // lanes 4 words apart: 4-way
}

// The conflicted layout is read and written through `volatile` so each access stays a 4-byte
// ld/st.shared (see the header); the conflict-free one needs no such help.
template <bool kConflictFree>
using SmemRow = std::conditional_t<kConflictFree, float*, volatile float*>;
// @endregion smem-layout

template <int kPack, bool kConflictFree>
__global__ void __launch_bounds__(kThreads)
    smem_softmax_kernel(const float* in, int64_t in_stride, float* out, int64_t out_stride,
                        int64_t rows, int64_t cols) {
    extern __shared__ float smem_row[];  // cols floats
    const SmemRow<kConflictFree> buf = smem_row;
    const int64_t num_packs = cols / kPack;  // exact: kPack == 4 only when N % 4 == 0
    for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
        const float* x = in + row * in_stride;
        float* y = out + row * out_stride;

        // @region load-row: one DRAM read per element, into shared memory, tracking the max
        float m = -INFINITY;
        for (int64_t p = threadIdx.x; p < num_packs; p += kThreads) {
            float v[kPack];
            if constexpr (kPack == 4) {
                const float4 q = reinterpret_cast<const float4*>(x)[p];
                v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
            } else {
                v[0] = x[p];
            }
#pragma unroll
            for (int k = 0; k < kPack; ++k) {
                buf[slot<kPack, kConflictFree>(p, k, num_packs)] = v[k];
                m = fmaxf(m, v[k]);
            }
        }
        m = detail::block_allreduce(m, detail::MaxOp{});
        // @endregion load-row

        // @region exp-in-smem: exp(x - max) overwrites the cached row; the sum needs no DRAM
        float s = 0.f;
        for (int64_t p = threadIdx.x; p < num_packs; p += kThreads) {
#pragma unroll
            for (int k = 0; k < kPack; ++k) {
                const int64_t i = slot<kPack, kConflictFree>(p, k, num_packs);
                const float e = expf(buf[i] - m);
                buf[i] = e;
                s += e;
            }
        }
        s = detail::block_allreduce(s, detail::SumOp{});
        // @endregion exp-in-smem

        // @region write-out: divide from shared memory and store packs back to DRAM
        for (int64_t p = threadIdx.x; p < num_packs; p += kThreads) {
            float v[kPack];
#pragma unroll
            for (int k = 0; k < kPack; ++k)
                v[k] = buf[slot<kPack, kConflictFree>(p, k, num_packs)] / s;
            if constexpr (kPack == 4) {
                reinterpret_cast<float4*>(y)[p] = make_float4(v[0], v[1], v[2], v[3]);
            } else {
                y[p] = v[0];
            }
        }
        // @endregion write-out
    }
}

}  // namespace

#ifndef __CUDACC_RTC__  // host side: the lab bench (NVRTC) compiles only the kernels above
using SmemKernel = void (*)(const float*, int64_t, float*, int64_t, int64_t, int64_t);

// @region smem-opt-in: more than 48 KB of dynamic shared memory needs an explicit opt-in
int smem_plan(const LaunchArgs& a, std::vector<LaunchStep>* steps) {
    const SoftmaxProblem& p = a.problem;
    const DeviceLimits lim = detail::effective_limits(a.limits);
    if (p.dtype != DType::f32 || p.rows < 1 || p.cols < 1 || p.cols > shapes::smem_max_cols(lim.smem_per_block_optin))
        return cudaErrorInvalidValue;
    const bool vec4 = detail::float4_ok(p, a.in, a.out);
    const bool conflict_free = a.variant != 1;
    SmemKernel kernel =
        vec4 ? (conflict_free ? smem_softmax_kernel<4, true> : smem_softmax_kernel<4, false>)
             : (conflict_free ? smem_softmax_kernel<1, true> : smem_softmax_kernel<1, false>);
    const size_t bytes = size_t(p.cols) * sizeof(float);
    if (cudaError_t e =
            cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                                 cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes));
        e != cudaSuccess)
        return e;
    const unsigned grid = detail::persistent_grid(reinterpret_cast<const void*>(kernel), kThreads,
                                                  bytes, lim, p.rows);
    steps->push_back(detail::make_step("smem", kernel, dim3(grid), dim3(kThreads), bytes,
                                       static_cast<const float*>(a.in), p.in_stride,
                                       static_cast<float*>(a.out), p.out_stride, p.rows, p.cols));
    return cudaSuccess;
}
// @endregion smem-opt-in
#endif  // __CUDACC_RTC__

}  // namespace sml
