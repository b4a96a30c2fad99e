// Hostile inputs (issue 24): every string and file the app reads is capped, every file it writes
// goes through a fresh side file, every number is read whole, and session values are checked.
// The end-to-end versions of these cases (the CLI, and the viewer under Xvfb) are in
// tests/hostile.cmake; the fuzz test of the session reader is tests/test_session_fuzz.cpp.
//
// [SECTION] Text caps and elide
// [SECTION] Reading: regular files only, capped, out of memory reported
// [SECTION] Writing: fresh side files, nothing else touched
// [SECTION] Whole numbers
// [SECTION] Session values
// [SECTION] Viewer: settings, save targets, arguments
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "app/viewer/model/save_target.h"
#include "app/viewer/model/settings.h"
#include "app/viewer/model/viewer_args.h"
#include "core/chart/chart_build.h"
#include "core/chart/chart_kinds.h"
#include "core/chart/chart_export.h"
#include "core/chart/chart_layout.h"
#include "core/chart/peers_chart.h"
#include "core/common/parse_number.h"
#include "core/common/safe_file.h"
#include "core/common/text_cap.h"
#include "core/lessons/annotated_source.h"
#include "core/runner/runner.h"
#include "core/session/session.h"
#include "tests/test_chart_fixture.h"

namespace sml {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

bool valid_utf8(const std::string& s) {
    for (size_t i = 0; i < s.size();) {
        const size_t n = text_cap_detail::utf8_sequence(s, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

ino_t inode(const std::string& path) {
    struct stat st {};
    EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
    return st.st_ino;
}

// A fresh folder per test, removed afterwards.
class Hostile : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = (fs::temp_directory_path() /
                ("sml_hostile_" + std::to_string(::getpid()) + "_" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name()))
                   .string();
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    std::string path(const std::string& name) const { return dir_ + "/" + name; }
    void put(const std::string& name, const std::string& text) const {
        std::ofstream(path(name), std::ios::binary) << text;
    }
    // Names in the folder, sorted.
    std::vector<std::string> listing() const {
        std::vector<std::string> out;
        for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename());
        std::sort(out.begin(), out.end());
        return out;
    }
    std::string dir_;
};

json valid_doc() {
    return json::parse(session_to_json(test::synthetic_session(true)));
}

Result<Session> parse(const json& doc) {
    return parse_session(doc.dump(), "s.json");
}

// [SECTION] Text caps and elide ------------------------------------------------------------------

TEST(TextCap, CapsAtACharacterBoundaryWithAnEllipsis) {
    EXPECT_EQ(cap_text("short"), "short");
    const std::string huge(1000000, 'x');
    const std::string capped = cap_text(huge);
    EXPECT_LE(capped.size(), kMaxTextBytes);
    EXPECT_EQ(capped.substr(capped.size() - 3), "…");
    // Multi-byte characters are never cut in half.
    std::string cjk;
    for (int i = 0; i < 3000; ++i) cjk += "\xE4\xB8\xAD";  // 中
    const std::string c = cap_text(cjk, 100);
    EXPECT_LE(c.size(), 100u);
    EXPECT_TRUE(valid_utf8(c));
    EXPECT_EQ(c.substr(c.size() - 3), "…");
    // Exactly at the cap: kept whole, no ellipsis.
    EXPECT_EQ(cap_text(std::string(100, 'a'), 100), std::string(100, 'a'));
}

TEST(TextCap, InvalidUtf8BecomesReplacementCharacters) {
    const std::string bad = std::string("ab") + char(0xFF) + char(0xC0) + "cd" + char(0xE4);
    const std::string fixed = cap_text(bad);
    EXPECT_TRUE(valid_utf8(fixed));
    EXPECT_EQ(fixed,
              "ab\xEF\xBF\xBD\xEF\xBF\xBD"
              "cd\xEF\xBF\xBD");
    std::string in_place = bad;
    cap_text_in_place(in_place);
    EXPECT_EQ(in_place, fixed);
}

TEST(TextCap, LinearTime) {
    const std::string huge(50'000'000, 'y');
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_LE(cap_text(huge).size(), kMaxTextBytes);
    EXPECT_EQ(quote_short(huge).size(), 200u);
    EXPECT_LT(seconds_since(t0), 2.0);
}

TEST(Elide, HundredThousandCharactersInLogarithmicMeasurements) {
    // Was: one measurement per character dropped, 146 s for a 100000-character title.
    const std::string title(100000, 'x');
    int calls = 0;
    const chart::TextMeasure counting = [&](const std::string& t, double px, bool bold) {
        ++calls;
        return chart::approximate_text_size(t, px, bold);
    };
    const auto t0 = std::chrono::steady_clock::now();
    const std::string e = chart::elide(title, 400, 20, false, counting);
    EXPECT_LT(seconds_since(t0), 1.0);
    EXPECT_LE(calls, 2 + 18) << "about log2(100000) = 17 measurements";
    EXPECT_LE(chart::approximate_text_size(e, 20, false).w, 400);
    EXPECT_EQ(e.substr(e.size() - 3), "…");
    // The longest prefix that fits: one more character would not.
    const std::string kept = e.substr(0, e.size() - 3);
    EXPECT_GT(chart::approximate_text_size(kept + "x…", 20, false).w, 400);
}

TEST(Elide, NeverSplitsAUtf8Character) {
    std::string t;
    for (int i = 0; i < 500; ++i)
        t += "\xE4\xB8\xAD"
             "a";
    const std::string e = chart::elide(t, 300, 20, false, chart::approximate_text_size);
    EXPECT_TRUE(valid_utf8(e));
    EXPECT_EQ(chart::elide("", 10, 20, false, chart::approximate_text_size), "");
    EXPECT_EQ(chart::elide("wide", 0.5, 20, false, chart::approximate_text_size), "…");
}

TEST(ChartTitle, LongTitleAndSessionStringsLayOutQuickly) {
    Session s = test::synthetic_session(true);
    s.device.name = std::string(200000, 'D');
    s.command = std::string(1000000, 'c');
    // Through JSON, as from a file: the reader caps the strings.
    Result<Session> back = parse_session(session_to_json(s), "long.json");
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_LE(back->device.name.size(), kMaxTextBytes);
    EXPECT_LE(back->command.size(), kMaxTextBytes);
    chart::ChartOptions o;
    o.title = std::string(100000, 't');  // --title
    const auto t0 = std::chrono::steady_clock::now();
    for (const chart::ChartKind& k : chart::chart_kinds()) {
        if (k.source != chart::ChartSource::session) continue;
        const std::string kind = k.id;
        o.kind = kind;
        Result<chart::Chart> c = chart::build_chart(*back, o);
        ASSERT_TRUE(c.ok()) << kind << ": " << c.error().message;
        EXPECT_LE(c->title.size(), kMaxTextBytes);
        EXPECT_LE(c->subtitle.size(), kMaxTextBytes);
        const chart::ChartLayout l =
            chart::layout_chart(*c, chart::light_theme(), 1600, 900, chart::approximate_text_size);
        EXPECT_FALSE(l.ops.empty());
    }
    EXPECT_LT(seconds_since(t0), 5.0);
}

TEST(SessionStrings, EveryStringIsCappedBeforeAnythingDrawsIt) {
    json d = valid_doc();
    d["device"]["name"] = std::string(17000, 'N');  // aborted the viewer in ImGui
    d["host"] = std::string(50000, 'h');
    d["software"]["x"] = std::string(50000, 's');
    d["notes"][std::string(9000, 'k')] = std::string(50000, 'n');
    d["points"][0]["metrics"]["reason"] = std::string(30000, 'R');
    d["points"][0]["predicted"]["l2_reason"] = std::string(30000, 'L');
    d["points"][0]["launches"][0]["name"] = std::string(30000, 'l');
    d["points"][0]["metrics"]["values"][std::string(30000, 'm')] = 1.0;
    Result<Session> s = parse(d);
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_EQ(s->device.name.size(), kMaxTextBytes);
    EXPECT_LE(s->host.size(), kMaxTextBytes);
    for (const auto& [k, v] : s->software) EXPECT_LE(v.size(), kMaxTextBytes);
    for (const auto& [k, v] : s->notes) {
        EXPECT_LE(k.size(), kMaxTextBytes);
        EXPECT_LE(v.size(), kMaxTextBytes);
    }
    const PointRecord& p = s->points[0];
    EXPECT_LE(p.metrics.reason.size(), kMaxTextBytes);
    EXPECT_LE(p.predicted.l2_reason.size(), kMaxTextBytes);
    EXPECT_LE(p.launches[0].name.size(), kMaxTextBytes);
    for (const MetricValue& m : p.metrics.values) EXPECT_LE(m.name.size(), kMaxTextBytes);
}

// [SECTION] Reading: regular files only, capped, out of memory reported ---------------------------

TEST_F(Hostile, FifoIsRefusedWithoutBlocking) {
    ASSERT_EQ(::mkfifo(path("pipe.json").c_str(), 0600), 0);
    const auto t0 = std::chrono::steady_clock::now();
    Result<Session> s = load_session(path("pipe.json"));
    ASSERT_FALSE(s.ok());
    EXPECT_LT(seconds_since(t0), 2.0);
    EXPECT_EQ(s.error().message, path("pipe.json") + " is a FIFO (named pipe), not a session file");
    Result<std::string> t = read_text_file(path("pipe.json"));
    ASSERT_FALSE(t.ok());
    EXPECT_NE(t.error().message.find("FIFO"), std::string::npos);
    Result<chart::PeerRun> peers = chart::load_peer_run(path("pipe.json"));
    ASSERT_FALSE(peers.ok());
    EXPECT_NE(peers.error().message.find("FIFO"), std::string::npos);
}

TEST_F(Hostile, DevicesAndFoldersAreRefused) {
    Result<Session> zero = load_session("/dev/zero");
    ASSERT_FALSE(zero.ok());
    EXPECT_EQ(zero.error().message, "/dev/zero is a character device, not a session file");
    EXPECT_FALSE(zero.error().hint.empty());
    Result<Session> folder = load_session(dir_);
    ASSERT_FALSE(folder.ok());
    EXPECT_EQ(folder.error().message, dir_ + " is a directory, not a session file");
    Result<Session> empty = load_session("");
    ASSERT_FALSE(empty.ok());
    EXPECT_NE(empty.error().message.find("empty"), std::string::npos);
}

TEST_F(Hostile, OversizedFilesAreRefusedBeforeReading) {
    // Sparse: the size is there, the disk space is not.
    const std::string big = path("big.json");
    const int fd = ::open(big.c_str(), O_WRONLY | O_CREAT, 0600);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::ftruncate(fd, kMaxSessionFileBytes + 1), 0);
    ::close(fd);
    const auto t0 = std::chrono::steady_clock::now();
    Result<Session> s = load_session(big);
    ASSERT_FALSE(s.ok());
    EXPECT_LT(seconds_since(t0), 1.0);
    EXPECT_NE(s.error().message.find("more than the 64 MiB softmaxlab reads"), std::string::npos)
        << s.error().message;
    // The cap is a parameter: a small one for settings.
    put("settings.json", std::string(100, ' '));
    EXPECT_FALSE(read_file_capped(path("settings.json"), 99, "settings file").ok());
    EXPECT_TRUE(read_file_capped(path("settings.json"), 100, "settings file").ok());
}

TEST_F(Hostile, OutOfMemoryIsAnErrorNotACrash) {
    // A valid 50 MB session read under an address-space limit too small to parse it: in a child
    // process, so the limit cannot hurt the rest of the suite.
    json d = valid_doc();
    d["notes"]["padding"] = std::string(50000000, 'p');
    put("big.json", d.dump());
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        // Room for what the process has now plus 75 MB: enough to read the file, not to hold a
        // parsed copy of it as well.
        long vm_kb = 0;
        std::ifstream status("/proc/self/status");
        for (std::string line; std::getline(status, line);)
            if (line.rfind("VmSize:", 0) == 0) vm_kb = std::atol(line.c_str() + 7);
        struct rlimit lim {};
        lim.rlim_cur = lim.rlim_max = static_cast<rlim_t>(vm_kb + 75 * 1024) * 1024;
        if (::setrlimit(RLIMIT_AS, &lim) != 0) ::_exit(3);
        Result<Session> s = load_session(path("big.json"));
        if (s.ok()) ::_exit(4);  // the limit was not low enough: not a failure of the code
        ::_exit(s.error().message.find("out of memory") != std::string::npos ? 0 : 5);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "the child died of signal " << WTERMSIG(status);
    if (WEXITSTATUS(status) == 4) GTEST_SKIP() << "the address-space limit left room to parse";
    EXPECT_EQ(WEXITSTATUS(status), 0) << "the error did not say out of memory";
}

// [SECTION] Writing: fresh side files, nothing else touched ---------------------------------------

TEST_F(Hostile, SaveKeepsAPreexistingPartialFile) {
    // Was: run and sweep deleted "<out>.partial" (their write probe and their temporary file).
    put("s.json.partial", "my notes\n");
    const ino_t before = inode(path("s.json.partial"));
    ASSERT_TRUE(check_writable(path("s.json"), "--out").ok());
    ASSERT_TRUE(save_session(path("s.json"), test::synthetic_session()).ok());
    EXPECT_EQ(slurp(path("s.json.partial")), "my notes\n");
    EXPECT_EQ(inode(path("s.json.partial")), before);
    EXPECT_TRUE(load_session(path("s.json")).ok());
    EXPECT_EQ(listing(), (std::vector<std::string>{"s.json", "s.json.partial"}));
}

TEST_F(Hostile, ChartExportNeverFollowsAPlantedSymlink) {
    // Was: "bw.png.tmp -> important.txt" made important.txt the PNG.
    put("important.txt", "important\n");
    for (const char* side : {"bw.csv.tmp", "bw.csv.partial"})
        ASSERT_EQ(::symlink("important.txt", path(side).c_str()), 0);
    Result<chart::Chart> c = chart::build_chart(test::synthetic_session(), {});
    ASSERT_TRUE(c.ok());
    ASSERT_TRUE(chart::export_chart(*c, path("bw.csv"), {}).ok());
    EXPECT_EQ(slurp(path("important.txt")), "important\n");
    for (const char* side : {"bw.csv.tmp", "bw.csv.partial"}) {
        EXPECT_TRUE(fs::is_symlink(path(side)));
        EXPECT_EQ(fs::read_symlink(path(side)), "important.txt");
    }
    EXPECT_EQ(slurp(path("bw.csv")).rfind("panel,series", 0), 0u);
    EXPECT_EQ(listing(), (std::vector<std::string>{"bw.csv", "bw.csv.partial", "bw.csv.tmp",
                                                   "important.txt"}));
}

TEST_F(Hostile, WritingOverAFifoOrFolderIsRefusedWithoutBlocking) {
    ASSERT_EQ(::mkfifo(path("out.csv").c_str(), 0600), 0);
    const auto t0 = std::chrono::steady_clock::now();
    Status s = write_file_atomic(path("out.csv"), "x", "chart");
    ASSERT_FALSE(s.ok());
    EXPECT_LT(seconds_since(t0), 2.0);
    EXPECT_NE(s.error().message.find("FIFO"), std::string::npos) << s.error().message;
    EXPECT_TRUE(fs::is_fifo(path("out.csv")));
    EXPECT_FALSE(check_writable(path("out.csv"), "--out").ok());
    fs::create_directory(path("folder"));
    Status f = write_file_atomic(path("folder"), "x", "chart");
    ASSERT_FALSE(f.ok());
    EXPECT_NE(f.error().message.find("is a directory"), std::string::npos);
    EXPECT_TRUE(fs::is_directory(path("folder")));
    Status none = write_file_atomic(path("no/such/dir/x.csv"), "x", "chart");
    ASSERT_FALSE(none.ok());
    EXPECT_NE(none.error().message.find("No such file or directory"), std::string::npos);
}

TEST_F(Hostile, AtomicWriteReplacesOnlyTheTarget) {
    put("out.csv", "old");
    ASSERT_EQ(::symlink("out.csv", path("link.csv").c_str()), 0);
    ASSERT_TRUE(write_file_atomic(path("out.csv"), "new", "chart").ok());
    EXPECT_EQ(slurp(path("out.csv")), "new");
    EXPECT_EQ(fs::read_symlink(path("link.csv")), "out.csv");
    // A very long file name still gets a side file (its name is kept within NAME_MAX).
    const std::string longname = std::string(250, 'n') + ".csv";
    ASSERT_TRUE(write_file_atomic(path(longname), "x", "chart").ok());
    EXPECT_EQ(listing().size(), 3u) << "no side file left behind";
}

TEST_F(Hostile, SameFileIsFoundThroughLinksAndDots) {
    put("a.json", "{}");
    ASSERT_EQ(::link(path("a.json").c_str(), path("hard.json").c_str()), 0);
    ASSERT_EQ(::symlink("a.json", path("soft.json").c_str()), 0);
    EXPECT_TRUE(same_file(path("a.json"), path("a.json")));
    EXPECT_TRUE(same_file(path("a.json"), path("hard.json")));
    EXPECT_TRUE(same_file(path("soft.json"), path("a.json")));
    EXPECT_TRUE(same_file(path("a.json"), dir_ + "/./a.json"));
    EXPECT_TRUE(
        same_file(path("new.csv"), dir_ + "/../" + fs::path(dir_).filename().string() + "/new.csv"))
        << "two spellings of a file that does not exist yet";
    EXPECT_FALSE(same_file(path("a.json"), path("new.csv")));
    EXPECT_FALSE(same_file(path("x.csv"), path("y.csv")));
    EXPECT_FALSE(same_file("", ""));
    Status s =
        check_output_is_not_an_input(path("hard.json"), "--out", {{"--session", path("a.json")}});
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("is the same file as --session"), std::string::npos);
    EXPECT_TRUE(check_output_is_not_an_input(path("new.csv"), "--out",
                                             {{"--session", path("a.json")}, {"--peers", ""}})
                    .ok());
}

