#include "core/measure/timing.h"

#include <algorithm>
#include <numeric>

namespace sml {

Error cuda_error(cudaError_t e, const std::string& what) {
    (void)cudaGetLastError();
    std::string hint =
        "check the GPU with nvidia-smi; run under compute-sanitizer to locate the fault";
    if (e == cudaErrorMemoryAllocation)
        hint = "use a smaller problem (--elements, --rows or --cols)";
    return Error{what + " failed: " + cudaGetErrorString(e) + " (" + cudaGetErrorName(e) + ")",
                 hint};
}

TimingStats summarize_samples(std::vector<double> samples_ms, bool l2_flushed) {
    TimingStats t;
    t.samples = static_cast<int>(samples_ms.size());
    t.l2_flushed = l2_flushed;
    if (samples_ms.empty()) return t;
    std::sort(samples_ms.begin(), samples_ms.end());
    const size_t n = samples_ms.size();
    t.min_ms = samples_ms.front();
    t.max_ms = samples_ms.back();
    t.median_ms = n % 2 ? samples_ms[n / 2] : 0.5 * (samples_ms[n / 2 - 1] + samples_ms[n / 2]);
    t.mean_ms = std::accumulate(samples_ms.begin(), samples_ms.end(), 0.0) / double(n);
    return t;
}

double bandwidth_gbps(double bytes, double ms) {
    return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0.0;
}

namespace {
// Owns a set of events; destroys them however the timing ends.
struct EventSet {
    std::vector<cudaEvent_t> events;
    ~EventSet() {
        for (cudaEvent_t e : events) cudaEventDestroy(e);
    }
    cudaError_t create(size_t n) {
        events.reserve(n);
        for (size_t i = 0; i < n; ++i) {
            cudaEvent_t e;
            if (cudaError_t err = cudaEventCreate(&e); err != cudaSuccess) return err;
            events.push_back(e);
        }
        return cudaSuccess;
    }
};
}  // namespace

Result<TimingStats> time_samples(const EnqueueFn& work, cudaStream_t stream,
                                 const L2Flusher* flusher, const TimingOptions& options) {
    if (options.samples < 1)
        return Error{"samples must be >= 1 (got " + std::to_string(options.samples) + ")",
                     "pass --samples 20 or more for a stable median"};
    for (int i = 0; i < options.warmup; ++i) {
        if (flusher) flusher->flush(stream);
        if (cudaError_t e = work(stream); e != cudaSuccess) return cuda_error(e, "warm-up launch");
    }
    if (cudaError_t e = cudaStreamSynchronize(stream); e != cudaSuccess)
        return cuda_error(e, "warm-up run");

    EventSet ev;
    if (cudaError_t e = ev.create(2 * size_t(options.samples)); e != cudaSuccess)
        return cuda_error(e, "cudaEventCreate");
    for (int i = 0; i < options.samples; ++i) {
        if (flusher) flusher->flush(stream);
        cudaEventRecord(ev.events[2 * i], stream);
        if (cudaError_t e = work(stream); e != cudaSuccess) return cuda_error(e, "timed launch");
        cudaEventRecord(ev.events[2 * i + 1], stream);
    }
    if (cudaError_t e = cudaStreamSynchronize(stream); e != cudaSuccess)
        return cuda_error(e, "timed run");

    std::vector<double> ms(size_t(options.samples));
    for (int i = 0; i < options.samples; ++i) {
        float t = 0;
        if (cudaError_t e = cudaEventElapsedTime(&t, ev.events[2 * i], ev.events[2 * i + 1]);
            e != cudaSuccess)
            return cuda_error(e, "cudaEventElapsedTime");
        ms[size_t(i)] = t;
    }
    return summarize_samples(std::move(ms), flusher != nullptr);
}

Result<CopyMeasurement> measure_copy(void* dst, const void* src, size_t bytes, cudaStream_t stream,
                                     const L2Flusher* flusher, const TimingOptions& options) {
    auto copy = [&](cudaStream_t s) {
        return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s);
    };
    Result<TimingStats> t = time_samples(copy, stream, flusher, options);
    if (!t) return t.error();
    CopyMeasurement m;
    m.time = *t;
    m.gbps = bandwidth_gbps(2.0 * double(bytes), t->median_ms);
    return m;
}

}  // namespace sml
