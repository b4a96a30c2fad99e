// Helpers shared by the softmaxlab-cli subcommands: argument parsing that produces Errors,
// output-path checks, the progress display and number formatting.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "core/common/parse_number.h"
#include "core/metrics/metric_set.h"
#include "kernels/kernel_api.h"

namespace sml::cli {

// Exit codes (see commands.h).
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadArgs = 2;

// Prints the error and returns `code`, so commands can `return fail(err, kExitBadArgs)`.
int fail(const Error& e, int code);

// The command line as typed, shell-quoted where needed; recorded in sessions.
void set_command_line(int argc, char** argv);
const std::string& command_line();

// "32,128,3000" -> {32, 128, 3000}. Rejects empty items, non-numbers and values < 1, and says
// "too large" for a number beyond int64, quoting it as typed.
Result<std::vector<int64_t>> parse_int_list(const std::string& text, const std::string& option);

// One whole-number option, read whole (core/common/parse_number.h): "--warmup -1" is negative,
// "--cols 99999999999999999999999" too large, "--cols ''" empty; each said as typed.
using sml::parse_integer;
using sml::parse_unsigned;

// --time-limit: seconds, more than 0 and at most an hour (parse_seconds: nan, inf, 1e999, 0
// and negative values are bad arguments, quoted as typed).
constexpr double kMaxTimeLimitSeconds = 3600;
using sml::parse_seconds;

// "all" or "a,b": registry kernels, in registry order for "all" and in the given order otherwise.
Result<std::vector<const KernelInfo*>> parse_kernel_list(const std::string& text);

Result<const KernelInfo*> parse_kernel(const std::string& id);
Result<DType> parse_dtype_arg(const std::string& text);

// The measurement options run and sweep share: --metrics (off, default or deep) and --samples
// (>= 1), checked in that order. Returns the metric set.
Result<MetricSet> parse_measure_options(const std::string& metrics, int samples);

// Fails when `path` cannot be created (missing directory, no permission, a folder or device at
// that path). Checked before a long run so that a typo in --out does not throw away a sweep's
// results. Probes with a fresh side file and touches no other file (core/common/safe_file.h).
Status check_writable(const std::string& path, const std::string& option);

// Limits to check ranges against: the device's, or the H100 reference when there is no GPU
// (`*no_gpu` then holds the no-GPU error, for commands that must stop there), restricted to the
// device profile of --device-profile / SML_DEVICE_PROFILE. An unknown profile is a bad-argument
// error in `*bad_profile`. cli_gpu.cpp with the CUDA toolkit, cli_nogpu.cpp without.
DeviceLimits limits_for_checks(Error* no_gpu, bool* have_gpu, Error* bad_profile = nullptr);

// The device profile chosen on the command line (or SML_DEVICE_PROFILE); "" for none.
void set_device_profile(const std::string& id);
const std::string& device_profile();

// "1.23 ms", "2687 GB/s"-style formatting helpers.
std::string fmt(double v, int precision);
std::string fmt_sci(double v);
std::string fmt_range(const KernelInfo& k, const DeviceLimits& limits, DType dtype);

// Progress on stderr: a redrawn bar on a terminal, one line per step otherwise.
class ProgressDisplay {
  public:
    ProgressDisplay();
    void update(int done, int total, const std::string& label);
    void finish();

  private:
    bool tty_;
    double start_s_;
    int last_len_ = 0;
};

}  // namespace sml::cli