TEST_F(Hostile, SetAsideNeverOverwrites) {
    put("settings.json", "first");
    put("settings.json.corrupt-1", "older");
    Result<std::string> kept = set_aside(path("settings.json"), "corrupt");
    ASSERT_TRUE(kept.ok()) << kept.error().message;
    EXPECT_EQ(*kept, path("settings.json.corrupt-2"));
    EXPECT_EQ(slurp(path("settings.json.corrupt-1")), "older");
    EXPECT_EQ(slurp(path("settings.json.corrupt-2")), "first");
    EXPECT_FALSE(fs::exists(path("settings.json")));
}

TEST_F(Hostile, FreshPathNeverNamesAnExistingFile) {
    EXPECT_EQ(fresh_path(dir_, "chart", ".png"), path("chart.png"));
    put("chart.png", "mine");
    put("chart-2.png", "mine too");
    EXPECT_EQ(fresh_path(dir_, "chart", ".png"), path("chart-3.png"));
}

// [SECTION] Whole numbers
// --------------------------------------------------------------------------

TEST(WholeNumbers, ReportedAsTyped) {
    EXPECT_EQ(*parse_integer("1024", "--cols", 1), 1024);
    EXPECT_EQ(*parse_integer("-5", "--x"), -5);
    EXPECT_EQ(*parse_unsigned("18446744073709551615", "--seed"), UINT64_MAX);
    struct Case {
        const char* text;
        int64_t min, max;
        const char* message;
    };
    const Case cases[] = {
        {"99999999999999999999999", 1, INT64_MAX,
         "--cols 99999999999999999999999 is too large: the most is 9223372036854775807"},
        {"-99999999999999999999999", INT64_MIN, INT64_MAX,
         "--cols -99999999999999999999999 is too small: the least is -9223372036854775808"},
        {"", 1, INT64_MAX, "--cols is empty: it needs a whole number"},
        {"abc", 1, INT64_MAX, "--cols 'abc' is not a whole number"},
        {"12abc", 1, INT64_MAX, "--cols '12abc' is not a whole number"},
        {"1.5", 1, INT64_MAX, "--cols '1.5' is not a whole number"},
        {" 12", 1, INT64_MAX, "--cols ' 12' is not a whole number"},
        {"+12", 1, INT64_MAX, "--cols '+12' is not a whole number"},
        {"0x10", 1, INT64_MAX, "--cols '0x10' is not a whole number"},
        {"-1", 0, 100, "--cols -1 is negative: it must be 0 or more"},
        {"-1", 1, 100, "--cols -1 is negative: it must be at least 1"},
        {"0", 1, 100, "--cols 0 is too small: the least is 1"},
        {"101", 1, 100, "--cols 101 is too large: the most is 100"},
    };
    for (const Case& c : cases) {
        Result<int64_t> r = parse_integer(c.text, "--cols", c.min, c.max);
        ASSERT_FALSE(r.ok()) << c.text;
        EXPECT_EQ(r.error().message, c.message);
        EXPECT_FALSE(r.error().hint.empty());
    }
    EXPECT_EQ(parse_unsigned("-1", "--seed").error().message,
              "--seed -1 is negative: it must be 0 or more");
    EXPECT_EQ(parse_unsigned("18446744073709551616", "--seed").error().message,
              "--seed 18446744073709551616 is too large: the most is 18446744073709551615");
}

