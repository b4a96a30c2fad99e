#include "core/measure/device_buffer.h"

#include <cstdint>
#include <cstdio>
#include <utility>

namespace sml {

Error out_of_memory_error(size_t wanted, size_t free_bytes, const std::string& what) {
    return Error{"not enough GPU memory for " + what + ": needs " + format_bytes(wanted) + ", " +
                     format_bytes(free_bytes) + " free",
                 "use a smaller problem (--elements for sweep, --rows/--cols for run), or free "
                 "GPU memory held by other processes (nvidia-smi shows them)"};
}

// Leave room for the CUDA context's own allocations and the L2 flush buffer's neighbours.
constexpr size_t kSafetyMarginBytes = size_t(256) << 20;

Status check_fits(size_t bytes, const std::string& what) {
    size_t free_bytes = 0, total = 0;
    if (cudaError_t e = cudaMemGetInfo(&free_bytes, &total); e != cudaSuccess) {
        (void)cudaGetLastError();
        return Error{std::string("cannot query free GPU memory: ") + cudaGetErrorString(e),
                     "check that the GPU is usable (nvidia-smi)"};
    }
    if (bytes > free_bytes || free_bytes - bytes < kSafetyMarginBytes)  // no overflow
        return out_of_memory_error(bytes, free_bytes, what);
    return ok_status();
}

DeviceBuffer::~DeviceBuffer() {
    reset();
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : ptr_(std::exchange(other.ptr_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
        reset();
        ptr_ = std::exchange(other.ptr_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

void DeviceBuffer::reset() {
    if (ptr_) cudaFree(ptr_);
    ptr_ = nullptr;
    bytes_ = 0;
}

Status DeviceBuffer::allocate(size_t bytes, const std::string& what) {
    reset();
    if (bytes == 0) return ok_status();
    cudaError_t e = cudaMalloc(&ptr_, bytes);
    if (e == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        ptr_ = nullptr;
        size_t free_bytes = 0, total = 0;
        (void)cudaMemGetInfo(&free_bytes, &total);
        return out_of_memory_error(bytes, free_bytes, what);
    }
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        ptr_ = nullptr;
        return Error{"cudaMalloc of " + format_bytes(double(bytes)) + " for " + what +
                         " failed: " + cudaGetErrorString(e),
                     "check that the GPU is usable (nvidia-smi)"};
    }
    bytes_ = bytes;
    return ok_status();
}

}  // namespace sml
