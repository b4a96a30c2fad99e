// `softmaxlab-cli sweep`: every kernel over many N at a fixed element count, recorded as a
// session (the file the viewer replays and the charts are drawn from). This file declares the
// options and checks them, in every build; cmd_sweep_gpu.cpp runs the sweep (gpu_commands.h).
#include <algorithm>
#include <utility>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/gpu_commands.h"
#include "core/common/safe_file.h"
#include "core/common/text_cap.h"
#include "kernels/registry.h"

namespace sml::cli {

namespace {
std::string default_cols_text() {
    std::string s;
    for (int64_t n : default_sweep_cols()) s += (s.empty() ? "" : ",") + std::to_string(n);
    return s;
}

int sweep_command(const SweepArgs& a) {
    Result<std::vector<const KernelInfo*>> kernels = parse_kernel_list(a.kernels);
    if (!kernels) return fail(kernels.error(), kExitBadArgs);
    std::vector<int64_t> cols = default_sweep_cols();
    if (a.cols_option && a.cols_option->count() > 0) {
        Result<std::vector<int64_t>> parsed = parse_int_list(a.cols, "--cols");
        if (!parsed) return fail(parsed.error(), kExitBadArgs);
        cols = *parsed;
    }
    const Result<int64_t> elements = parse_integer(a.elements, "--elements", 1);
    if (!elements)
        return fail(Error{elements.error().message, "268435456 (1 GiB of fp32) is the default"},
                    kExitBadArgs);
    const Result<int64_t> samples = parse_integer(a.samples, "--samples", 1, 1000000);
    if (!samples) return fail(samples.error(), kExitBadArgs);
    const Result<uint64_t> seed = parse_unsigned(a.seed, "--seed");
    if (!seed) return fail(seed.error(), kExitBadArgs);
    Result<DType> dtype = parse_dtype_arg(a.dtype);
    if (!dtype) return fail(dtype.error(), kExitBadArgs);
    Result<MetricSet> metrics = parse_measure_options(a.metrics, int(*samples));
    if (!metrics) return fail(metrics.error(), kExitBadArgs);
    std::vector<int64_t> per_line_cols;
    if (!a.per_line.empty()) {
        Result<std::vector<int64_t>> n = parse_int_list(a.per_line, "--per-line");
        if (!n) return fail(n.error(), kExitBadArgs);
        for (int64_t v : *n)
            if (std::find(cols.begin(), cols.end(), v) == cols.end())
                return fail(Error{"--per-line " + std::to_string(v) + " is not one of the sweep's N",
                                  "pick from --cols (" + default_cols_text() + " by default)"},
                            kExitBadArgs);
        per_line_cols = *n;
    }
    // The CSV written over the session (or the other way round) would lose the session.
    if (!a.out.empty() && !a.csv.empty())
        if (Status s = check_output_is_not_an_input(a.csv, "--csv", {{"--out", a.out}}); !s)
            return fail(Error{"--csv " + quote_short(a.csv) + " and --out " + quote_short(a.out) +
                                  " are the same file: the CSV would replace the session",
                              "give --csv its own file name, e.g. session.csv"},
                        kExitBadArgs);
    for (const auto& [path, opt] : {std::pair{a.out, "--out"}, std::pair{a.csv, "--csv"}})
        if (!path.empty())
            if (Status s = check_writable(path, opt); !s) return fail(s.error(), kExitBadArgs);

    Error no_gpu;
    bool have_gpu = false;
    const DeviceLimits limits = limits_for_checks(&no_gpu, &have_gpu);
    if (a.variants != "default" && a.variants != "all")
        return fail(Error{"unknown --variants '" + a.variants + "'", "use default or all"},
                    kExitBadArgs);
    SweepPlan plan = plan_sweep(*kernels, cols, *elements, *dtype, limits, a.variants == "all");
    for (const std::string& text : a.extra) {
        Result<SweepItem> item = parse_extra_point(text, *dtype, limits);
        if (!item) return fail(item.error(), kExitBadArgs);
        if (Status s = add_extra_point(&plan, *item, text); !s)
            return fail(s.error(), kExitBadArgs);
    }
    if (!have_gpu) return fail(no_gpu, kExitFailure);
    if (plan.items.empty())
        return fail(Error{"no (kernel, N) pair of this sweep is inside its kernel's range",
                          "softmaxlab-cli list shows each kernel's range"},
                    kExitBadArgs);

    return execute_sweep(a, SweepChecked{.kernels = *kernels,
                                         .plan = std::move(plan),
                                         .metrics = *metrics,
                                         .samples = *samples,
                                         .seed = *seed,
                                         .per_line_cols = per_line_cols});
}
}  // namespace

CommandFn add_sweep_command(CLI::App& app) {
    auto a = std::make_shared<SweepArgs>();
    CLI::App* sub = app.add_subcommand(
        "sweep", "Run kernels over many N at a fixed element count and record a session");
    sub->add_option("--kernels", a->kernels, "all, or ids separated by commas")->default_val("all");
    a->cols_option = sub->add_option("--cols", a->cols, "N values separated by commas")
                         ->default_str(default_cols_text());
    sub->add_option("--elements", a->elements, "Elements per point (M = elements / N)")
        ->default_val(a->elements);
    sub->add_option("--dtype", a->dtype, "fp32, fp16 or bf16")->default_val("fp32");
    sub->add_option("-o,--out", a->out, "Session file to write (JSON)")->check(non_empty_path());
    sub->add_option("--csv", a->csv, "Also write the points as CSV")->check(non_empty_path());
    sub->add_option("--metrics", a->metrics, "Hardware counters: off, default or deep")
        ->default_val("default");
    sub->add_option("--samples", a->samples, "Timed samples per point")->default_val("20");
    sub->add_option("--seed", a->seed, "Input generator seed (0 .. 2^64-1)")->default_val("1");
    sub->add_option("--variants", a->variants,
                    "default, or all: also run every variant (smem's bank-conflicted layout)")
        ->default_val("default");
    sub->add_option("--per-line", a->per_line,
                    "Also record per-line counters of the lesson kernels, each at the first of "
                    "these N (of --cols) it ran at, for the code views' heat gutter");
    sub->add_option("--extra", a->extra,
                    "Extra points <kernel>[/<variant>]:<rows>x<cols>, e.g. naive:4096x1024")
        ->delimiter(',');
    sub->footer(
        "\nEach kernel runs only at the N inside its range; the rest are skipped and "
        "counted.\nExamples:\n"
        "  softmaxlab-cli sweep --out session.json --csv session.csv\n"
        "  softmaxlab-cli sweep --kernels fused,online --cols 16384,16385 --out cliff.json\n"
        "  softmaxlab-cli sweep --variants all --extra naive:4096x1024 --out lessons.json\n"
        "  softmaxlab-cli sweep --per-line 4096,1024 --out session.json   (per-line counters)");
    return [a] { return sweep_command(*a); };
}

}  // namespace sml::cli
