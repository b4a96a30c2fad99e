// The chart-kind table and the dispatch through it (see chart_kinds.h).
#include "core/chart/chart_kinds.h"

#include "core/chart/chart_build.h"

namespace sml::chart {

namespace {

// The peers chart reads results files, not a session; the table's signature is the same.
Result<Chart> build_peers_kind(const ChartInput& in, const ChartOptions& o) {
    return build_peers_chart(*in.peers, o.title);
}

}  // namespace

const std::vector<ChartKind>& chart_kinds() {
    // id, label, short label, tooltip (also the --help line), source, per N, needs counters,
    // compares, builder
    static const std::vector<ChartKind> kinds = {
        {"bandwidth", "Bandwidth vs N", "GB/s",
         "GB/s vs N (log2), one line per kernel, with the same run's copy and the datasheet "
         "peak as reference lines",
         ChartSource::session, false, false, true, build_bandwidth_chart},
        {"bytes", "DRAM bytes per kernel", "DRAM bytes",
         "predicted vs measured DRAM bytes per kernel at one N; L2-resident bars hatched",
         ChartSource::session, true, false, false, build_bytes_chart},
        {"pct", "% of copy vs N", "% copy",
         "% of the same run's copy bandwidth vs N: sweet spots, cliffs, where ranges end",
         ChartSource::session, false, false, true, build_pct_chart},
        {"naive", "Naive, launch by launch", "naive",
         "time and DRAM bytes of each of naive's five launches at one N", ChartSource::session,
         true, false, false, build_naive_chart},
        {"metrics", "Hardware counters per kernel", "counters",
         "achieved occupancy, L2 hit rate and bank conflicts per kernel at one N",
         ChartSource::session, true, true, false, build_metrics_chart},
        {"peers", "best vs torch.softmax and Triton", "peers",
         "best vs torch.softmax and the Triton tutorial, % of copy (bench/peers.py results)",
         ChartSource::peers, false, false, false, build_peers_kind},
    };
    return kinds;
}

const ChartKind* find_chart_kind(std::string_view id) {
    for (const ChartKind& k : chart_kinds())
        if (id == k.id) return &k;
    return nullptr;
}

std::string chart_kind_ids(const std::string& separator, bool only_compares) {
    std::string out;
    for (const ChartKind& k : chart_kinds())
        if (!only_compares || k.compares) out += (out.empty() ? "" : separator) + k.id;
    return out;
}

Result<Chart> build_chart(const ChartInput& in, const ChartOptions& options) {
    const ChartKind* kind =
        options.kind.empty() ? &chart_kinds().front() : find_chart_kind(options.kind);
    if (!kind)
        return Error{"unknown chart '" + options.kind + "'", "valid charts: " + chart_kind_ids()};
    if (kind->source == ChartSource::session && !in.session)
        return Error{"the " + std::string(kind->id) + " chart is drawn from a session",
                     "pass a session JSON written by `softmaxlab-cli sweep` (--session)"};
    if (kind->source == ChartSource::peers && (!in.peers || in.peers->empty()))
        return Error{"the " + std::string(kind->id) + " chart is drawn from bench/peers.py results",
                     "pass one or more results files (--peers bench/results/<file>.json)"};
    if (in.compare && !kind->compares)
        return Error{"the " + std::string(kind->id) + " chart shows one session, not two",
                     "charts that compare two sessions: " + chart_kind_ids(", ", true)};
    Result<Chart> chart = kind->build(in, options);
    if (chart) chart->kind = kind->id;
    return chart;
}

Result<Chart> build_chart(const Session& session, const ChartOptions& options) {
    ChartInput in;
    in.session = &session;
    return build_chart(in, options);
}

}  // namespace sml::chart
