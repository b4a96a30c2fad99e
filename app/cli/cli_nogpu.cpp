// softmaxlab-cli in a build without the CUDA toolkit. run, sweep, device and lab declare and check
// their options as in a build with it (cmd_<name>.cpp); what would then need the toolkit says
// what this build lacks and how to get it, and exits 1: the execute_* functions here
// (gpu_commands.h), and limits_for_checks, whose "no GPU" error is the same sentence. (With the
// toolkit, cli_gpu.cpp and cmd_<name>_gpu.cpp are built instead.)
#include "app/cli/cli_common.h"
#include "app/cli/gpu_commands.h"
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

int no_cuda() {
    return fail(no_cuda_error(), kExitFailure);
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

int execute_run(const RunArgs&, const RunChecked&) {
    return no_cuda();
}
int execute_sweep(const SweepArgs&, const SweepChecked&) {
    return no_cuda();
}
int execute_device(int) {
    return no_cuda();
}
int execute_lab_run(const lab::LabJob&, const std::string&) {
    return no_cuda();
}
int execute_lab_compile(const lab::LabJob&, const LabArgs&) {
    return no_cuda();
}
int execute_lab_check(const lab::Exercise&, const std::string&, double) {
    return no_cuda();
}
int execute_lab_sass_metrics(const std::string&) {
    return no_cuda();
}
int execute_lab_fold(const lab::LabResult&) {
    return no_cuda();
}
int execute_lab_lines(Session, const std::vector<const KernelInfo*>&, const std::vector<int64_t>&,
                      double, const std::string&) {
    return no_cuda();
}

}  // namespace sml::cli
