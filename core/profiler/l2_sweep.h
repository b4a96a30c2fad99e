// Leaves the L2 cache cold *and clean* before each counter replay pass.
//
// Why the profiler does this itself, after the caller's flush: a flush that writes (a memset of
// twice the L2, as the timing code uses) evicts the kernel's data but leaves up to an L2's worth
// of its own dirty lines. Their write-back then happens inside the measured range and is counted
// as the kernel's DRAM writes. Seen on the H100 (256 MiB copy): 2.709e8 bytes written after a
// memset flush, 2.509e8 after a read-only sweep; a kernel that fits in L2 would show ~20 MB of
// writes it never made. A read-only sweep evicts the dirty lines first (outside the range) and
// leaves only clean lines behind.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace sml {

class L2Sweep {
  public:
    L2Sweep() = default;
    ~L2Sweep();
    L2Sweep(const L2Sweep&) = delete;
    L2Sweep& operator=(const L2Sweep&) = delete;

    // Allocates (and zero-fills) a buffer of twice `l2_bytes`; false if that fails.
    bool init(int64_t l2_bytes);
    // Reads the whole buffer on `stream`. A no-op returning cudaSuccess when not initialised.
    cudaError_t run(cudaStream_t stream) const;
    bool ready() const { return buf_ != nullptr; }

  private:
    float* buf_ = nullptr;
    float* sink_ = nullptr;
    size_t count_ = 0;  // floats, a multiple of 4
};

}  // namespace sml
