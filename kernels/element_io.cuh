// Element conversions shared by the kernels and the input generator.
//
// Compute is always fp32: fp16 and bf16 only change what is loaded and stored, so supporting a
// dtype means converting at the load (to_float) and at the store (from_float), nothing more.
// One copy here so every kernel rounds the same way (round-to-nearest-even on the way out).
// Only .cu files include this header (it uses __device__).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace sml {

__device__ __forceinline__ float to_float(float v) {
    return v;
}
__device__ __forceinline__ float to_float(__half v) {
    return __half2float(v);
}
__device__ __forceinline__ float to_float(__nv_bfloat16 v) {
    return __bfloat162float(v);
}

template <class T>
__device__ __forceinline__ T from_float(float v);
template <>
__device__ __forceinline__ float from_float<float>(float v) {
    return v;
}
template <>
__device__ __forceinline__ __half from_float<__half>(float v) {
    return __float2half_rn(v);
}
template <>
__device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
    return __float2bfloat16_rn(v);
}

}  // namespace sml
