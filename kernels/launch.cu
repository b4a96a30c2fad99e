// Launching a registry kernel, and reading what the GPU (and this build's code for it) offers.
#include "kernels/launch.h"

#include <cstdio>
#include <string>

#include "kernels/device_profiles.h"
#include "kernels/registry.h"

namespace sml {
namespace {

// Compiled like every kernel, so its attributes say which code this build holds for the GPU.
__global__ void code_probe_kernel() {}

DeviceLimits read_real_limits(int device, bool* ok) {
    *ok = false;
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, device) != cudaSuccess) {
        (void)cudaGetLastError();
        return {};
    }
    DeviceLimits d;
    d.name = p.name;
    d.sm_count = p.multiProcessorCount;
    d.warp_size = p.warpSize;
    d.regs_per_sm = p.regsPerMultiprocessor;
    d.regs_per_block = p.regsPerBlock;
    d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    d.max_threads_per_block = p.maxThreadsPerBlock;
    d.smem_per_sm = static_cast<int>(p.sharedMemPerMultiprocessor);
    d.smem_per_block_optin = static_cast<int>(p.sharedMemPerBlockOptin);
    d.l2_bytes = p.l2CacheSize;
    const DramClock dram = read_dram_clock(device);
    d.peak_dram_gbps = peak_dram_gbps(dram.clock_khz, dram.bus_bits);
    d.cc_major = p.major;
    d.cc_minor = p.minor;
    d.from_device = true;
    int current = 0;
    const bool switch_device = cudaGetDevice(&current) == cudaSuccess && current != device;
    if (switch_device) (void)cudaSetDevice(device);
    cudaFuncAttributes attr{};
    if (cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(code_probe_kernel)) ==
        cudaSuccess) {
        d.code_arch = attr.ptxVersion;
    } else {
        (void)cudaGetLastError();  // no image this GPU can load (or no PTX it can compile)
        d.code_arch = DeviceLimits::kNoCode;
    }
    if (switch_device) (void)cudaSetDevice(current);
    *ok = true;
    return d;
}

}  // namespace

DramClock read_dram_clock(int device) {
    // (cudaDeviceProp lost memoryClockRate in CUDA 13; the attributes work everywhere.)
    DramClock c;
    if (cudaDeviceGetAttribute(&c.clock_khz, cudaDevAttrMemoryClockRate, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&c.bus_bits, cudaDevAttrGlobalMemoryBusWidth, device) !=
            cudaSuccess) {
        (void)cudaGetLastError();
        return {};  // unknown: 0
    }
    return c;
}

Result<DeviceLimits> read_device_limits(int device, const std::string& profile) {
    bool ok = false;
    const DeviceLimits real = read_real_limits(device, &ok);
    if (!ok)
        return Error{"no CUDA device " + std::to_string(device) + " could be opened",
                     "check `nvidia-smi`; without a GPU the viewer replays a recorded session"};
    if (profile.empty()) return real;
    return apply_device_profile(real, profile);
}

bool query_device_limits(int device, DeviceLimits* out) {
    Result<DeviceLimits> r = read_device_limits(device, device_profile_from_env());
    if (!r) {
        if (!device_profile_from_env().empty())
            std::fprintf(stderr, "error: %s\nhint: %s\n", r.error().message.c_str(),
                         r.error().hint.c_str());
        return false;
    }
    *out = *r;
    return true;
}

cudaError_t launch_all(const KernelInfo& k, const LaunchArgs& args, cudaStream_t stream) {
    std::vector<LaunchStep> steps;
    if (cudaError_t e = plan_launches(k, args, &steps); e != cudaSuccess) return e;
    for (LaunchStep& s : steps) {
        if (cudaError_t e = s.launch(stream); e != cudaSuccess) return e;
        if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

Status launch_checked(const KernelInfo& k, const LaunchArgs& args, cudaStream_t stream) {
    LaunchArgs a = args;
    if (a.limits.sm_count <= 0) {  // limits not filled in: ranges must come from the real device
        int dev = 0;
        if (cudaGetDevice(&dev) != cudaSuccess || !query_device_limits(dev, &a.limits)) {
            (void)cudaGetLastError();
            return Error{std::string("no CUDA device to run ") + k.id + " on",
                         "run on a machine with an NVIDIA GPU, or replay a recorded session"};
        }
    }
    if (Status st = check_problem(k, a.problem, a.limits); !st) return st;
    if (k.workspace_bytes && k.workspace_bytes(a.problem, a.limits) > 0 && a.workspace == nullptr)
        return Error{std::string(k.id) + " needs a workspace but none was given",
                     "allocate workspace_bytes(problem, limits) bytes and pass it in LaunchArgs"};
    if (cudaError_t e = launch_all(k, a, stream); e != cudaSuccess)
        return Error{std::string(k.id) + " failed to launch on " + device_label(a.limits) + ": " +
                         cudaGetErrorString(e),
                     "check the device with `softmaxlab-cli device`"};
    return ok_status();
}

}  // namespace sml
