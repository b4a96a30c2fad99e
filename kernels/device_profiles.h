// Classes of GPU that softmaxlab knows by name, so that dispatch and N ranges can be shown and
// tested for a GPU the machine does not have. No CUDA here.
//
// A profile restricts; it never grants more than the real GPU has. Applied on a real GPU
// (`--device-profile a100`, or SML_DEVICE_PROFILE=a100), every limit becomes the smaller of the
// two (the L2 stays the real one: it is what caches the run), and the code architecture the
// profile's GPU would run: so on an H100 the `a100` profile
// turns thread-block clusters off, allows 163 KB of shared memory a block and 108 SMs. That is an
// emulation of the dispatch and the ranges, not of the other GPU's speed. The SM count decides
// paths (can the class's SMs hold a row's team of blocks?); a cooperative grid is still sized to
// the real GPU, as the copy a run is measured against is (kernels/best/launch.cu).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "kernels/kernel_api.h"

namespace sml {

struct DeviceProfile {
    const char* id;    // "a100"
    const char* gpus;  // the GPUs it stands for, by name
    DeviceLimits limits;
};

// Every known profile, oldest architecture first; "h100" is DeviceLimits::h100_reference().
const std::vector<DeviceProfile>& device_profiles();
const DeviceProfile* find_device_profile(std::string_view id);
std::string device_profile_ids();  // "t4, rtx3060, ..." for messages and --help

// The limits `real` gives under profile `id`: each the smaller of the two. `real` with
// sm_count == 0 (no GPU) gives the profile's own limits. An unknown id is an Error that lists the
// known ones.
Result<DeviceLimits> apply_device_profile(const DeviceLimits& real, std::string_view id);

// The profile named by SML_DEVICE_PROFILE, or "" when it is unset or empty.
std::string device_profile_from_env();

}  // namespace sml
