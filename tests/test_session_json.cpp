// Session JSON: a full round trip, and every way a file can be wrong giving a clear error.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "core/session/session.h"

namespace sml {
namespace {

// A session with every field set to a non-default value, so a field the reader forgets shows.
Session full_session() {
    Session s;
    s.created_utc = "2026-11-22T09:41:00Z";
    s.command = "softmaxlab-cli sweep --kernels all --out 'my session.json'";
    s.host = "gpu-host-1";
    s.software = {{"softmaxlab", "0.1.0"}, {"cuda_runtime", "13.0"}, {"cuda_driver", "13.0"}};
    s.notes = {{"recorded_by", "bench/device_run.sh"}, {"sweep_seconds", "61.2"}};
    DeviceRecord& d = s.device;
    d.name = "NVIDIA H100 80GB HBM3";
    d.cc_major = 9, d.cc_minor = 0, d.sm_count = 132;
    d.l2_bytes = 52428800, d.memory_bytes = 85045477376;
    d.sm_clock_khz = 1980000, d.memory_clock_khz = 2619000, d.memory_bus_bits = 5120;
    d.peak_dram_gbps = 3352.32, d.copy_gbps = 3004.25;
    d.smem_per_block_optin = 232448, d.regs_per_sm = 65536;
    d.driver_version = "13.0", d.runtime_version = "13.0";
    d.counters_available = true, d.counters_reason = "";

    PointRecord p;
    p.kernel = "naive", p.variant = "", p.rows = 262144, p.cols = 1024, p.dtype = "fp32";
    p.time = TimingStats{2.5, 2.625, 2.875, 2.6401, 20, true};
    p.gbps = 817.9, p.pct_of_copy = 27.2, p.copy_gbps = 3004.25;
    p.max_rel_error = 3.1e-7, p.max_rowsum_error = 2.2e-7, p.rows_checked = 64;
    p.tolerance = 1e-5, p.within_tolerance = true;
    LaunchRecord l;
    l.name = "row_max";
    l.grid[0] = 262144, l.grid[1] = 2, l.grid[2] = 3;
    l.block[0] = 256, l.block[1] = 4, l.block[2] = 1;
    l.dynamic_smem_bytes = 1024, l.static_smem_bytes = 128, l.registers_per_thread = 30;
    l.blocks_per_sm = 8, l.theoretical_occupancy_pct = 100, l.median_ms = 0.41;
    p.launches = {l, l};
    p.launches[1].name = "subtract";
    p.launches[0].function = "_ZN3sml12_GLOBAL__N_114row_max_kernelEPKfllPf";
    p.predicted.dram_read_bytes = 5368717312, p.predicted.dram_write_bytes = 3223322624;
    p.predicted.global_load_bytes = 1.5e9, p.predicted.global_store_bytes = 1.25e9;
    p.predicted.smem_load_bytes = 4096, p.predicted.smem_store_bytes = 2048;
    p.predicted.read_formula = "5MN + 2M elements", p.predicted.write_formula = "3MN + 2M elements";
    p.predicted.per_launch = {{"row_max", {1073741824, 1048576}}, {"subtract", {1e9, 2e9}}};
    p.predicted.l2_resident = true;
    p.predicted.l2_reason = "the 16.0 MiB working set fits in the 50.0 MiB L2";
    p.metrics.available = true, p.metrics.reason = "", p.metrics.set = "default";
    p.metrics.passes = 2;
    p.metrics.values = {{"dram__bytes_read.sum", 5.1e9}, {"lts__t_sector_hit_rate.pct", 12.5}};
    p.metrics.per_launch = {{"row_max", {{"dram__bytes_read.sum", 1.07e9}}},
                            {"subtract", {{"dram__bytes_write.sum", 1.07e9}}}};
    s.points.push_back(p);

    PointRecord q = p;  // a second point: flagged, with non-finite errors and no counters
    q.kernel = "smem", q.variant = "bank-conflicted", q.dtype = "bf16", q.cols = 16385;
    q.max_rel_error = INFINITY, q.max_rowsum_error = NAN, q.within_tolerance = false;
    q.metrics = MetricsRecord{};
    q.metrics.reason = "counters restricted to admin users";
    q.metrics.set = "off";
    q.predicted.l2_resident = false;
    s.points.push_back(q);
    return s;
}

TEST(SessionJson, RoundTripKeepsEveryField) {
    const Session s = full_session();
    const std::string text = session_to_json(s);
    Result<Session> back = parse_session(text, "mem.json");
    ASSERT_TRUE(back.ok()) << back.error().message;
    // Writing the parsed session gives the same text: nothing written was lost when reading.
    EXPECT_EQ(session_to_json(*back), text);

    const Session& b = *back;
    EXPECT_EQ(b.schema_version, kSessionSchemaVersion);
    EXPECT_EQ(b.command, s.command);
    EXPECT_EQ(b.notes.at("sweep_seconds"), "61.2");
    EXPECT_EQ(b.software.at("cuda_runtime"), "13.0");
    EXPECT_EQ(b.device.memory_bytes, 85045477376);
    EXPECT_DOUBLE_EQ(b.device.copy_gbps, 3004.25);
    EXPECT_TRUE(b.device.counters_available);
    ASSERT_EQ(b.points.size(), 2u);
    const PointRecord& p = b.points[0];
    EXPECT_EQ(p.rows, 262144);
    EXPECT_DOUBLE_EQ(p.time.median_ms, 2.625);
    EXPECT_EQ(p.time.samples, 20);
    EXPECT_DOUBLE_EQ(p.max_rel_error, 3.1e-7);
    EXPECT_DOUBLE_EQ(p.tolerance, 1e-5);
    ASSERT_EQ(p.launches.size(), 2u);
    EXPECT_EQ(p.launches[1].name, "subtract");
    EXPECT_EQ(p.launches[0].grid[1], 2);
    EXPECT_EQ(p.launches[0].block[1], 4);
    EXPECT_EQ(p.launches[0].static_smem_bytes, 128);
    EXPECT_DOUBLE_EQ(p.launches[0].median_ms, 0.41);
    EXPECT_EQ(p.launches[0].function, "_ZN3sml12_GLOBAL__N_114row_max_kernelEPKfllPf");
    EXPECT_EQ(p.launches[1].function, "");
    EXPECT_DOUBLE_EQ(p.predicted.dram_read_bytes, 5368717312.0);
    EXPECT_DOUBLE_EQ(p.predicted.per_launch.at("subtract").second, 2e9);
    EXPECT_TRUE(p.predicted.l2_resident);
    EXPECT_EQ(p.predicted.l2_reason, s.points[0].predicted.l2_reason);
    EXPECT_EQ(p.metrics.passes, 2);
    ASSERT_EQ(p.metrics.values.size(), 2u);
    EXPECT_EQ(p.metrics.values[0].name, "dram__bytes_read.sum");  // order kept
    EXPECT_DOUBLE_EQ(*p.metrics.get("lts__t_sector_hit_rate.pct"), 12.5);
    EXPECT_DOUBLE_EQ(p.metrics.per_launch.at("row_max").at(0).value, 1.07e9);
    const PointRecord& q = b.points[1];
    EXPECT_EQ(q.variant, "bank-conflicted");
    EXPECT_EQ(q.dtype, "bf16");
    EXPECT_TRUE(std::isinf(q.max_rel_error));
    EXPECT_TRUE(std::isnan(q.max_rowsum_error));
    EXPECT_FALSE(q.within_tolerance);
    EXPECT_FALSE(q.metrics.available);
    EXPECT_EQ(q.metrics.reason, "counters restricted to admin users");
    EXPECT_FALSE(q.predicted.l2_resident);
    EXPECT_NE(b.find("smem", 16385, "bf16", "bank-conflicted"), nullptr);
}

TEST(SessionJson, NotesAreOptional) {
    nlohmann::json doc = nlohmann::json::parse(session_to_json(full_session()));
    doc.erase("notes");
    Result<Session> s = parse_session(doc.dump(), "no-notes.json");
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_TRUE(s->notes.empty());
}

TEST(SessionJson, LaunchedFunctionIsOptional) {
    // Sessions recorded before launches named their function read as "", and "" is not written.
    nlohmann::json doc = nlohmann::json::parse(session_to_json(full_session()));
    EXPECT_TRUE(doc["points"][0]["launches"][0].contains("function"));
    EXPECT_FALSE(doc["points"][0]["launches"][1].contains("function"));
    doc["points"][0]["launches"][0].erase("function");
    Result<Session> s = parse_session(doc.dump(), "old.json");
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_EQ(s->points[0].launches[0].function, "");
    doc["points"][0]["launches"][0]["function"] = 7;
    EXPECT_FALSE(parse_session(doc.dump(), "bad.json").ok());
}

// Why counters are missing, as a sentence (common/message.h): written only when the code that found
// the reason said one, read back as written, and dropped (the English kept) when it is malformed
// or does not say what "reason" says.
TEST(SessionJson, AReasonsSentenceRoundTripsAndIsOptional) {
    Session s = full_session();
    ASSERT_GE(s.points.size(), 2u);
    nlohmann::json plain = nlohmann::json::parse(session_to_json(s));
    for (const auto& p : plain["points"]) EXPECT_FALSE(p["metrics"].contains("reason_message"));
    const Message why(Msg::counters_no_device,
                      {Message(Msg::counters_no_devices_found)});  // a sentence inside a sentence
    s.points[1].metrics.available = false;
    s.points[1].metrics.set_reason(why);
    EXPECT_EQ(s.points[1].metrics.reason,
              "no CUDA device, so no hardware counters (0 devices): run on a machine with an "
              "NVIDIA GPU and driver");
    const std::string text = session_to_json(s);
    Result<Session> back = parse_session(text, "mem.json");
    ASSERT_TRUE(back.ok()) << back.error().message;
    const Message& read = back->points[1].metrics.reason_message;
    EXPECT_EQ(read.id, Msg::counters_no_device);
    ASSERT_EQ(read.parts.size(), 1u);
    EXPECT_EQ(read.parts[0].id, Msg::counters_no_devices_found);
    EXPECT_EQ(message_en(read), s.points[1].metrics.reason);
    EXPECT_EQ(session_to_json(*back), text);
    // A phrase and a literal part survive too.
    s.points[1].metrics.set_reason(
        Message(Msg::counters_launch_failed, {Message::phrase_of("none")}));
    back = parse_session(session_to_json(s), "mem.json");
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->points[1].metrics.reason_message.parts.at(0).id, Msg::phrase);
    // Edited so that the two disagree, an unknown id, a malformed one: the English alone.
    nlohmann::json doc = nlohmann::json::parse(text);
    for (auto edit : {+[](nlohmann::json& m) { m["reason"] = "something else"; },
                      +[](nlohmann::json& m) { m["reason_message"]["id"] = "no_such_id"; },
                      +[](nlohmann::json& m) { m["reason_message"]["parts"] = 7; },
                      +[](nlohmann::json& m) { m["reason_message"] = 7; }}) {
        nlohmann::json d = doc;
        edit(d["points"][1]["metrics"]);
        Result<Session> r = parse_session(d.dump(), "edited.json");
        ASSERT_TRUE(r.ok()) << r.error().message;
        EXPECT_FALSE(r->points[1].metrics.reason_message.is_sentence());
        EXPECT_EQ(r->points[1].metrics.reason, d["points"][1]["metrics"]["reason"]);
    }
}

// The error for `text`, which must not parse.
std::string parse_error(const std::string& text, const std::string& origin = "s.json") {
    Result<Session> s = parse_session(text, origin);
    EXPECT_FALSE(s.ok());
    if (s.ok()) return "";
    EXPECT_FALSE(s.error().hint.empty()) << "every session error carries a hint";
    return s.error().message;
}

TEST(SessionJson, TruncatedFileSaysTruncated) {
    const std::string text = session_to_json(full_session());
    for (size_t cut : {size_t(1), text.size() / 3, text.size() / 2, text.size() - 3}) {
        const std::string m = parse_error(text.substr(0, cut), "cut.json");
        EXPECT_NE(m.find("cut.json"), std::string::npos) << m;
        EXPECT_NE(m.find("truncated"), std::string::npos) << m;
    }
}

TEST(SessionJson, CorruptOrEmptyFileIsNotJson) {
    EXPECT_NE(parse_error("this is not json").find("not valid JSON"), std::string::npos);
    EXPECT_NE(parse_error("{\"schema_version\": 1,, }").find("not valid JSON"), std::string::npos);
    EXPECT_NE(parse_error("").find("empty"), std::string::npos);
    EXPECT_NE(parse_error("[1, 2]").find("not a softmaxlab session"), std::string::npos);
    EXPECT_NE(parse_error("{\"points\": []}").find("schema_version"), std::string::npos);
}

TEST(SessionJson, WrongSchemaVersionNamesBothVersions) {
    nlohmann::json doc = nlohmann::json::parse(session_to_json(full_session()));
    doc["schema_version"] = kSessionSchemaVersion + 1;
    const std::string m = parse_error(doc.dump(), "future.json");
    EXPECT_NE(m.find("future.json"), std::string::npos) << m;
    EXPECT_NE(m.find("version " + std::to_string(kSessionSchemaVersion + 1)), std::string::npos)
        << m;
    EXPECT_NE(m.find("reads version " + std::to_string(kSessionSchemaVersion)), std::string::npos)
        << m;
}

TEST(SessionJson, MissingFieldNamesItsPath) {
    nlohmann::json doc = nlohmann::json::parse(session_to_json(full_session()));
    doc["points"][1]["time"].erase("median_ms");
    const std::string m = parse_error(doc.dump());
    EXPECT_NE(m.find("points[1].time.median_ms: missing field"), std::string::npos) << m;

    doc = nlohmann::json::parse(session_to_json(full_session()));
    doc["device"].erase("l2_bytes");
    EXPECT_NE(parse_error(doc.dump()).find("device.l2_bytes: missing field"), std::string::npos);

    doc = nlohmann::json::parse(session_to_json(full_session()));
    doc.erase("points");
    EXPECT_NE(parse_error(doc.dump()).find("points: missing field"), std::string::npos);
}

TEST(SessionJson, MistypedFieldNamesPathAndTypes) {
    nlohmann::json doc = nlohmann::json::parse(session_to_json(full_session()));
    doc["device"]["sm_count"] = "many";
    std::string m = parse_error(doc.dump());
    EXPECT_NE(m.find("device.sm_count: expected an integer, found a string"), std::string::npos)
        << m;

    doc = nlohmann::json::parse(session_to_json(full_session()));
    doc["points"][0]["launches"][1]["grid"] = nlohmann::json::array({1, 2});
    m = parse_error(doc.dump());
    EXPECT_NE(m.find("points[0].launches[1].grid: expected an array of 3 integers"),
              std::string::npos)
        << m;

    doc = nlohmann::json::parse(session_to_json(full_session()));
    doc["points"][0]["launches"][1]["grid"] = nlohmann::json::array({1, int64_t(1) << 40, 1});
    m = parse_error(doc.dump());
    EXPECT_NE(m.find("points[0].launches[1].grid: integer 1099511627776 is out of range"),
              std::string::npos)
        << m;

    doc = nlohmann::json::parse(session_to_json(full_session()));
    doc["points"][0]["metrics"]["values"]["dram__bytes_read.sum"] = true;
    m = parse_error(doc.dump());
    EXPECT_NE(m.find("points[0].metrics.values.dram__bytes_read.sum: expected a number"),
              std::string::npos)
        << m;

    doc = nlohmann::json::parse(session_to_json(full_session()));
    doc["points"][0]["gbps"] = "fast";  // only nan/inf/-inf are accepted as strings
    EXPECT_NE(parse_error(doc.dump()).find("points[0].gbps"), std::string::npos);
}

TEST(SessionJson, ArrayElementsMustBeObjects) {
    // Each array of records names its element that is not an object.
    using nlohmann::json;
    const json base = json::parse(session_to_json(full_session()));
    json doc = base;
    doc["points"][1] = 7;
    EXPECT_EQ(parse_error(doc.dump()), "s.json: points[1]: expected an object");
    doc = base;
    doc["points"][0]["launches"].push_back("a launch");
    EXPECT_EQ(parse_error(doc.dump()), "s.json: points[0].launches[2]: expected an object");
    doc = base;
    const json line = {{"file", "k.cu"}, {"line", 3}, {"values", {{"inst_executed", 4}}}};
    const json instruction = {
        {"function", "f"}, {"pc", 16}, {"line", 3}, {"values", {{"inst_executed", 4}}}};
    doc["points"][0]["source_lines"] = {
        {"available", true},        {"reason", ""},
        {"chip", "gh100"},          {"metric_names", {{"inst_executed", "instructions executed"}}},
        {"lines", {line, nullptr}}, {"instructions", {instruction}}};
    EXPECT_EQ(parse_error(doc.dump()),
              "s.json: points[0].source_lines.lines[1]: expected an object");
    doc["points"][0]["source_lines"]["lines"] = {line};
    doc["points"][0]["source_lines"]["instructions"] = {instruction, json::array()};
    EXPECT_EQ(parse_error(doc.dump()),
              "s.json: points[0].source_lines.instructions[1]: expected an object");
    // And with every element an object, all of them are read.
    doc["points"][0]["source_lines"]["instructions"] = {instruction, instruction};
    Result<Session> s = parse_session(doc.dump(), "mem.json");
    ASSERT_TRUE(s.ok()) << s.error().message;
    ASSERT_TRUE(s->points[0].source_lines.has_value());
    EXPECT_EQ(s->points[0].source_lines->lines.size(), 1u);
    EXPECT_EQ(s->points[0].source_lines->instructions.size(), 2u);
    EXPECT_EQ(s->points[0].launches.size(), 2u);
}

TEST(SessionJson, MissingFileNamesThePath) {
    Result<Session> s = load_session("/nonexistent/dir/session.json");
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("/nonexistent/dir/session.json"), std::string::npos);
    EXPECT_NE(s.error().message.find("cannot open"), std::string::npos);
}

TEST(SessionJson, DirectoryIsNotASessionFile) {
    const std::string dir = std::filesystem::temp_directory_path().string();
    Result<Session> s = load_session(dir);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().message, dir + " is a directory, not a session file");
    EXPECT_NE(s.error().hint.find(".json"), std::string::npos) << s.error().hint;
}

// The viewer's "nearest N": on a log scale, the first of equals, none in an empty session.
TEST(SessionModel, NearestColsIsNearestOnALogScale) {
    EXPECT_DOUBLE_EQ(cols_apart(2, 8), 4.0);
    EXPECT_DOUBLE_EQ(cols_apart(8, 2), 4.0);
    EXPECT_EQ(nearest_cols({32, 4000, 8192}, 4096), 4000);  // not 32, nearer in plain distance
    EXPECT_EQ(nearest_cols({2048, 8192}, 4096), 2048);      // equally far: the first
    EXPECT_EQ(nearest_cols({8192, 2048}, 4096), 8192);
    EXPECT_EQ(nearest_cols({100}, 1), 100);
    EXPECT_EQ(nearest_cols({}, 4096), 0);
}

}  // namespace
}  // namespace sml
