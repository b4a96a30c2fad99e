// See gpu_access.h. Built without the CUDA toolkit: the viewer replays recorded sessions.
#include "app/viewer/model/gpu_access.h"

namespace sml::viewer {

GpuProbe probe_gpu() {
    GpuProbe g;
    g.reason = "this build has no GPU support (it was built without the CUDA toolkit)";
    g.hint = "install the CUDA toolkit (12.6+, nvcc at /usr/local/cuda/bin) and rebuild with "
             "scripts/build.sh to run kernels; everything else works on the recorded session";
    return g;
}

Result<DeviceRecord> live_device_record() {
    const GpuProbe g = probe_gpu();
    return Error{g.reason, g.hint};
}

Session new_live_session(const DeviceRecord& device) {
    Session s;
    s.device = device;
    return s;
}

bool build_has_gpu_support() {
    return false;
}

}  // namespace sml::viewer
