// Without CUPTI there are no per-instruction counters.
#include "core/lab/sass_metrics.h"

namespace sml::lab {

namespace {
Error no_cupti() {
    return Error{"per-line counters need CUPTI, and this build has none (-DSML_WITH_CUPTI=OFF)",
                 "rebuild with CUPTI for per-line counters"};
}
}  // namespace

struct SassMetricsCollector::Impl {
    std::string chip;
    std::map<std::string, std::string> names;
};

Result<std::vector<SassMetricInfo>> list_sass_metrics(int, std::string*) {
    return no_cupti();
}
SassMetricsCollector::SassMetricsCollector() : impl_(new Impl) {}
SassMetricsCollector::~SassMetricsCollector() = default;
Result<std::unique_ptr<SassMetricsCollector>> SassMetricsCollector::create(int) {
    return no_cupti();
}
Status SassMetricsCollector::enable() {
    return no_cupti();
}
Result<std::vector<SassRecord>> SassMetricsCollector::flush() {
    return no_cupti();
}
Status SassMetricsCollector::disable() {
    return ok_status();
}
const std::string& SassMetricsCollector::chip() const {
    return impl_->chip;
}
const std::map<std::string, std::string>& SassMetricsCollector::metric_names() const {
    return impl_->names;
}
std::vector<std::string> SassMetricsCollector::missing_roles() const {
    return {};
}

}  // namespace sml::lab
