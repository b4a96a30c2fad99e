// run_point: one (kernel, M, N) measured end to end. See runner.h for the order of the steps.
#include <string>
#include <vector>

#include "core/measure/accuracy.h"
#include "core/measure/device_info.h"
#include "core/measure/input_gen.h"
#include "core/runner/runner.h"
#include "kernels/registry.h"

namespace sml {

Result<std::unique_ptr<RunContext>> RunContext::create(const RunOptions& options) {
    Result<DeviceRecord> device = query_device_record(options.device);
    if (!device) return device.error();
    if (cudaError_t e = cudaSetDevice(options.device); e != cudaSuccess)
        return cuda_error(e, "cudaSetDevice(" + std::to_string(options.device) + ")");
    std::unique_ptr<RunContext> ctx(new RunContext());
    ctx->device_ = *device;
    if (!query_device_limits(options.device, &ctx->limits_))
        return Error{"could not read the limits of CUDA device " + std::to_string(options.device),
                     kNoGpuHint};
    if (cudaError_t e = cudaStreamCreateWithFlags(&ctx->stream_, cudaStreamNonBlocking);
        e != cudaSuccess)
        return cuda_error(e, "cudaStreamCreate");
    if (Status s = ctx->flusher_.init(ctx->device_.l2_bytes); !s) return s.error();
    ctx->metric_set_ = options.metrics;
    return ctx;
}

RunContext::~RunContext() {
    if (stream_) cudaStreamDestroy(stream_);
}

CounterProfiler& RunContext::profiler(MetricSet set) {
    if (!profiler_ || set != metric_set_) {
        profiler_.reset();  // one CUPTI session at a time
        metric_set_ = set;
        profiler_ = std::make_unique<CounterProfiler>(set);
    }
    return *profiler_;
}

double RunContext::copy_gbps(size_t bytes) const {
    auto it = copies_.find(bytes);
    return it == copies_.end() ? 0.0 : it->second.gbps;
}

bool point_is_correct(const PointRecord& p) {
    // Written as negations so NaN errors count as failures.
    return !(p.max_rel_error > p.tolerance) && !(p.max_rowsum_error > p.tolerance) &&
           p.max_rel_error == p.max_rel_error && p.max_rowsum_error == p.max_rowsum_error;
}

namespace {

// Grows a reusable buffer; keeps it when it is already large enough.
bool needs_growth(const DeviceBuffer& b, size_t bytes) {
    return b.size() < bytes;
}

cudaError_t enqueue_steps(std::vector<LaunchStep>& steps, cudaStream_t stream) {
    for (LaunchStep& s : steps) {
        if (cudaError_t e = s.launch(stream); e != cudaSuccess) return e;
        if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

LaunchRecord describe_launch(const LaunchStep& step, const DeviceLimits& limits) {
    LaunchRecord r;
    r.name = step.name;
    r.grid[0] = int(step.grid.x), r.grid[1] = int(step.grid.y), r.grid[2] = int(step.grid.z);
    r.block[0] = int(step.block.x), r.block[1] = int(step.block.y), r.block[2] = int(step.block.z);
    r.dynamic_smem_bytes = int64_t(step.dynamic_smem);
    if (!step.func) return r;
    // The instantiation that runs, for the code views (CUDA 12.3+; a mangled name).
    const char* symbol = nullptr;
    if (cudaFuncGetName(&symbol, step.func) == cudaSuccess && symbol) r.function = symbol;
    cudaFuncAttributes attr{};
    if (cudaFuncGetAttributes(&attr, step.func) == cudaSuccess) {
        r.registers_per_thread = attr.numRegs;
        r.static_smem_bytes = int64_t(attr.sharedSizeBytes);
    }
    const int threads = int(step.block.x * step.block.y * step.block.z);
    int blocks = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, step.func, threads,
                                                      step.dynamic_smem) == cudaSuccess) {
        r.blocks_per_sm = blocks;
        if (limits.max_threads_per_sm > 0)
            r.theoretical_occupancy_pct = 100.0 * blocks * threads / limits.max_threads_per_sm;
    }
    (void)cudaGetLastError();  // a failed attribute query must not poison the next launch
    return r;
}

std::string describe_problem(const KernelInfo& k, const SoftmaxProblem& p) {
    return std::string(k.id) + " at " + std::to_string(p.rows) + " x " + std::to_string(p.cols) +
           " " + dtype_name(p.dtype);
}

}  // namespace

Result<PointRecord> run_point(const KernelInfo& kernel, const SoftmaxProblem& problem,
                              const RunOptions& options, RunContext& ctx) {
    if (Status s = check_problem(kernel, problem, ctx.limits_); !s) return s.error();
    const int nvariants = int(kernel.variants.size());
    if (options.variant < 0 || (options.variant > 0 && options.variant >= nvariants))
        return Error{std::string(kernel.id) + " has no variant " + std::to_string(options.variant),
                     nvariants ? "variants: 0.." + std::to_string(nvariants - 1)
                               : std::string("this kernel has only the default variant 0")};
    const std::string what = describe_problem(kernel, problem);
    cudaStream_t stream = ctx.stream_;

    // --- memory ---------------------------------------------------------------------------
    const size_t esize = size_t(dtype_size(problem.dtype));
    Result<size_t> in_size = matrix_bytes(problem.rows, problem.in_stride, esize, what + " input");
    if (!in_size) return in_size.error();
    Result<size_t> out_size =
        matrix_bytes(problem.rows, problem.out_stride, esize, what + " output");
    if (!out_size) return out_size.error();
    const size_t in_bytes = *in_size, out_bytes = *out_size;
    const size_t ws_bytes =
        kernel.workspace_bytes ? kernel.workspace_bytes(problem, ctx.limits_) : 0;
    size_t total_bytes = 0;
    if (__builtin_add_overflow(in_bytes, out_bytes, &total_bytes) ||
        __builtin_add_overflow(total_bytes, ws_bytes, &total_bytes))
        return Error{what + " needs more than 2^64 bytes (input + output + workspace)",
                     "use a smaller problem (--elements for sweep, --rows/--cols for run)"};
    if (needs_growth(ctx.in_, in_bytes) || needs_growth(ctx.out_, out_bytes) ||
        needs_growth(ctx.workspace_, ws_bytes)) {
        ctx.in_.reset(), ctx.out_.reset(), ctx.workspace_.reset();
        if (Status s = check_fits(total_bytes, what + " (input + output + workspace)"); !s)
            return s.error();
        if (Status s = ctx.in_.allocate(in_bytes, what + " input"); !s) return s.error();
        if (Status s = ctx.out_.allocate(out_bytes, what + " output"); !s) return s.error();
        if (Status s = ctx.workspace_.allocate(ws_bytes, what + " workspace"); !s) return s.error();
    }

    // --- input, poisoned output, plan ------------------------------------------------------
    if (cudaError_t e =
            generate_normal_input(ctx.in_.get(), problem.dtype, problem.rows, problem.cols,
                                  problem.in_stride, options.seed, stream);
        e != cudaSuccess)
        return cuda_error(e, "generating the input for " + what);
    // All-ones bytes are NaN in fp32, fp16 and bf16: an element the kernel forgets stays NaN.
    if (cudaError_t e = cudaMemsetAsync(ctx.out_.get(), 0xFF, out_bytes, stream); e != cudaSuccess)
        return cuda_error(e, "poisoning the output");
    LaunchArgs args;
    args.problem = problem;
    args.in = ctx.in_.get();
    args.out = ctx.out_.get();
    args.workspace = ws_bytes ? ctx.workspace_.get() : nullptr;
    args.variant = options.variant;
    args.limits = ctx.limits_;
    std::vector<LaunchStep> steps;
    if (cudaError_t e = plan_launches(kernel, args, &steps); e != cudaSuccess)
        return cuda_error(e, "planning " + what);
    if (steps.empty())
        return Error{std::string(kernel.id) + " planned no launches for " + what,
                     "this is a bug in the kernel's plan function"};
    if (options.rewrite_steps)
        if (Status s = options.rewrite_steps(&steps); !s) return s.error();
    auto run_all = [&steps](cudaStream_t s) { return enqueue_steps(steps, s); };

    // --- validate before timing ------------------------------------------------------------
    if (cudaError_t e = run_all(stream); e != cudaSuccess)
        return cuda_error(e, "launching " + what);
    if (cudaError_t e = cudaStreamSynchronize(stream); e != cudaSuccess)
        return cuda_error(e, "running " + what);
    PointRecord point;
    point.kernel = kernel.id;
    point.variant = options.variant > 0 ? kernel.variants[size_t(options.variant)] : "";
    point.rows = problem.rows;
    point.cols = problem.cols;
    point.dtype = dtype_name(problem.dtype);
    const std::vector<int64_t> rows =
        sample_rows(problem.rows, sample_row_count(problem.rows, problem.cols, options.check_rows));
    Result<AccuracyResult> acc = check_rows(ctx.in_.get(), ctx.out_.get(), problem, rows);
    if (!acc) return acc.error();
    point.rows_checked = acc->rows_checked;
    point.max_rel_error = acc->max_rel_error;
    point.max_rowsum_error = acc->max_rowsum_error;
    point.tolerance = tolerance_for(problem.dtype);
    point.within_tolerance = point_is_correct(point);

    // --- timing ------------------------------------------------------------------------------
    Result<TimingStats> t = time_samples(run_all, stream, &ctx.flusher_, options.timing);
    if (!t) return t.error();
    point.time = *t;
    const size_t logical_bytes = size_t(problem.rows * problem.cols) * esize;
    point.gbps = bandwidth_gbps(2.0 * double(logical_bytes), t->median_ms);
    if (!ctx.copies_.count(logical_bytes)) {
        // The copy reads the input and overwrites the output; the check above already ran.
        Result<CopyMeasurement> copy = measure_copy(ctx.out_.get(), ctx.in_.get(), logical_bytes,
                                                    stream, &ctx.flusher_, options.timing);
        if (!copy) return copy.error();
        ctx.copies_[logical_bytes] = *copy;
    }
    point.copy_gbps = ctx.copies_[logical_bytes].gbps;
    point.pct_of_copy = point.copy_gbps > 0 ? 100.0 * point.gbps / point.copy_gbps : 0.0;

    // --- launch facts, and each launch alone for multi-launch kernels -------------------------
    for (const LaunchStep& s : steps) point.launches.push_back(describe_launch(s, ctx.limits_));
    if (steps.size() > 1 && options.time_each_launch) {
        for (size_t i = 0; i < steps.size(); ++i) {
            Result<TimingStats> ti =
                time_samples(steps[i].launch, stream, &ctx.flusher_, options.timing);
            if (!ti) return ti.error();
            point.launches[i].median_ms = ti->median_ms;
        }
    }
    point.predicted = predict_point(kernel, problem, ctx.limits_);

    // --- hardware counters ------------------------------------------------------------------
    if (options.metrics == MetricSet::off) {
        point.metrics.available = false;
        point.metrics.set = "off";
        point.metrics.set_reason(Msg::counters_metrics_off);
    } else {
        std::vector<NamedLaunch> named;
        for (LaunchStep& s : steps) named.push_back(NamedLaunch{s.name, s.launch});
        const L2Flusher& flusher = ctx.flusher_;
        point.metrics = ctx.profiler(options.metrics)
                            .profile(
                                named, [&flusher](cudaStream_t s) { flusher.flush(s); }, stream,
                                steps.size() > 1);
        (void)cudaGetLastError();
    }
    return point;
}

}  // namespace sml
