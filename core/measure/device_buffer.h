// Device memory for one measurement: RAII buffers and a free-memory check that refuses sizes
// that won't fit with a message a learner can act on, before cudaMalloc fails half-way.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/result.h"
#include "core/plan/sizes.h"

namespace sml {


// One cudaMalloc'd region, freed on destruction. Move-only.
class DeviceBuffer {
  public:
    DeviceBuffer() = default;
    ~DeviceBuffer();
    DeviceBuffer(DeviceBuffer&& other) noexcept;
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    // Allocates `bytes` (a no-op for 0). cudaErrorMemoryAllocation becomes the same Error as
    // check_fits gives; `what` names the buffer in the message ("softmax input").
    Status allocate(size_t bytes, const std::string& what);
    void reset();

    void* get() const { return ptr_; }
    size_t size() const { return bytes_; }

  private:
    void* ptr_ = nullptr;
    size_t bytes_ = 0;
};


// Fails when `bytes` is more than the device's free memory (cudaMemGetInfo) minus a safety margin.
// `what` describes the request ("1024 x 262144 fp32 input + output + workspace").
Status check_fits(size_t bytes, const std::string& what);

// The error both check_fits and a failed cudaMalloc produce.
Error out_of_memory_error(size_t wanted, size_t free_bytes, const std::string& what);

}  // namespace sml
