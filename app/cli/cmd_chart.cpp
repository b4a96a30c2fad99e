// `softmaxlab-cli chart`: draws one chart of a recorded session (or of two, --compare) to PNG,
// SVG, PDF or CSV, or the peers chart of bench/peers.py's results files.
//
// Needs no GPU: it reads a session file (or results files), builds the chart model through the
// chart-kind table (core/chart/chart_kinds.h, which also gives --chart's values and the list in
// --help) and exports it (core/chart/chart_export.h). The format follows from --out's extension.
// Exit codes: 2 for bad arguments (unknown chart, extension, theme or --size, an N the session
// does not have, --out naming an input file or a path that cannot be written), 1 when the
// session cannot be read or writing fails after all (a full disk).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "core/chart/chart_export.h"
#include "core/chart/chart_kinds.h"
#include "core/chart/peers_chart.h"
#include "core/common/safe_file.h"
#include "core/session/session.h"

namespace sml::cli {

namespace {

struct ChartArgs {
    std::string session_path;
    std::string compare_path;
    std::vector<std::string> peers_paths;
    std::string kind;
    std::string cols = "0";  // read whole in run_chart: "0" is the default N
    std::string out;
    std::string size = "1600x900";
    std::string theme = "light";
    std::string title;
    std::string dtype = "fp32";
};

int run_chart(const ChartArgs& a) {
    // Validate every argument before reading the session, so a typo costs nothing.
    const chart::ChartKind* kind = chart::find_chart_kind(a.kind);
    if (!kind)
        return fail(
            Error{"unknown chart '" + a.kind + "'", "valid charts: " + chart::chart_kind_ids()},
            kExitBadArgs);
    const bool peers = kind->source == chart::ChartSource::peers;
    if (peers && a.peers_paths.empty())
        return fail(Error{"the " + a.kind + " chart needs --peers",
                          "pass bench/peers.py results, e.g. --peers bench/results/<file>.json"},
                    kExitBadArgs);
    if (!peers && a.session_path.empty())
        return fail(Error{"the " + a.kind + " chart needs --session",
                          "pass a session JSON written by `softmaxlab-cli sweep`"},
                    kExitBadArgs);
    if (!a.compare_path.empty() && !kind->compares)
        return fail(Error{"the " + a.kind + " chart shows one session, so it takes no --compare",
                          "charts that compare two sessions: " + chart::chart_kind_ids(", ", true)},
                    kExitBadArgs);
    const Result<chart::ChartFormat> format = chart::format_from_path(a.out);
    if (!format) return fail(format.error(), kExitBadArgs);
    Result<chart::RenderOptions> options = chart::parse_size(a.size);
    if (!options) return fail(options.error(), kExitBadArgs);
    const Result<int64_t> cols = parse_integer(a.cols, "--cols", 0);
    if (!cols) return fail(cols.error(), kExitBadArgs);
    // Writing over an input would destroy it (chart --session s.csv --out s.csv used to replace
    // the session with the CSV and exit 0).
    std::vector<std::pair<std::string, std::string>> inputs = {{"--session", a.session_path}};
    if (!a.compare_path.empty()) inputs.emplace_back("--compare", a.compare_path);
    for (const std::string& p : a.peers_paths) inputs.emplace_back("--peers", p);
    if (Status s = check_output_is_not_an_input(a.out, "--out", inputs); !s)
        return fail(s.error(), kExitBadArgs);
    // A missing folder or a path that is not a file: said now, not after drawing the chart.
    if (Status s = check_writable(a.out, "--out"); !s) return fail(s.error(), kExitBadArgs);
    if (!chart::theme_by_name(a.theme))
        return fail(Error{"unknown theme '" + a.theme + "'", "use --theme light or dark"},
                    kExitBadArgs);
    options->theme = a.theme;
    if (*format != chart::ChartFormat::csv && !chart::chart_renderer_available()) {
        const Result<std::string> why = chart::render_chart(chart::Chart{}, *format, *options);
        return fail(why.error(), kExitFailure);
    }

    chart::ChartInput input;
    std::vector<chart::PeerRun> runs;
    Session session, compare;
    if (peers) {
        for (const std::string& path : a.peers_paths) {
            Result<chart::PeerRun> run = chart::load_peer_run(path);
            if (!run) return fail(run.error(), kExitFailure);
            runs.push_back(std::move(*run));
        }
        input.peers = &runs;
    } else {
        Result<Session> loaded = load_session(a.session_path);
        if (!loaded) return fail(loaded.error(), kExitFailure);
        session = std::move(*loaded);
        input.session = &session;
        if (!a.compare_path.empty()) {
            Result<Session> second = load_session(a.compare_path);
            if (!second) return fail(second.error(), kExitFailure);
            compare = std::move(*second);
            input.compare = &compare;
        }
    }
    chart::ChartOptions co;
    co.kind = a.kind;
    co.cols = *cols;
    co.dtype = a.dtype;
    co.title = a.title;
    const Result<chart::Chart> built = chart::build_chart(input, co);
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

// "bytes, naive, metrics": the kinds drawn at one N, for --cols's help.
std::string per_n_ids() {
    std::string out;
    for (const chart::ChartKind& k : chart::chart_kinds())
        if (k.per_n) out += (out.empty() ? "" : ", ") + std::string(k.id);
    return out;
}

}  // namespace

CommandFn add_chart_command(CLI::App& app) {
    auto args = std::make_shared<ChartArgs>();
    CLI::App* sub = app.add_subcommand(
        "chart", "Draw a chart of a recorded session to PNG, SVG, PDF or CSV (no GPU needed)");
    sub->add_option("--session", args->session_path, "session JSON written by `sweep`")
        ->check(non_empty_path());
    sub->add_option("--compare", args->compare_path,
                    "a second session JSON to draw over the first (" +
                        chart::chart_kind_ids(", ", true) +
                        "): lines labelled by device, the second dashed with hollow markers")
        ->check(non_empty_path());
    sub->add_option("--peers", args->peers_paths,
                    "for --chart peers: bench/peers.py results files, one per dtype (the first "
                    "gives torch and Triton)")
        ->check(non_empty_path())
        ->delimiter(',');
    sub->add_option("--chart", args->kind, chart::chart_kind_ids(" | ") + " (see below)")
        ->required();
    sub->add_option("--out", args->out, "output file; .png .svg .pdf or .csv picks the format")
        ->check(non_empty_path())
        ->required();
    sub->add_option(
        "--cols", args->cols,
        "N for the per-N charts (" + per_n_ids() + "); default: the N with the most kernels");
    sub->add_option("--size", args->size, "WIDTHxHEIGHT in pixels (default 1600x900, slides)");
    sub->add_option("--theme", args->theme, "light | dark (default light)");
    sub->add_option("--title", args->title, "replace the chart's title");
    sub->add_option("--dtype", args->dtype,
                    "which points to draw: fp32 | fp16 | bf16 (default fp32)");
    std::string footer = "\nCharts:\n";
    for (const chart::ChartKind& k : chart::chart_kinds()) {
        std::string id = k.id;
        id.resize(std::max<size_t>(id.size() + 1, 11), ' ');
        footer += "  " + id + k.tooltip + "\n";
    }
    sub->footer(footer + R"(
Examples:
  softmaxlab-cli chart --session assets/sessions/<file>.json --chart bandwidth --out bw.png
  softmaxlab-cli chart --session s.json --chart bytes --cols 4096 --out bytes.svg --theme dark
  softmaxlab-cli chart --session s.json --chart pct --out pct.csv
  softmaxlab-cli chart --session h100.json --compare rtx4090.json --chart pct --out pct.png
  softmaxlab-cli chart --chart peers --out peers.png \
      --peers bench/results/<device>-<date>-fp32.json,bench/results/<device>-<date>-fp16.json)");
    return [args] { return run_chart(*args); };
}

}  // namespace sml::cli
