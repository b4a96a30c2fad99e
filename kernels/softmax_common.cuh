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

#include "kernels/kernel_shapes.h"
#include "kernels/launch.h"

namespace sml::detail {

// ---------------------------------------------------------------------------------------------
// Host-side sizes.
using shapes::ceil_div;
using shapes::next_pow2;

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
