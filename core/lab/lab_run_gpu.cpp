// run_job: one lab job on this machine's GPU. See lab_run.h for what it does and lab_job.h for
// the documents.
//
// [SECTION] Swapping the edit's kernels into the original's launches
// [SECTION] Per-line counters
// [SECTION] run_job
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "core/lab/bytes.h"
#include "core/lab/compile.h"
#include "core/lab/kernel_names.h"
#include "core/lab/lab_child.h"
#include "core/lab/lab_run.h"
#include "core/lab/line_map.h"
#include "core/lab/sass_metrics.h"
#include "core/measure/device_buffer.h"
#include "core/measure/input_gen.h"
#include "core/runner/runner.h"
#include "kernels/launch.h"
#include "kernels/registry.h"

namespace sml::lab {
namespace {

// =============================================================================================
// [SECTION] Swapping the edit's kernels into the original's launches
// =============================================================================================

// What the rewrite learned, shared between run_point's hook, the per-line pass and the result.
struct EditState {
    const LabJob* job = nullptr;
    std::string source_name;
    std::string arch;
    std::vector<LaunchOverride> overrides;
    bool compiled = false;
    bool compile_failed = false;
    bool launch_refused = false;  // an @launch override the launch cannot take
    CompileResult compile;
    cudaLibrary_t library = nullptr;
    std::map<std::string, std::string> expression_of;  // original mangled name -> expression
    std::set<std::string> lowered;                     // the edit's kernels (mangled)
    std::vector<std::string> applied;                  // overrides as applied, per step
    std::string last_step;                             // the launch enqueued last
    std::string last_function;

