// CounterProfiler when softmaxlab is built without CUPTI (-DSML_WITH_CUPTI=OFF or a toolkit
// without the Range Profiler): every run still completes with timing and predicted traffic.
#include "core/profiler/profiler.h"

namespace sml {

struct CounterProfiler::Impl {
    std::string reason =
        "hardware counters unavailable: softmaxlab was built without CUPTI (needs CUDA 12.6+ "
        "with cupti_range_profiler.h); rebuild with -DSML_WITH_CUPTI=ON";
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
