// See gpu_access.h. Built with the CUDA toolkit.
#include <cuda_runtime.h>

#include "app/viewer/model/gpu_access.h"
#include "core/measure/device_info.h"
#include "core/runner/runner.h"

namespace sml::viewer {

GpuProbe probe_gpu() {
    GpuProbe g;
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorInsufficientDriver) {
        // What the runtime says on a machine with no NVIDIA driver at all ("driver version is
        // insufficient") misleads a learner on a laptop; say what it means.
        (void)cudaGetLastError();
        g.reason = "no NVIDIA GPU driver found (or one older than this CUDA runtime)";
        g.hint = "install or update the NVIDIA driver; meanwhile the recorded session replays";
    } else if (e != cudaSuccess) {
        (void)cudaGetLastError();
        g.reason = std::string("no usable CUDA device (") + cudaGetErrorString(e) + ")";
        g.hint = "check nvidia-smi; meanwhile the recorded session replays";
    } else if (count == 0) {
        g.reason = "no CUDA device found";
        g.hint = "the recorded session replays instead";
    }
    if (!g.reason.empty()) return g;
    Result<DeviceLimits> lim = query_limits_or_error(0);
    if (!lim) {
        g.reason = lim.error().message;
        g.hint = lim.error().hint;
        return g;
    }
    g.limits = *lim;
    if (g.limits.code_arch == DeviceLimits::kNoCode) {
        g.reason = "this build holds no kernel code for " + g.limits.name;
        g.hint = "rebuild for this GPU (scripts/build.sh detects it); meanwhile the recorded "
                 "session replays";
        return g;
    }
    g.available = true;
    return g;
}

Result<DeviceRecord> live_device_record() {
    return query_device_record(0);
}

Session new_live_session(const DeviceRecord& device) {
    return new_session(device, "softmaxlab (viewer)");
}

bool build_has_gpu_support() {
    return true;
}

}  // namespace sml::viewer