    ~EditState() {
        if (library) (void)cudaLibraryUnload(library);
    }
};

Error launch_error(const std::string& what, cudaError_t e, const std::string& hint) {
    (void)cudaGetLastError();
    return Error{what + ": " + cudaGetErrorString(e) + " (" + cudaGetErrorName(e) + ")", hint};
}

// The edit's kernel of that lowered name. cudaLibraryGetKernel finds it by name; should it not
// (kernels in an unnamed namespace have internal linkage), look through all of them.
Result<cudaKernel_t> find_kernel_in(cudaLibrary_t lib, const std::string& lowered) {
    cudaKernel_t k = nullptr;
    if (cudaLibraryGetKernel(&k, lib, lowered.c_str()) == cudaSuccess) return k;
    (void)cudaGetLastError();
    unsigned count = 0;
    if (cudaLibraryGetKernelCount(&count, lib) == cudaSuccess && count > 0) {
        std::vector<cudaKernel_t> all(count);
        if (cudaLibraryEnumerateKernels(all.data(), count, lib) == cudaSuccess)
            for (cudaKernel_t c : all) {
                const char* name = nullptr;
                if (cudaFuncGetName(&name, reinterpret_cast<const void*>(c)) == cudaSuccess &&
                    name && lowered == name)
                    return c;
            }
    }
    (void)cudaGetLastError();
    return Error{"the compiled edit has no kernel " + demangle(lowered),
                 "keep the original kernel's name and template parameters: the lab launches the "
                 "edit with its original's plan"};
}

// Loads the compiled edit (again: the per-line pass reloads it inside CUPTI's range, so the
// module load happens where CUPTI watches).
Status load_library(EditState* st) {
    if (st->library) (void)cudaLibraryUnload(st->library);
    st->library = nullptr;
    if (cudaError_t e = cudaLibraryLoadData(&st->library, st->compile.cubin.data(), nullptr,
                                            nullptr, 0, nullptr, nullptr, 0);
        e != cudaSuccess)
        return launch_error(
            "the GPU would not load the compiled edit", e,
            "compile for this GPU's architecture (the job's arch is " + st->arch + ")");
    return ok_status();
}

Status compile_for(const std::vector<LaunchStep>& steps, EditState* st) {
    std::vector<std::string> exprs;
    for (const LaunchStep& s : steps) {
        const char* mangled = nullptr;
        if (cudaError_t e = cudaFuncGetName(&mangled, s.func); e != cudaSuccess || !mangled)
            return launch_error("cannot name the original " + s.name + " kernel", e,
                                "this CUDA runtime may be older than 12.3 (cudaFuncGetName)");
        Result<std::string> expr = name_expression(demangle(mangled));
        if (!expr) return expr.error();
        st->expression_of[mangled] = *expr;
        if (std::find(exprs.begin(), exprs.end(), *expr) == exprs.end()) exprs.push_back(*expr);
    }
    CompileRequest req;
    req.source = st->job->source;
    req.source_name = st->source_name;
    req.arch = st->arch;
    req.name_expressions = exprs;
    Result<CompileResult> c = compile_source(req);
    if (!c) return c.error();
    st->compile = *c;
    if (!c->ok) {
        st->compile_failed = true;
        return Error{"the edit does not compile", "fix the errors shown at their lines"};
    }
    if (Status s = load_library(st); !s) return s;
    for (const CompiledKernel& k : c->kernels) st->lowered.insert(k.lowered);
    st->compiled = true;
    return ok_status();
}

// run_point's hook: the same launches, with the edit's kernels and the overrides' shapes.
Status rewrite_steps(std::vector<LaunchStep>* steps, EditState* st) {
    std::vector<std::string> names;
    for (const LaunchStep& s : *steps) {
        if (!s.launch_as)
            return Error{"the " + s.name + " launch of " + st->job->kernel +
                             " cannot be relaunched with an edited kernel",
                         "its plan must build its launches with detail::make_step"};
        names.push_back(s.name);
    }
    for (const std::string& bad : unknown_steps(st->overrides, names)) {
        std::string all;
        for (const std::string& n : names) all += (all.empty() ? "" : ", ") + n;
        st->launch_refused = true;
        return Error{"@launch step=" + bad + ": " + st->job->kernel + " has no launch named " + bad,
                     "its launches: " + all};
    }
    if (!st->compiled)
        if (Status s = compile_for(*steps, st); !s) return s;
    st->applied.clear();
    for (LaunchStep& s : *steps) {
        const char* mangled = nullptr;
        if (cudaError_t e = cudaFuncGetName(&mangled, s.func); e != cudaSuccess || !mangled)
            return launch_error("cannot name the original " + s.name + " kernel", e, "");
        const std::string& expr = st->expression_of[mangled];
        std::string lowered;
        for (const CompiledKernel& k : st->compile.kernels)
            if (k.expression == expr) lowered = k.lowered;
        Result<cudaKernel_t> kernel = find_kernel_in(st->library, lowered);
        if (!kernel) return kernel.error();
        LaunchShape shape;
        shape.step = s.name;
        shape.grid[0] = s.grid.x, shape.grid[1] = s.grid.y, shape.grid[2] = s.grid.z;
        shape.block[0] = s.block.x, shape.block[1] = s.block.y, shape.block[2] = s.block.z;
        shape.smem = int64_t(s.dynamic_smem);
        if (Status a = apply_overrides(st->overrides, &shape); !a) {
            st->launch_refused = true;
            return a;
        }
        const void* func = reinterpret_cast<const void*>(*kernel);
        if (shape.smem > 0)
            if (cudaError_t e = cudaFuncSetAttribute(
                    func, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shape.smem));
                e != cudaSuccess)
                return launch_error("the " + s.name + " launch asks for " +
                                        std::to_string(shape.smem) +
                                        " bytes of dynamic shared memory",
                                    e, "this GPU allows less per block; lower smem=");
        const dim3 grid(unsigned(shape.grid[0]), unsigned(shape.grid[1]), unsigned(shape.grid[2]));
        const dim3 block(unsigned(shape.block[0]), unsigned(shape.block[1]),
                         unsigned(shape.block[2]));
        const size_t smem = size_t(shape.smem);
        if (grid.x != s.grid.x || block.x != s.block.x || block.y != s.block.y ||
            block.z != s.block.z || smem != s.dynamic_smem)
            st->applied.push_back(s.name + ": grid " + std::to_string(grid.x) + ", block " +
                                  std::to_string(block.x) + "x" + std::to_string(block.y) + "x" +
                                  std::to_string(block.z) + ", smem " + std::to_string(smem));
        auto as = s.launch_as;
        const std::string step = s.name;
        s.launch = [as, func, grid, block, smem, step, lowered, st](cudaStream_t stream) {
            st->last_step = step;
            st->last_function = lowered;
            return as(func, grid, block, smem, stream);
        };
        s.func = func;
        s.grid = grid;
        s.block = block;
        s.dynamic_smem = smem;
    }
    return ok_status();
}

// =============================================================================================
// [SECTION] Per-line counters
// =============================================================================================

// One more run of the edited launches with CUPTI's SASS metrics on, folded per source line.
SourceLinesRecord collect_per_line(const KernelInfo& k, const SoftmaxProblem& p,
                                   const RunOptions& options, const DeviceLimits& limits,
                                   EditState* st, std::vector<SassRecord>* raw) {
    SourceLinesRecord out;
    auto fail = [&out](const Error& e) {
        out.available = false;
        out.reason = e.message + (e.hint.empty() ? "" : " (" + e.hint + ")");
        return out;
    };
    const size_t esize = size_t(dtype_size(p.dtype));
    const size_t bytes = size_t(p.rows * p.cols) * esize;
    DeviceBuffer in, outb, ws;
    if (Status s = in.allocate(bytes, "per-line input"); !s) return fail(s.error());
    if (Status s = outb.allocate(bytes, "per-line output"); !s) return fail(s.error());
    const size_t wsb = k.workspace_bytes ? k.workspace_bytes(p, limits) : 0;
    if (Status s = ws.allocate(wsb, "per-line workspace"); !s) return fail(s.error());
    if (cudaError_t e = generate_normal_input(in.get(), p.dtype, p.rows, p.cols, p.in_stride,
                                              options.seed, nullptr);
        e != cudaSuccess)
        return fail(launch_error("generating the per-line input", e, ""));
    if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess)
        return fail(launch_error("generating the per-line input", e, ""));

