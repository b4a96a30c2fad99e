// Names of the metric sets, shared by the CUPTI and no-CUPTI builds.
#include "core/metrics/metric_set.h"

namespace sml {

const char* metric_set_name(MetricSet s) {
    switch (s) {
        case MetricSet::off:
            return "off";
        case MetricSet::standard:
            return "default";
        case MetricSet::deep:
            return "deep";
    }
    return "?";
}

bool parse_metric_set(const std::string& s, MetricSet* out) {
    if (s == "off" || s == "none")
        *out = MetricSet::off;
    else if (s == "default" || s == "standard")
        *out = MetricSet::standard;
    else if (s == "deep")
        *out = MetricSet::deep;
    else
        return false;
    return true;
}

}  // namespace sml
