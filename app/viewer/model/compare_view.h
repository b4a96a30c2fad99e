// The viewer's compare view as data: a second session ("File > Compare with session..." or
// --compare) drawn over the open one on the charts that compare and added to the Metrics table,
// the chart kinds the Charts panel offers, and the one line that says what is compared.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "core/chart/chart_kinds.h"
#include "core/session/session.h"

namespace sml::viewer {

struct ComparedSession {
    Session session;
    std::string path;  // where it was read from
};

// Loads `path` as the session to compare `open` with. An error when the file cannot be read, or
// when the two cannot be compared in `dtype` (chart::check_comparable): a different dtype, or no
// N in common. The message says what is wrong with the file or which session lacks what, in
// `lang` ("en" | "zh").
Result<ComparedSession> load_compared_session(const std::string& path, const Session& open,
                                              const std::string& dtype,
                                              const std::string& lang = "en");

// The chart kinds the Charts panel offers: those of the chart-kind table drawn from a session,
// in the table's order.
std::vector<const chart::ChartKind*> viewer_chart_kinds();

// What a chart of `kind` is drawn from: the open session, plus the compared one when there is
// one, the kind compares, and the two can be compared in `dtype` (else compare_note says why).
chart::ChartInput chart_input(const chart::ChartKind& kind, const Session& open,
                              const ComparedSession* compared, const std::string& dtype);

// One line for the Metrics panel while comparing, "" otherwise: which session is which and the
// compared one's copy bandwidth ("Comparing H100 (solid) with RTX 4090 (dashed, hollow markers;
// its copy 921 GB/s): rtx4090.json"), or why the compared session is not shown at this selection
// ("RTX 4090 has no fp32 point at N = 12345", "Not compared here: ... has no fp16 points").
// In `lang` ("en" | "zh"), the core's reason (why two sessions do not compare) included.
std::string compare_note(const Session& open, const ComparedSession* compared,
                         const std::string& dtype, int64_t cols, const std::string& lang = "en");

// While comparing, on a chart that shows one session only: a line that says so and names the
// charts that draw both ("the GB/s and % copy charts ..."). "" otherwise.
std::string chart_compare_note(const chart::ChartKind& kind, const ComparedSession* compared,
                               const std::string& lang = "en");

}  // namespace sml::viewer
