// `softmaxlab-cli chart`: draws one chart of a recorded session to PNG, SVG, PDF or CSV.
//
// Needs no GPU: it reads a session file, builds the chart model (core/chart/chart_build.h) and
// exports it (core/chart/chart_export.h). The format follows from --out's extension.
// Exit codes: 2 for bad arguments (unknown chart, extension, theme or --size, an N the session
// does not have), 1 when the session cannot be read or the file cannot be written.
#include <cstdio>
#include <memory>
#include <string>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "core/chart/chart_build.h"
#include "core/chart/chart_export.h"
#include "core/session/session.h"

namespace sml::cli {

namespace {

struct ChartArgs {
    std::string session_path;
    std::string kind;
    int64_t cols = 0;
    std::string out;
    std::string size = "1600x900";
    std::string theme = "light";
    std::string title;
    std::string dtype = "fp32";
};

int run_chart(const ChartArgs& a) {
    // Validate every argument before reading the session, so a typo costs nothing.
    bool known = false;
    for (const std::string& k : chart::chart_kinds()) known |= k == a.kind;
    if (!known)
        return fail(
            Error{"unknown chart '" + a.kind + "'", "valid charts: " + chart::chart_kind_list()},
            kExitBadArgs);
    const Result<chart::ChartFormat> format = chart::format_from_path(a.out);
    if (!format) return fail(format.error(), kExitBadArgs);
    Result<chart::RenderOptions> options = chart::parse_size(a.size);
    if (!options) return fail(options.error(), kExitBadArgs);
    if (!chart::theme_by_name(a.theme))
        return fail(Error{"unknown theme '" + a.theme + "'", "use --theme light or dark"},
                    kExitBadArgs);
    options->theme = a.theme;
    if (*format != chart::ChartFormat::csv && !chart::chart_renderer_available()) {
        const Result<std::string> why = chart::render_chart(chart::Chart{}, *format, *options);
        return fail(why.error(), kExitFailure);
    }

    const Result<Session> session = load_session(a.session_path);
    if (!session) return fail(session.error(), kExitFailure);

    chart::ChartOptions co;
    co.kind = a.kind;
    co.cols = a.cols;
    co.dtype = a.dtype;
    co.title = a.title;
    const Result<chart::Chart> built = chart::build_chart(*session, co);
    // The session is fine but lacks what this chart needs (an N, counters): an argument problem.
    if (!built) return fail(built.error(), kExitBadArgs);
    const Status written = chart::export_chart(*built, a.out, *options);
    if (!written) return fail(written.error(), kExitFailure);
    std::printf("wrote %s (%s chart, %s)\n", a.out.c_str(), a.kind.c_str(),
                *format == chart::ChartFormat::csv
                    ? "csv"
                    : (std::to_string(options->width) + "x" + std::to_string(options->height) +
                       ", " + a.theme)
                          .c_str());
    return kExitOk;
}

}  // namespace

CommandFn add_chart_command(CLI::App& app) {
    auto args = std::make_shared<ChartArgs>();
    CLI::App* sub = app.add_subcommand(
        "chart", "Draw a chart of a recorded session to PNG, SVG, PDF or CSV (no GPU needed)");
    sub->add_option("--session", args->session_path, "session JSON written by `sweep`")->required();
    sub->add_option("--chart", args->kind, "bandwidth | bytes | pct | naive | metrics (see below)")
        ->required();
    sub->add_option("--out", args->out, "output file; .png .svg .pdf or .csv picks the format")
        ->required();
    sub->add_option("--cols", args->cols,
                    "N for the per-N charts (bytes, naive, metrics); default: the N with the "
                    "most kernels");
    sub->add_option("--size", args->size, "WIDTHxHEIGHT in pixels (default 1600x900, slides)");
    sub->add_option("--theme", args->theme, "light | dark (default light)");
    sub->add_option("--title", args->title, "replace the chart's title");
    sub->add_option("--dtype", args->dtype,
                    "which points to draw: fp32 | fp16 | bf16 (default fp32)");
    sub->footer(R"(
Charts:
  bandwidth  GB/s vs N (log2), one line per kernel, copy and datasheet-peak reference lines
  bytes      predicted vs measured DRAM bytes per kernel at one N; L2-resident bars hatched
  pct        % of the same run's copy bandwidth vs N: sweet spots, cliffs, where ranges end
  naive      time and DRAM bytes of each of naive's five launches at one N
  metrics    achieved occupancy, L2 hit rate and bank conflicts per kernel at one N

Examples:
  softmaxlab-cli chart --session assets/sessions/<file>.json --chart bandwidth --out bw.png
  softmaxlab-cli chart --session s.json --chart bytes --cols 4096 --out bytes.svg --theme dark
  softmaxlab-cli chart --session s.json --chart pct --out pct.csv)");
    return [args] { return run_chart(*args); };
}

}  // namespace sml::cli
