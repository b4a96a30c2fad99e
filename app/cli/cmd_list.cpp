// `softmaxlab-cli list`: the registry as a table. Works without a GPU (ranges then use the H100
// reference limits, and the header says so).
#include <cstdio>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
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
    sub->footer("\nRanges are for this GPU, or for the H100 reference values when there is none.");
    return [] {
        Error no_gpu;
        bool have_gpu = false;
        const DeviceLimits limits = limits_for_checks(&no_gpu, &have_gpu);
        std::printf("%s\n\n", have_gpu ? "Kernels (N ranges on this GPU):"
                                       : "Kernels (N ranges on the H100 reference values; no GPU "
                                         "here):");
        std::printf("%-13s %-4s %-36s %-14s %-15s %s\n", "id", "step", "title", "N (fp32)",
                    "dtypes", "limit");
        for (const KernelInfo& k : registry()) {
            std::printf("%-13s %-4d %-36s %-14s %-15s %s\n", k.id, k.lesson_step, k.title,
                        fmt_range(k, limits, DType::f32).c_str(), dtype_list(k.dtypes).c_str(),
                        k.limit_reason);
        }
        return kExitOk;
    };
}

}  // namespace sml::cli
