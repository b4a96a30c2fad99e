// Two tiny kernels whose DRAM traffic is known exactly, for the profiler's GPU test: a copy
// (reads n floats, writes n floats) and a read-only sweep that evicts L2 without leaving dirty
// lines behind (a memset would leave up to one L2 of dirty lines, whose write-back then lands
// inside the next measured range and inflates its DRAM writes).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace sml::test {

// out[i] = in[i] for i < n, with 16-byte accesses; n must be a multiple of 4.
cudaError_t launch_copy(const float* in, float* out, size_t n, cudaStream_t stream);

}  // namespace sml::test
