// The hardware counters softmaxlab collects, as a small trait table (nvbench style).
//
// One row per CUPTI metric: its exact CUPTI name, a short label for tables, a unit, a one-line
// description (the viewer shows it as the tooltip), the smallest metric set that includes it, and
// a display hint that says how to print a value. Everything that shows or checks a metric (CLI,
// viewer, charts, tests) reads this table; nothing else keeps a list of metric names.
//
// The names were checked on an H100 (GH100) with the CUPTI Range Profiler of CUDA 13.0; the
// default set fits in 1-2 replay passes there, the deep set adds sm__throughput (8 passes).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/metrics/metric_set.h"

namespace sml {

enum class MetricUnit { bytes, percent, count, ratio };
const char* metric_unit_name(MetricUnit u);  // "bytes" | "%" | "count" | "ratio"

// How a value is best printed (nvbench's "hint"): byte_size as KB/MB/GB with 1000 steps,
// percentage with one decimal, count as an integer with thousands separators, ratio as x.xx.
enum class DisplayHint { byte_size, percentage, count, ratio };

struct MetricInfo {
    const char* name;   // CUPTI metric name, e.g. "dram__bytes_read.sum"
    const char* label;  // short, for table headers: "DRAM read"
    MetricUnit unit;
    const char* description;  // one line; the viewer's tooltip
    MetricSet set;            // smallest set that collects it: standard or deep
    DisplayHint hint;
};

// Every metric, default set first, in the order tables show them.
const std::vector<MetricInfo>& metric_table();

// nullptr when `name` is not in the table.
const MetricInfo* find_metric(std::string_view name);

// The metrics a set collects (deep includes everything in default; off is empty).
std::vector<const MetricInfo*> metrics_in_set(MetricSet set);
std::vector<std::string> metric_names_in_set(MetricSet set);

// A value printed with its unit following the metric's display hint, e.g. "268.4 MB",
// "92.3 %", "1,048,576". Non-finite values print as "n/a".
std::string format_metric_value(const MetricInfo& m, double value);

}  // namespace sml