TEST(WholeNumbers, ChartSizeDoesNotWrapAround) {
    // Was: sscanf("%d") read 4294967496 as 200 and drew a 200x900 chart.
    Result<chart::RenderOptions> r = chart::parse_size("4294967496x900");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message,
              "bad --size '4294967496x900': width 4294967496 is too large: the most is 8000");
    EXPECT_FALSE(chart::parse_size("1600x-900").ok());
    EXPECT_FALSE(chart::parse_size("1600x900x").ok());
    EXPECT_EQ(chart::parse_size("1200X675")->width, 1200);
}

TEST(WholeNumbers, ExtraPointsAndViewerSize) {
    const DeviceLimits h100 = DeviceLimits::h100_reference();
    Result<SweepItem> huge = parse_extra_point("naive:99999999999999999999x1024", DType::f32, h100);
    ASSERT_FALSE(huge.ok());
    EXPECT_NE(huge.error().message.find("99999999999999999999 is too large"), std::string::npos)
        << huge.error().message;
    EXPECT_FALSE(parse_extra_point("naive: 4096x1024", DType::f32, h100).ok());
    int w = 0, h = 0;
    EXPECT_FALSE(viewer::parse_size("4294967496x900", &w, &h));
    EXPECT_FALSE(viewer::parse_size(" 1600x900", &w, &h));
    EXPECT_TRUE(viewer::parse_size("1600x900", &w, &h));
    EXPECT_EQ(w, 1600);
}

