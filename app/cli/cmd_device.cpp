// `softmaxlab-cli device`: what the GPU is and whether hardware counters can be read on it.
// This file declares the options, in every build; cmd_device_gpu.cpp asks the GPU
// (gpu_commands.h).
#include <memory>

#include "app/cli/commands.h"
#include "app/cli/gpu_commands.h"

namespace sml::cli {

CommandFn add_device_command(CLI::App& app) {
    CLI::App* sub = app.add_subcommand("device", "Show the GPU, its limits and CUPTI availability");
    auto device = std::make_shared<int>(0);
    sub->add_option("--device", *device, "CUDA device index")->default_val(0);
    return [device] { return execute_device(*device); };
}

}  // namespace sml::cli
