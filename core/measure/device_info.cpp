#include "core/measure/device_info.h"
#include "kernels/launch.h"

#include <cuda_runtime.h>

namespace sml {

const char* const kNoGpuHint =
    "replay a session in the viewer (softmaxlab --session assets/sessions/<file>.json) or run on "
    "a machine with an NVIDIA GPU";

static Error no_device_error(cudaError_t e) {
    (void)cudaGetLastError();  // clear the sticky-free error so later calls start clean
    return Error{std::string("no CUDA device: ") + cudaGetErrorString(e), kNoGpuHint};
}

std::string cuda_version_string(int version) {
    if (version <= 0) return "unknown";
    return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

// cudaDeviceProp lost clockRate in CUDA 13; the attribute API works everywhere.
static int attribute(cudaDeviceAttr attr, int device) {
    int v = 0;
    if (cudaDeviceGetAttribute(&v, attr, device) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return v;
}

Result<DeviceRecord> query_device_record(int device) {
    int count = 0;
    if (cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) return no_device_error(e);
    if (count == 0) return no_device_error(cudaErrorNoDevice);
    if (device < 0 || device >= count)
        return Error{"CUDA device " + std::to_string(device) + " does not exist (found " +
                         std::to_string(count) + ")",
                     "pick a device between 0 and " + std::to_string(count - 1)};
    cudaDeviceProp p{};
    if (cudaError_t e = cudaGetDeviceProperties(&p, device); e != cudaSuccess)
        return no_device_error(e);

    DeviceRecord d;
    d.name = p.name;
    d.cc_major = p.major;
    d.cc_minor = p.minor;
    d.sm_count = p.multiProcessorCount;
    d.l2_bytes = p.l2CacheSize;
    d.memory_bytes = static_cast<int64_t>(p.totalGlobalMem);
    d.sm_clock_khz = attribute(cudaDevAttrClockRate, device);
    const DramClock dram = read_dram_clock(device);
    d.memory_clock_khz = dram.clock_khz;
    d.memory_bus_bits = dram.bus_bits;
    d.peak_dram_gbps = peak_dram_gbps(d.memory_clock_khz, d.memory_bus_bits);
    d.smem_per_block_optin = static_cast<int>(p.sharedMemPerBlockOptin);
    d.regs_per_sm = p.regsPerMultiprocessor;
    int driver = 0, runtime = 0;
    (void)cudaDriverGetVersion(&driver);
    (void)cudaRuntimeGetVersion(&runtime);
    d.driver_version = cuda_version_string(driver);
    d.runtime_version = cuda_version_string(runtime);
    return d;
}

Result<DeviceLimits> query_limits_or_error(int device) {
    Result<DeviceRecord> rec = query_device_record(device);
    if (!rec) return rec.error();
    Result<DeviceLimits> limits = read_device_limits(device, "");
    if (!limits) return Error{limits.error().message, kNoGpuHint};
    return limits;
}

}  // namespace sml
