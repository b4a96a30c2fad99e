// See device_view.h.
#include "app/viewer/model/device_view.h"

#include "app/viewer/model/ui_text.h"
#include "kernels/best_softmax.h"
#include "kernels/device_profiles.h"

namespace sml::viewer {

Result<DeviceLimits> limits_for(const DeviceLimits& real, bool have_gpu,
                                const std::string& profile) {
    if (profile.empty()) return have_gpu ? real : DeviceLimits::h100_reference();
    return apply_device_profile(have_gpu ? real : DeviceLimits{}, profile);
}

std::string best_path_text(const best::Config& c, const std::string& lang) {
    // Each fragment through the table (ui_text.cpp), so its characters are in the font atlas.
    return c.describe([&](const char* en, const std::vector<std::string>& parts) {
        return ui_format(en, lang, parts);
    });
}

std::string best_choice_text(int64_t cols, DType dtype, const DeviceLimits& limits,
                             const std::string& lang) {
    if (cols < 1) return ui_text("best: no path for N < 1", lang);
    // A contiguous tensor from cudaMalloc, as the Run panel runs it.
    const best::Config c = best::choose_for(cols, dtype, /*aligned=*/true, /*flat=*/true, limits);
    return ui_format(
        limits.has_clusters() ? "best: {0} (on {1}, clusters)" : "best: {0} (on {1}, no clusters)",
        lang,
        {best_path_text(c, lang), limits.name.empty() ? ui_text("this GPU", lang) : limits.name});
}

}  // namespace sml::viewer
