// `softmaxlab-cli run`: one kernel at one size, validated, timed, and printed as a result block.
#include <cstdio>
#include <memory>
#include <utility>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/lab_report.h"
#include "app/cli/report.h"
#include "core/common/safe_file.h"
#include "core/lab/edit_store.h"
#include "core/lab/lab_child.h"
#include "core/runner/runner.h"
#include "kernels/registry.h"

namespace sml::cli {

namespace {
// Numbers are kept as typed and read whole in run_command (core/common/parse_number.h), so
// "--cols 99999999999999999999999" or "--warmup -1" is reported as the user wrote it.
struct RunArgs {
    std::string kernel;
    std::string rows = "4096";
    std::string cols = "1024";
    std::string dtype = "fp32";
    std::string variant;
    std::string samples = "20";
    std::string warmup = "3";
    std::string metrics = "default";
    std::string json_out;
    std::string seed = "1";
    // An edited copy of the kernel's file (the lab bench, docs/lab.md), run in a child process.
    std::string source;
    std::string label;
    std::string result_out;  // the whole lab result (cubin, raw records), for the record
    std::string time_limit = "120";  // seconds, read whole by parse_seconds
    bool no_per_line = false;
};

// The variant by name or index; "" is the default (0).
Result<int> parse_variant(const KernelInfo& k, const std::string& v) {
    if (v.empty()) return 0;
    for (size_t i = 0; i < k.variants.size(); ++i)
        if (k.variants[i] == v || std::to_string(i) == v) return int(i);
    std::string names;
    for (const std::string& n : k.variants) names += (names.empty() ? "" : ", ") + n;
    return Error{"kernel " + std::string(k.id) + " has no variant '" + v + "'",
                 names.empty() ? std::string("it has only its default form; drop --variant")
                               : "its variants: " + names};
}

// --source: the edit runs as a lab job in a child process; whatever it does, this one reports.
// The numbers are the parsed values of a's options (read whole by run_command).
struct RunNumbers {
    int64_t rows = 0, cols = 0, samples = 0, warmup = 0;
    uint64_t seed = 0;
    double time_limit_s = 0;
};
int run_edit(const RunArgs& a, const KernelInfo& k, int variant, const RunNumbers& n) {
    Result<std::string> src = lab::read_file_capped(a.source, lab::EditStore::kMaxEditBytes);
    if (!src) return fail(src.error(), kExitBadArgs);
    lab::LabJob job = lab::make_job(k.id, k.lesson_source(), *src);
    job.label = a.label;
    job.rows = n.rows;
    job.cols = n.cols;
    job.dtype = a.dtype;
    job.variant = variant;
    job.metrics = a.metrics;
    job.per_line = !a.no_per_line;
    job.samples = int(n.samples);
    job.warmup = int(n.warmup);
    job.seed = n.seed;
    lab::ChildJobOptions o;
    o.time_limit_s = n.time_limit_s;
    const lab::LabResult r = lab::run_job_in_child(job, o);
    print_lab_result(r);
    if (!a.result_out.empty())
        if (Status st = lab::save_result(a.result_out, r); !st)
            return fail(st.error(), kExitFailure);
    if (!a.json_out.empty() && r.session) {
        Session s = *r.session;
        s.command = command_line();
        if (Status st = save_session(a.json_out, s); !st) return fail(st.error(), kExitFailure);
        std::printf("\nsession written to %s\n", a.json_out.c_str());
    }
    return lab_exit_code(r);
}

int run_command(const RunArgs& a) {
    Result<const KernelInfo*> kernel = parse_kernel(a.kernel);
    if (!kernel) return fail(kernel.error(), kExitBadArgs);
    Result<DType> dtype = parse_dtype_arg(a.dtype);
    if (!dtype) return fail(dtype.error(), kExitBadArgs);
    Result<int> variant = parse_variant(**kernel, a.variant);
    if (!variant) return fail(variant.error(), kExitBadArgs);
    // At least 1 here; check_problem below checks them against the kernel's range.
    const Result<int64_t> rows = parse_integer(a.rows, "--rows", 1);
    if (!rows) return fail(rows.error(), kExitBadArgs);
    const Result<int64_t> cols = parse_integer(a.cols, "--cols", 1);
    if (!cols) return fail(cols.error(), kExitBadArgs);
    const Result<int64_t> samples = parse_integer(a.samples, "--samples", 1, 1000000);
    if (!samples) return fail(samples.error(), kExitBadArgs);
    const Result<int64_t> warmup = parse_integer(a.warmup, "--warmup", 0, 1000000);
    if (!warmup) return fail(warmup.error(), kExitBadArgs);
    const Result<uint64_t> seed = parse_unsigned(a.seed, "--seed");
    if (!seed) return fail(seed.error(), kExitBadArgs);
    const Result<double> time_limit =
        parse_seconds(a.time_limit, "--time-limit", kMaxTimeLimitSeconds);
    if (!time_limit) return fail(time_limit.error(), kExitBadArgs);
    Result<MetricSet> metrics = parse_measure_options(a.metrics, int(*samples));
    if (!metrics) return fail(metrics.error(), kExitBadArgs);
    const SoftmaxProblem problem = SoftmaxProblem::contiguous(*rows, *cols, *dtype);

    // Check the size against the kernel's range before anything needs a GPU, so a bad N is
    // reported as such (against the H100 reference limits when there is no GPU here).
    Error no_gpu;
    bool have_gpu = false;
    const DeviceLimits limits = limits_for_checks(&no_gpu, &have_gpu);
    if (Status s = check_problem(**kernel, problem, limits); !s) {
        Error e = s.error();
        if (!have_gpu) e.message += " [checked against the H100 reference limits: no GPU here]";
        return fail(e, kExitBadArgs);
    }
    // --result or --json written over --source would replace the edit with JSON (it used to,
    // even when the run failed); the two outputs over each other would lose one.
    for (const auto& [option, path] :
         {std::pair{"--result", a.result_out}, std::pair{"--json", a.json_out}})
        if (Status s = check_output_is_not_an_input(path, option, {{"--source", a.source}}); !s)
            return fail(s.error(), kExitBadArgs);
    if (Status s = check_output_is_not_an_input(a.result_out, "--result", {{"--json", a.json_out}});
        !s)
        return fail(s.error(), kExitBadArgs);
    for (const auto& [option, path] :
         {std::pair{"--json", a.json_out}, std::pair{"--result", a.result_out}})
        if (!path.empty())
            if (Status s = check_writable(path, option); !s) return fail(s.error(), kExitBadArgs);
    if (!a.source.empty())
        return run_edit(a, **kernel, *variant,
                        RunNumbers{*rows, *cols, *samples, *warmup, *seed, *time_limit});
    if (!have_gpu) return fail(no_gpu, kExitFailure);

    RunOptions options;
    options.metrics = *metrics;
    options.timing.samples = int(*samples);
    options.timing.warmup = int(*warmup);
    options.variant = *variant;
    options.seed = *seed;
    Result<std::unique_ptr<RunContext>> ctx = RunContext::create(options);
    if (!ctx) return fail(ctx.error(), kExitFailure);
    Result<PointRecord> point = run_point(**kernel, problem, options, **ctx);
    if (!point) return fail(point.error(), kExitFailure);

    Session session = new_session((*ctx)->device(), command_line());
    session.device.copy_gbps = point->copy_gbps;
    session.device.counters_available = point->metrics.available;
    session.device.counters_reason = point->metrics.available ? "" : point->metrics.reason;
    session.points.push_back(*point);
    print_point(*point, session.device);
    if (!a.json_out.empty()) {
        if (Status s = save_session(a.json_out, session); !s) return fail(s.error(), kExitFailure);
        std::printf("\nsession written to %s\n", a.json_out.c_str());
    }
    if (!point->within_tolerance)
        return fail(
            Error{std::string(point->kernel) + " is wrong at N = " + std::to_string(point->cols) +
                      ": max relative error " + fmt_sci(point->max_rel_error) + ", row-sum error " +
                      fmt_sci(point->max_rowsum_error) + " (tolerance " +
                      fmt_sci(point->tolerance) + ")",
                  "the result is recorded but flagged; compare with another kernel "
                  "(softmaxlab-cli run --kernel online ...) to isolate the bug"},
            kExitFailure);
    return kExitOk;
}
}  // namespace

CommandFn add_run_command(CLI::App& app) {
    auto a = std::make_shared<RunArgs>();
    CLI::App* sub = app.add_subcommand("run", "Run one kernel at one size: check, time, profile");
    sub->add_option("-k,--kernel", a->kernel, "Kernel id (see `softmaxlab-cli list`)")->required();
    sub->add_option("-m,--rows", a->rows, "Rows M")->default_val("4096");
    sub->add_option("-n,--cols", a->cols, "Columns N (the softmax length)")->default_val("1024");
    sub->add_option("--dtype", a->dtype, "fp32, fp16 or bf16")->default_val("fp32");
    sub->add_option("--variant", a->variant,
                    "Kernel variant, by name or index (e.g. smem's "
                    "bank-conflicted layout)");
    sub->add_option("--samples", a->samples, "Timed samples (median reported)")->default_val("20");
    sub->add_option("--warmup", a->warmup, "Untimed warm-up runs")->default_val("3");
    sub->add_option("--metrics", a->metrics,
                    "Hardware counters: off, default or deep (deep adds "
                    "SM throughput, 8 passes)")
        ->default_val("default");
    sub->add_option("--json", a->json_out, "Also write the result as a session file")
        ->check(non_empty_path());
    sub->add_option("--seed", a->seed, "Input generator seed (0 .. 2^64-1)")->default_val("1");
    sub->add_option("--source", a->source,
                    "Run an edited copy of the kernel's .cu file instead (in a child process; "
                    "see docs/lab.md)")
        ->check(non_empty_path());
    sub->add_option("--label", a->label, "With --source: a name for the edit, kept in the result");
    sub->add_option("--result", a->result_out,
                    "With --source: also write the whole lab result (JSON with the cubin and the "
                    "raw per-instruction records)")
        ->check(non_empty_path());
    sub->add_option("--time-limit", a->time_limit,
                    "With --source: seconds before the run is stopped (an endless loop; at most "
                    "3600)")
        ->default_val("120");
    sub->add_flag("--no-per-line", a->no_per_line,
                  "With --source: skip the per-line (SASS) counters");
    sub->footer(
        "\nExamples:\n  softmaxlab-cli run --kernel fused --rows 4096 --cols 16385\n"
        "  softmaxlab-cli run --kernel smem --cols 8192 --variant bank-conflicted\n"
        "  softmaxlab-cli run --kernel naive --rows 4096 --cols 1024 --json naive.json\n"
        "  softmaxlab-cli run --kernel warp --cols 1024 --source my_warp.cu --label strided");
    return [a] { return run_command(*a); };
}

}  // namespace sml::cli
