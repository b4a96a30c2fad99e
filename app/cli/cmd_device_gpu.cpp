// `softmaxlab-cli device` on the GPU: what it is and whether hardware counters can be read on
// it (CUDA builds only; cmd_device.cpp declares the options).
#include <cstdio>

#include "app/cli/cli_common.h"
#include "app/cli/gpu_commands.h"
#include "core/measure/device_buffer.h"
#include "core/measure/device_info.h"
#include "core/profiler/profiler.h"

namespace sml::cli {

int execute_device(int device) {
    Result<DeviceRecord> rec = query_device_record(device);
    if (!rec) return fail(rec.error(), kExitFailure);
    const DeviceRecord& d = *rec;
    std::printf("GPU              %s (compute capability %d.%d)\n", d.name.c_str(), d.cc_major,
                d.cc_minor);
    std::printf("SMs              %d\n", d.sm_count);
    std::printf("L2               %s\n", format_bytes(double(d.l2_bytes)).c_str());
    std::printf("memory           %s, %d-bit bus at %.0f MHz: %.0f GB/s peak (datasheet-style)\n",
                format_bytes(double(d.memory_bytes)).c_str(), d.memory_bus_bits,
                d.memory_clock_khz / 1e3, d.peak_dram_gbps);
    std::printf("SM clock         %.0f MHz (max)\n", d.sm_clock_khz / 1e3);
    std::printf("smem per block   %s (opt-in)\n",
                format_bytes(double(d.smem_per_block_optin)).c_str());
    std::printf("registers per SM %d\n", d.regs_per_sm);
    std::printf("CUDA             driver %s, runtime %s\n", d.driver_version.c_str(),
                d.runtime_version.c_str());
    Error no_gpu, bad_profile;
    bool have_gpu = false;
    const DeviceLimits lim = limits_for_checks(&no_gpu, &have_gpu, &bad_profile);
    if (!bad_profile.message.empty()) return fail(bad_profile, kExitBadArgs);
    if (lim.code_arch == DeviceLimits::kNoCode)
        std::printf(
            "kernel code      none for this GPU in this build: rebuild for it "
            "(scripts/build.sh detects it)\n");
    else
        std::printf("kernel code      compiled for compute_%d%s\n", lim.arch_of_code(),
                    lim.has_clusters() ? " (thread-block clusters available)" : "");
    if (!lim.profile.empty())
        std::printf(
            "profile          %s: ranges and dispatch follow %s, %d SMs, %s of shared "
            "memory a block, %s\n",
            lim.profile.c_str(), lim.name.c_str(), lim.sm_count,
            format_bytes(double(lim.smem_per_block_optin)).c_str(),
            lim.has_clusters() ? "clusters" : "no clusters");
    CounterProfiler profiler(MetricSet::standard);
    if (profiler.available())
        std::printf("counters         available (CUPTI Range Profiler)\n");
    else
        std::printf("counters         unavailable: %s\n", profiler.unavailable_reason().c_str());
    return kExitOk;
}

}  // namespace sml::cli
