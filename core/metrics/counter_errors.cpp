// See counter_errors.h.
#include "core/metrics/counter_errors.h"

#include <cstdlib>
#include <cstring>

namespace sml {

std::string counters_disabled_by_env_reason() {
    const char* v = std::getenv("SML_DISABLE_CUPTI");
    if (!v || !*v || std::strcmp(v, "0") == 0) return {};
    return std::string("hardware counters disabled by SML_DISABLE_CUPTI=") + v +
           "; unset it to collect them";
}

bool counter_error_is_permanent(int code) {
    namespace c = cupti_code;
    switch (code) {
        case c::insufficient_privileges:
        case c::multiple_subscribers_not_supported:
        case c::virtualized_device_not_supported:
        case c::virtualized_device_insufficient_privileges:
        case c::confidential_computing_not_supported:
        case c::cmp_device_not_supported:
        case c::mig_device_not_supported:
        case c::sli_device_not_supported:
        case c::wsl_device_not_supported:
        case c::not_supported:
        case c::not_compatible:
        case c::invalid_chip_name:
        case c::old_profiler_api_initialized:
        case c::hardware_busy:
        case c::legacy_profiler_not_supported:
            return true;
        default:
            return false;
    }
}

std::string counter_error_reason(int code, const std::string& code_name, const std::string& call) {
    namespace c = cupti_code;
    const std::string tag = " (" + code_name + " from " + call + ")";
    switch (code) {
        case c::insufficient_privileges:
            return "hardware counters are restricted to admin users" + tag +
                   ": load the NVIDIA driver with NVreg_RestrictProfilingToAdminUsers=0, or run "
                   "as root";
        case c::multiple_subscribers_not_supported:
            return "another profiler (ncu, nsys, compute-sanitizer, cuda-gdb) is attached" + tag +
                   "; run without it to collect counters";
        case c::virtualized_device_not_supported:
        case c::virtualized_device_insufficient_privileges:
            return "this is a virtual GPU (vGPU) without profiling rights" + tag +
                   ": enable profiling for the VM in the vGPU settings, or run on bare metal";
        case c::mig_device_not_supported:
            return "this GPU is a MIG instance and its counters cannot be read" + tag +
                   ": run on a GPU with MIG disabled";
        case c::confidential_computing_not_supported:
            return "confidential computing is on, which hides the counters" + tag +
                   ": run on a GPU without confidential computing";
        case c::cmp_device_not_supported:
        case c::sli_device_not_supported:
        case c::wsl_device_not_supported:
        case c::not_supported:
        case c::invalid_device:
            return "this device or setup does not support the CUPTI Range Profiler" + tag +
                   ": counters need a Turing or newer GPU on bare-metal Linux or Windows";
        case c::invalid_chip_name:
        case c::not_compatible:
            return "the CUPTI library is too old for this GPU or driver" + tag +
                   ": rebuild with a CUDA toolkit at least as new as the driver (12.6+)";
        case c::old_profiler_api_initialized:
        case c::legacy_profiler_not_supported:
            return "an older CUPTI profiling API is active in this process" + tag +
                   "; run softmaxlab on its own";
        case c::hardware_busy:
            return "the counters are in use by another process, e.g. DCGM profiling" + tag +
                   ": pause it (dcgmi profile --pause) or run on an idle GPU";
        case c::invalid_metric_name:
            return "a metric name is not known on this GPU" + tag +
                   ": check core/metrics/metric_table.cpp against this chip";
        default:
            return "hardware counters unavailable" + tag +
                   ": rerun; if it persists, run `softmaxlab-cli device` and report the output";
    }
}

}  // namespace sml
