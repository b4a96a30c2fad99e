#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>

#include "core/measure/input_gen.h"
#include "kernels/element_io.cuh"

namespace sml {
namespace {

// splitmix64's finaliser: a cheap bijective mix, good enough for test data (not cryptography).
__host__ __device__ inline uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

// Box-Muller on two 24-bit uniforms taken from one 64-bit hash. u1 is in (0, 1], so log is finite.
__host__ __device__ inline float normal_from_hash(uint64_t h) {
    const float u1 = (float((h >> 40) & 0xffffff) + 1.0f) * (1.0f / 16777216.0f);
    const float u2 = float((h >> 8) & 0xffffff) * (1.0f / 16777216.0f);
    return sqrtf(-2.0f * logf(u1)) * cosf(6.28318530718f * u2);
}

__host__ __device__ inline float value_at(uint64_t seed, int64_t row, int64_t col) {
    const uint64_t key = mix64(seed * 0x9e3779b97f4a7c15ull + uint64_t(row)) ^ uint64_t(col);
    return normal_from_hash(mix64(key + 0x632be59bd9b4e019ull));
}

// Grid-stride over the logical rows x cols elements.
template <class T>
__global__ void fill_normal(T* out, int64_t rows, int64_t cols, int64_t stride, uint64_t seed) {
    const int64_t total = rows * cols;
    for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < total;
         i += int64_t(gridDim.x) * blockDim.x) {
        const int64_t r = i / cols, c = i - r * cols;
        out[r * stride + c] = from_float<T>(value_at(seed, r, c));
    }
}

template <class T>
cudaError_t launch_fill(void* out, int64_t rows, int64_t cols, int64_t stride, uint64_t seed,
                        cudaStream_t stream) {
    const int threads = 256;
    const int64_t blocks = std::min<int64_t>((rows * cols + threads - 1) / threads, 65536);
    fill_normal<T><<<unsigned(std::max<int64_t>(blocks, 1)), threads, 0, stream>>>(
        static_cast<T*>(out), rows, cols, stride, seed);
    return cudaGetLastError();
}

}  // namespace

cudaError_t generate_normal_input(void* out, DType dtype, int64_t rows, int64_t cols,
                                  int64_t stride, uint64_t seed, cudaStream_t stream) {
    if (rows <= 0 || cols <= 0) return cudaSuccess;
    switch (dtype) {
        case DType::f32:
            return launch_fill<float>(out, rows, cols, stride, seed, stream);
        case DType::f16:
            return launch_fill<__half>(out, rows, cols, stride, seed, stream);
        case DType::bf16:
            return launch_fill<__nv_bfloat16>(out, rows, cols, stride, seed, stream);
    }
    return cudaErrorInvalidValue;
}

float normal_input_value(uint64_t seed, int64_t row, int64_t col) {
    return value_at(seed, row, col);
}

}  // namespace sml
