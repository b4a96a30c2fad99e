// EXERCISE (masking): a copy of kernels/fused_softmax.cu with one region left for you to write.
// The task and the hints: `softmaxlab-cli lab exercise --list`, or the viewer's Exercises.
// Check it: softmaxlab-cli lab exercise --check <id> --source <this file>.
//
// fused: the Triton fused-softmax tutorial, ported to CUDA.
//
// The idea
//   Do all five steps of naive in one kernel: load a whole row on-chip once, reduce it to its max,
//   exponentiate and sum it, divide, and store. DRAM sees each element once in and once out.
//
// What changed since naive
//   One launch instead of five, and no intermediate tensor: ~4x less DRAM traffic. The structure
//   follows the tutorial line by line:
//   - a "program" is one block of num_warps = 8 warps (256 threads) and owns whole rows;
//   - BLOCK = next_pow2(N) elements are held on-chip (here: registers, BLOCK/256 per thread);
//     lanes past N load -inf so they change neither the max nor the sum (exp(-inf) = 0);
//   - the grid is persistent: programs = SMs x occupancy, capped at M, and program i handles
//     rows i, i+P, i+2P, ...; occupancy = regs_per_SM / (regs_per_thread * 32 * num_warps),
//     capped by smem_per_SM / smem_per_program, exactly the tutorial's host calculation.
//   The next_pow2 padding is kept on purpose: just past 2^k half the block is masked-off work,
//   which is the power-of-two cliff the lesson measures.
//
// Valid N: 1 .. 16384
//   The row lives in registers: 16384 / 256 threads = 64 floats per thread. ptxas (sm_90) needs
//   99 registers for that, with no spills, so 2 programs (16 warps) fit on an SM. One more
//   doubling, BLOCK = 32768, needs 128 values per thread: 254 of the 255 registers a thread may
//   have, so only one 8-warp program per SM, too few warps to hide DRAM latency, and at 65536 the
//   row cannot fit at all. We stop at 16384, where the Triton tutorial itself stops on an H100
//   ("OutOfResources: shared memory": it stages the row through shared memory).
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

constexpr int kThreads = shapes::kFusedThreads;  // 256, one "program" of num_warps = 8

// @region persistent-grid: program i loops over rows i, i+P, i+2P... - not one block per row
template <int BLOCK>
__global__ void __launch_bounds__(kThreads)
    fused_softmax_kernel(const float* in, int64_t in_stride, float* out, int64_t out_stride,
                         int64_t rows, int64_t cols) {
    constexpr int kVals = BLOCK >= kThreads ? BLOCK / kThreads : 1;
    for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
        // @endregion persistent-grid
        const float* x = in + row * in_stride;
        float* y = out + row * out_stride;

        // @region masking: BLOCK = next_pow2(N) lanes; lanes past N load -inf (Triton mask + other)
        float v[kVals];
#pragma unroll
        for (int k = 0; k < kVals; ++k) {
            // TODO(exercise): slot k holds column k * kThreads + threadIdx.x of the row. Load
            // x[col] where col < cols, and -INFINITY past the end of the row.
            v[k] = 0.f;
        }
        // @endregion masking

        // @region row-max: the max of the on-chip row, across all 256 threads of the program
        float m = -INFINITY;
#pragma unroll
        for (int k = 0; k < kVals; ++k) m = fmaxf(m, v[k]);
        m = detail::block_allreduce(m, detail::MaxOp{});
        // @endregion row-max

        // @region exp-sum: numerator and denominator from registers - no second trip to DRAM
        float s = 0.f;
#pragma unroll
        for (int k = 0; k < kVals; ++k) {
            v[k] = expf(v[k] - m);
            s += v[k];
        }
        s = detail::block_allreduce(s, detail::SumOp{});
        // @endregion exp-sum

#pragma unroll
        for (int k = 0; k < kVals; ++k) {
            const int64_t col = int64_t(k) * kThreads + threadIdx.x;
            if (col < cols) y[col] = v[k] / s;
        }
    }
}

}  // namespace

#ifndef __CUDACC_RTC__  // host side: the lab bench (NVRTC) compiles only the kernels above
namespace {

constexpr int kNumWarps = shapes::kFusedWarps;        // 8, the tutorial's num_warps
constexpr int64_t kMaxBlock = shapes::kFusedMaxBlock;  // 16384: 64 register-held floats a thread

using FusedKernel = void (*)(const float*, int64_t, float*, int64_t, int64_t, int64_t);

// One instantiation per power of two: BLOCK is a compile-time constant, as in Triton.
FusedKernel kernel_for_block(int64_t block) {
    switch (block) {
        case 32:
            return fused_softmax_kernel<32>;
        case 64:
            return fused_softmax_kernel<64>;
        case 128:
            return fused_softmax_kernel<128>;
        case 256:
            return fused_softmax_kernel<256>;
        case 512:
            return fused_softmax_kernel<512>;
        case 1024:
            return fused_softmax_kernel<1024>;
        case 2048:
            return fused_softmax_kernel<2048>;
        case 4096:
            return fused_softmax_kernel<4096>;
        case 8192:
            return fused_softmax_kernel<8192>;
        case 16384:
            return fused_softmax_kernel<16384>;
        default:
            return nullptr;
    }
}

// @region occupancy: the tutorial's host-side program count, from the compiled kernel's resources
int fused_occupancy(FusedKernel kernel, const DeviceLimits& lim) {
    cudaFuncAttributes attr{};
    if (cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(kernel)) != cudaSuccess) {
        (void)cudaGetLastError();
        return 1;
    }
    const int regs = attr.numRegs > 0 ? attr.numRegs : 1;
    int occupancy = lim.regs_per_sm / (regs * 32 * kNumWarps);
    const size_t smem = attr.sharedSizeBytes;  // the reduction scratch
    if (smem > 0) occupancy = std::min<int>(occupancy, static_cast<int>(lim.smem_per_sm / smem));
    // Not in the tutorial: the SM also caps resident threads (2048 on H100 -> 8 programs).
    occupancy = std::min(occupancy, lim.max_threads_per_sm / kThreads);
    return std::max(occupancy, 1);
}
// @endregion occupancy

}  // namespace

int fused_plan(const LaunchArgs& a, std::vector<LaunchStep>* steps) {
    const SoftmaxProblem& p = a.problem;
    if (p.dtype != DType::f32 || p.rows < 1 || p.cols < 1 || p.cols > kMaxBlock)
        return cudaErrorInvalidValue;
    const DeviceLimits lim = detail::effective_limits(a.limits);
    const int64_t block = std::max<int64_t>(32, detail::next_pow2(p.cols));
    FusedKernel kernel = kernel_for_block(block);
    const int64_t programs =
        std::min<int64_t>(int64_t(lim.sm_count) * fused_occupancy(kernel, lim), p.rows);
    steps->push_back(detail::make_step("fused", kernel, dim3(unsigned(programs)), dim3(kThreads), 0,
                                       static_cast<const float*>(a.in), p.in_stride,
                                       static_cast<float*>(a.out), p.out_stride, p.rows, p.cols));
    return cudaSuccess;
}
#endif  // __CUDACC_RTC__

}  // namespace sml
