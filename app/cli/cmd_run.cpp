// `softmaxlab-cli run`: one kernel at one size, validated, timed, and printed as a result block.
// This file declares the options and checks them, in every build; cmd_run_gpu.cpp runs the point
// (gpu_commands.h).
#include <utility>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/gpu_commands.h"
#include "core/common/safe_file.h"
#include "core/lab/edit_store.h"
#include "kernels/registry.h"

namespace sml::cli {

namespace {
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
    RunChecked c{.kernel = *kernel,
                 .problem = problem,
                 .variant = *variant,
                 .metrics = *metrics,
                 .samples = *samples,
                 .warmup = *warmup,
                 .seed = *seed,
                 .time_limit_s = *time_limit};
    if (!a.source.empty()) {
        // An edit goes on without a GPU too: its lab job compiles it, and says why it cannot run.
        Result<std::string> src = lab::read_file_capped(a.source, lab::EditStore::kMaxEditBytes);
        if (!src) return fail(src.error(), kExitBadArgs);
        c.source_text = std::move(*src);
    } else if (!have_gpu) {
        return fail(no_gpu, kExitFailure);
    }
    return execute_run(a, c);
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
