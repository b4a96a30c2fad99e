// The viewer in Chinese (--lang zh) draws no English of its own: the notes, headers, tooltips,
// comparison lines, lab bench results and code-panel messages that the view model builds come
// out in Chinese, keeping only names (kernels, devices, files, CUPTI counters), units and code.
// And every Chinese character it writes is in the text the font atlas is built from, so none
// shows as "?".
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "app/viewer/model/code_view.h"
#include "app/viewer/model/compare_view.h"
#include "app/viewer/model/device_view.h"
#include "app/viewer/model/metric_rows.h"
#include "app/viewer/model/recorded_lines.h"
#include "app/viewer/model/run_job.h"
#include "app/viewer/model/ui_text.h"
#include "app/viewer/model/worker.h"
#include "broken_sessions.h"
#include "core/chart/chart_build.h"
#include "core/chart/chart_kinds.h"
#include "core/chart/session_compare.h"
#include "core/lab/bytes.h"
#include "core/lab/exercises.h"
#include "core/lab/sass_roles.h"
#include "core/metrics/counter_errors.h"
#include "core/plan/sweep_plan.h"
#include "core/session/session.h"
#include "kernels/best_softmax.h"
#include "kernels/device_profiles.h"
#include "kernels/registry.h"
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
        "NVIDIA", "HBM3", "NVRTC", "CUPTI", "SASS", "PTX", "CUDA", "GPU", "softmaxlab", "cli",
        "lab", "lines", "docs", "kernel", "warp", "fused", "naive", "block", "smem", "online",
        "online_tiled", "best", "bank", "conflicted", "wavefront", "float", "Triton", "json",
        "fp32", "fp16", "bf16", "sml_ptx", "record_code", "device_run", "code", "tar", "assets",
        "bench", "exports", "sessions", "program", "SML_CLI", "HBM", "lane", "softmax", "JSON",
        "chart", "sweep", "out", "nvcc", "Cairo", "lang", "SIGSEGV",
        // Products, tools and API names the core's reasons name (common/message.h)
        "MIG", "vGPU", "SLI", "CMP", "WSL", "DCGM", "Linux", "Windows", "API", "root", "ncu",
        "nsys", "cmake", "BLOCK", "cudaSetDevice", "cuptiProfilerInitialize",
        // Command lines they quote: `dcgmi profile --pause`, `softmaxlab-cli device`,
        // `--metrics off|default`, `--dtype`, `--cols`
        "dcgmi", "profile", "pause", "device", "metrics", "off", "default", "dtype", "cols",
        // A session file's words (core/session/session_json.cpp): JSON's own values and the
        // fields a path names, the non-finite numbers a file may hold, Python (which writes
        // them bare, unless allow_nan=False), a FIFO, and a size's unit
        "null", "true", "false", "points", "rows", "NaN", "nan", "inf", "Infinity", "Python",
        "False", "FIFO", "MiB"};
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
    // A part is filled once, even one that reads like a slot (a name the learner typed).
    EXPECT_EQ(lab_text("compiled for {0}", "zh"), "已为 {0} 编译");
    EXPECT_EQ(lab_text("{1} x {0}: correct", "zh"), "{1} x {0}：正确");
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
    // One pass: a part's own slot is not filled again (a file named "{1}.cu").
    EXPECT_EQ(ui_format("{0} of {1}", "en", {"{1}.cu", "b"}), "{1}.cu of b");
    EXPECT_EQ(ui_format("{0}:{1} -> {2} instructions", "zh", {"{1}", "7", "3"}),
              "{1}:7 -> 3 条指令");
}

// [SECTION] The core's sentences (common/message.h) ------------------------------------------

