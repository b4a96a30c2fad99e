// Hardware counters for one kernel run, through the CUPTI Range Profiler (CUDA 12.6+).
//
// This header is all the rest of softmaxlab sees of CUPTI: no CUPTI type crosses it (pimpl).
// profiler_cupti.cpp implements it; profiler_nocupti.cpp is built instead when CUPTI is off
// (-DSML_WITH_CUPTI=OFF) and reports that reason. Setting SML_DISABLE_CUPTI=1 in the environment
// forces the unavailable path at run time (used by tests and for comparison runs).
//
// Timing never comes from here: replayed passes distort durations. Time with CUDA events.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/metrics/metric_set.h"
#include "core/session/session.h"

namespace sml {


// One launch to profile: enqueue it on the given stream.
struct NamedLaunch {
    std::string name;
    std::function<cudaError_t(cudaStream_t)> launch;
};

class CounterProfiler {
  public:
    // Tries to set up the profiler for the current device. Never throws; check available().
    explicit CounterProfiler(MetricSet set);
    ~CounterProfiler();
    CounterProfiler(const CounterProfiler&) = delete;
    CounterProfiler& operator=(const CounterProfiler&) = delete;

    bool available() const;
    // When not available: one line naming the cause and the fix, e.g. "counters restricted to
    // admin users (CUPTI_ERROR_INSUFFICIENT_PRIVILEGES): load the driver with
    // NVreg_RestrictProfilingToAdminUsers=0".
    const std::string& unavailable_reason() const;
    // The same as a sentence (common/message.h), for the viewer's languages.
    const Message& unavailable_message() const;

    // Profiles all `launches` together as one range, and, when per_launch is set, each launch as
    // its own range too (naive's breakdown; MetricsRecord::per_launch is keyed by
    // NamedLaunch::name): launch k is replayed after launches 0..k-1 run unprofiled, so it sees
    // the cache state of a real run, and the parts add up to the whole. `flush_l2` runs before
    // every replay pass so DRAM counts describe a cold cache; it must leave L2 clean too
    // (core/measure's L2Flusher reads, see timing.h), or the write-back of its dirty lines is
    // counted as the kernel's DRAM writes. DRAM writes
    // still exclude whatever the kernel leaves dirty in L2 when it ends (at most the L2 size,
    // ~1.6% of a 1 GiB output on the H100). passes = replay passes of the whole-kernel range.
    // On failure the record has available=false and a reason; the caller's run goes on.
    MetricsRecord profile(const std::vector<NamedLaunch>& launches,
                          const std::function<void(cudaStream_t)>& flush_l2, cudaStream_t stream,
                          bool per_launch);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace sml
