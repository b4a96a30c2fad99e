// Softmax inputs generated on the GPU: a 1 GiB input must never be built on the host.
//
// Each element is a standard normal drawn from a hash of (seed, row, col), so a value depends
// only on its logical position: the same seed gives the same matrix for any row stride, any
// launch configuration and any GPU.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/kernel_api.h"

namespace sml {

// Fills rows x cols elements (row stride `stride` elements) of `dtype` at `out` with N(0, 1)
// samples. Padding between rows is left untouched. Enqueued on `stream`; returns the launch error.
cudaError_t generate_normal_input(void* out, DType dtype, int64_t rows, int64_t cols,
                                  int64_t stride, uint64_t seed, cudaStream_t stream);

// The same value generate_normal_input writes at (row, col), computed on the host in float
// (before the conversion to dtype), equal to the device value up to float rounding of logf/cosf.
float normal_input_value(uint64_t seed, int64_t row, int64_t col);

}  // namespace sml
