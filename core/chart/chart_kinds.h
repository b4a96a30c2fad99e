// The chart kinds: the one list of the charts softmaxlab draws.
//
// Each entry names a chart (its --chart id), says how to present it (a label, a short button
// label and a one-line description that is both the CLI's --help line and the viewer's tooltip),
// what it is drawn from and needs, and holds its builder. The CLI's `chart` command (its
// --chart values, --help and errors), the viewer's Charts panel and the tests all read this
// table; adding a chart is one builder and one entry in chart_kinds.cpp.
//
// Most charts are drawn from a session (core/session). `peers` is drawn from bench/peers.py's
// results files instead (peers_chart.h), so every builder takes a ChartInput, which carries
// whichever of the two a kind reads (ChartKind::source), plus an optional second session for
// the kinds that can compare two (ChartKind::compares).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "core/chart/chart_model.h"
#include "core/chart/peers_chart.h"
#include "core/session/session.h"

namespace sml::chart {

struct ChartOptions {
    std::string kind;            // a ChartKind id; empty: the first kind of the table
    int64_t cols = 0;            // N for the per-N charts; 0 picks one (see default_cols)
    std::string dtype = "fp32";  // points of other dtypes are left out
    std::string title;           // replaces the built title when not empty
};

// What a chart is drawn from. Only the pointers a kind reads need to be set.
struct ChartInput {
    const Session* session = nullptr;
    // A second session drawn over the first (the "Compare GPUs" view): each series is labelled
    // by its session's device, or by its date when both come from the same device.
    const Session* compare = nullptr;
    const std::vector<PeerRun>* peers = nullptr;  // bench/peers.py results, one per dtype
};

enum class ChartSource { session, peers };

struct ChartKind {
    const char* id;           // --chart value, Chart::kind, exported file names
    const char* label;        // what the chart is, as a heading: "Bandwidth vs N"
    const char* short_label;  // the viewer's button: "GB/s"
    const char* tooltip;      // one line on what it shows: the CLI's --help line, the tooltip
    ChartSource source;
    bool per_n;           // drawn at one N (--cols); else over every N
    bool needs_counters;  // fails on a session without hardware counters
    bool compares;        // can draw a second session over the first (--compare)
    Result<Chart> (*build)(const ChartInput& input, const ChartOptions& options);
};

// Every chart kind, in the order the CLI lists them and the viewer shows its buttons.
const std::vector<ChartKind>& chart_kinds();

// nullptr when no kind has this id.
const ChartKind* find_chart_kind(std::string_view id);

// Ids joined with `separator`, of every kind or of those that compare: "bandwidth, pct".
std::string chart_kind_ids(const std::string& separator = ", ", bool only_compares = false);

// Builds the chart `options.kind` names from `input`, after checking that the kind exists and
// that `input` holds what it is drawn from. Sets Chart::kind to the kind's id.
Result<Chart> build_chart(const ChartInput& input, const ChartOptions& options);
// The same for one session.
Result<Chart> build_chart(const Session& session, const ChartOptions& options);

}  // namespace sml::chart