    Result<std::unique_ptr<SassMetricsCollector>> c = SassMetricsCollector::create(options.device);
    if (!c) return fail(c.error());
    out.chip = (*c)->chip();
    out.metric_names = (*c)->metric_names();
    if (Status s = (*c)->enable(); !s) return fail(s.error());
    if (Status s = load_library(st); !s) return fail(s.error());  // inside the range: see above
    LaunchArgs args;
    args.problem = p;
    args.in = in.get();
    args.out = outb.get();
    args.workspace = wsb ? ws.get() : nullptr;
    args.variant = options.variant;
    args.limits = limits;
    std::vector<LaunchStep> steps;
    if (cudaError_t e = plan_launches(k, args, &steps); e != cudaSuccess)
        return fail(launch_error("planning the per-line run", e, ""));
    if (Status s = rewrite_steps(&steps, st); !s) return fail(s.error());
    for (LaunchStep& s : steps)
        if (cudaError_t e = s.launch(nullptr); e != cudaSuccess)
            return fail(launch_error("the per-line run of " + s.name, e, ""));
    if (cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess)
        return fail(launch_error("the per-line run", e, ""));
    Result<std::vector<SassRecord>> records = (*c)->flush();
    (void)(*c)->disable();
    if (!records) return fail(records.error());
    // Keep the edit's kernels' records, named by their mangled name (the cubin's), whether
    // CUPTI reports it mangled or demangled.
    std::map<std::string, std::string> mangled_of;
    for (const std::string& l : st->lowered) mangled_of[l] = l, mangled_of[demangle(l)] = l;
    for (SassRecord r : *records) {
        auto it = mangled_of.find(r.function);
        if (it == mangled_of.end()) continue;
        r.function = it->second;
        raw->push_back(std::move(r));
    }
    if (raw->empty() && !records->empty())
        return fail(Error{"CUPTI's " + std::to_string(records->size()) +
                              " per-instruction records name none of the edit's kernels (first: " +
                              records->front().function + ")",
                          ""});
    Result<LineMaps> maps = map_record_lines(st->compile.cubin, *raw);
    if (!maps) return fail(maps.error());
    out.lines = fold_per_line(*raw, *maps);
    out.instructions = per_instruction(*raw, *maps);
    // The line info names the file as NVRTC was given it (its base name); the result names it as
    // the job does (kernels/warp_softmax.cu), which is what the editor's gutter looks up.
    const std::string base = st->source_name.substr(st->source_name.find_last_of('/') + 1);
    for (LineCounters& l : out.lines)
        if (l.file == base) l.file = st->source_name;
    out.available = !raw->empty();
    if (!out.available) out.reason = "CUPTI returned no per-instruction records for the edit";
    std::string missing;
    for (const std::string& m : (*c)->missing_roles()) missing += (missing.empty() ? "" : ", ") + m;
    if (!missing.empty()) out.reason = "not on this chip: " + missing;
    return out;
}