// Every sentence id has a Chinese template, with the same parts as its English: a new id without
// one fails here.
TEST(Chinese, EveryCoreSentenceIdHasChinese) {
    int ids = 0;
    for (int i = 0; i < static_cast<int>(Msg::count_); ++i) {
        const Msg id = static_cast<Msg>(i);
        if (id == Msg::literal || id == Msg::phrase) continue;
        ++ids;
        const std::string en = message_template_en(id);
        const char* zh = message_template_zh(id);
        ASSERT_NE(zh, nullptr) << message_name(id) << " has no Chinese in ui_text.cpp";
        for (int k = 0; k < 8; ++k) {
            const std::string slot = "{" + std::to_string(k) + "}";
            EXPECT_EQ(en.find(slot) != std::string::npos,
                      std::string(zh).find(slot) != std::string::npos)
                << slot << " in " << message_name(id) << ": " << en << " / " << zh;
        }
        // Rendered with representative parts: numbers and a name, the way the core fills them.
        Message m(id);
        for (const char* part : {"CUPTI_ERROR_INSUFFICIENT_PRIVILEGES", "cuptiProfilerInitialize",
                                 "4096", "H100", "fp16", "sm_90"})
            m.parts.push_back(part);
        expect_chinese(message_text(m, "zh"), message_name(id));
        EXPECT_EQ(message_text(m, "en"), message_en(m));
        // The name round-trips (sessions store it).
        Msg back;
        ASSERT_TRUE(message_id_of(message_name(id), &back)) << message_name(id);
        EXPECT_EQ(back, id);
    }
    EXPECT_GE(ids, 50);
}

// Why counters are missing, as the core says it for every CUPTI code it knows (and one it does
// not), for the environment switch and for --metrics off; and in the Metrics table's row.
TEST(Chinese, WhyCountersAreMissing) {
    const int codes[] = {cupti_code::invalid_device,
                         cupti_code::not_compatible,
                         cupti_code::invalid_metric_name,
                         cupti_code::hardware_busy,
                         cupti_code::not_supported,
                         cupti_code::virtualized_device_not_supported,
                         cupti_code::insufficient_privileges,
                         cupti_code::old_profiler_api_initialized,
                         cupti_code::legacy_profiler_not_supported,
                         cupti_code::multiple_subscribers_not_supported,
                         cupti_code::virtualized_device_insufficient_privileges,
                         cupti_code::confidential_computing_not_supported,
                         cupti_code::cmp_device_not_supported,
                         cupti_code::mig_device_not_supported,
                         cupti_code::sli_device_not_supported,
                         cupti_code::wsl_device_not_supported,
                         cupti_code::invalid_chip_name,
                         999};
    for (int code : codes) {
        const Message m = counter_error_message(code, "CUPTI_ERROR_X", "cuptiProfilerInitialize");
        EXPECT_EQ(message_en(m),
                  counter_error_reason(code, "CUPTI_ERROR_X", "cuptiProfilerInitialize"));
        const std::string zh = message_text(m, "zh");
        expect_chinese(zh, message_en(m));
        // The code and the call stay, so a bug report in Chinese carries them too.
        EXPECT_NE(zh.find("CUPTI_ERROR_X"), std::string::npos) << zh;
        EXPECT_NE(zh.find("cuptiProfilerInitialize"), std::string::npos) << zh;
    }
    // A session point whose counters were off: the Metrics table says why in Chinese.
    Session s = session("h100-2026-11-25.json");
    ASSERT_FALSE(s.points.empty());
    PointRecord& p = s.points.front();
    p.metrics.available = false;
    p.metrics.values.clear();
    p.metrics.set_reason(counter_error_message(cupti_code::insufficient_privileges,
                                               "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES",
                                               "cuptiProfilerInitialize"));
    int rows = 0;
    for (const MetricRow& r : build_metric_rows(s, p.cols, p.dtype, {p.kernel}, "zh")) {
        if (r.counters_available) continue;
        ++rows;
        expect_chinese(r.counters_reason, "the Metrics row's reason");
        EXPECT_NE(r.counters_reason.find("NVreg_RestrictProfilingToAdminUsers=0"),
                  std::string::npos);
    }
    EXPECT_EQ(rows, 1);
    for (const MetricRow& r : build_metric_rows(s, p.cols, p.dtype, {p.kernel}, "en"))
        if (!r.counters_available) EXPECT_EQ(r.counters_reason, p.metrics.reason);
    // A reason with no sentence (an older session) is shown as it was written.
    p.metrics.reason_message = {};
    for (const MetricRow& r : build_metric_rows(s, p.cols, p.dtype, {p.kernel}, "zh"))
        if (!r.counters_available) EXPECT_EQ(r.counters_reason, p.metrics.reason);
}

