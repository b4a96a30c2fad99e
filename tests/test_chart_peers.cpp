// The peers chart (core/chart/peers_chart.h): reading bench/peers.py results files, the clear
// errors for files that are not, and the chart drawn from the newest recorded results (found by
// their name pattern, bench/results/<device>-<date>-<dtype>.json, not by a date typed here).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "core/chart/chart_export.h"
#include "core/chart/chart_kinds.h"
#include "core/chart/peers_chart.h"

namespace fs = std::filesystem;

namespace sml::chart {
namespace {

const fs::path kResults = fs::path(SML_SOURCE_DIR) / "bench" / "results";

// The newest recorded results file of `dtype`: the last by name of <device>-<date>-<dtype>.json.
std::string recorded(const std::string& dtype) {
    const std::string suffix = "-" + dtype + ".json";
    std::vector<std::string> found;
    for (const auto& e : fs::directory_iterator(kResults)) {
        const std::string name = e.path().filename().string();
        if (name.size() > suffix.size() &&
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
            found.push_back(e.path().string());
    }
    std::sort(found.begin(), found.end());
    EXPECT_FALSE(found.empty()) << "no *" << suffix << " in " << kResults;
    return found.empty() ? (kResults / ("none" + suffix)).string() : found.back();
}

// The distinct N of a results file.
size_t distinct_cols(const PeerRun& run) {
    std::set<int64_t> cols;
    for (const PeerRun::Point& p : run.points) cols.insert(p.cols);
    return cols.size();
}

const Series* find_series(const Chart& c, const std::string& key) {
    for (const Series& s : c.panels.at(0).series)
        if (s.key == key) return &s;
    return nullptr;
}

TEST(PeersChart, ReadsTheRecordedResults) {
    const Result<PeerRun> run = load_peer_run(recorded("fp32"));
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_FALSE(run->device.empty());
    EXPECT_EQ(run->dtype, "fp32");
    EXPECT_TRUE(run->complete);
    std::map<std::string, size_t> per_contender;
    for (const PeerRun::Point& p : run->points) ++per_contender[p.contender];
    // Every contender has a record at every N of the sweep, measured or with why not.
    ASSERT_GT(distinct_cols(*run), 0u);
    EXPECT_EQ(per_contender["best"], distinct_cols(*run));
    EXPECT_EQ(per_contender["torch"], distinct_cols(*run));
    const Result<PeerRun> half = load_peer_run(recorded("fp16"));
    ASSERT_TRUE(half) << half.error().message;
    EXPECT_EQ(half->dtype, "fp16");
    EXPECT_TRUE(half->complete);
    per_contender.clear();
    for (const PeerRun::Point& p : half->points) ++per_contender[p.contender];
    EXPECT_EQ(per_contender["best"], distinct_cols(*half));
}

// Every point on the chart is the file's own % of copy, and failed points are left out.
TEST(PeersChart, DrawsEachFilesNumbersAndLeavesFailuresOut) {
    const Result<PeerRun> fp32 = load_peer_run(recorded("fp32"));
    const Result<PeerRun> fp16 = load_peer_run(recorded("fp16"));
    ASSERT_TRUE(fp32 && fp16);
    // Through the chart-kind table, as the CLI draws it.
    const std::vector<PeerRun> runs = {*fp32, *fp16};
    ChartInput input;
    input.peers = &runs;
    ChartOptions options;
    options.kind = "peers";
    const Result<Chart> c = build_chart(input, options);
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_EQ(c->kind, options.kind);
    for (const char* key : {"torch", "triton", "best_fp32", "best_fp16", "copy"})
        EXPECT_NE(find_series(*c, key), nullptr) << key;

    nlohmann::json doc;
    std::ifstream(recorded("fp32")) >> doc;
    int best_points = 0, triton_ok = 0;
    int64_t triton_fails_from = 0;  // the smallest N the tutorial ran and failed at
    for (const auto& p : doc["points"]) {
        if (p["contender"] == "triton" && p["status"] == "ok") ++triton_ok;
        if (p["contender"] == "triton" && p["status"].get<std::string>().rfind("fails", 0) == 0 &&
            (triton_fails_from == 0 || p["cols"].get<int64_t>() < triton_fails_from))
            triton_fails_from = p["cols"].get<int64_t>();
        if (p["contender"] != "best") continue;
        ++best_points;
        const Series* s = find_series(*c, "best_fp32");
        ASSERT_NE(s, nullptr);
        bool found = false;
        for (const Point& pt : s->points)
            if (pt.x == p["cols"].get<double>()) {
                EXPECT_DOUBLE_EQ(pt.y, p["pct_of_copy"].get<double>());
                found = true;
            }
        EXPECT_TRUE(found) << "N = " << p["cols"];
    }
    EXPECT_EQ(find_series(*c, "best_fp32")->points.size(), size_t(best_points));
    EXPECT_EQ(find_series(*c, "triton")->points.size(), size_t(triton_ok));
    // The recorded fp32 run has the tutorial failing on long rows (shared memory).
    ASSERT_GT(triton_fails_from, 0) << "the tests below need a run where the tutorial fails";
    EXPECT_LT(triton_ok, best_points);
    const std::string fails_from = "fails from N = " + std::to_string(triton_fails_from);

    // The chart says where Triton stops; both runs are complete, so nothing is said to be cut.
    std::string notes;
    for (const Message& n : c->panels.at(0).notes) notes += message_en(n) + "\n";
    EXPECT_NE(notes.find(fails_from), std::string::npos) << notes;
    EXPECT_EQ(notes.find("stopped early"), std::string::npos) << notes;

    // A point never run ("skipped: ...", peers.py --triton-max-block) is not a failure: with the
    // tutorial's failures turned into skips, the chart says "not run from", not "fails from".
    nlohmann::json skipped_doc = doc;
    for (auto& p : skipped_doc["points"])
        if (p["contender"] == "triton" && p["status"] != "ok")
            p["status"] = "skipped: BLOCK_SIZE is above --triton-max-block";
    const Result<PeerRun> fp32_skipped = parse_peer_run(skipped_doc.dump(), "/tmp/skip.json");
    ASSERT_TRUE(fp32_skipped) << fp32_skipped.error().message;
    const Result<Chart> c_skipped = build_peers_chart({*fp32_skipped});
    ASSERT_TRUE(c_skipped) << c_skipped.error().message;
    std::string skip_notes;
    for (const Message& n : c_skipped->panels.at(0).notes) skip_notes += message_en(n) + "\n";
    EXPECT_EQ(skip_notes.find("fails from"), std::string::npos) << skip_notes;
    EXPECT_NE(skip_notes.find("not run from N = " + std::to_string(triton_fails_from)),
              std::string::npos)
        << skip_notes;

    // A run cut short (peers.py writes "complete": false after every N until the end): the same
    // fp16 file without its last N is drawn as far as it got, and the chart says so.
    nlohmann::json cut;
    std::ifstream(recorded("fp16")) >> cut;
    cut["complete"] = false;
    nlohmann::json kept = nlohmann::json::array();
    for (const auto& p : cut["points"])
        if (p["cols"].get<int64_t>() < (int64_t{1} << 20)) kept.push_back(p);
    ASSERT_LT(kept.size(), cut["points"].size());
    cut["points"] = kept;
    const Result<PeerRun> fp16_cut = parse_peer_run(cut.dump(), "/tmp/cut-fp16.json");
    ASSERT_TRUE(fp16_cut) << fp16_cut.error().message;
    EXPECT_FALSE(fp16_cut->complete);
    const Result<Chart> c_cut = build_peers_chart({*fp32, *fp16_cut});
    ASSERT_TRUE(c_cut) << c_cut.error().message;
    std::string cut_notes;
    for (const Message& n : c_cut->panels.at(0).notes) cut_notes += message_en(n) + "\n";
    EXPECT_NE(cut_notes.find("fp16 run stopped early"), std::string::npos) << cut_notes;
    const Series* cut_best = find_series(*c_cut, "best_fp16");
    ASSERT_NE(cut_best, nullptr);
    EXPECT_EQ(cut_best->points.size(), find_series(*c, "best_fp16")->points.size() - 1);

    // The CSV holds the same series, with the bandwidth behind each point as its note.
    const std::string csv = chart_to_csv(*c);
    EXPECT_NE(csv.find(",best_fp32,line,32,"), std::string::npos);
    EXPECT_NE(csv.find(",torch,line,64,"), std::string::npos);
    EXPECT_NE(csv.find("GB/s"), std::string::npos);
}

TEST(PeersChart, FilesThatAreNotResultsGetErrorsThatNameThem) {
    const std::string path = "/tmp/x.json";
    auto message = [&](const std::string& text) {
        const Result<PeerRun> r = parse_peer_run(text, path);
        EXPECT_FALSE(r) << text;
        return r ? std::string() : r.error().message + " | " + r.error().hint;
    };
    EXPECT_NE(message("{not json").find("/tmp/x.json: not valid JSON"), std::string::npos);
    EXPECT_NE(message(R"({"schema": "softmaxlab-session/2", "points": []})").find("\"schema\""),
              std::string::npos);
    EXPECT_NE(message(R"({"schema": "softmaxlab-peers/1"})").find("no \"points\""),
              std::string::npos);
    EXPECT_NE(message(R"({"schema": "softmaxlab-peers/1", "points": [{"cols": 32}]})")
                  .find("points[0] lacks"),
              std::string::npos);
    EXPECT_NE(message(R"({"schema": "softmaxlab-peers/1", "points": [{"contender": "best",
                          "cols": 32, "status": "ok"}]})")
                  .find("has no \"gbps\""),
              std::string::npos);
    // Was: an "ok" point without pct_of_copy drawn at 0%, and gbps 1e300 labelled
    // -2147483648 GB/s (an int overflow). Both numbers are needed and must be sane.
    const std::string ok_point =
        R"({"schema": "softmaxlab-peers/1", "points": [{"contender": "best", "cols": 32,
            "status": "ok", )";
    EXPECT_NE(message(ok_point + R"("gbps": 100}]})")
                  .find("points[0] (best, N = 32) is \"ok\" "
                        "but has no \"pct_of_copy\""),
              std::string::npos);
    EXPECT_NE(message(ok_point + R"("gbps": 1e300, "pct_of_copy": 50}]})")
                  .find("gbps = 1e+300 is outside 0..1000000"),
              std::string::npos);
    EXPECT_NE(message(ok_point + R"("gbps": 100, "pct_of_copy": -5}]})")
                  .find("pct_of_copy = -5 is outside 0..10000"),
              std::string::npos);
    EXPECT_NE(message(ok_point + R"("gbps": 100, "pct_of_copy": 1e999}]})").find("not valid JSON"),
              std::string::npos);  // the JSON reader refuses a number past a double
    // The largest bandwidth allowed is labelled as it is.
    const Result<PeerRun> fast =
        parse_peer_run(ok_point + R"("gbps": 999999.6, "pct_of_copy": 50}]})", path);
    ASSERT_TRUE(fast) << fast.error().message;
    const Result<Chart> drawn = build_peers_chart({*fast});
    ASSERT_TRUE(drawn) << drawn.error().message;
    const Series* best = find_series(*drawn, "best_fp32");
    ASSERT_NE(best, nullptr);
    ASSERT_EQ(best->points.size(), 1u);
    EXPECT_EQ(message_en(best->points[0].note), "1000000 GB/s");
    EXPECT_EQ(best->points[0].y, 50);

    const Result<PeerRun> missing = load_peer_run("/nonexistent/peers.json");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("/nonexistent/peers.json"), std::string::npos);
    EXPECT_FALSE(build_peers_chart({}));
}

}  // namespace
}  // namespace sml::chart
