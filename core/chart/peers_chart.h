// The "peers" chart: `best` next to torch.softmax and the Triton tutorial, from the results files
// bench/peers.py writes (schema "softmaxlab-peers/1"), as % of the same run's copy bandwidth.
//
// Several files may be drawn together, one per dtype: torch and Triton come from the first file,
// `best` from every file (one line per dtype). A file cut short by a time limit ("complete":
// false) is drawn with what it holds, and the chart says so.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/chart/chart_model.h"
#include "common/result.h"

namespace sml::chart {

// One bench/peers.py results file.
struct PeerRun {
    std::string path;  // where it was read from, for messages
    std::string device, created_utc, command, dtype;
    bool complete = true;
    struct Point {
        std::string contender;  // "copy", "torch", "triton", "best"
        int64_t cols = 0;
        bool ok = false;
        std::string status;  // "ok", or why not ("fails: out of resource: shared memory ...")
        double gbps = 0, pct_of_copy = 0;
    };
    std::vector<Point> points;
};

// Reads a results file. Errors name the file and what is wrong with it (missing, not JSON, not
// a peers file, a point without its fields), with a hint.
Result<PeerRun> load_peer_run(const std::string& path);
Result<PeerRun> parse_peer_run(const std::string& text, const std::string& path);

Result<Chart> build_peers_chart(const std::vector<PeerRun>& runs, const std::string& title = "");

}  // namespace sml::chart
