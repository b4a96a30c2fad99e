// Runs softmax kernels and records what happened, as data: one point (kernel, M, N) or a sweep.
//
// This is the code path shared by the CLI (`run`, `sweep`) and the viewer's worker thread, so it
// never prints and never throws: every failure comes back as an Error, and a sweep reports its
// progress and each finished point through callbacks.
//
// One point, in order:
//   1. check the problem against the kernel's range on this device (registry check_problem),
//   2. check free memory, allocate input, output and workspace,
//   3. generate the input on the GPU (input_gen), poison the output with NaN,
//   4. run once and compare a sample of rows with the float64 reference (validate before timing),
//   5. time all of the kernel's launches together (CUDA events, L2 flushed before each sample),
//      and, for multi-launch kernels such as naive, each launch alone,
//   6. time a device-to-device copy of the same bytes (cached per byte count),
//   7. read launch facts (registers, smem, occupancy) from the CUDA runtime,
//   8. collect hardware counters with CounterProfiler (one range per point; per launch for naive).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/result.h"
#include "core/measure/device_buffer.h"
#include "core/measure/timing.h"
#include "core/plan/sweep_plan.h"
#include "kernels/launch.h"
#include "core/profiler/profiler.h"
#include "core/session/session.h"
#include "kernels/kernel_api.h"

namespace sml {

struct RunOptions {
    MetricSet metrics = MetricSet::standard;
    TimingOptions timing;
    uint64_t seed = 1;             // input generator seed (same seed, same matrix)
    int variant = 0;               // index into KernelInfo::variants
    int64_t check_rows = 64;       // rows compared with the float64 reference (spread over M)
    bool time_each_launch = true;  // multi-launch kernels: also time each launch alone
    int device = 0;
    // Called with the planned launches before anything runs; may change them (the lab bench
    // swaps in an edited kernel's launches, core/lab/lab_run.h). An Error stops the point.
    std::function<Status(std::vector<LaunchStep>*)> rewrite_steps;
};

// State that lives across the points of a run: the device's facts, a stream, the L2 flush
// buffer, the profiler, reusable buffers and copy measurements. Create it on the thread that
// will run the points (CUDA's current device is per thread).
class RunContext {
  public:
    static Result<std::unique_ptr<RunContext>> create(const RunOptions& options);
    ~RunContext();
    RunContext(const RunContext&) = delete;
    RunContext& operator=(const RunContext&) = delete;

    const DeviceRecord& device() const { return device_; }
    const DeviceLimits& limits() const { return limits_; }
    cudaStream_t stream() const { return stream_; }
    const L2Flusher& flusher() const { return flusher_; }
    // The profiler for `set` (created on first use, since CUPTI setup is costly; recreated when
    // the set changes). Not for MetricSet::off.
    CounterProfiler& profiler(MetricSet set);
    // Copy bandwidth measured at `bytes` in this run, or 0 if none yet.
    double copy_gbps(size_t bytes) const;

  private:
    RunContext() = default;
    friend Result<PointRecord> run_point(const KernelInfo&, const SoftmaxProblem&,
                                         const RunOptions&, RunContext&);
    DeviceRecord device_;
    DeviceLimits limits_;
    cudaStream_t stream_ = nullptr;
    L2Flusher flusher_;
    MetricSet metric_set_ = MetricSet::standard;
    std::unique_ptr<CounterProfiler> profiler_;
    DeviceBuffer in_, out_, workspace_;
    std::map<size_t, CopyMeasurement> copies_;
};

Result<PointRecord> run_point(const KernelInfo& kernel, const SoftmaxProblem& problem,
                              const RunOptions& options, RunContext& context);

// Whether a point's errors are within tolerance_for(dtype) (both relative and row-sum error).
bool point_is_correct(const PointRecord& p);

// ----------------------------------------------------------------------------------------------
// Sweeps.

struct SweepCallbacks {
    // (points done, points total, label of the point about to run, e.g. "fused N=4096")
    std::function<void(int, int, const std::string&)> progress;
    std::function<void(const PointRecord&)> point_done;
};

struct PointFailure {
    std::string kernel;
    int64_t cols = 0;
    Error error;
};
struct SweepResult {
    Session session;
    std::vector<PointFailure> failures;  // points that could not be run (also in session.notes)
    std::vector<SkippedItem> skipped;
    bool cancelled = false;
};

// Runs the plan. Fails only when nothing can run (no GPU); per-point failures are data.
// `cancel` is checked between points and may be null.
Result<SweepResult> run_sweep(const SweepPlan& plan, const RunOptions& options,
                              const std::string& command, const SweepCallbacks& callbacks,
                              const std::atomic<bool>* cancel);
// The same on an existing context (its buffers, flush buffer and profiler are reused; a
// different metric set in `options` replaces the profiler). Never fails as a whole.
SweepResult run_sweep(const SweepPlan& plan, const RunOptions& options, const std::string& command,
                      const SweepCallbacks& callbacks, const std::atomic<bool>* cancel,
                      RunContext& context);

// A session with the header filled: created_utc (now), command, host, software versions, device.
Session new_session(const DeviceRecord& device, const std::string& command);

}  // namespace sml
