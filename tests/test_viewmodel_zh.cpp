// The viewer in Chinese (--lang zh) draws no English of its own: the notes, headers, tooltips,
// comparison lines, lab bench results and code-panel messages that the view model builds come
// out in Chinese, keeping only names (kernels, devices, files, CUPTI counters), units and code.
// And every Chinese character it writes is in the text the font atlas is built from, so none
// shows as "?".
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "app/viewer/model/compare_view.h"
#include "app/viewer/model/metric_rows.h"
#include "app/viewer/model/recorded_lines.h"
#include "app/viewer/model/ui_text.h"
#include "core/chart/chart_kinds.h"
#include "core/lab/bytes.h"
#include "core/lab/exercises.h"
#include "core/lab/sass_roles.h"
#include "core/session/session.h"
#include "lab_test_util.h"

namespace sml::viewer {
namespace {

const std::string kRoot = SML_SOURCE_DIR;

const Session& session(const char* name) {
    static std::map<std::string, Session> cache;
    auto it = cache.find(name);
    if (it != cache.end()) return it->second;
    Result<Session> r = load_session(kRoot + "/assets/sessions/" + name);
    if (!r) ADD_FAILURE() << r.error().message;
    return cache.emplace(name, r ? *r : Session{}).first->second;
}

std::string sha_of(const std::string& rel) {
    std::ifstream in(kRoot + "/" + rel, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return lab::sha256_hex(ss.str());
}

// English words left in `zh`: runs of three or more letters that are not a name, a unit or code
// (those carry a digit or one of "_./@-", or are listed here: kernel ids, devices, tools, the
// CUDA words a Chinese GPU engineer writes in English).
std::vector<std::string> english_words(const std::string& zh) {
    static const std::set<std::string> names = {
        "NVIDIA",    "HBM3",    "NVRTC",        "CUPTI",      "SASS",    "PTX",
        "CUDA",      "GPU",     "softmaxlab",   "cli",        "lab",     "lines",
        "docs",      "kernel",  "warp",         "fused",      "naive",   "block",
        "smem",      "online",  "online_tiled", "best",       "bank",    "conflicted",
        "wavefront", "float",   "Triton",       "json",       "fp32",    "fp16",
        "bf16",      "sml_ptx", "record_code",  "device_run", "code",    "tar",
        "assets",    "bench",   "exports",      "sessions",   "program", "SML_CLI",
        "HBM",       "lane",    "softmax",      "JSON",       "chart",   "sweep",
        "out",       "nvcc",    "Cairo",        "lang",       "SIGSEGV"};
    std::vector<std::string> out;
    static const std::regex word("[A-Za-z][A-Za-z0-9_./@-]{2,}");
    for (auto it = std::sregex_iterator(zh.begin(), zh.end(), word); it != std::sregex_iterator();
         ++it) {
        const std::string w = it->str();
        if (w.find_first_of("0123456789_./@-") != std::string::npos) continue;
        if (names.count(w)) continue;
        out.push_back(w);
    }
    return out;
}

// Every character of `zh` beyond ASCII is in the font atlas's text (app.cpp builds the atlas
// from ui_text_all_chinese(), the key table and the lessons).
std::string missing_glyphs(const std::string& zh) {
    static const std::string atlas = ui_text_all_chinese();
    std::string missing;
    for (size_t i = 0; i < zh.size();) {
        const unsigned char c = static_cast<unsigned char>(zh[i]);
        const size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        const std::string ch = zh.substr(i, n);
        if (n > 1 && atlas.find(ch) == std::string::npos && missing.find(ch) == std::string::npos)
            missing += ch;
        i += n;
    }
    return missing;
}

void expect_chinese(const std::string& zh, const std::string& what) {
    EXPECT_FALSE(zh.empty()) << what;
    const std::vector<std::string> words = english_words(zh);
    std::string list;
    for (const std::string& w : words) list += " '" + w + "'";
    EXPECT_TRUE(words.empty()) << what << ": English left:" << list << "\n  in: " << zh;
    EXPECT_EQ(missing_glyphs(zh), "") << what << ": not in the font atlas's text\n  in: " << zh;
}

// The audit's case: the code panel's note on where the per-line counters come from.
TEST(Chinese, ThePerLineCountersNoteAndItsHovers) {
    const Session& s = session("h100-2026-11-25.json");
    const std::string smem = "kernels/smem_softmax.cu";
    RecordedLines r =
        find_recorded_lines(s, "smem", "bank-conflicted", smem, 4096, sha_of(smem), "zh");
    ASSERT_NE(r.point, nullptr);
    expect_chinese(r.note, "smem's note");
    EXPECT_NE(r.note.find("逐行计数器"), std::string::npos) << r.note;
    // The nearest N's note, and the English one as it was.
    const std::string fused = "kernels/fused_softmax.cu";
    r = find_recorded_lines(s, "fused", "", fused, 8192, sha_of(fused), "zh");
    ASSERT_NE(r.point, nullptr);
    expect_chinese(r.note, "fused's note at another N");
    EXPECT_NE(r.note.find("8192"), std::string::npos) << r.note;
    const RecordedLines en = find_recorded_lines(s, "fused", "", fused, 8192, sha_of(fused));
    EXPECT_EQ(en.note.rfind("per-line counters: ", 0), 0u) << en.note;
    EXPECT_NE(en.note.find("(the nearest N to 8192 that has them)"), std::string::npos);
    // A file changed since: the problem, in Chinese.
    r = find_recorded_lines(s, "smem", "", smem, 4096, sha_of(smem) + "x", "zh");
    EXPECT_EQ(r.point, nullptr);
    expect_chinese(r.problem, "a changed file");
    // The gutter's hover and the counters' names, units and descriptions.
    expect_chinese(
        describe_counters({{lab::role::kInstExecuted, 4224}, {lab::role::kGlobalSectors, 2.5e7}},
                          "zh"),
        "a line's counters");
    for (const lab::SassRole& role : lab::sass_roles()) {
        expect_chinese(ui_text(role.label, "zh"), role.label);
        expect_chinese(ui_text(role.description, "zh"), role.description);
    }
    for (const char* why :
         {"a derived metric is shown per source line only", "the counters are per SASS instruction",
          "no counters were recorded for this function",
          "the listing has no instruction addresses"})
        expect_chinese(ui_text(why, "zh"), why);
}

TEST(Chinese, TheMetricsTablesHeadersAndTooltips) {
    for (int c = 0; c < static_cast<int>(MetricColumn::count_); ++c) {
        const MetricColumn col = static_cast<MetricColumn>(c);
        expect_chinese(ui_text(column_info(col).header, "zh"), column_info(col).header);
        expect_chinese(column_tooltip(col, "zh"), column_info(col).header);
        EXPECT_EQ(column_tooltip(col), column_tooltip(col, "en"));
    }
    for (const char* s : {" (theor.)", "counters unavailable", "L2-resident",
                          "the working set fits in L2", "Hardware counters unavailable"})
        expect_chinese(ui_text(s, "zh"), s);
}

TEST(Chinese, AComparisonsLines) {
    const Session& open = session("h100-2026-11-25.json");
    const ComparedSession other{session("h100-2026-11-23.json"),
                                kRoot + "/assets/sessions/h100-2026-11-23.json"};
    expect_chinese(compare_note(open, &other, "fp32", 1024, "zh"), "comparing");
    expect_chinese(compare_note(open, &other, "fp32", 1000, "zh"), "an N the other lacks");
    EXPECT_EQ(compare_note(open, &other, "fp32", 1024),
              compare_note(open, &other, "fp32", 1024, "en"));
    for (const chart::ChartKind* k : viewer_chart_kinds())
        if (!k->compares) expect_chinese(chart_compare_note(*k, &other, "zh"), k->id);
    expect_chinese(chart_text("2026-11-23: dashed lines, hollow markers", "zh"), "legend");
    expect_chinese(chart_text("2026-11-25: solid lines, filled markers", "zh"), "legend");
}

// The lab bench's run results: the core's sentences, with the parts they carry.
TEST(Chinese, TheLabBenchsRunResults) {
    for (const char* st : {"ok", "wrong", "compile_error", "bad_job", "launch_error", "fault",
                           "timeout", "out_of_memory", "no_gpu", "crashed", "failed"}) {
        expect_chinese(lab_status_text(st, "zh"), st);
        EXPECT_EQ(lab_status_text(st, "en"), st);
    }
    const char* sentences[] = {
        "correct; 2712 GB/s, 89% of copy",
        "max relative error 0.031250 (tolerance 0.000010)",
        "the edited kernel faulted (illegal_address) in its warp launch",
        "the edited warp kernel did not finish within 20 s, so its run was stopped (an endless "
        "loop?)",
        "the run of the edited warp kernel exited with status 3 without a result",
        "the run of the edited warp kernel killed by signal 11 (SIGSEGV)",
        "the lab runner could not be started: 2",
        "check every loop's exit condition; CUDA cannot say where a stopped kernel was, so look "
        "at the loops you changed. Your edit is saved.",
        "this is a crash of the runner, not a wrong result; its last output: 134 Your edit is "
        "saved.",
        "build softmaxlab-cli (it runs lab jobs), or set SML_CLI to its path",
        "CUDA names the launch, not the line; the lab asks compute-sanitizer for the line when "
        "it can. Your edit is saved.",
        "the edit compiles for sm_90; running it needs an NVIDIA GPU",
        "compiled for sm_90",
        "the edit does not compile",
        "this softmaxlab was built without the CUDA toolkit, so it cannot compile kernels",
        "passed: correct on every shape, and fast enough",
        "does not compile yet: fix the errors at their lines",
        "compiles; the check needs a GPU to run it",
        "not yet: 1823 x 781: wrong: max relative error 0.5 (tolerance 1e-05)",
        "not yet: speed at 65536 x 1024: 61% of copy (needs 70%)",
        "1823 x 781: correct",
    };
    for (const char* s : sentences) {
        expect_chinese(lab_text(s, "zh"), s);
        EXPECT_EQ(lab_text(s, "en"), s);
    }
    // The numbers and names a sentence carries come through.
    const std::string t = lab_text("not yet: speed at 65536 x 1024: 61% of copy (needs 70%)", "zh");
    for (const char* part : {"65536 x 1024", "61%", "70%"})
        EXPECT_NE(t.find(part), std::string::npos) << t;
    EXPECT_EQ(lab_text("a sentence no pattern knows", "zh"), "a sentence no pattern knows");
    for (const char* s : {"compiling...", "running in a child process...", "compiles",
                          "back to the original; your edit was removed"})
        expect_chinese(ui_text(s, "zh"), s);
    expect_chinese(ui_format("saved to {0}", "zh", {"/tmp/edits/warp.cu"}), "saved");
    expect_chinese(
        ui_format("{0} error(s)", "zh", {"2"}) + ui_format(", {0} warning(s)", "zh", {"1"}),
        "errors and warnings");
    expect_chinese(ui_format("run: {0} - {1}", "zh",
                             {lab_status_text("wrong", "zh"),
                              lab_text("max relative error 0.5 (tolerance 1e-05)", "zh")}),
                   "a run's line");
}

// The lab bench's exercises: title, task and hints in Chinese (lessons/exercises/exercises.json
// "zh"), every hint in its place; the code they quote stays code.
TEST(Chinese, TheLabBenchsExercises) {
    Result<std::vector<lab::Exercise>> all = lab::load_exercises();
    ASSERT_TRUE(all.ok()) << all.error().message;
    ASSERT_FALSE(all->empty());
    for (const lab::Exercise& e : *all) {
        const lab::ExerciseWords zh = e.words("zh");
        ASSERT_EQ(zh.hints.size(), e.hints.size()) << e.id;
        EXPECT_NE(zh.title, e.title) << e.id;
        EXPECT_NE(zh.task, e.task) << e.id;
        EXPECT_NE(zh.title.find_first_of("\xE4\xE5\xE6\xE7\xE8\xE9"), std::string::npos) << e.id;
        EXPECT_EQ(e.words("en").task, e.task);
    }
}

// The exercise checks' sentences as the core writes them (evaluate_exercise, with results of
// every kind), not as a copy here: if the core's wording changes, the Chinese table must follow,
// or this fails.
TEST(Chinese, TheCoresExerciseVerdictsTranslate) {
    Result<std::vector<lab::Exercise>> all = lab::load_exercises();
    ASSERT_TRUE(all.ok()) << all.error().message;
    ASSERT_FALSE(all->empty());
    const lab::Exercise& e = all->front();
    const auto result = labtest::lab_result;
    const std::vector<lab::LabResult> ok(e.shapes.size(), result(lab::status::kOk, "", -1));
    std::vector<lab::LabResult> wrong = ok;
    // (lab_run_gpu.cpp's message for a wrong result; its status says "wrong")
    wrong.back() = result(lab::status::kWrong, "max relative error 0.5 (tolerance 1e-05)", -1);
    lab::LabResult compile = result(lab::status::kCompileError, "the edit does not compile", -1);
    compile.diagnostics.push_back(lab::Diagnostic{});
    const std::vector<lab::LabResult> no_compile(1, compile);
    const std::vector<lab::LabResult> no_gpu(
        e.shapes.size(), result(lab::status::kNoGpu,
                                "the edit compiles for sm_90; running it needs an NVIDIA GPU", -1));
    const std::vector<lab::ExerciseVerdict> verdicts = {
        lab::evaluate_exercise(e, ok, result(lab::status::kOk, "", 99.0)),
        lab::evaluate_exercise(e, ok, result(lab::status::kOk, "", 1.0)),
        lab::evaluate_exercise(e, wrong, std::nullopt),
        lab::evaluate_exercise(e, no_compile, std::nullopt),
        lab::evaluate_exercise(e, no_gpu, std::nullopt),
    };
    EXPECT_TRUE(verdicts[0].passed);
    EXPECT_FALSE(verdicts[1].passed);
    EXPECT_EQ(verdicts[2].summary.find("wrong: wrong:"), std::string::npos) << verdicts[2].summary;
    for (const lab::ExerciseVerdict& v : verdicts) {
        expect_chinese(lab_text(v.summary, "zh"), v.summary);
        for (const lab::ExerciseCheck& c : v.checks) expect_chinese(lab_text(c.what, "zh"), c.what);
    }
}

// A pattern's Chinese keeps every part its English carries.
TEST(Chinese, EveryPatternKeepsItsParts) {
    int patterns = 0;
    for (const std::string& en : ui_text_keys()) {
        const std::string zh = ui_text(en.c_str(), "zh");
        for (int i = 0; i < 4; ++i) {
            const std::string slot = "{" + std::to_string(i) + "}";
            EXPECT_EQ(en.find(slot) != std::string::npos, zh.find(slot) != std::string::npos)
                << slot << " in " << en << " / " << zh;
        }
        patterns += en.find("{0}") != std::string::npos;
        if (en == zh) continue;  // units and names the table keeps ("GB/s", "kernel")
        expect_chinese(zh, en);
    }
    EXPECT_GE(patterns, 20);
    EXPECT_EQ(ui_format("{0} of {1}", "en", {"a", "b"}), "a of b");
}

}  // namespace
}  // namespace sml::viewer