// =============================================================================================
// [SECTION] run_job
// =============================================================================================

LabResult finish(LabResult r, std::chrono::steady_clock::time_point t0) {
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
}

void copy_compile(const EditState& st, LabResult* r) {
    r->arch = st.compile.arch;
    r->compile_seconds = st.compile.seconds;
    r->diagnostics.insert(r->diagnostics.end(), st.compile.diagnostics.begin(),
                          st.compile.diagnostics.end());
    r->compile_log = st.compile.log;
    r->ptx = st.compile.ptx;
    r->cubin = st.compile.cubin;
    r->kernels = st.compile.kernels;
    r->launch_overrides = st.applied;
}

}  // namespace

LabResult run_job(const LabJob& job) {
    const auto t0 = std::chrono::steady_clock::now();
    LabResult r;
    const KernelInfo* k = lab_kernel(job.kernel, &r);
    if (!k) return finish(r, t0);
    DType dtype = DType::f32;
    if (!parse_dtype(job.dtype, &dtype)) {
        r.status = status::kBadJob;
        r.message = "unknown dtype '" + job.dtype + "'";
        r.hint = "use fp32, fp16 or bf16";
        return finish(r, t0);
    }
    MetricSet metrics = MetricSet::standard;
    if (!parse_metric_set(job.metrics, &metrics)) {
        r.status = status::kBadJob;
        r.message = "unknown metric set '" + job.metrics + "'";
        r.hint = "use off, default or deep";
        return finish(r, t0);
    }
    EditState st;
    st.job = &job;
    st.source_name = job.source_name.empty() ? k->lesson_source() : job.source_name;
    std::vector<Diagnostic> directive_errors;
    st.overrides = parse_launch_overrides(job.source, st.source_name, &directive_errors);
    st.overrides.insert(st.overrides.end(), job.launch.begin(), job.launch.end());
    if (!directive_errors.empty()) {
        r.status = status::kCompileError;
        r.diagnostics = directive_errors;
        r.message = "an @launch line is not valid";
        r.hint = "see docs/lab.md for its keys";
        return finish(r, t0);
    }

    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        (void)cudaGetLastError();
        r = compile_job(job, job.arch);
        if (r.status == status::kOk) {
            r.status = status::kNoGpu;
            r.message = "the edit compiles for " + r.arch + "; running it needs an NVIDIA GPU";
            r.hint = "run it on a machine with a GPU";
        }
        return finish(r, t0);
    }
    cudaDeviceProp prop{};
    if (cudaError_t e = cudaGetDeviceProperties(&prop, 0); e != cudaSuccess) {
        r.status = status::kNoGpu;
        r.message = std::string("the GPU could not be opened: ") + cudaGetErrorString(e);
        return finish(r, t0);
    }
    st.arch = !job.arch.empty() ? job.arch
                                : "sm_" + std::to_string(prop.major) + std::to_string(prop.minor);

    RunOptions options;
    options.metrics = metrics;
    options.timing.samples = job.samples;
    options.timing.warmup = job.warmup;
    options.seed = job.seed;
    options.variant = job.variant;
    options.check_rows = job.check_rows;
    if (job.mode == "check") {
        options.metrics = MetricSet::off;
        options.timing.samples = 1;
        options.timing.warmup = 0;
        options.time_each_launch = false;
        options.check_rows = job.rows;
    }
    options.rewrite_steps = [&st](std::vector<LaunchStep>* steps) {
        return rewrite_steps(steps, &st);
    };
    const SoftmaxProblem problem = SoftmaxProblem::contiguous(job.rows, job.cols, dtype);

    Result<std::unique_ptr<RunContext>> ctx = RunContext::create(options);
    if (!ctx) {
        r.status = status::kNoGpu;
        r.message = ctx.error().message;
        r.hint = ctx.error().hint;
        return finish(r, t0);
    }
    const DeviceLimits limits = (*ctx)->limits();
    Result<PointRecord> point = run_point(*k, problem, options, **ctx);
    copy_compile(st, &r);
    if (!point) {
        r.message = point.error().message;
        r.hint = point.error().hint;
        if (st.compile_failed) {
            r.status = status::kCompileError;
            return finish(r, t0);
        }
        if (st.launch_refused) {
            r.status = status::kLaunchError;
            return finish(r, t0);
        }
        // A fault is sticky: the context is lost, and the error names it.
        RuntimeClass c = classify_runtime_error(r.message);
        if (c.status == status::kFailed) {
            const cudaError_t sticky = cudaDeviceSynchronize();
            if (sticky != cudaSuccess) c = classify_runtime_error(cudaGetErrorName(sticky));
        }
        r.status = c.status;
        if (c.status == status::kFault || c.status == status::kTimeout) {
            r.fault = FaultInfo{c.kind, st.last_step, st.last_function, "", 0, ""};
            r.message =
                "the edited kernel faulted (" + c.kind + ") in its " + st.last_step + " launch";
            r.hint =
                "CUDA names the launch, not the line; the lab asks compute-sanitizer for "
                "the line when it can. Your edit is saved.";
        }
        return finish(r, t0);
    }
    point->edit = EditRecord{job.kernel, st.source_name, sha256_hex(job.source),
                             [&] {
                                 std::string s;
                                 for (const LaunchOverride& o : st.overrides)
                                     s += (s.empty() ? "" : "; ") + describe(o);
                                 return s;
                             }(),
                             job.label};
    r.status = point->within_tolerance ? status::kOk : status::kWrong;
    r.message = r.status == status::kOk
                    ? "correct; " + std::to_string(int(point->gbps + 0.5)) + " GB/s, " +
                          std::to_string(int(point->pct_of_copy + 0.5)) + "% of copy"
                    : "max relative error " + std::to_string(point->max_rel_error) +
                          " (tolerance " + std::to_string(point->tolerance) + ")";
    if (r.status == status::kWrong)
        r.hint =
            "compare your edit with the original; the output was poisoned with NaN first, "
            "so a NaN means an element was never written";
    Session session = new_session((*ctx)->device(), "softmaxlab-cli lab run");
    session.device.copy_gbps = point->copy_gbps;
    session.device.counters_available = point->metrics.available;
    session.device.counters_reason = point->metrics.available ? "" : point->metrics.reason;
    session.notes["lab"] = "an edit of " + job.kernel + " (" + st.source_name + ")";
    const int device = options.device;
    ctx->reset();  // ends the Range Profiler session before the SASS metrics start

    if (job.per_line && job.mode == "measure") {
        RunOptions per = options;
        per.device = device;
        point->source_lines = collect_per_line(*k, problem, per, limits, &st, &r.sass_records);
        r.cubin_crc = r.sass_records.empty() ? 0 : r.sass_records.front().cubin_crc;
        r.notes["cupti_cubin_crc"] = std::to_string(cubin_crc(st.compile.cubin));
    }
    session.points.push_back(*point);
    r.session = session;
    return finish(r, t0);
}

}  // namespace sml::lab
