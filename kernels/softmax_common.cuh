// Plumbing shared by the kernel files: sizes, grids, launch steps and the two block reductions
// that every "one block per row" kernel needs.
//
// What a lesson teaches lives in the kernel files themselves: warp_softmax.cu spells out the
// shuffle butterfly and block_softmax.cu spells out the two-level block reduction. The helpers
// here are the same code, shared so later kernels (smem, online_tiled) don't repeat it.
// Only .cu files include this header (it uses <<<>>> and __device__).
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <string>
#include <utility>

#include "kernels/kernel_api.h"

namespace sml::detail {

// ---------------------------------------------------------------------------------------------
// Host-side sizes.
inline int64_t ceil_div(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

inline int64_t next_pow2(int64_t n) {
    int64_t p = 1;
    while (p < n) p <<= 1;
    return p;
}

// The limits a plan should size its grid with. Callers normally pass the launch device's limits;
// when they left them empty (sm_count == 0) we read the current device rather than guess.
inline DeviceLimits effective_limits(const DeviceLimits& given) {
    if (given.sm_count > 0) return given;
    DeviceLimits d = given;
    int dev = 0;
    if (cudaGetDevice(&dev) == cudaSuccess && query_device_limits(dev, &d)) return d;
    (void)cudaGetLastError();
    return DeviceLimits::h100_reference();
}

// Persistent grid: as many blocks as can be resident at once (occupancy API x SMs), but never
// more than there is work. Blocks then grid-stride over rows, so the launch size no longer grows
// with M (the Triton tutorial's "persistent" pattern, used by every kernel here but naive).
inline unsigned persistent_grid(const void* func, int threads, size_t dynamic_smem,
                                const DeviceLimits& lim, int64_t work_items) {
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, func, threads, dynamic_smem) !=
            cudaSuccess ||
        per_sm < 1) {
        (void)cudaGetLastError();
        per_sm = 1;
    }
    const int64_t resident = static_cast<int64_t>(per_sm) * (lim.sm_count > 0 ? lim.sm_count : 1);
    const int64_t grid = work_items < resident ? work_items : resident;
    return static_cast<unsigned>(grid < 1 ? 1 : grid);
}

// A LaunchStep that enqueues `kernel<<<grid, block, smem, stream>>>(args...)`.
template <class... KArgs, class... Args>
LaunchStep make_step(std::string name, void (*kernel)(KArgs...), dim3 grid, dim3 block, size_t smem,
                     Args... args) {
    LaunchStep s;
    s.name = std::move(name);
    s.func = reinterpret_cast<const void*>(kernel);
    s.grid = grid;
    s.block = block;
    s.dynamic_smem = smem;
    s.launch = [=](cudaStream_t stream) {
        kernel<<<grid, block, smem, stream>>>(args...);
        return cudaGetLastError();
    };
    return s;
}

// True when float4 (16-byte) accesses are legal for every row: 16-byte aligned base pointers,
// strides and N multiples of 4 elements.
inline bool float4_ok(const SoftmaxProblem& p, const void* in, const void* out) {
    return p.cols % 4 == 0 && p.in_stride % 4 == 0 && p.out_stride % 4 == 0 &&
           reinterpret_cast<uintptr_t>(in) % 16 == 0 && reinterpret_cast<uintptr_t>(out) % 16 == 0;
}

// Shared-memory bytes that one block_allreduce of `threads` threads moves: each warp stores its
// partial, warp 0 loads them and stores the result, every thread loads the result.
inline double block_reduce_smem_load_bytes(int threads) {
    return 4.0 * (threads / 32 + threads);
}
inline double block_reduce_smem_store_bytes(int threads) {
    return 4.0 * (threads / 32 + 1);
}

// Adds the shared-memory traffic of the two block_allreduce calls each row makes (its max and its
// sum; online's single reduction of 8-byte (max, sum) pairs moves the same bytes).
inline void add_row_reductions(Traffic* t, int64_t rows, int threads) {
    t->smem_load_bytes += 2.0 * rows * block_reduce_smem_load_bytes(threads);
    t->smem_store_bytes += 2.0 * rows * block_reduce_smem_store_bytes(threads);
}

// Traffic of a kernel that reads each element `reads` times from DRAM and writes it once.
inline Traffic single_pass_traffic(const SoftmaxProblem& p, int reads, const char* read_formula) {
    const double mn = static_cast<double>(p.rows) * static_cast<double>(p.cols);
    const double bytes = dtype_size(p.dtype);
    Traffic t;
    t.dram_read_bytes = reads * mn * bytes;
    t.dram_write_bytes = mn * bytes;
    t.global_load_bytes = t.dram_read_bytes;
    t.global_store_bytes = t.dram_write_bytes;
    t.read_formula = read_formula;
    t.write_formula = "MN elements";
    return t;
}

// ---------------------------------------------------------------------------------------------
// Device-side reductions (see warp_softmax.cu and block_softmax.cu for the teaching versions).
struct MaxOp {
    // fmaxf ignores a NaN operand; a NaN row still ends up NaN because the sum sees it.
    __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
    __device__ static float identity() { return -INFINITY; }
};
struct SumOp {
    __device__ float operator()(float a, float b) const { return a + b; }
    __device__ static float identity() { return 0.f; }
};

template <class Op>
__device__ __forceinline__ float warp_allreduce(float v, Op op) {
    for (int mask = 16; mask > 0; mask >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, mask));
    return v;
}

// Every thread of the block gets the reduction of `v` over the block. blockDim.x must be a
// multiple of 32 and every thread must call it (it has barriers).
template <class Op>
__device__ float block_allreduce(float v, Op op) {
    __shared__ float partial[32];
    __shared__ float result;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    v = warp_allreduce(v, op);
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    if (warp == 0) {
        float w = lane < warps ? partial[lane] : Op::identity();
        w = warp_allreduce(w, op);
        if (lane == 0) result = w;
    }
    __syncthreads();
    return result;
}

}  // namespace sml::detail