// [SECTION] Session values
// -------------------------------------------------------------------------

std::string session_error(const json& doc) {
    Result<Session> s = parse(doc);
    return s.ok() ? std::string("(accepted)") : s.error().message;
}

TEST(SessionValues, RowsAndColsMustBePositiveAndSane) {
    for (const char* key : {"rows", "cols"}) {
        for (const json& bad : {json(0), json(-1), json(int64_t(1) << 41)}) {
            json d = valid_doc();
            d["points"][2][key] = bad;
            EXPECT_EQ(session_error(d), "s.json: points[2]." + std::string(key) + ": " + key +
                                            " = " + bad.dump() +
                                            " is outside 1..2^40 (1099511627776)");
        }
        json d = valid_doc();
        d["points"][2][key] = json::parse("18446744073709551615");  // 2^64 - 1
        EXPECT_EQ(session_error(d), "s.json: points[2]." + std::string(key) +
                                        ": integer 18446744073709551615 is out of range");
        d["points"][2][key] = json::parse("18446744073709551616");  // 2^64: a float to JSON
        EXPECT_NE(session_error(d).find("expected an integer, found a number"), std::string::npos);
    }
}

TEST(SessionValues, SchemaVersionIsComparedExactly) {
    json d = valid_doc();
    d["schema_version"] = json::parse("4294967297");  // 2^32 + 1: was read as 1
    EXPECT_NE(session_error(d).find("session schema version 4294967297 is not supported"),
              std::string::npos)
        << session_error(d);
    d["schema_version"] = json::parse("18446744073709551617");
    EXPECT_NE(session_error(d).find("no integer \"schema_version\""), std::string::npos);
    d["schema_version"] = -1;
    EXPECT_NE(session_error(d).find("session schema version -1 is not supported"),
              std::string::npos);
    d["schema_version"] = 1.0;
    EXPECT_NE(session_error(d).find("no integer \"schema_version\""), std::string::npos);
}

