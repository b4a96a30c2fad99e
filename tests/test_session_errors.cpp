// Why a session file cannot be opened, in English word for word: the CLI prints these sentences
// (softmaxlab-cli chart --session, lab, record-code), and they are now built from sentence ids
// (common/message.h) so the viewer can say them in Chinese. This test pins the English the
// reader printed before that change, for every broken file of tests/broken_sessions.h, and
// checks the sentences the viewer renders give back the same English.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "broken_sessions.h"
#include "common/message.h"
#include "core/session/session.h"

namespace sml {
namespace {

struct Said {
    const char* message;
    const char* hint;
};

// The English of each broken file, "{dir}" standing for the test's folder.
const std::map<std::string, Said>& expected() {
    static const std::map<std::string, Said> t = {
        {"empty",
         {"{dir}/empty.json: empty file, not a softmaxlab session",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"truncated",
         {"{dir}/truncated.json: truncated: the JSON ends unexpectedly after 200 bytes",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"not_json",
         {"{dir}/not_json.json: not valid JSON at line 2, column 23 (byte 25)",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"bare_nan",
         {"{dir}/bare_nan.json: NaN at line 41, column 12 (byte 757) is not valid JSON: JSON has "
          "no NaN or infinity",
          "write it as a string, as softmaxlab does: \"nan\", \"inf\" or \"-inf\" (with the "
          "quotes); in Python, json.dump(..., allow_nan=False) catches this when the file is "
          "written"}},
        {"top_level_array",
         {"{dir}/top_level_array.json: not a softmaxlab session (the top level is not a JSON "
          "object)",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"no_schema_version",
         {"{dir}/no_schema_version.json: not a softmaxlab session (no integer \"schema_version\" "
          "field)",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"newer_schema",
         {"{dir}/newer_schema.json: session schema version 99 is not supported (this softmaxlab "
          "reads version 1)",
          "open it with the newer softmaxlab that wrote it, or re-record it with this one "
          "(softmaxlab-cli sweep --out <file>.json)"}},
        {"older_schema",
         {"{dir}/older_schema.json: session schema version 0 is not supported (this softmaxlab "
          "reads version 1)",
          "re-record it with this softmaxlab (softmaxlab-cli sweep --out <file>.json)"}},
        {"missing_field",
         {"{dir}/missing_field.json: points[1].time.median_ms: missing field",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"string_for_integer",
         {"{dir}/string_for_integer.json: device.sm_count: expected an integer, found a string",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"integer_for_bool",
         {"{dir}/integer_for_bool.json: points[0].within_tolerance: expected true or false, found "
          "a number",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"null_for_string",
         {"{dir}/null_for_string.json: device.name: expected a string, found null",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"array_for_object",
         {"{dir}/array_for_object.json: device: expected an object, found an array",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"object_for_array",
         {"{dir}/object_for_array.json: points[0].launches: expected an array, found an object",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"word_for_number",
         {"{dir}/word_for_number.json: points[0].gbps: expected a number (or \"nan\", \"inf\", "
          "\"-inf\"), found a string",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"short_grid",
         {"{dir}/short_grid.json: points[0].launches[0].grid: expected an array of 3 integers, "
          "found an array",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"int32_out_of_range",
         {"{dir}/int32_out_of_range.json: device.cc_major: integer 1099511627776 is out of range",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"int64_out_of_range",
         {"{dir}/int64_out_of_range.json: points[0].rows: integer 18446744073709551615 is out of "
          "range",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"point_not_object",
         {"{dir}/point_not_object.json: points[1]: expected an object",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"per_launch_not_object",
         {"{dir}/per_launch_not_object.json: points[0].predicted.per_launch.k: expected an object "
          "with dram_read_bytes and dram_write_bytes",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"metrics_not_object",
         {"{dir}/metrics_not_object.json: points[0].metrics.per_launch.k: expected an object of "
          "metric name -> number, found a string",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"software_not_string",
         {"{dir}/software_not_string.json: software.cuda: expected a string, found a number",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"zero_rows",
         {"{dir}/zero_rows.json: points[0].rows: rows = 0 is outside 1..2^40 (1099511627776)",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"unknown_kernel",
         {"{dir}/unknown_kernel.json: points[0].kernel: unknown kernel 'turbo_v2' (this softmaxlab "
          "has naive, fused, warp, block, smem, online, online_tiled, best)",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"unknown_variant",
         {"{dir}/unknown_variant.json: points[0].variant: kernel smem has no variant 'fancy-2' "
          "(its variants: \"\", conflict-free, bank-conflicted)",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"variant_of_kernel_without",
         {"{dir}/variant_of_kernel_without.json: points[0].variant: kernel naive has no variant "
          "'x' (it has only its default, \"\")",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"unknown_dtype",
         {"{dir}/unknown_dtype.json: points[0].dtype: unknown dtype 'fp8' (fp32, fp16 or bf16)",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"repeated_point",
         {"{dir}/repeated_point.json: points[1]: repeats points[0] (smem, fp32, 4 x 1024): each "
          "kernel, variant, dtype and size may appear once",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"repeated_variant",
         {"{dir}/repeated_variant.json: points[1]: repeats points[0] (smem/bank-conflicted, fp32, "
          "4 x 512): each kernel, variant, dtype and size may appear once",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"grid_out_of_range",
         {"{dir}/grid_out_of_range.json: points[0].launches[0].grid: integer 1099511627776 is out "
          "of range",
          "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded "
          "sessions in assets/sessions/"}},
        {"bare_infinity",
         {"{dir}/bare_infinity.json: -Infinity at line 35, column 19 (byte 656) is not valid JSON: "
          "JSON has no NaN or infinity",
          "write it as a string, as softmaxlab does: \"nan\", \"inf\" or \"-inf\" (with the "
          "quotes); in Python, json.dump(..., allow_nan=False) catches this when the file is "
          "written"}},
        {"missing_file",
         {"cannot open session {dir}/missing.json: No such file or directory",
          "check the path; recorded sessions are in assets/sessions/"}},
        {"directory",
         {"{dir}/folder.json is a directory, not a session file",
          "pass the session's .json file; recorded sessions are in assets/sessions/"}},
        {"too_large",
         {"session {dir}/too_large.json is 67.1 MB, more than the 64 MiB softmaxlab reads",
          "softmaxlab reads sessions of up to 64 MiB; is this the right file?"}},
        {"fifo",
         {"{dir}/fifo.json is a FIFO (named pipe), not a session file",
          "softmaxlab reads only regular files (a FIFO or a device could block it or never end); "
          "pass a file path"}},
    };
    return t;
}

std::string with_dir(std::string s, const std::string& dir) {
    for (size_t at = s.find("{dir}"); at != std::string::npos; at = s.find("{dir}", at))
        s.replace(at, 5, dir);
    return s;
}

std::string without_dir(std::string s, const std::string& dir) {
    for (size_t at = s.find(dir); at != std::string::npos; at = s.find(dir, at))
        s.replace(at, dir.size(), "{dir}");
    return s;
}

TEST(SessionErrors, TheEnglishIsAsItWas) {
    broken::BrokenSessionDir dir;
    const bool dump = std::getenv("SML_DUMP_SESSION_ERRORS") != nullptr;
    for (const broken::BrokenSession& f : dir.files()) {
        Result<Session> s = load_session(f.path);
        ASSERT_FALSE(s.ok()) << f.name;
        if (dump) {
            std::cout << "        {" << nlohmann::json(f.name).dump() << ",\n         {"
                      << nlohmann::json(without_dir(s.error().message, dir.dir())).dump()
                      << ",\n          "
                      << nlohmann::json(without_dir(s.error().hint, dir.dir())).dump() << "}},\n";
            continue;
        }
        auto it = expected().find(f.name);
        ASSERT_NE(it, expected().end()) << f.name << " has no expected English";
        EXPECT_EQ(s.error().message, with_dir(it->second.message, dir.dir())) << f.name;
        EXPECT_EQ(s.error().hint, with_dir(it->second.hint, dir.dir())) << f.name;
        // The same error as sentences, for the viewer: their English is the CLI's.
        std::optional<MessageError> said;
        Result<Session> again = load_session(f.path, &said);
        ASSERT_FALSE(again.ok()) << f.name;
        ASSERT_TRUE(said.has_value()) << f.name;
        EXPECT_EQ(again.error().message, s.error().message) << f.name;
        EXPECT_EQ(message_en(said->what), s.error().message) << f.name;
        EXPECT_EQ(message_en(said->hint), s.error().hint) << f.name;
        EXPECT_TRUE(said->what.is_sentence()) << f.name;
    }
    if (!dump) EXPECT_GE(expected().size(), 30u);
}

// parse_session says its sentences too, and a good file leaves `said` empty.
TEST(SessionErrors, ParseSessionSaysItsSentences) {
    std::optional<MessageError> said = MessageError{};
    Result<Session> s = parse_session("{\"points\": []}", "mem.json", &said);
    ASSERT_FALSE(s.ok());
    ASSERT_TRUE(said.has_value());
    EXPECT_EQ(message_name(said->what.id), std::string("session_in_file"));
    EXPECT_EQ(message_en(said->what), s.error().message);
    Session good;
    PointRecord p;
    p.kernel = "warp", p.rows = 1, p.cols = 32, p.dtype = "fp32";
    good.points.push_back(p);
    said = MessageError{};
    EXPECT_TRUE(parse_session(session_to_json(good), "good.json", &said).ok());
    EXPECT_FALSE(said.has_value());
}

// A key far longer than a line: the English is capped as before (1000 bytes); the sentences say
// the same words up to the cap.
TEST(SessionErrors, ALongKeyIsCappedAsBefore) {
    Session one;
    PointRecord p;
    p.kernel = "warp", p.rows = 1, p.cols = 32, p.dtype = "fp32";
    one.points.push_back(p);
    nlohmann::ordered_json doc = nlohmann::ordered_json::parse(session_to_json(one));
    // A per-line counter's name is not shortened in the path: the whole message is.
    doc["points"][0]["source_lines"] = {
        {"available", true},
        {"reason", ""},
        {"chip", "gh100"},
        {"metric_names", nlohmann::ordered_json::object()},
        {"lines", {{{"file", "k.cu"}, {"line", 3}, {"values", {{std::string(5000, 'k'), "x"}}}}}},
        {"instructions", nlohmann::ordered_json::array()}};
    std::optional<MessageError> said;
    Result<Session> s = parse_session(doc.dump(), "long.json", &said);
    ASSERT_FALSE(s.ok());
    ASSERT_TRUE(said.has_value());
    EXPECT_LE(s.error().message.size(), 1000u);
    EXPECT_GT(message_en(said->what).size(), 1000u);
    const std::string en = message_en(said->what);
    EXPECT_EQ(en.substr(0, 200), s.error().message.substr(0, 200));
}

}  // namespace
}  // namespace sml
