// Sweeps: plan (which kernel x N points are inside their ranges) and run (stream the points out).
#include <unistd.h>

#include <algorithm>
#include <ctime>

#include "core/common/parse_number.h"
#include "core/measure/build_info.h"
#include "core/measure/device_buffer.h"
#include "core/measure/device_info.h"
#include "core/runner/runner.h"
#include "kernels/registry.h"

namespace sml {

static std::string utc_now_iso8601() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

static std::string host_name() {
    char buf[256] = {0};
    if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
    return buf;
}

Session new_session(const DeviceRecord& device, const std::string& command) {
    Session s;
    s.created_utc = utc_now_iso8601();
    s.command = command;
    s.host = host_name();
    s.device = device;
    s.software["softmaxlab"] = SML_VERSION;
    s.software["cuda_runtime"] = device.runtime_version;
    s.software["cuda_driver"] = device.driver_version;
    // The toolkit whose headers (and nvcc) built this binary.
    s.software["cuda_toolkit_build"] = cuda_version_string(CUDART_VERSION);
    s.software["nvcc"] = nvcc_version();
    s.software["cupti"] = SML_HAVE_CUPTI ? "built in" : "not built";
#if defined(__clang__)
    s.software["host_compiler"] = "clang " __clang_version__;
#elif defined(__GNUC__)
    s.software["host_compiler"] = "gcc " __VERSION__;
#endif
    return s;
}

Result<SweepResult> run_sweep(const SweepPlan& plan, const RunOptions& options,
                              const std::string& command, const SweepCallbacks& callbacks,
                              const std::atomic<bool>* cancel) {
    Result<std::unique_ptr<RunContext>> ctx = RunContext::create(options);
    if (!ctx) return ctx.error();
    return run_sweep(plan, options, command, callbacks, cancel, **ctx);
}

SweepResult run_sweep(const SweepPlan& plan, const RunOptions& options, const std::string& command,
                      const SweepCallbacks& callbacks, const std::atomic<bool>* cancel,
                      RunContext& context) {
    SweepResult result;
    result.session = new_session(context.device(), command);
    result.skipped = plan.skipped;
    DeviceRecord& dev = result.session.device;
    if (options.metrics == MetricSet::off) {
        dev.counters_available = false;
        dev.counters_reason = message_en(Msg::counters_metrics_off);
    } else {
        CounterProfiler& profiler = context.profiler(options.metrics);
        dev.counters_available = profiler.available();
        dev.counters_reason = dev.counters_available ? "" : profiler.unavailable_reason();
    }

    const int total = int(plan.items.size());
    int done = 0;
    for (const SweepItem& item : plan.items) {
        if (cancel && cancel->load()) {
            result.cancelled = true;
            break;
        }
        std::string label =
            std::string(item.kernel->id) + " N=" + std::to_string(item.problem.cols);
        if (item.variant > 0) label += " (" + item.kernel->variants[size_t(item.variant)] + ")";
        if (callbacks.progress) callbacks.progress(done, total, label);
        RunOptions item_options = options;
        item_options.variant = item.variant;
        Result<PointRecord> point = run_point(*item.kernel, item.problem, item_options, context);
        if (point) {
            result.session.points.push_back(std::move(*point));
            if (callbacks.point_done) callbacks.point_done(result.session.points.back());
        } else {
            result.failures.push_back(
                PointFailure{item.kernel->id, item.problem.cols, point.error()});
            result.session.notes["failed: " + label] = point.error().message;
        }
        ++done;
    }
    if (callbacks.progress)
        callbacks.progress(done, total, result.cancelled ? "cancelled" : "done");

    // The device's copy bandwidth is the one measured at the largest size (the sweep's 1 GiB).
    int64_t largest = -1;
    for (const PointRecord& p : result.session.points) {
        DType t = DType::f32;
        (void)parse_dtype(p.dtype, &t);  // points written by this sweep always name a valid dtype
        const int64_t bytes = p.rows * p.cols * dtype_size(t);
        if (bytes > largest) largest = bytes, dev.copy_gbps = p.copy_gbps;
    }
    if (!plan.skipped.empty())
        result.session.notes["skipped_out_of_range"] =
            std::to_string(plan.skipped.size()) + " (kernel, N) pairs outside their kernel's range";
    if (result.cancelled)
        result.session.notes["cancelled"] = "the sweep was cancelled before the end";
    return result;
}

}  // namespace sml
