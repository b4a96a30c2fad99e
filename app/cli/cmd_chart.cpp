// `softmaxlab-cli chart`: draws one chart of a recorded session to PNG, SVG, PDF or CSV, or the
// "peers" chart of bench/peers.py's results files.
//
// Needs no GPU: it reads a session file (or results files), builds the chart model
// (core/chart/chart_build.h, peers_chart.h) and exports it (core/chart/chart_export.h). The format
// follows from --out's extension.
// Exit codes: 2 for bad arguments (unknown chart, extension, theme or --size, an N the session
// does not have, --out naming an input file), 1 when the session cannot be read or the file
// cannot be written.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "core/chart/chart_build.h"
#include "core/chart/chart_export.h"
#include "core/chart/peers_chart.h"
#include "core/common/safe_file.h"
#include "core/session/session.h"

namespace sml::cli {

namespace {

struct ChartArgs {
    std::string session_path;
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
    const bool peers = a.kind == "peers";
    bool known = peers;
    for (const std::string& k : chart::chart_kinds()) known |= k == a.kind;
    if (!known)
        return fail(Error{"unknown chart '" + a.kind + "'",
                          "valid charts: " + chart::chart_kind_list() + ", peers"},
                    kExitBadArgs);
    if (peers && a.peers_paths.empty())
        return fail(Error{"the peers chart needs --peers",
                          "pass bench/peers.py results, e.g. --peers bench/results/<file>.json"},
                    kExitBadArgs);
    if (!peers && a.session_path.empty())
        return fail(Error{"the " + a.kind + " chart needs --session",
                          "pass a session JSON written by `softmaxlab-cli sweep`"},
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
    for (const std::string& p : a.peers_paths) inputs.emplace_back("--peers", p);
    if (Status s = check_output_is_not_an_input(a.out, "--out", inputs); !s)
        return fail(s.error(), kExitBadArgs);
    if (!chart::theme_by_name(a.theme))
        return fail(Error{"unknown theme '" + a.theme + "'", "use --theme light or dark"},
                    kExitBadArgs);
    options->theme = a.theme;
    if (*format != chart::ChartFormat::csv && !chart::chart_renderer_available()) {
        const Result<std::string> why = chart::render_chart(chart::Chart{}, *format, *options);
        return fail(why.error(), kExitFailure);
    }

    Result<chart::Chart> built = Error{"", ""};
    if (peers) {
        std::vector<chart::PeerRun> runs;
        for (const std::string& path : a.peers_paths) {
            Result<chart::PeerRun> run = chart::load_peer_run(path);
            if (!run) return fail(run.error(), kExitFailure);
            runs.push_back(std::move(*run));
        }
        built = chart::build_peers_chart(runs, a.title);
    } else {
        const Result<Session> session = load_session(a.session_path);
        if (!session) return fail(session.error(), kExitFailure);
        chart::ChartOptions co;
        co.kind = a.kind;
        co.cols = *cols;
        co.dtype = a.dtype;
        co.title = a.title;
        built = chart::build_chart(*session, co);
    }
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
    sub->add_option("--session", args->session_path, "session JSON written by `sweep`");
    sub->add_option("--peers", args->peers_paths,
                    "for --chart peers: bench/peers.py results files, one per dtype (the first "
                    "gives torch and Triton)")
        ->delimiter(',');
    sub->add_option("--chart", args->kind,
                    "bandwidth | bytes | pct | naive | metrics | peers (see below)")
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
  peers      best vs torch.softmax and the Triton tutorial, % of copy (bench/peers.py results)

Examples:
  softmaxlab-cli chart --session assets/sessions/<file>.json --chart bandwidth --out bw.png
  softmaxlab-cli chart --session s.json --chart bytes --cols 4096 --out bytes.svg --theme dark
  softmaxlab-cli chart --session s.json --chart pct --out pct.csv
  softmaxlab-cli chart --chart peers --out peers.png \
      --peers bench/results/<device>-<date>-fp32.json,bench/results/<device>-<date>-fp16.json)");
    return [args] { return run_chart(*args); };
}

}  // namespace sml::cli
