// naive: softmax as five separate launches, the way five PyTorch eager ops would run it.
//
// The idea
//   Safe softmax is y = exp(x - max(x)) / sum(exp(x - max(x))) per row. Written as five tensor
//   ops (max, subtract, exp, sum, divide), each op is its own kernel, and each one reads its
//   input from DRAM and writes its result back, because nothing survives between launches.
//
// What changed since the previous step
//   Nothing: this is the starting point every later kernel is measured against.
//
// Valid N
//   Any N >= 1 (fp32 only). Rows are reduced by one block each, elementwise launches are flat.
//   It needs a workspace of M*N + 2*M floats (the intermediate and the two per-row vectors).
//
// Predicted DRAM traffic (elements; x4 bytes for fp32)
//   row_max   reads MN        writes M
//   subtract  reads MN + M    writes MN
//   exp       reads MN        writes MN
//   row_sum   reads MN        writes M
//   divide    reads MN + M    writes MN
//   total     reads 5MN + 2M  writes 3MN + 2M    (a fused kernel: MN and MN)
//   When M*N*4 bytes fits in L2 (50 MB on H100) the intermediate never reaches DRAM, so the
//   measured DRAM bytes fall far below this formula. The formula is the algorithm's, not L2's.
//
// Special values (same rule in every kernel, matching torch.softmax)
//   A row that is all -inf gives NaN: its max is -inf and -inf - (-inf) is NaN.
//   A NaN anywhere in a row makes that whole row NaN: fmaxf skips it, but exp(NaN) poisons the sum.
//   Some -inf entries in a row with a finite max are fine: exp(-inf) = 0.
#ifndef __CUDACC_RTC__  // host side: NVRTC (the lab bench) compiles only the device code
#include "kernels/kernel_api.h"
#include "kernels/softmax_common.cuh"
#endif
#include "kernels/softmax_device.cuh"

namespace sml {
namespace {

// @region row-max: launch 1 of 5 - one block per row reduces the row to its max and writes M floats
__global__ void row_max_kernel(const float* in, int64_t in_stride, int64_t rows, int64_t cols,
                               float* row_max) {
    for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
        const float* x = in + row * in_stride;
        float m = -INFINITY;
        for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, x[c]);
        m = detail::block_allreduce(m, detail::MaxOp{});
        if (threadIdx.x == 0) row_max[row] = m;
    }
}
// @endregion row-max

// @region subtract: launch 2 of 5 - reads the whole input again plus the max, writes an M x N temp
__global__ void subtract_kernel(const float* in, int64_t in_stride, const float* row_max,
                                float* tmp, int64_t rows, int64_t cols) {
    const int64_t total = rows * cols;
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
         i += int64_t(gridDim.x) * blockDim.x) {
        const int64_t row = i / cols, col = i - row * cols;
        tmp[i] = in[row * in_stride + col] - row_max[row];
    }
}
// @endregion subtract

// @region exp-pass: launch 3 of 5 - a full read and a full write just to apply exp
__global__ void exp_kernel(float* tmp, int64_t total) {
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
         i += int64_t(gridDim.x) * blockDim.x)
        tmp[i] = expf(tmp[i]);
}
// @endregion exp-pass

// @region row-sum: launch 4 of 5 - a fourth full read of the row to add up the exponentials
__global__ void row_sum_kernel(const float* tmp, int64_t rows, int64_t cols, float* row_sum) {
    for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
        const float* e = tmp + row * cols;
        float s = 0.f;
        for (int64_t c = threadIdx.x; c < cols; c += blockDim.x) s += e[c];
        s = detail::block_allreduce(s, detail::SumOp{});
        if (threadIdx.x == 0) row_sum[row] = s;
    }
}
// @endregion row-sum

// @region divide: launch 5 of 5 - the fifth read of the data, then the output write
__global__ void divide_kernel(const float* tmp, const float* row_sum, float* out,
                              int64_t out_stride, int64_t rows, int64_t cols) {
    const int64_t total = rows * cols;
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
         i += int64_t(gridDim.x) * blockDim.x) {
        const int64_t row = i / cols, col = i - row * cols;
        out[row * out_stride + col] = tmp[i] / row_sum[row];
    }
}
// @endregion divide

}  // namespace

#ifndef __CUDACC_RTC__  // host side: the lab bench (NVRTC) compiles only the kernels above
namespace {
constexpr int kThreads = shapes::kNaiveThreads;  // 256 threads in every launch
}  // namespace

// @region plan-five-launches: the host side - five launches chained through a DRAM workspace
int naive_plan(const LaunchArgs& a, std::vector<LaunchStep>* steps) {
    const SoftmaxProblem& p = a.problem;
    if (p.dtype != DType::f32 || p.rows < 1 || p.cols < 1 || a.workspace == nullptr)
        return cudaErrorInvalidValue;
    const DeviceLimits lim = detail::effective_limits(a.limits);
    const float* in = static_cast<const float*>(a.in);
    float* out = static_cast<float*>(a.out);
    float* tmp = static_cast<float*>(a.workspace);  // [M, N], contiguous
    float* row_max = tmp + p.rows * p.cols;         // [M]
    float* row_sum = row_max + p.rows;              // [M]
    const int64_t total = p.rows * p.cols;

    const unsigned row_grid = detail::persistent_grid(reinterpret_cast<const void*>(row_max_kernel),
                                                      kThreads, 0, lim, p.rows);
    const unsigned flat_grid =
        detail::persistent_grid(reinterpret_cast<const void*>(subtract_kernel), kThreads, 0, lim,
                                detail::ceil_div(total, kThreads));
    steps->push_back(detail::make_step("row_max", row_max_kernel, row_grid, kThreads, 0, in,
                                       p.in_stride, p.rows, p.cols, row_max));
    steps->push_back(detail::make_step("subtract", subtract_kernel, flat_grid, kThreads, 0, in,
                                       p.in_stride, static_cast<const float*>(row_max), tmp, p.rows,
                                       p.cols));
    steps->push_back(detail::make_step("exp", exp_kernel, flat_grid, kThreads, 0, tmp, total));
    steps->push_back(detail::make_step("row_sum", row_sum_kernel, row_grid, kThreads, 0,
                                       static_cast<const float*>(tmp), p.rows, p.cols, row_sum));
    steps->push_back(detail::make_step(
        "divide", divide_kernel, flat_grid, kThreads, 0, static_cast<const float*>(tmp),
        static_cast<const float*>(row_sum), out, p.out_stride, p.rows, p.cols));
    return cudaSuccess;
}
// @endregion plan-five-launches
#endif  // __CUDACC_RTC__

}  // namespace sml
