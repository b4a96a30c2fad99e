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

std::vector<int64_t> default_sweep_cols() {
    // Powers of two from 32 to 2^20, plus the neighbours where kernels change behaviour:
    // 1000/1025 (around the warp kernel's end), 3000 and 12288 (not powers of two: no padding
    // waste for tiled kernels, some for next_pow2 blocks), 8193 (just past 2^13: half of fused's
    // next_pow2 block is masked away, the power-of-two cliff), 16385 (past the end of the
    // register-held kernels) and 100003 (a large prime: no vector-width alignment).
    return {32,   128,   256,   512,   1000,  1024,  1025,   2048,   3000,   4096,   8192,
            8193, 12288, 16384, 16385, 32768, 65536, 100003, 131072, 262144, 524288, 1048576};
}

SweepPlan plan_sweep(const std::vector<const KernelInfo*>& kernels,
                     const std::vector<int64_t>& cols, int64_t elements, DType dtype,
                     const DeviceLimits& limits, bool all_variants) {
    std::vector<int64_t> sorted = cols;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    SweepPlan plan;
    for (const KernelInfo* k : kernels) {
        for (int64_t n : sorted) {
            const int64_t rows = n > 0 ? std::max<int64_t>(elements / n, 1) : 1;
            const SoftmaxProblem p = SoftmaxProblem::contiguous(rows, n, dtype);
            if (Status s = check_problem(*k, p, limits); !s)
                plan.skipped.push_back(SkippedItem{k->id, n, s.error().message});
            else {
                const int nvariants = all_variants ? std::max<int>(1, int(k->variants.size())) : 1;
                for (int v = 0; v < nvariants; ++v) plan.items.push_back(SweepItem{k, p, v});
            }
        }
    }
    return plan;
}

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
        dev.counters_reason = "metrics turned off (--metrics off)";
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

Result<SweepItem> parse_extra_point(const std::string& text, DType dtype,
                                    const DeviceLimits& limits) {
    const std::string form = "use <kernel>[/<variant>]:<rows>x<cols>, e.g. naive:4096x1024";
    const size_t colon = text.find(':');
    const size_t x = text.find('x', colon == std::string::npos ? 0 : colon);
    if (colon == std::string::npos || x == std::string::npos)
        return Error{"cannot read extra point '" + text + "'", form};
    std::string id = text.substr(0, colon), variant;
    if (const size_t slash = id.find('/'); slash != std::string::npos) {
        variant = id.substr(slash + 1);
        id = id.substr(0, slash);
    }
    const KernelInfo* k = find_kernel(id);
    if (!k)
        return Error{"unknown kernel '" + id + "' in extra point '" + text + "'",
                     "kernels: " + kernel_ids()};
    int v = 0;
    if (!variant.empty()) {
        auto it = std::find(k->variants.begin(), k->variants.end(), variant);
        if (it == k->variants.end()) {
            std::string names;
            for (const std::string& n : k->variants) names += (names.empty() ? "" : ", ") + n;
            return Error{id + " has no variant '" + variant + "'",
                         names.empty() ? id + " has only its default variant"
                                       : "variants of " + id + ": " + names};
        }
        v = int(it - k->variants.begin());
    }
    // Each side read whole (core/common/parse_number.h): " 12", "+5" and 2^64 are errors that
    // quote what was typed.
    const Result<int64_t> rows = parse_integer(text.substr(colon + 1, x - colon - 1),
                                               "rows in extra point '" + text + "'", 1);
    if (!rows) return Error{rows.error().message, form};
    const Result<int64_t> cols =
        parse_integer(text.substr(x + 1), "cols in extra point '" + text + "'", 1);
    if (!cols) return Error{cols.error().message, form};
    const SoftmaxProblem p = SoftmaxProblem::contiguous(*rows, *cols, dtype);
    if (Status s = check_problem(*k, p, limits); !s) return s.error();
    if (Result<size_t> bytes =
            matrix_bytes(*rows, *cols, size_t(dtype_size(dtype)), "extra point '" + text + "'");
        !bytes)
        return bytes.error();
    return SweepItem{k, p, v};
}

}  // namespace sml
