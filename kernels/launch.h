// The CUDA half of the kernel contract: what a kernel's `plan` receives and what it returns.
// Only code built with the CUDA toolkit includes this (kernels/*.cu, core/measure, core/runner).
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <string>
#include <vector>

#include "common/result.h"
#include "kernels/kernel_api.h"

namespace sml {

struct LaunchArgs {
    SoftmaxProblem problem;
    const void* in = nullptr;
    void* out = nullptr;
    void* workspace = nullptr;  // KernelInfo::workspace_bytes bytes, or null when that is 0
    int variant = 0;            // index into KernelInfo::variants (0 = the default)
    DeviceLimits limits;        // of the device the launch goes to (or the profile it emulates)
};

// One kernel launch inside a kernel's algorithm. Naive has five; most kernels have one.
struct LaunchStep {
    std::string name;            // e.g. "row_max", shown in the naive per-launch breakdown
    const void* func = nullptr;  // the __global__ function, for cudaFuncGetAttributes / occupancy
    dim3 grid{1, 1, 1};
    dim3 block{1, 1, 1};
    size_t dynamic_smem = 0;  // bytes
    // Enqueues this launch, after any memset the kernel needs first (best's grid path poisons its
    // workspace so).
    std::function<cudaError_t(cudaStream_t)> launch;
    // The same launch with another function and, if wanted, another shape: the arguments `launch`
    // passes, byte for byte, to `func` (a __global__ function or a cudaKernel_t cast to
    // const void*, which cudaLaunchKernel accepts). The lab bench (core/lab) runs an edited
    // kernel through it with its original's plan. Empty where a step cannot be relaunched so.
    std::function<cudaError_t(const void* func, dim3 grid, dim3 block, size_t dynamic_smem,
                              cudaStream_t stream)>
        launch_as;
};

// k.plan as a cudaError_t; cudaErrorNotSupported when this build has no plan for k.
inline cudaError_t plan_launches(const KernelInfo& k, const LaunchArgs& args,
                                 std::vector<LaunchStep>* steps) {
    if (k.plan == nullptr) return cudaErrorNotSupported;
    return static_cast<cudaError_t>(k.plan(args, steps));
}

// Reads what `device` offers and what code this build holds for it (DeviceLimits::code_arch),
// restricted to device profile `profile` when it is not empty (kernels/device_profiles.h).
Result<DeviceLimits> read_device_limits(int device, const std::string& profile);

// The DRAM's clock and bus width as the GPU reports them (0 where it does not): what
// peak_dram_gbps turns into bytes a second. Read here for read_device_limits and for the
// measurements' device record alike.
struct DramClock {
    int clock_khz = 0;
    int bus_bits = 0;
};
DramClock read_dram_clock(int device);

// read_device_limits with the profile named by SML_DEVICE_PROFILE, if any; false (and *out
// untouched) if there is no such device, or the profile is unknown (said on stderr).
bool query_device_limits(int device, DeviceLimits* out);

// Plans and enqueues every step of `k` on `stream` (no synchronisation).
cudaError_t launch_all(const KernelInfo& k, const LaunchArgs& args, cudaStream_t stream);

// check_problem, then launch_all: a problem outside the kernel's range, or a GPU it cannot run on,
// returns check_problem's Error and launches nothing; a CUDA failure comes back as an Error naming
// the kernel and the GPU.
Status launch_checked(const KernelInfo& k, const LaunchArgs& args, cudaStream_t stream);

}  // namespace sml