TEST(SessionValues, KernelsVariantsAndDtypesTheRegistryKnows) {
    json d = valid_doc();
    d["points"][0]["kernel"] = "my_kernel";
    EXPECT_NE(session_error(d).find("s.json: points[0].kernel: unknown kernel 'my_kernel' (this "
                                    "softmaxlab has naive, fused"),
              std::string::npos)
        << session_error(d);
    d = valid_doc();
    d["points"][0]["variant"] = "zigzag";
    EXPECT_NE(session_error(d).find("points[0].variant: kernel naive has no variant 'zigzag'"),
              std::string::npos)
        << session_error(d);
    d = valid_doc();
    d["points"][0]["dtype"] = "fp64";
    EXPECT_NE(session_error(d).find("points[0].dtype: unknown dtype 'fp64'"), std::string::npos);
    // A known variant is fine.
    d = valid_doc();
    for (json& p : d["points"])
        if (p["kernel"] == "smem") {
            p["variant"] = "bank-conflicted";
            break;
        }
    EXPECT_EQ(session_error(d), "(accepted)");
}

TEST(SessionValues, DuplicatedPointsAreRejected) {
    json d = valid_doc();
    d["points"].push_back(d["points"][3]);
    const size_t last = d["points"].size() - 1;
    EXPECT_NE(session_error(d).find("points[" + std::to_string(last) + "]: repeats points[3]"),
              std::string::npos)
        << session_error(d);
    // The same N at another size is a different point (sweep --extra naive:4096x1024).
    d = valid_doc();
    json other = d["points"][0];
    other["rows"] = other["rows"].get<int64_t>() / 2;
    d["points"].push_back(other);
    EXPECT_EQ(session_error(d), "(accepted)");
}