// Why two sessions cannot be compared, each of the core's four reasons with its hint.
TEST(Chinese, WhyTwoSessionsDoNotCompare) {
    const Session& open = session("h100-2026-11-25.json");
    Session fp16 = session("h100-2026-11-23.json");
    for (PointRecord& p : fp16.points) p.dtype = "fp16";
    Session shifted = session("h100-2026-11-23.json");
    for (PointRecord& p : shifted.points) p.cols += 1000000000;  // no N of the open session
    const struct {
        const Session* first;
        const Session* second;
        const char* dtype;
    } cases[] = {{&open, &fp16, "fp32"},
                 {&open, &shifted, "fp32"},
                 {&open, &open, "fp64"},
                 {&open, nullptr, "fp32"}};
    const Session empty;
    std::set<Msg> said;
    for (const auto& c : cases) {
        const Session& second = c.second ? *c.second : empty;
        const std::optional<MessageError> e = chart::compare_error(*c.first, second, c.dtype);
        ASSERT_TRUE(e.has_value()) << c.dtype;
        said.insert(e->what.id);
        const Status en = chart::check_comparable(*c.first, second, c.dtype);
        ASSERT_FALSE(en.ok());
        EXPECT_EQ(en.error().message, message_en(e->what));
        EXPECT_EQ(en.error().hint, message_en(e->hint));
        expect_chinese(message_text(e->what, "zh"), en.error().message);
        expect_chinese(message_text(e->hint, "zh"), en.error().hint);
        const ComparedSession other{second, "other.json"};
        expect_chinese(compare_note(*c.first, &other, c.dtype, 1024, "zh"), "the compare note");
    }
    EXPECT_EQ(said.size(), 4u);
}

// Why a kernel cannot run a problem: each of check_problem's reasons, and every kernel's range
// limit (a phrase of the registry's), on an H100 and on a class of GPU too old for clusters.
TEST(Chinese, WhyAKernelCannotRunAProblem) {
    const DeviceLimits h100 = DeviceLimits::h100_reference();
    DeviceLimits no_code = h100;
    no_code.code_arch = DeviceLimits::kNoCode;
    DeviceLimits old = h100;
    old.cc_major = 7, old.cc_minor = 0;
    DeviceLimits unnamed = h100;
    unnamed.name.clear();
    std::set<Msg> said;
    auto check = [&](const KernelInfo& k, const SoftmaxProblem& p, const DeviceLimits& lim) {
        const std::optional<MessageError> e = problem_error(k, p, lim);
        const Status en = check_problem(k, p, lim);
        ASSERT_EQ(e.has_value(), !en.ok()) << k.id;
        if (!e) return;
        said.insert(e->what.id);
        EXPECT_EQ(en.error().message, message_en(e->what));
        EXPECT_EQ(en.error().hint, message_en(e->hint));
        expect_chinese(message_text(e->what, "zh"), en.error().message);
        expect_chinese(message_text(e->hint, "zh"), en.error().hint);
    };
    for (const KernelInfo& k : registry()) {
        check(k, SoftmaxProblem::contiguous(0, 10), h100);
        check(k, SoftmaxProblem{4, 10, 5, 10, DType::f32}, h100);
        check(k, SoftmaxProblem::contiguous(4, 1024), no_code);
        check(k, SoftmaxProblem::contiguous(4, 1024), old);
        check(k, SoftmaxProblem::contiguous(4, 1024, DType::bf16), h100);
        check(k, SoftmaxProblem::contiguous(4, int64_t{1} << 30), unnamed);
        // The range limit itself, whether or not this N reaches it.
        expect_chinese(message_text(Message::phrase_of(k.limit_reason), "zh"), k.limit_reason);
    }
    for (Msg id : {Msg::problem_bad_size, Msg::problem_bad_stride, Msg::problem_no_code,
                   Msg::problem_old_gpu, Msg::problem_dtype, Msg::problem_range})
        EXPECT_TRUE(said.count(id)) << message_name(id);
    // No kernel at all can run it: the hint says "none" in Chinese.
    const std::optional<MessageError> none =
        problem_error(*find_kernel("warp"), SoftmaxProblem::contiguous(4, 1024), old);
    ASSERT_TRUE(none.has_value());
    EXPECT_NE(message_text(none->hint, "zh").find("无"), std::string::npos)
        << message_text(none->hint, "zh");
}

