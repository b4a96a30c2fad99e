// softmaxlab-cli in a build without the CUDA toolkit: list, chart and the lessons work on the
// registry and on recorded sessions; run, sweep and device say what this build lacks and how to
// get it, and exit 1. (With the toolkit, cli_gpu.cpp and cmd_{run,sweep,device}.cpp are built.)
#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "kernels/device_profiles.h"

namespace sml::cli {
namespace {

Error no_cuda_error() {
    return Error{"this build of softmaxlab has no GPU support (it was built without the CUDA "
                 "toolkit)",
                 "install the CUDA toolkit (12.6 or newer, nvcc at /usr/local/cuda/bin) and "
                 "rebuild with scripts/build.sh; meanwhile the viewer replays the recorded H100 "
                 "session: scripts/run-app.sh"};
}

CommandFn add_gpu_command(CLI::App& app, const char* name, const char* what) {
    CLI::App* sub = app.add_subcommand(name, std::string(what) + " (needs a build with CUDA)");
    sub->fallthrough(false)->allow_extras();  // its options belong to the GPU build: unread
    return [] { return fail(no_cuda_error(), kExitFailure); };
}

}  // namespace

DeviceLimits limits_for_checks(Error* no_gpu, bool* have_gpu, Error* bad_profile) {
    *have_gpu = false;
    *no_gpu = no_cuda_error();
    if (device_profile().empty()) return DeviceLimits::h100_reference();
    Result<DeviceLimits> p = apply_device_profile(DeviceLimits{}, device_profile());
    if (!p) {
        if (bad_profile) *bad_profile = p.error();
        return DeviceLimits::h100_reference();
    }
    return *p;
}

CommandFn add_device_command(CLI::App& app) {
    return add_gpu_command(app, "device", "Show the GPU, its limits and CUPTI availability");
}
CommandFn add_run_command(CLI::App& app) {
    return add_gpu_command(app, "run", "Run one kernel on the GPU and check it");
}
CommandFn add_lab_command(CLI::App& app) {
    return add_gpu_command(app, "lab", "Compile, run and check edited kernels");
}
CommandFn add_sweep_command(CLI::App& app) {
    return add_gpu_command(app, "sweep", "Run kernels over many N and save a session");
}

}  // namespace sml::cli