TEST(SessionValues, BareNanExplainsJsonAndHowToFixIt) {
    const std::string text = valid_doc().dump(1);
    const std::string key = "\"max_rel_error\": ";
    for (const char* bare : {"NaN", "Infinity", "-Infinity", "nan", "inf"}) {
        std::string t = text;
        const size_t at = t.find(key) + key.size();
        t.replace(at, t.find(',', at) - at, bare);
        Result<Session> s = parse_session(t, "s.json");
        ASSERT_FALSE(s.ok()) << bare;
        EXPECT_NE(s.error().message.find(std::string(bare) + " at line "), std::string::npos)
            << s.error().message;
        EXPECT_NE(s.error().message.find("JSON has no NaN or infinity"), std::string::npos);
        EXPECT_NE(s.error().hint.find("\"nan\""), std::string::npos) << s.error().hint;
        // Editing the file fixes it; re-recording (which needs a GPU) is not the advice.
        EXPECT_EQ(s.error().hint.find("sweep"), std::string::npos) << s.error().hint;
    }
    // Other syntax errors say where.
    Result<Session> s = parse_session("{\n  \"schema_version\": 1,,\n}", "s.json");
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("not valid JSON at line 2, column"), std::string::npos)
        << s.error().message;
}

TEST(SessionValues, TheRecordedSessionPassesEveryCheck) {
    for (const auto& e : fs::directory_iterator(std::string(SML_SOURCE_DIR) + "/assets/sessions"))
        if (e.path().extension() == ".json") {
            Result<Session> s = load_session(e.path().string());
            EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
        }
}

