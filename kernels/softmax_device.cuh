// The device half of the kernels' shared code: the two reductions every "one block per row"
// kernel needs. Device code only, so that NVRTC (the lab bench, core/lab) can compile a kernel
// file on its own; the host plumbing (grids, launch steps) is in softmax_common.cuh.
//
// What a lesson teaches lives in the kernel files themselves: warp_softmax.cu spells out the
// shuffle butterfly and block_softmax.cu spells out the two-level block reduction. The helpers
// here are the same code, shared so later kernels (naive, fused, smem) don't repeat it.
#pragma once

#include "kernels/kernel_shapes.h"

namespace sml::detail {

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
