// Which GPU the viewer's ranges and dispatch follow: the real one, or a named class of GPU
// (kernels/device_profiles.h), so a learner on an H100 sees what `best` would pick on a T4, and a
// learner with no GPU sees their own class of GPU. No ImGui here.
#pragma once

#include <string>

#include "common/result.h"
#include "kernels/best_softmax.h"
#include "kernels/kernel_api.h"

namespace sml::viewer {

// The limits to check ranges and dispatch against: `real` (have_gpu) or the H100 reference
// values, restricted to `profile` when it is not empty. An unknown profile is an Error.
Result<DeviceLimits> limits_for(const DeviceLimits& real, bool have_gpu, const std::string& profile);

// One line: the path `best` takes for rows of `cols` values of `dtype` on `limits`, e.g.
// "best: cluster 4 x 512 threads x 8 packs (on NVIDIA A100-SXM4-80GB, no clusters)", in `lang`
// ("en" | "zh"). The path is best_path_text's.
std::string best_choice_text(int64_t cols, DType dtype, const DeviceLimits& limits,
                             const std::string& lang = "en");
// best's configuration `c` in `lang`: best::Config::describe(), its fragments worded through the
// table (ui_format); in English, describe()'s line as it is.
std::string best_path_text(const best::Config& c, const std::string& lang);

}  // namespace sml::viewer
