// DeviceLimits: the hardware numbers kernel ranges depend on.
#include "kernels/kernel_api.h"

namespace sml {

DeviceLimits DeviceLimits::h100_reference() {
    // NVIDIA H100 80GB HBM3 (SXM5), compute capability 9.0, as cudaGetDeviceProperties reports it.
    DeviceLimits d;
    d.sm_count = 132;
    d.warp_size = 32;
    d.regs_per_sm = 65536;
    d.regs_per_block = 65536;
    d.max_threads_per_sm = 2048;
    d.max_threads_per_block = 1024;
    d.smem_per_sm = 233472;           // 228 KiB
    d.smem_per_block_optin = 232448;  // 227 KiB
    d.l2_bytes = 52428800;            // 50 MiB
    d.cc_major = 9;
    d.cc_minor = 0;
    d.from_device = false;
    return d;
}

bool query_device_limits(int device, DeviceLimits* out) {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, device) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    DeviceLimits d;
    d.sm_count = p.multiProcessorCount;
    d.warp_size = p.warpSize;
    d.regs_per_sm = p.regsPerMultiprocessor;
    d.regs_per_block = p.regsPerBlock;
    d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    d.max_threads_per_block = p.maxThreadsPerBlock;
    d.smem_per_sm = static_cast<int>(p.sharedMemPerMultiprocessor);
    d.smem_per_block_optin = static_cast<int>(p.sharedMemPerBlockOptin);
    d.l2_bytes = p.l2CacheSize;
    d.cc_major = p.major;
    d.cc_minor = p.minor;
    d.from_device = true;
    *out = d;
    return true;
}

}  // namespace sml
