// The viewer's view of the GPU: is there one this build can use, what does it offer, and a new
// live session for it. gpu_access_gpu.cpp with the CUDA toolkit; gpu_access_nogpu.cpp without,
// where the answer is always "replay", with the reason and how to get GPU support.
#pragma once

#include <string>

#include "common/result.h"
#include "core/session/session.h"
#include "kernels/kernel_api.h"

namespace sml::viewer {

struct GpuProbe {
    bool available = false;
    std::string reason;   // why not, when !available: one sentence a learner understands
    std::string hint;     // what to do about it
    DeviceLimits limits;  // the real GPU's, when available
};

// Looks for a usable CUDA device 0 and reads its limits (no profile applied).
GpuProbe probe_gpu();

// The device record of device 0, for a live session.
Result<DeviceRecord> live_device_record();

// A live session's header for `device`, as `softmaxlab-cli sweep` writes it.
Session new_live_session(const DeviceRecord& device);

// Whether this build can run kernels at all (built with the CUDA toolkit).
bool build_has_gpu_support();

}  // namespace sml::viewer
