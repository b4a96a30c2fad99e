// What the GPU is: name, SMs, L2, memory, clocks and versions, as one DeviceRecord.
//
// Everything a session needs to say "this was measured on <device>". The copy bandwidth and the
// CUPTI availability are filled in later by the runner (they need a measurement and a profiler).
#pragma once

#include <string>

#include "common/result.h"
#include "core/session/session.h"
#include "kernels/kernel_api.h"

namespace sml {

// The hint every "no GPU" error carries: where a learner without a GPU can still go.
extern const char* const kNoGpuHint;

// Fails with "no CUDA device: <cuda error>" when there is no usable device.
Result<DeviceRecord> query_device_record(int device = 0);

// The real limits of the device (no profile applied), or an Error as above.
Result<DeviceLimits> query_limits_or_error(int device = 0);

// "13.0" from a CUDA version integer such as 13000.
std::string cuda_version_string(int version);

}  // namespace sml
