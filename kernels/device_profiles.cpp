// Published limits of common GPUs (cudaGetDeviceProperties as their vendors document it; the DRAM
// bandwidth as their datasheets give it, the H100's from its recorded clock and bus width).
#include "kernels/device_profiles.h"

#include <algorithm>
#include <cstdlib>

namespace sml {
namespace {

DeviceLimits make(const char* name, int cc_major, int cc_minor, int sms, int threads_per_sm,
                  int smem_per_sm_kib, int smem_optin_kib, int64_t l2_mib, double dram_gbps) {
    DeviceLimits d;
    d.name = name;
    d.sm_count = sms;
    d.warp_size = 32;
    d.regs_per_sm = 65536;
    d.regs_per_block = 65536;
    d.max_threads_per_sm = threads_per_sm;
    d.max_threads_per_block = 1024;
    d.smem_per_sm = smem_per_sm_kib * 1024;
    d.smem_per_block_optin = smem_optin_kib * 1024;
    d.l2_bytes = l2_mib * 1024 * 1024;
    d.peak_dram_gbps = dram_gbps;
    d.cc_major = cc_major;
    d.cc_minor = cc_minor;
    d.from_device = false;
    return d;
}

}  // namespace

const std::vector<DeviceProfile>& device_profiles() {
    static const std::vector<DeviceProfile> profiles = {
        {"t4", "Tesla T4 (Turing; free notebook GPUs)",
         make("NVIDIA Tesla T4", 7, 5, 40, 1024, 64, 64, 4, 320)},
        {"rtx3060", "GeForce RTX 3060 (Ampere, consumer)",
         make("NVIDIA GeForce RTX 3060", 8, 6, 28, 1536, 100, 99, 3, 360)},
        {"a10g", "A10G, A10 (Ampere, cloud inference)",
         make("NVIDIA A10G", 8, 6, 80, 1536, 100, 99, 6, 600)},
        {"a100", "A100 80GB SXM (Ampere, data centre)",
         make("NVIDIA A100-SXM4-80GB", 8, 0, 108, 2048, 164, 163, 40, 2039)},
        {"l4", "L4 (Ada, cloud inference)", make("NVIDIA L4", 8, 9, 58, 1536, 100, 99, 48, 300)},
        {"rtx4090", "GeForce RTX 4090 (Ada, consumer)",
         make("NVIDIA GeForce RTX 4090", 8, 9, 128, 1536, 100, 99, 72, 1008)},
        {"h100", "H100 80GB SXM (Hopper), the GPU the recorded sessions come from",
         make("NVIDIA H100 80GB HBM3", 9, 0, 132, 2048, 228, 227, 50, 3352.32)},
        {"rtx5090", "GeForce RTX 5090 (Blackwell, consumer)",
         make("NVIDIA GeForce RTX 5090", 12, 0, 170, 1536, 100, 99, 96, 1792)},
    };
    return profiles;
}

DeviceLimits DeviceLimits::h100_reference() {
    return find_device_profile("h100")->limits;
}

const DeviceProfile* find_device_profile(std::string_view id) {
    for (const DeviceProfile& p : device_profiles())
        if (id == p.id) return &p;
    return nullptr;
}

std::string device_profile_ids() {
    std::string s;
    for (const DeviceProfile& p : device_profiles()) s += (s.empty() ? "" : ", ") + std::string(p.id);
    return s;
}

Result<DeviceLimits> apply_device_profile(const DeviceLimits& real, std::string_view id) {
    const DeviceProfile* p = find_device_profile(id);
    if (p == nullptr)
        return Error{"unknown device profile '" + std::string(id) + "'",
                     "use one of: " + device_profile_ids()};
    DeviceLimits d = p->limits;
    d.profile = p->id;
    if (real.sm_count <= 0) return d;  // no GPU: the profile as published
    d.name = std::string(p->limits.name) + " (emulated on " + real.name + ")";
    d.sm_count = std::min(d.sm_count, real.sm_count);
    d.regs_per_sm = std::min(d.regs_per_sm, real.regs_per_sm);
    d.regs_per_block = std::min(d.regs_per_block, real.regs_per_block);
    d.max_threads_per_sm = std::min(d.max_threads_per_sm, real.max_threads_per_sm);
    d.max_threads_per_block = std::min(d.max_threads_per_block, real.max_threads_per_block);
    d.smem_per_sm = std::min(d.smem_per_sm, real.smem_per_sm);
    d.smem_per_block_optin = std::min(d.smem_per_block_optin, real.smem_per_block_optin);
    d.l2_bytes = real.l2_bytes;  // what caches the run is the real GPU's L2
    if (real.peak_dram_gbps > 0) d.peak_dram_gbps = std::min(d.peak_dram_gbps, real.peak_dram_gbps);
    if (real.cc() < d.cc()) {
        d.cc_major = real.cc_major;
        d.cc_minor = real.cc_minor;
    }
    // The code that runs is the real GPU's; the profile's GPU could run no newer features.
    d.code_arch = real.code_arch == DeviceLimits::kNoCode
                      ? DeviceLimits::kNoCode
                      : std::min(real.arch_of_code(), d.cc());
    d.from_device = real.from_device;
    return d;
}

std::string device_profile_from_env() {
    const char* v = std::getenv("SML_DEVICE_PROFILE");
    return v != nullptr ? std::string(v) : std::string();
}

}  // namespace sml