// [SECTION] Viewer: settings, save targets, arguments
// ----------------------------------------------

TEST_F(Hostile, CorruptSettingsAreSetAsideNeverOverwritten) {
    // Was: reported, then overwritten with the defaults at exit.
    const std::string text = "{\"theme\": \"light\", \"font_scale\": 1.4, oops";
    put("settings.json", text);
    viewer::SettingsFile f = viewer::open_settings(path("settings.json"));
    EXPECT_TRUE(f.writable);
    ASSERT_TRUE(f.notice.has_value());
    EXPECT_NE(f.notice->message.find("it was kept as " + path("settings.json.corrupt-1")),
              std::string::npos)
        << f.notice->message;
    EXPECT_EQ(slurp(path("settings.json.corrupt-1")), text);
    EXPECT_EQ(f.settings.theme, "dark") << "the defaults";
    // The viewer then saves fresh settings; the kept copy is untouched.
    ASSERT_TRUE(viewer::save_settings(path("settings.json"), f.settings).ok());
    EXPECT_EQ(slurp(path("settings.json.corrupt-1")), text);
    // A second corrupt file goes to -2.
    put("settings.json", "[");
    viewer::SettingsFile g = viewer::open_settings(path("settings.json"));
    ASSERT_TRUE(g.notice.has_value());
    EXPECT_EQ(slurp(path("settings.json.corrupt-1")), text);
    EXPECT_EQ(slurp(path("settings.json.corrupt-2")), "[");
}

TEST_F(Hostile, SettingsThatAreNotAFileAreLeftAlone) {
    ASSERT_EQ(::mkfifo(path("settings.json").c_str(), 0600), 0);
    const auto t0 = std::chrono::steady_clock::now();
    viewer::SettingsFile f = viewer::open_settings(path("settings.json"));
    EXPECT_LT(seconds_since(t0), 2.0);
    EXPECT_FALSE(f.writable) << "the viewer must not save over a FIFO";
    ASSERT_TRUE(f.notice.has_value());
    EXPECT_NE(f.notice->message.find("FIFO"), std::string::npos);
    EXPECT_TRUE(fs::is_fifo(path("settings.json")));
    EXPECT_EQ(listing(), std::vector<std::string>{"settings.json"});
    // Out-of-range values in a valid file: clamped, not wrapped.
    fs::remove(path("settings.json"));
    put("settings.json", "{\"lesson\": 4294967297, \"font_scale\": 1e300, \"session_path\": \"" +
                             std::string(10000, 'p') + "\"}");
    Result<viewer::Settings> s = viewer::load_settings(path("settings.json"));
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_EQ(s->lesson, 999);
    EXPECT_FLOAT_EQ(s->font_scale, viewer::Settings::kMaxScale);
    EXPECT_LE(s->session_path.size(), kMaxTextBytes);
}

