// `softmaxlab-cli list`: the registry as a table. Works without a GPU (ranges then use the H100
// reference limits, and the header says so).
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "core/lessons/lesson_model.h"
#include "kernels/registry.h"

namespace sml::cli {

static std::string dtype_list(uint32_t mask) {
    std::string s;
    for (DType t : {DType::f32, DType::f16, DType::bf16})
        if (mask & dtype_bit(t)) s += std::string(s.empty() ? "" : ",") + dtype_name(t);
    return s;
}

CommandFn add_list_command(CLI::App& app) {
    CLI::App* sub = app.add_subcommand("list", "List the kernels with their N ranges and limits");
    sub->footer("\nRanges are for this GPU, for the profile of --device-profile, or for the H100 "
                "reference values when there is no GPU.");
    return [] {
        Error no_gpu;
        bool have_gpu = false;
        Error bad_profile;
        const DeviceLimits limits = limits_for_checks(&no_gpu, &have_gpu, &bad_profile);
        if (!bad_profile.message.empty()) return fail(bad_profile, kExitBadArgs);
        if (!limits.profile.empty())
            std::printf("Kernels (N ranges on the %s profile: %s):\n\n", limits.profile.c_str(),
                        limits.name.c_str());
        else if (have_gpu)
            std::printf("Kernels (N ranges on this GPU: %s):\n\n", limits.name.c_str());
        else
            std::printf("Kernels (N ranges on the H100 reference values; no GPU here: %s):\n\n",
                        no_gpu.message.c_str());
        // The step that introduces each kernel, from lessons/lessons.json (the one mapping).
        Result<LessonBook> book = load_lessons(default_lessons_root(), "en");
        auto step_of = [&](const KernelInfo& k) -> std::string {
            const int step = book ? lesson_step_of(*book, k.id) : -1;
            return step >= 0 ? std::to_string(step) : "-";
        };
        // Column widths follow the longest id and title, so new registry entries line up.
        int id_w = 2, title_w = 5;
        for (const KernelInfo& k : registry()) {
            id_w = std::max(id_w, int(std::strlen(k.id)));
            title_w = std::max(title_w, int(std::strlen(k.title)));
        }
        std::printf("%-*s %-4s %-*s %-14s %-15s %s\n", id_w, "id", "step", title_w, "title",
                    "N (fp32)", "dtypes", "limit");
        for (const KernelInfo& k : registry()) {
            std::printf("%-*s %-4s %-*s %-14s %-15s %s\n", id_w, k.id, step_of(k).c_str(), title_w,
                        k.title, fmt_range(k, limits, DType::f32).c_str(),
                        dtype_list(k.dtypes).c_str(), k.limit_reason);
        }
        return kExitOk;
    };
}

}  // namespace sml::cli
