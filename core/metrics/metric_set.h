// The metric sets a run can ask for. No CUDA here: the names are read and shown everywhere,
// the counters themselves come from core/profiler (CUDA toolkit builds only).
#pragma once

#include <string>

namespace sml {

enum class MetricSet { off, standard, deep };  // "off" | "default" | "deep" on the command line
const char* metric_set_name(MetricSet s);
bool parse_metric_set(const std::string& s, MetricSet* out);

}  // namespace sml
