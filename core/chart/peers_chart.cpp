// The peers chart (see peers_chart.h): reading bench/peers.py's results and drawing them.
#include "core/chart/peers_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <new>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "core/chart/chart_build.h"
#include "core/common/safe_file.h"
#include "core/common/text_cap.h"

namespace sml::chart {

namespace {

using json = nlohmann::json;

constexpr const char* kSchema = "softmaxlab-peers/1";
constexpr const char* kRerunHint =
    "pass a results file written by bench/peers.py (bench/results/<device>-<date>-<dtype>.json), "
    "or run it again on the GPU machine";

// The command under the chart: the script's name and its options, without the paths that only
// say where the library and the output lived on the GPU machine.
std::string peers_command(const std::string& command) {
    std::istringstream in(command);
    std::string out;
    for (std::string w; in >> w;) {
        if (w == "--lib" || w == "--out" || w == "--cli") {
            in >> w;  // and its value
            continue;
        }
        if (w.rfind("python", 0) == 0) continue;  // "python3 bench/peers.py": the script is enough
        out += (out.empty() ? "" : " ") + w;
    }
    return command_for_display(out);
}

std::string string_at(const json& o, const char* key) {
    const auto it = o.find(key);
    return it != o.end() && it->is_string() ? cap_text(it->get_ref<const std::string&>()) : "";
}

// Bounds of a measured point: no memory system moves a petabyte a second, and a peer at 100
// times the copy bandwidth is a broken file, not a result.
constexpr double kMaxPeerGbps = 1e6;
constexpr double kMaxPeerPctOfCopy = 1e4;

// 2687.4 -> "2687", without an int cast that overflows.
std::string fmt_whole(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
}

}  // namespace

Result<PeerRun> parse_peer_run(const std::string& text, const std::string& path) {
    json doc;
    try {
        doc = json::parse(text);
    } catch (const std::exception&) {
        return Error{path + ": not valid JSON, so not a bench/peers.py results file", kRerunHint};
    }
    if (!doc.is_object() || string_at(doc, "schema") != kSchema)
        return Error{path + ": not a bench/peers.py results file (its \"schema\" is not \"" +
                         std::string(kSchema) + "\")",
                     kRerunHint};
    PeerRun run;
    run.path = path;
    if (doc.contains("device") && doc["device"].is_object())
        run.device = string_at(doc["device"], "name");
    run.created_utc = string_at(doc, "created_utc");
    run.command = string_at(doc, "command");
    if (doc.contains("method") && doc["method"].is_object())
        run.dtype = string_at(doc["method"], "dtype");
    if (run.dtype.empty()) run.dtype = "fp32";
    if (doc.contains("complete") && doc["complete"].is_boolean())
        run.complete = doc["complete"].get<bool>();
    if (!doc.contains("points") || !doc["points"].is_array())
        return Error{path + ": has no \"points\" list", kRerunHint};
    for (size_t i = 0; i < doc["points"].size(); ++i) {
        const json& p = doc["points"][i];
        const std::string where = path + ": points[" + std::to_string(i) + "]";
        if (!p.is_object() || !p.contains("cols") || !p["cols"].is_number_integer() ||
            string_at(p, "contender").empty() || string_at(p, "status").empty())
            return Error{where + " lacks \"contender\", \"cols\" or \"status\"", kRerunHint};
        PeerRun::Point pt;
        pt.contender = string_at(p, "contender");
        pt.cols = p["cols"].get<int64_t>();
        if (pt.cols < 1 || pt.cols > (int64_t(1) << 40) ||
            (p["cols"].is_number_unsigned() && pt.cols < 0))
            return Error{where + ": cols = " + p["cols"].dump() + " is outside 1..2^40",
                         kRerunHint};
        pt.status = string_at(p, "status");
        pt.ok = pt.status == "ok";
        if (pt.ok) {
            if (!p.contains("gbps") || !p["gbps"].is_number())
                return Error{where + " (" + pt.contender + ", N = " + std::to_string(pt.cols) +
                                 ") is \"ok\" but has no \"gbps\"",
                             kRerunHint};
            // Both numbers are drawn: one missing was drawn at 0%, and a huge gbps (1e300)
            // overflowed the label's int. A measured value is finite and in a sane range.
            if (!p.contains("pct_of_copy") || !p["pct_of_copy"].is_number())
                return Error{where + " (" + pt.contender + ", N = " + std::to_string(pt.cols) +
                                 ") is \"ok\" but has no \"pct_of_copy\"",
                             kRerunHint};
            pt.gbps = p["gbps"].get<double>();
            pt.pct_of_copy = p["pct_of_copy"].get<double>();
            for (const auto& [key, value, most] :
                 {std::tuple{"gbps", pt.gbps, kMaxPeerGbps},
                  std::tuple{"pct_of_copy", pt.pct_of_copy, kMaxPeerPctOfCopy}})
                if (!std::isfinite(value) || value < 0 || value > most)
                    return Error{where + " (" + pt.contender + ", N = " + std::to_string(pt.cols) +
                                     "): " + key + " = " + p[key].dump() + " is outside 0.." +
                                     fmt_whole(most),
                                 kRerunHint};
        }
        run.points.push_back(pt);
    }
    if (run.points.empty()) return Error{path + ": has no measured points", kRerunHint};
    return run;
}

Result<PeerRun> load_peer_run(const std::string& path) {
    Result<std::string> text = read_file_capped(path, kMaxSessionFileBytes, "peers results file");
    if (!text) {
        Error e = text.error();
        if (e.hint.rfind("check the path", 0) == 0)
            e.hint = "check the path; bench/results/ holds the recorded ones";
        return e;
    }
    try {
        return parse_peer_run(*text, path);
    } catch (const std::bad_alloc&) {
        return Error{"out of memory reading peers results " + quote_short(path),
                     "close other programs, or use a smaller file"};
    }
}

Result<Chart> build_peers_chart(const std::vector<PeerRun>& runs, const std::string& title) {
    if (runs.empty())
        return Error{"no peers results to draw", "pass one or more files with --peers"};
    const PeerRun& first = runs.front();
    Chart c;  // its kind is set by build_chart, from the chart-kind table
    c.title = !title.empty()
                  ? cap_text(title)
                  : "best vs torch.softmax and the Triton tutorial, % of copy (same run)";
    c.subtitle = (first.device.empty() ? "unknown device" : first.device) + "  ·  " +
                 first.created_utc.substr(0, 10) + "  ·  " + peers_command(first.command);

    Panel panel;
    panel.x = n_axis();
    panel.y = pct_of_copy_axis("% of copy bandwidth (same run, same N)");

    // One line per contender: the peers of the first run, then best of every run. Colours and
    // markers are fixed per line so the same contender looks the same in every export.
    struct Line {
        const PeerRun* run;
        std::string contender, label, key;
        int color;
        MarkerShape marker;
        bool dashed;
    };
    std::vector<Line> lines = {
        {&first, "torch", "torch.softmax (" + first.dtype + ")", "torch", 0, MarkerShape::square,
         true},
        {&first, "triton", "Triton tutorial (" + first.dtype + ")", "triton", 1,
         MarkerShape::triangle, true},
    };
    // best is this chart's subject: strong colours (vermillion, green, purple), not the pale
    // yellow that marks it among the lesson kernels in the session charts.
    const int best_colors[] = {3, 2, 4, 5};
    for (size_t i = 0; i < runs.size(); ++i)
        lines.push_back({&runs[i], "best", "best (" + runs[i].dtype + ")", "best_" + runs[i].dtype,
                         best_colors[i % 4], i == 0 ? MarkerShape::circle : MarkerShape::diamond,
                         false});

    for (const Line& l : lines) {
        Series ser;
        ser.label = l.label;
        ser.key = l.key;
        ser.color = l.color;
        ser.marker = l.marker;
        ser.dashed = l.dashed;
        // A point that ran and failed ("fails: ...") and one that was never run ("skipped: ...",
        // e.g. peers.py --triton-max-block) are told apart: only the first is the peer's limit.
        int64_t first_failure = 0, first_skipped = 0;
        for (const PeerRun::Point& p : l.run->points) {
            if (p.contender != l.contender) continue;
            if (!p.ok) {
                int64_t& first = p.status.rfind("skipped", 0) == 0 ? first_skipped : first_failure;
                if (first == 0 || p.cols < first) first = p.cols;
                continue;
            }
            Point pt;
            pt.x = static_cast<double>(p.cols);
            pt.y = p.pct_of_copy;
            pt.note = fmt_whole(p.gbps) + " GB/s";
            ser.points.push_back(pt);
        }
        std::sort(ser.points.begin(), ser.points.end(),
                  [](const Point& a, const Point& b) { return a.x < b.x; });
        if (first_failure > 0)
            panel.notes.push_back(l.label + " fails from N = " + std::to_string(first_failure));
        if (first_skipped > 0 && (first_failure == 0 || first_skipped < first_failure))
            panel.notes.push_back(l.label + " not run from N = " + std::to_string(first_skipped) +
                                  " (peers.py --triton-max-block)");
        if (!ser.points.empty()) panel.series.push_back(std::move(ser));
    }
    if (panel.series.empty())
        return Error{first.path + ": no contender has a measured point",
                     "the run failed everywhere; see its log"};
    for (const PeerRun& r : runs)
        if (!r.complete)
            panel.notes.push_back(r.dtype +
                                  " run stopped early (time limit): drawn as far as it got");
    panel.series.push_back(reference_line("copy bandwidth = 100%", "copy", 100, false));
    if (!fit_pct_of_copy_axes(&panel))
        return Error{first.path + ": no contender has a point above 0% of copy",
                     "the run failed everywhere; see its log"};
    c.panels.push_back(std::move(panel));
    return c;
}

}  // namespace sml::chart
