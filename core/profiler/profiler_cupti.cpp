// TEMPORARY placeholder for the CUPTI build; replaced by the real Range Profiler implementation.
#include "core/profiler/profiler.h"

namespace sml {

struct CounterProfiler::Impl {
    std::string reason =
        "hardware counters unavailable: CUPTI support is not written yet";
};

CounterProfiler::CounterProfiler(MetricSet) : impl_(std::make_unique<Impl>()) {}
CounterProfiler::~CounterProfiler() = default;
bool CounterProfiler::available() const { return false; }
const std::string& CounterProfiler::unavailable_reason() const { return impl_->reason; }

MetricsRecord CounterProfiler::profile(const std::vector<NamedLaunch>&,
                                       const std::function<void(cudaStream_t)>&, cudaStream_t,
                                       bool) {
    MetricsRecord r;
    r.available = false;
    r.reason = impl_->reason;
    r.set = "off";
    return r;
}

}  // namespace sml