TEST_F(Hostile, ExportAndSaveSuggestNewFilesAndAskBeforeReplacing) {
    const char* home = std::getenv("HOME");
    const std::string old_home = home ? home : "";
    ::setenv("HOME", dir_.c_str(), 1);
    EXPECT_EQ(viewer::exports_dir(), dir_ + "/softmaxlab-exports");
    fs::create_directories(dir_ + "/softmaxlab-exports");
    std::ofstream(dir_ + "/softmaxlab-exports/softmaxlab-bandwidth.png") << "mine";
    EXPECT_EQ(viewer::suggest_export_path("softmaxlab-bandwidth", ".png"),
              dir_ + "/softmaxlab-exports/softmaxlab-bandwidth-2.png");
    EXPECT_EQ(viewer::suggest_export_path("session", ".json"),
              dir_ + "/softmaxlab-exports/session.json");
    if (old_home.empty())
        ::unsetenv("HOME");
    else
        ::setenv("HOME", old_home.c_str(), 1);

    using Kind = viewer::WriteCheck::Kind;
    put("session.json", "unrelated");
    put("open.json", "{}");
    EXPECT_EQ(viewer::check_before_write(path("new.json"), {}).kind, Kind::write);
    const viewer::WriteCheck existing = viewer::check_before_write(path("session.json"), {});
    EXPECT_EQ(existing.kind, Kind::confirm_replace);
    EXPECT_EQ(existing.message, path("session.json") + " already exists. Replace it?");
    EXPECT_EQ(viewer::check_before_write(dir_ + "/./open.json", {path("open.json")}).kind,
              Kind::refuse)
        << "the open session is never written over";
    EXPECT_EQ(viewer::check_before_write(dir_, {}).kind, Kind::refuse);
    EXPECT_EQ(viewer::check_before_write("", {}).kind, Kind::refuse);
    ASSERT_EQ(::mkfifo(path("fifo.json").c_str(), 0600), 0);
    EXPECT_EQ(viewer::check_before_write(path("fifo.json"), {}).kind, Kind::refuse);
    EXPECT_EQ(slurp(path("session.json")), "unrelated");
}

Result<viewer::ViewerArgs> viewer_args(std::vector<const char*> argv) {
    argv.insert(argv.begin(), "softmaxlab");
    return viewer::parse_viewer_args(static_cast<int>(argv.size()), argv.data(), nullptr);
}

TEST(ViewerArguments, NumbersAndEmptyNamesAreErrorsAsTyped) {
    const std::pair<std::vector<const char*>, std::string> cases[] = {
        {{"--lesson", "-1"}, "--lesson -1 is negative: it must be 0 or more"},
        {{"--lesson", "abc"}, "--lesson 'abc' is not a whole number"},
        {{"--lesson", "99999999999999999999"},
         "--lesson 99999999999999999999 is too large: the most is 999"},
        {{"--lesson", ""}, "--lesson is empty: it needs a whole number"},
        {{"--frames", "0", "--screenshot", "x.png"}, "--frames 0 is too small: the least is 1"},
        {{"--screenshot", ""}, "--screenshot was given an empty file name"},
        {{"--session", ""}, "--session was given an empty file name"},
        {{"--settings", ""}, "--settings was given an empty file name"},
        {{"--dialog", "save"}, "--dialog works only with --screenshot"},
    };
    for (const auto& [argv, message] : cases) {
        Result<viewer::ViewerArgs> a = viewer_args(argv);
        ASSERT_FALSE(a.ok()) << message;
        EXPECT_EQ(a.error().message, message);
        EXPECT_EQ(a.error().message.find("1797693"), std::string::npos) << "no 310-digit bound";
    }
    EXPECT_EQ(viewer_args({"--lesson", "7"})->lesson, 7);
    EXPECT_EQ(viewer_args({"--screenshot", "x.png", "--dialog", "export"})->dialog, "export");
}

}  // namespace
}  // namespace sml
