// How a kernel is timed: CUDA events around each sample, a warm-up first, and an L2 flush before
// every sample so each one starts from a cold cache (the state a 1 GiB softmax really sees).
//
// The same routine times the device-to-device copy that every kernel is compared against, so
// "% of copy" divides two numbers measured the same way in the same run.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "common/result.h"
#include "core/measure/device_buffer.h"
#include "core/session/session.h"

namespace sml {

struct TimingOptions {
    int warmup = 3;    // untimed runs first: module load, clocks ramping, TLB warm-up
    int samples = 20;  // timed runs; the median is the reported time
    // Whether samples start from a cold L2 is time_samples' `flusher` argument, not an option.
};

// Enqueues the work being timed on the given stream (all of a kernel's launches, or one copy).
using EnqueueFn = std::function<cudaError_t(cudaStream_t)>;

// min/median/max/mean of the samples (median of an even count: mean of the middle two).
TimingStats summarize_samples(std::vector<double> samples_ms, bool l2_flushed);

// Effective bandwidth in GB/s (1e9 bytes/s) for `bytes` moved in `ms`.
double bandwidth_gbps(double bytes, double ms);

// Leaves L2 cold *and clean* before a timed sample or a counter pass, by reading a zero-filled
// buffer twice the L2's size (l2_flush.cu).
//
// Why a read and not a memset: a write-based flush evicts the kernel's data but leaves up to an
// L2's worth of its own dirty lines, whose write-back then lands inside the next timed sample or
// counter range. Seen on the H100 (256 MiB copy): 2.709e8 DRAM bytes written after a memset
// flush, 2.509e8 after a read sweep. A read evicts the dirty lines first (before the sample
// starts) and leaves only clean ones behind.
class L2Flusher {
  public:
    Status init(int64_t l2_bytes);
    void flush(cudaStream_t stream) const;
    size_t bytes() const { return buffer_.size(); }

  private:
    DeviceBuffer buffer_;  // zero-filled, read by every flush
    DeviceBuffer sink_;    // one float the sweep never actually writes (keeps the loads alive)
};

// Times `work` with CUDA events. All samples are enqueued back to back (flush, start, work,
// stop) and read after one synchronisation, so host overhead never lands inside a sample.
// `flusher` may be null (then samples are warm and TimingStats::l2_flushed is false).
Result<TimingStats> time_samples(const EnqueueFn& work, cudaStream_t stream,
                                 const L2Flusher* flusher, const TimingOptions& options);

// Device-to-device copy of `bytes` from src to dst, timed as above. GB/s = 2 * bytes / median
// (every byte is read once and written once, the same convention as the softmax bandwidth).
struct CopyMeasurement {
    TimingStats time;
    double gbps = 0;
};
Result<CopyMeasurement> measure_copy(void* dst, const void* src, size_t bytes, cudaStream_t stream,
                                     const L2Flusher* flusher, const TimingOptions& options);

// "<what> failed: <cuda error>" with a hint; clears the CUDA error state where it can.
Error cuda_error(cudaError_t e, const std::string& what);

}  // namespace sml
