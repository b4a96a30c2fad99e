// See counter_errors.h.
#include "core/metrics/counter_errors.h"

#include <cstdlib>
#include <cstring>

namespace sml {

Message counters_disabled_by_env_message() {
    const char* v = std::getenv("SML_DISABLE_CUPTI");
    if (!v || !*v || std::strcmp(v, "0") == 0) return {};
    return Message(Msg::counters_disabled_by_env, {v});
}

std::string counters_disabled_by_env_reason() {
    return message_en(counters_disabled_by_env_message());
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

Message counter_error_message(int code, const std::string& code_name, const std::string& call) {
    namespace c = cupti_code;
    const auto said = [&](Msg id) { return Message(id, {code_name, call}); };
    switch (code) {
        case c::insufficient_privileges:
            return said(Msg::counters_admin_only);
        case c::multiple_subscribers_not_supported:
            return said(Msg::counters_other_profiler);
        case c::virtualized_device_not_supported:
        case c::virtualized_device_insufficient_privileges:
            return said(Msg::counters_vgpu);
        case c::mig_device_not_supported:
            return said(Msg::counters_mig);
        case c::confidential_computing_not_supported:
            return said(Msg::counters_confidential);
        case c::cmp_device_not_supported:
        case c::sli_device_not_supported:
        case c::wsl_device_not_supported:
        case c::not_supported:
        case c::invalid_device:
            return said(Msg::counters_unsupported_setup);
        case c::invalid_chip_name:
        case c::not_compatible:
            return said(Msg::counters_cupti_too_old);
        case c::old_profiler_api_initialized:
        case c::legacy_profiler_not_supported:
            return said(Msg::counters_old_api);
        case c::hardware_busy:
            return said(Msg::counters_busy);
        case c::invalid_metric_name:
            return said(Msg::counters_unknown_metric);
        default:
            return said(Msg::counters_other_error);
    }
}

std::string counter_error_reason(int code, const std::string& code_name, const std::string& call) {
    return message_en(counter_error_message(code, code_name, call));
}

}  // namespace sml
