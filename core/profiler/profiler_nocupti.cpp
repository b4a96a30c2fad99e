// CounterProfiler when softmaxlab is built without CUPTI (-DSML_WITH_CUPTI=OFF or a toolkit
// without the Range Profiler): every run still completes with timing and predicted traffic.
#include "core/metrics/counter_errors.h"
#include "core/profiler/profiler.h"

namespace sml {

struct CounterProfiler::Impl {
    MetricSet set = MetricSet::standard;
    std::string reason;
};

CounterProfiler::CounterProfiler(MetricSet set) : impl_(std::make_unique<Impl>()) {
    impl_->set = set;
    // Same precedence as the CUPTI build, so a test that sets the variable reads the same reason.
    impl_->reason = counters_disabled_by_env_reason();
    if (!impl_->reason.empty()) return;
    if (set == MetricSet::off)
        impl_->reason = "hardware counters off (--metrics off); use --metrics default";
    else
        impl_->reason =
            "hardware counters unavailable: softmaxlab was built without CUPTI (needs CUDA 12.6+ "
            "with cupti_range_profiler.h); rebuild with -DSML_WITH_CUPTI=ON";
}
CounterProfiler::~CounterProfiler() = default;
bool CounterProfiler::available() const {
    return false;
}
const std::string& CounterProfiler::unavailable_reason() const {
    return impl_->reason;
}

MetricsRecord CounterProfiler::profile(const std::vector<NamedLaunch>&,
                                       const std::function<void(cudaStream_t)>&, cudaStream_t,
                                       bool) {
    MetricsRecord r;
    r.available = false;
    r.reason = impl_->reason;
    r.set = metric_set_name(impl_->set);
    return r;
}

}  // namespace sml
