// See device_view.h.
#include "app/viewer/model/device_view.h"

#include "kernels/best_softmax.h"
#include "kernels/device_profiles.h"

namespace sml::viewer {

Result<DeviceLimits> limits_for(const DeviceLimits& real, bool have_gpu,
                                const std::string& profile) {
    if (profile.empty()) return have_gpu ? real : DeviceLimits::h100_reference();
    return apply_device_profile(have_gpu ? real : DeviceLimits{}, profile);
}

std::string best_choice_text(int64_t cols, DType dtype, const DeviceLimits& limits) {
    if (cols < 1) return "best: no path for N < 1";
    // A contiguous tensor from cudaMalloc, as the Run panel runs it.
    const best::Config c = best::choose_for(cols, dtype, /*aligned=*/true, /*flat=*/true, limits);
    std::string where = limits.name.empty() ? std::string("this GPU") : limits.name;
    where += limits.has_clusters() ? ", clusters" : ", no clusters";
    return "best: " + c.describe() + " (on " + where + ")";
}

}  // namespace sml::viewer