// A run the worker fails because a kernel cannot run the problem (run_job_gpu.cpp checks each
// kernel with problem_error before it runs): the banner's words come out in Chinese, and the
// English is check_problem's, as the CLI says it.
TEST(Chinese, ARunThatFailsOnAKernelThatCannotRunIt) {
    const KernelInfo& k = *find_kernel("warp");
    const SoftmaxProblem problem = SoftmaxProblem::contiguous(4, int64_t{1} << 30);
    const DeviceLimits h100 = DeviceLimits::h100_reference();
    const Status en = check_problem(k, problem, h100);
    ASSERT_FALSE(en.ok());
    auto last_event = [](Worker& w) {
        for (int i = 0; i < 500; ++i) {
            std::vector<WorkEvent> ev = w.drain();
            if (!ev.empty() && ev.back().kind == WorkEvent::Kind::failed) return ev.back();
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        ADD_FAILURE() << "the job did not fail";
        return WorkEvent{};
    };
    Worker w;
    ASSERT_TRUE(w.start(
        [&](JobContext& ctx) -> Status { return ctx.fail(*problem_error(k, problem, h100)); }));
    const WorkEvent failed = last_event(w);
    EXPECT_EQ(failed.error.message, en.error().message);
    EXPECT_EQ(failed.error.hint, en.error().hint);
    const Error zh = error_text(failed.error, failed.error_message, "zh");
    expect_chinese(zh.message, en.error().message);
    expect_chinese(zh.hint, en.error().hint);
    expect_chinese(ui_format("Run failed: {0}", "zh", {zh.message}), "the Run failed banner");
    const Error back = error_text(failed.error, failed.error_message, "en");
    EXPECT_EQ(back.message, en.error().message);
    EXPECT_EQ(back.hint, en.error().hint);
    // A job that returns another error than the one it said in sentences: its own words stay.
    ASSERT_TRUE(w.start([&](JobContext& ctx) -> Status {
        (void)ctx.fail(*problem_error(k, problem, h100));
        return Error{"the GPU fell off the bus", "reboot"};
    }));
    const WorkEvent other = last_event(w);
    EXPECT_FALSE(other.error_message.has_value());
    EXPECT_EQ(error_text(other.error, other.error_message, "zh").message,
              "the GPU fell off the bus");
}

// A session file the viewer cannot open (File > Open, the command line, File > Compare with
// session..., --compare): the banner says why in Chinese, keeping the path, the JSON path, field
// names and numbers; in English it says what the CLI says (tests/test_session_errors.cpp).
TEST(Chinese, ASessionFileThatCannotBeOpened) {
    broken::BrokenSessionDir dir;
    const Session& open = session("h100-2026-11-25.json");
    int files = 0;
    for (const broken::BrokenSession& f : dir.files()) {
        std::optional<MessageError> said;
        Result<Session> s = load_session(f.path, &said);
        ASSERT_FALSE(s.ok()) << f.name;
        ASSERT_TRUE(said.has_value()) << f.name << ": " << s.error().message;
        EXPECT_EQ(message_en(said->what), s.error().message) << f.name;
        EXPECT_EQ(message_en(said->hint), s.error().hint) << f.name;
        const Error zh = error_text(s.error(), said, "zh");
        std::string banner = ui_format("Cannot open session: {0}", "zh", {zh.message});
        // A JSON path ("points[0].launches[0].grid") stays as the file spells it.
        if (said->what.id == Msg::session_at_path) {
            const std::string& json_path = said->what.parts.at(1).text;
            const size_t at = banner.find("：" + json_path + "：");
            ASSERT_NE(at, std::string::npos) << banner;
            banner.erase(at, json_path.size() + 6);
        }
        expect_chinese(banner, f.name + ": " + s.error().message);
        expect_chinese(zh.hint, f.name + "'s hint: " + s.error().hint);
        const Error en = error_text(s.error(), said, "en");
        EXPECT_EQ(en.message, s.error().message);
        EXPECT_EQ(en.hint, s.error().hint);
        // The compare view reads it the same way.
        Result<ComparedSession> c = load_compared_session(f.path, open, "fp32", "zh");
        ASSERT_FALSE(c.ok()) << f.name;
        EXPECT_EQ(c.error().message, zh.message) << f.name;
        EXPECT_EQ(c.error().hint, zh.hint) << f.name;
        EXPECT_EQ(load_compared_session(f.path, open, "fp32", "en").error().message,
                  s.error().message);
        ++files;
    }
    EXPECT_GE(files, 30);
    // A few whole, as the banner shows them.
    auto banner = [&](const std::string& name) {
        std::optional<MessageError> said;
        Result<Session> s = load_session(dir.dir() + "/" + name, &said);
        return ui_format("Cannot open session: {0}", "zh",
                         {error_text(s.error(), said, "zh").message});
    };
    const std::string d = dir.dir();
    EXPECT_EQ(banner("missing_field.json"),
              "无法打开会话：" + d + "/missing_field.json：points[1].time.median_ms：缺少字段");
    EXPECT_EQ(banner("string_for_integer.json"), "无法打开会话：" + d +
                                                     "/string_for_integer.json：device.sm_count："
                                                     "应为整数，实际是字符串");
    EXPECT_EQ(banner("missing.json"),
              "无法打开会话：无法打开会话 " + d + "/missing.json：没有那个文件或目录");
    EXPECT_EQ(banner("folder.json"), "无法打开会话：" + d + "/folder.json 是文件夹，不是会话文件");
    EXPECT_EQ(banner("newer_schema.json"),
              "无法打开会话：" + d +
                  "/newer_schema.json：会话格式版本 99 不受支持（这个 softmaxlab 读取的是版本 1）");
}

// The lessons' load-error banner (app.cpp, load_lessons): its prefix through the table, the
// English as it always read.
TEST(Chinese, TheLessonsLoadErrorPrefix) {
    EXPECT_EQ(ui_format("lessons: {0}", "en", {"no lessons.json in lessons/zh"}),
              "lessons: no lessons.json in lessons/zh");
    EXPECT_EQ(ui_format("lessons: {0}", "zh", {"x.json"}), "课程：x.json");
}

// A chart's notes on missing counters (core/chart/chart_build.cpp) and the hover of a point
// without them: the reason the point recorded, in Chinese, inside the chart's own words. The
// English notes are the ones exports always carried.
TEST(Chinese, AChartsNotesOnMissingCounters) {
    Session s = session("h100-2026-11-25.json");
    const Message why =
        counter_error_message(cupti_code::insufficient_privileges,
                              "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES", "cuptiProfilerInitialize");
    const std::string why_en = message_en(why);
    const int64_t cols = chart::default_cols(s, "fp32");
    ASSERT_GT(cols, 0);
    std::vector<PointRecord*> at;
    for (PointRecord& p : s.points)
        if (p.cols == cols && p.dtype == "fp32") at.push_back(&p);
    ASSERT_GE(at.size(), 2u);
    auto lose_counters = [&](PointRecord* p) {
        p->metrics.available = false;
        p->metrics.values.clear();
        p->metrics.per_launch.clear();
        p->metrics.set_reason(why);
    };
    auto notes_of = [](const chart::Chart& c) {
        std::vector<std::string> out;
        for (const chart::Panel& p : c.panels)
            for (const Message& n : p.notes) out.push_back(message_en(n));
        return out;
    };
    auto check_zh = [&](chart::Chart c, const std::string& what, bool measured_drawn = true) {
        translate_chart(&c, "zh");
        int notes = 0, hovers = 0;
        for (const chart::Panel& p : c.panels) {
            for (const Message& n : p.notes) {
                ++notes;
                expect_chinese(message_en(n), what + " note");
                EXPECT_NE(message_en(n).find("NVreg_RestrictProfilingToAdminUsers=0"),
                          std::string::npos)
                    << message_en(n);
            }
            for (const chart::Series& ser : p.series)
                for (const chart::Point& pt : ser.points)
                    if (pt.flags & chart::kPointCountersUnavailable) {
                        ++hovers;
                        expect_chinese(message_en(pt.note), what + " hover");
                    }
        }
        EXPECT_GT(notes, 0) << what;
        if (measured_drawn) EXPECT_GT(hovers, 0) << what;
    };
    chart::ChartOptions o;
    o.cols = cols;
    // One kernel without counters: a note naming it, and why.
    lose_counters(at[0]);
    for (const char* kind : {"bytes", "metrics"}) {
        o.kind = kind;
        Result<chart::Chart> c = chart::build_chart(s, o);
        ASSERT_TRUE(c.ok()) << kind << ": " << c.error().message;
        const std::vector<std::string> en = notes_of(*c);
        ASSERT_FALSE(en.empty()) << kind;
        for (const std::string& n : en)
            EXPECT_EQ(n, "counters unavailable for " + at[0]->kernel + ": " + why_en) << kind;
        check_zh(*c, kind);
    }
    // None at this N: the bytes chart shows the formula alone, and says why.
    for (PointRecord* p : at) lose_counters(p);
    o.kind = "bytes";
    Result<chart::Chart> bytes = chart::build_chart(s, o);
    ASSERT_TRUE(bytes.ok()) << bytes.error().message;
    EXPECT_EQ(notes_of(*bytes),
              std::vector<std::string>{"counters unavailable: only predicted bytes are shown (" +
                                       why_en + ")"});
    check_zh(*bytes, "bytes, none measured", false);
    // An older session's reason, with no sentence: the note is Chinese around it, the reason as
    // it was written.
    for (PointRecord* p : at) p->metrics.reason_message = {};
    bytes = chart::build_chart(s, o);
    ASSERT_TRUE(bytes.ok());
    chart::Chart zh = *bytes;
    translate_chart(&zh, "zh");
    ASSERT_EQ(zh.panels.at(0).notes.size(), 1u);
    const std::string note = message_en(zh.panels[0].notes[0]);
    EXPECT_EQ(note.rfind("计数器不可用", 0), 0u) << note;
    EXPECT_NE(note.find(why_en), std::string::npos) << note;
    // Its English is the same note as with the sentence.
    EXPECT_EQ(notes_of(*bytes),
              std::vector<std::string>{"counters unavailable: only predicted bytes are shown (" +
                                       why_en + ")"});
}

// The digits of `s`, in order ("H100 ... 4 x 512" -> {"100", "4", "512"}).
std::vector<std::string> numbers_in(const std::string& s) {
    std::vector<std::string> out;
    static const std::regex number("[0-9]+");
    for (auto it = std::sregex_iterator(s.begin(), s.end(), number); it != std::sregex_iterator();
         ++it)
        out.push_back(it->str());
    std::sort(out.begin(), out.end());
    return out;
}

// The Run panel's line on best's path, on every class of GPU, in every dtype, at N from 1 to 16M:
// in Chinese, every path, with the numbers of the English line.
TEST(Chinese, BestsPathOnEveryClassOfGpu) {
    std::vector<DeviceLimits> classes = {DeviceLimits::h100_reference()};
    for (const DeviceProfile& p : device_profiles()) {
        Result<DeviceLimits> l = limits_for(classes.front(), false, p.id);
        ASSERT_TRUE(l.ok()) << p.id;
        classes.push_back(*l);
    }
    std::set<std::pair<int, bool>> paths;  // (path, held grid)
    int lines = 0;
    for (const DeviceLimits& lim : classes)
        for (DType dt : {DType::f32, DType::f16, DType::bf16})
            for (int64_t n = 1; n <= (int64_t{1} << 24); n = n * 3 / 2 + 1) {
                const best::Config c = best::choose_for(n, dt, true, true, lim);
                paths.insert({static_cast<int>(c.path), c.held_grid()});
                const std::string en = best_choice_text(n, dt, lim);
                const std::string zh = best_choice_text(n, dt, lim, "zh");
                EXPECT_EQ(en, best_choice_text(n, dt, lim, "en"));
                EXPECT_EQ(en.rfind("best: " + c.describe(), 0), 0u) << en;
                // The device's name is a name ("NVIDIA GeForce RTX 3060").
                std::string words = zh;
                words.erase(words.find(lim.name), lim.name.size());
                expect_chinese(words, en);
                EXPECT_EQ(numbers_in(zh), numbers_in(en)) << en << "\n  " << zh;
                ++lines;
            }
    EXPECT_GT(lines, 1000);
    // Every path the dispatch takes here was worded: group, cluster, tile, the grid and the held
    // grid. (Two passes are its last resort, past what the streamed held grid takes; the
    // configurations below word them.)
    using Path = best::Config::Path;
    for (auto want : {std::pair{static_cast<int>(Path::kGroup), false},
                      {static_cast<int>(Path::kCluster), false},
                      {static_cast<int>(Path::kTile), false},
                      {static_cast<int>(Path::kGrid), false},
                      {static_cast<int>(Path::kGrid), true}})
        EXPECT_TRUE(paths.count(want)) << "path " << want.first << " held " << want.second;
    // Each optional word of the line, from configurations of every path (and a bad one) with
    // and without it: every template describe() says has Chinese in the table, so a new
    // fragment without it fails here.
    const std::vector<std::string> keys = ui_text_keys();
    const std::set<std::string> table(keys.begin(), keys.end());
    std::set<std::string> templates;
    const int unknown = static_cast<int>(Path::kTile) + 1;
    for (int path = 0; path <= unknown; ++path)
        for (int lag : {0, 2})  // the grid: held, or lagging
            for (int option = 0; option < 3; ++option) {
                best::Config c;
                c.path = static_cast<Path>(path), c.width = 8, c.packs = 6, c.threads = 480;
                c.cluster = 9, c.rows = 4, c.lag = lag;
                c.l2 = option;  // none, one flag, the other
                c.stash = option, c.teams = option + 1, c.stream = option % 2;
                c.prefetch = option, c.spread = option + 1;
                c.ahead = option, c.edges = option - 1;
                const std::string en = c.describe();
                EXPECT_EQ(best_path_text(c, "en"), en);
                const std::string zh = best_path_text(c, "zh");
                EXPECT_EQ(numbers_in(zh), numbers_in(en)) << en << "\n  " << zh;
                if (path == unknown)  // the fields by their names in the code
                    EXPECT_EQ(zh, "未知路径：" + c.fields());
                else
                    expect_chinese(zh, en);
                c.describe([&](const char* tmpl, const std::vector<std::string>&) {
                    templates.insert(tmpl);
                    return std::string();
                });
            }
    for (const std::string& t : templates) EXPECT_TRUE(table.count(t)) << t << " has no Chinese";
    // (" + {0} in shared memory" is both the cluster's and the held grid's.)
    EXPECT_GE(templates.size(), 17u);
    expect_chinese(best_choice_text(0, DType::f32, classes.front(), "zh"), "N < 1");
}

// The Run request's own checks (validate_request) and the banner of a viewer with neither a GPU
// nor a recorded session: in Chinese, and in English as they always read.
TEST(Chinese, TheRunRequestsChecks) {
    std::vector<RunRequest> bad(6);
    bad[1].kernels = {"warp", "x9"};                                          // unknown kernel
    bad[2].kernels = {"warp"}, bad[2].cols = 0;                               // M x 0
    bad[3].kernels = {"warp"}, bad[3].rows = bad[3].cols = int64_t{1} << 40;  // too large
    bad[4].kernels = {"warp"}, bad[4].variants["warp"] = 7;                   // no variant #7
    bad[5].kernels = {"warp"}, bad[5].sweep = true;                           // no N values
    const std::vector<std::string> en = {
        "no kernel chosen",
        "unknown kernel 'x9'",
        "M and N must be >= 1 (got 4096 x 0)",
        "M x N = 1099511627776 x 1099511627776 elements is too large",
        "kernel 'warp' has no variant #7",
        "the sweep has no N values or no size"};
    for (size_t i = 0; i < bad.size(); ++i) {
        const Status e = validate_request(bad[i]);
        ASSERT_FALSE(e.ok()) << i;
        EXPECT_EQ(e.error().message, en[i]);
        EXPECT_EQ(validate_request(bad[i], "en").error().message, en[i]);
        const Status zh = validate_request(bad[i], "zh");
        ASSERT_FALSE(zh.ok()) << i;
        expect_chinese(zh.error().message, en[i]);
        if (!e.error().hint.empty()) expect_chinese(zh.error().hint, e.error().hint);
        EXPECT_EQ(numbers_in(zh.error().message), numbers_in(en[i]));
    }
    const Result<int64_t> huge = matrix_elements(int64_t{1} << 40, int64_t{1} << 40, "zh");
    ASSERT_FALSE(huge.ok());
    expect_chinese(huge.error().message + huge.error().hint, "M x N too large");
    // No GPU and no session to replay (app_session.cpp): every part through the table.
    const std::string nothing = ui_format(
        "Nothing to show: {0} and {1}", "zh",
        {ui_text("this build has no GPU support (it was built without the CUDA toolkit)", "zh"),
         ui_format("no readable session in {0}", "zh", {"/src/assets/sessions"})});
    expect_chinese(nothing, "nothing to show");
    expect_chinese(
        ui_text("open a session with File > Open, or run on a machine with an NVIDIA GPU", "zh"),
        "nothing to show's hint");
}

// Why a point's DRAM bytes fall below the formula, or do not (core/plan/traffic.cpp), recorded in
// English with the session: in Chinese in a point's hover and the Metrics table's [L2] tooltip.
TEST(Chinese, WhyDramBytesFallBelowTheFormula) {
    const KernelInfo* naive = find_kernel("naive");
    ASSERT_TRUE(naive);
    const DeviceLimits h100 = DeviceLimits::h100_reference();
    // Resident (16 MiB), close to the L2 (32 MiB), larger than it (1 GiB).
    std::vector<std::string> reasons;
    for (int64_t rows : {4096, 8192, 262144})
        reasons.push_back(
            predict_point(*naive, SoftmaxProblem::contiguous(rows, 1024), h100).l2_reason);
    auto without_units = [](std::string s) {
        return std::regex_replace(s, std::regex("[KMG]iB"), "");
    };
    std::set<std::string> distinct;
    for (const std::string& en : reasons) {
        const std::string zh = l2_reason_text(en, "zh");
        distinct.insert(zh);
        EXPECT_EQ(l2_reason_text(en, "en"), en);
        expect_chinese(without_units(zh), en);
        EXPECT_EQ(numbers_in(zh), numbers_in(en)) << en << "\n  " << zh;
        EXPECT_EQ(chart_text(en, "zh"), zh);
    }
    EXPECT_EQ(distinct.size(), 3u);
    EXPECT_EQ(l2_reason_text("a reason of another form", "zh"), "a reason of another form");
    // On the bytes chart: an L2-resident point's hover.
    Session s = session("h100-2026-11-25.json");
    const int64_t cols = chart::default_cols(s, "fp32");
    int marked = 0;
    for (PointRecord& p : s.points)
        if (p.cols == cols && p.dtype == "fp32") {
            p.predicted.l2_resident = true;
            p.predicted.l2_reason = reasons[0];
            ++marked;
        }
    ASSERT_GT(marked, 0);
    chart::ChartOptions o;
    o.cols = cols;
    o.kind = "bytes";
    Result<chart::Chart> c = chart::build_chart(s, o);
    ASSERT_TRUE(c.ok()) << c.error().message;
    translate_chart(&*c, "zh");
    int hovers = 0;
    for (const chart::Panel& p : c->panels)
        for (const chart::Series& ser : p.series)
            for (const chart::Point& pt : ser.points)
                if (pt.flags & chart::kPointL2Resident) {
                    ++hovers;
                    EXPECT_EQ(message_en(pt.note), l2_reason_text(reasons[0], "zh"));
                }
    EXPECT_GT(hovers, 0);
    // And in the Metrics table's rows.
    for (const MetricRow& row : build_metric_rows(s, cols, "fp32", {}, "zh"))
        if (row.l2_resident) EXPECT_EQ(row.l2_reason, l2_reason_text(reasons[0], "zh"));
}

// The code panel's line over the panes: what a hovered line links to, in Chinese.
TEST(Chinese, TheCodePanelsHoverLine) {
    CodeContext ctx;
    ctx.repo_root = kRoot;
    ctx.build_dir = SML_BUILD_DIR;
    ctx.kernel = "warp";
    ctx.lang = "zh";
    CodeModel m;
    m.set(ctx, CodeListing::ptx);
    ASSERT_TRUE(m.listing() && m.source_doc()) << m.message();
    // An entry whose reductions were inlined, with their shuffles: the recording's first entry
    // is one, but where the checkout's sources differ from the recording's the view shows this
    // build's PTX, whose first entry (groups of one lane) has no shuffle and no inline chain.
    m.set_show_all(true);
    ASSERT_TRUE(m.select_holding("shfl.sync"));
    int sources = 0, inlined = 0, chains = 0;
    for (int d = 0; d < static_cast<int>(m.source_doc()->lines().size()); ++d) {
        m.hover_source(d);
        if (m.hover_text().empty()) continue;
        ++sources;
        inlined += m.hover_text().find("内联而来") != std::string::npos;
        // Up to the instruction it names ("跳到 bra"): an opcode is code.
        const std::string words = m.hover_text().substr(0, m.hover_text().find("跳到"));
        expect_chinese(words, "a source line's hover");
        EXPECT_NE(words.size(), m.hover_text().size()) << m.hover_text();
    }
    for (int i = 0; i < static_cast<int>(m.listing()->lines.size()); ++i) {
        m.hover_listing(i);
        if (m.hover_text().empty()) continue;
        chains += m.hover_text().find("内联于") != std::string::npos;
        // After the instruction it names ("bra <- "): an opcode is code.
        const size_t arrow = m.hover_text().find(" <- ");
        ASSERT_NE(arrow, std::string::npos) << m.hover_text();
        expect_chinese(m.hover_text().substr(arrow), "an instruction's hover");
        EXPECT_EQ(m.hover_text().find("inlined"), std::string::npos) << m.hover_text();
    }
    EXPECT_GT(sources, 10);
    EXPECT_GT(inlined, 0);  // a call's line reaches the instructions it became
    EXPECT_GT(chains, 0);   // an instruction names the call it was inlined at
}

}  // namespace
}  // namespace sml::viewer
