// Why hardware counters are unavailable: one line naming the cause and the fix.
//
// Kept apart from profiler_cupti.cpp, and free of CUPTI headers, so that the mapping builds and
// is tested everywhere (CI has no GPU). The codes are CUptiResult values, which are a stable ABI;
// profiler_cupti.cpp static_asserts each one against cupti_result.h.
#pragma once

#include <string>

#include "common/message.h"

namespace sml {

namespace cupti_code {
constexpr int invalid_device = 2;
constexpr int not_compatible = 14;
constexpr int invalid_metric_name = 17;
constexpr int hardware_busy = 26;
constexpr int not_supported = 27;
constexpr int virtualized_device_not_supported = 33;
constexpr int insufficient_privileges = 35;
constexpr int old_profiler_api_initialized = 36;
constexpr int legacy_profiler_not_supported = 38;
constexpr int multiple_subscribers_not_supported = 39;
constexpr int virtualized_device_insufficient_privileges = 40;
constexpr int confidential_computing_not_supported = 41;
constexpr int cmp_device_not_supported = 42;
constexpr int mig_device_not_supported = 43;
constexpr int sli_device_not_supported = 44;
constexpr int wsl_device_not_supported = 45;
constexpr int invalid_chip_name = 46;
}  // namespace cupti_code

// `code` is a CUptiResult, `code_name` its name (cuptiGetResultString) and `call` the CUPTI
// function that returned it; both are quoted in the line so a bug report carries them.
std::string counter_error_reason(int code, const std::string& code_name, const std::string& call);
// The same line as a sentence (common/message.h), for the viewer's languages.
Message counter_error_message(int code, const std::string& code_name, const std::string& call);

// True when the error describes the machine or process (privileges, another profiler attached,
// MIG, vGPU, ...), so every later attempt would fail the same way.
bool counter_error_is_permanent(int code);

// SML_DISABLE_CUPTI set to anything but "" or "0" forces the unavailable path, in both the CUPTI
// and the CUPTI-free build. Returns the reason line naming the variable and the fix, or "" when
// the variable does not disable the counters.
std::string counters_disabled_by_env_reason();
Message counters_disabled_by_env_message();  // the same; empty() when not disabled

}  // namespace sml
