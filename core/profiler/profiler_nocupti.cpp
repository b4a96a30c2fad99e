// CounterProfiler when softmaxlab is built without CUPTI (-DSML_WITH_CUPTI=OFF or a toolkit
// without the Range Profiler): every run still completes with timing and predicted traffic.
#include "core/metrics/counter_errors.h"
#include "core/profiler/profiler.h"

namespace sml {

struct CounterProfiler::Impl {
    MetricSet set = MetricSet::standard;
    Message reason;
    std::string reason_en;
};

CounterProfiler::CounterProfiler(MetricSet set) : impl_(std::make_unique<Impl>()) {
    impl_->set = set;
    // Same precedence as the CUPTI build, so a test that sets the variable reads the same reason.
    impl_->reason = counters_disabled_by_env_message();
    if (impl_->reason.empty())
        impl_->reason =
            set == MetricSet::off ? Msg::counters_off_use_default : Msg::counters_no_cupti;
    impl_->reason_en = message_en(impl_->reason);
}
CounterProfiler::~CounterProfiler() = default;
bool CounterProfiler::available() const {
    return false;
}
const std::string& CounterProfiler::unavailable_reason() const {
    return impl_->reason_en;
}
const Message& CounterProfiler::unavailable_message() const {
    return impl_->reason;
}

MetricsRecord CounterProfiler::profile(const std::vector<NamedLaunch>&,
                                       const std::function<void(cudaStream_t)>&, cudaStream_t,
                                       bool) {
    MetricsRecord r;
    r.available = false;
    r.set_reason(impl_->reason);
    r.set = metric_set_name(impl_->set);
    return r;
}

}  // namespace sml
