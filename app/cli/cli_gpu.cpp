// The CLI's view of the GPU, in a build with the CUDA toolkit (cli_nogpu.cpp without it).
#include "app/cli/cli_common.h"
#include "core/measure/device_info.h"
#include "kernels/device_profiles.h"

namespace sml::cli {

DeviceLimits limits_for_checks(Error* no_gpu, bool* have_gpu, Error* bad_profile) {
    Result<DeviceLimits> l = query_limits_or_error(0);
    *have_gpu = l.ok();
    DeviceLimits limits = DeviceLimits::h100_reference();
    if (l)
        limits = *l;
    else
        *no_gpu = l.error();
    if (device_profile().empty()) return limits;
    // A profile restricts the real GPU, or stands in for the reference values without one.
    Result<DeviceLimits> p = apply_device_profile(*have_gpu ? limits : DeviceLimits{},
                                                  device_profile());
    if (!p) {
        if (bad_profile) *bad_profile = p.error();
        return limits;
    }
    return *p;
}

}  // namespace sml::cli
