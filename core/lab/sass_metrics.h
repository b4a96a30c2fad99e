// Per-instruction counters from CUPTI's SASS metrics API (cupti_sass_metrics.h): CUPTI patches
// each kernel's SASS to count, per instruction, what sass_roles.h lists (instructions executed,
// global sectors and ideal sectors, local sectors, shared bank conflicts where the chip counts
// them per instruction).
//
// The order (NVIDIA's sass_metrics sample): initialize the profiler, check the device supports
// SASS metrics, get the chip name, look the metrics up by name, set the config, enable on the
// context, run, flush, disable, unset. Names differ by chip; `list_sass_metrics` gives the
// chip's own list (bench/lab_device_check.sh logs it), and each role takes the first candidate
// the chip has. $SML_SASS_METRICS="role=name,..." overrides the choice.
//
// Needs a GPU. sass_metrics_cupti.cpp; sass_metrics_nocupti.cpp reports why not.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/result.h"
#include "core/lab/line_fold.h"

namespace sml::lab {

struct SassMetricInfo {
    std::string name;
    std::string description;
};

// The chip's SASS metrics, and its name in *chip ("GH100").
Result<std::vector<SassMetricInfo>> list_sass_metrics(int device, std::string* chip);

class SassMetricsCollector {
  public:
    // Configures collection on `device` (the calling thread's current context must be the
    // device's primary context: make any CUDA runtime call first). Fails with a reason when the
    // device, the driver or another profiler (ncu, compute-sanitizer) stands in the way.
    static Result<std::unique_ptr<SassMetricsCollector>> create(int device);
    ~SassMetricsCollector();  // disables (if enabled) and unsets the config
    SassMetricsCollector(const SassMetricsCollector&) = delete;
    SassMetricsCollector& operator=(const SassMetricsCollector&) = delete;

    // Kernels launched between enable() and flush() are patched at their first launch and
    // counted. flush() after the launches finished (synchronise first): one record per
    // instruction, values keyed by role and summed over the chip's instances.
    Status enable();
    Result<std::vector<SassRecord>> flush();
    Status disable();

    const std::string& chip() const;
    const std::map<std::string, std::string>& metric_names() const;  // role -> metric
    std::vector<std::string> missing_roles() const;                  // roles with no metric

  private:
    SassMetricsCollector();
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace sml::lab
