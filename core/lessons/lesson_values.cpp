// Facts of the GPU on screen for the lesson text. See lesson_values.h.
#include "core/lessons/lesson_values.h"

#include <cmath>
#include <cstdio>

#include "core/lessons/lesson_model.h"
#include "kernels/registry.h"

namespace sml {

namespace {

const char* const kDeviceKeys[] = {"name", "sms", "l2", "regs_per_sm", "smem_optin", "cc"};
const char* const kSessionKeys[] = {"copy"};

std::string after(const std::string& ref, const char* prefix) {
    const std::string p(prefix);
    return ref.rfind(p, 0) == 0 ? ref.substr(p.size()) : std::string();
}

template <size_t N>
bool one_of(const std::string& key, const char* const (&keys)[N]) {
    for (const char* k : keys)
        if (key == k) return true;
    return false;
}

// Binary units, as CUDA's device properties count them: 52428800 -> "50 MiB", 232448 -> "227 KiB".
std::string binary_size(int64_t bytes) {
    char buf[48];
    if (bytes >= (int64_t(1) << 20) && bytes % (int64_t(1) << 20) == 0)
        std::snprintf(buf, sizeof buf, "%lld MiB", static_cast<long long>(bytes >> 20));
    else if (bytes >= (int64_t(1) << 20))
        std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
    else
        std::snprintf(buf, sizeof buf, "%lld KiB", static_cast<long long>(bytes >> 10));
    return buf;
}

}  // namespace

bool is_lesson_value_ref(const std::string& ref) {
    if (std::string k = after(ref, "device:"); !k.empty()) return one_of(k, kDeviceKeys);
    if (std::string k = after(ref, "session:"); !k.empty()) return one_of(k, kSessionKeys);
    if (std::string k = after(ref, "limit:"); !k.empty()) return find_kernel(k) != nullptr;
    return false;
}

std::string lesson_value_ref_list() {
    std::string s;
    for (const char* k : kDeviceKeys) s += (s.empty() ? "device:" : ", device:") + std::string(k);
    for (const char* k : kSessionKeys) s += ", session:" + std::string(k);
    return s + ", limit:<kernel id>";
}

DeviceLimits limits_of_session(const Session* session) {
    DeviceLimits l = DeviceLimits::h100_reference();
    if (!session) return l;
    const DeviceRecord& d = session->device;
    if (!d.name.empty()) l.name = d.name;
    if (d.sm_count > 0) l.sm_count = d.sm_count;
    if (d.regs_per_sm > 0) l.regs_per_sm = d.regs_per_sm;
    if (d.smem_per_block_optin > 0) l.smem_per_block_optin = d.smem_per_block_optin;
    if (d.l2_bytes > 0) l.l2_bytes = d.l2_bytes;
    if (d.peak_dram_gbps > 0) l.peak_dram_gbps = d.peak_dram_gbps;
    if (d.cc_major > 0) {
        l.cc_major = d.cc_major;
        l.cc_minor = d.cc_minor;
        l.code_arch = 0;  // taken to match the device the session ran on
    }
    return l;
}

std::string lesson_value_text(const std::string& ref, const Session* session) {
    if (!is_lesson_value_ref(ref)) return "";
    const DeviceLimits l = limits_of_session(session);
    char buf[64];
    if (std::string k = after(ref, "device:"); !k.empty()) {
        if (k == "name") return l.name;
        if (k == "sms") return std::to_string(l.sm_count);
        if (k == "l2") return binary_size(l.l2_bytes);
        if (k == "regs_per_sm") return std::to_string(l.regs_per_sm);
        if (k == "smem_optin") return binary_size(l.smem_per_block_optin);
        if (k == "cc") return std::to_string(l.cc_major) + "." + std::to_string(l.cc_minor);
    }
    if (after(ref, "session:") == "copy") {
        // The recorded sessions all carry one; an empty one (no session) quotes the reference.
        const double gbps =
            session && session->device.copy_gbps > 0 ? session->device.copy_gbps : 0;
        if (gbps <= 0) return "the copy bandwidth";
        std::snprintf(buf, sizeof buf, "%.0f GB/s", gbps);
        return buf;
    }
    if (std::string k = after(ref, "limit:"); !k.empty()) {
        const KernelInfo* kernel = find_kernel(k);
        if (!kernel || !kernel->max_cols) return "";
        return std::to_string(kernel->max_cols(l, DType::f32));
    }
    return "";
}

bool claim_applies(const LessonClaim& claim, const Session* session) {
    if (claim.requires_feature.empty()) return true;
    if (claim.requires_feature == "clusters") return limits_of_session(session).has_clusters();
    return false;  // unknown requirement: the loader rejects these
}

}  // namespace sml
