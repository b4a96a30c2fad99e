// `softmaxlab-cli chart` end to end: exit codes and the error lines a user sees.
// The sessions are SYNTHETIC: the fixture (test_chart_fixture.h) and, for --compare, the same
// renamed to another GPU with its bandwidths scaled, each written to a temporary file.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "core/chart/chart_export.h"
#include "core/chart/chart_kinds.h"
#include "test_chart_fixture.h"

namespace fs = std::filesystem;

namespace {

struct CliRun {
    int rc = -1;
    std::string output;  // stdout and stderr together
};

class ChartCli : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = fs::temp_directory_path() / ("sml_chart_cli_" + std::to_string(::getpid()));
        fs::create_directories(dir_);
        session_ = (dir_ / "synthetic_session.json").string();
        const sml::Status st = sml::save_session(session_, sml::test::synthetic_session());
        ASSERT_TRUE(st.ok()) << st.error().message;
        const sml::Session other = sml::test::synthetic_other_gpu(
            sml::test::synthetic_session(), "NVIDIA GeForce RTX 4090", 0.33, 1008);
        const sml::Status st2 = sml::save_session(out("other_gpu.json"), other);
        ASSERT_TRUE(st2.ok()) << st2.error().message;
        sml::Session half = other;
        for (sml::PointRecord& p : half.points) p.dtype = "fp16";
        const sml::Status st3 = sml::save_session(out("other_gpu_fp16.json"), half);
        ASSERT_TRUE(st3.ok()) << st3.error().message;
    }
    static void TearDownTestSuite() { fs::remove_all(dir_); }

    void SetUp() override {
        ASSERT_TRUE(!std::string(SML_CLI_PATH).empty() && fs::exists(SML_CLI_PATH))
            << "softmaxlab-cli is not built: " << SML_CLI_PATH;
    }

    static CliRun cli(const std::string& args) {
        CliRun r;
        const std::string cmd = std::string("'") + SML_CLI_PATH + "' chart " + args + " 2>&1";
        FILE* p = popen(cmd.c_str(), "r");
        if (!p) return r;
        char buf[4096];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
        const int status = pclose(p);
        r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        return r;
    }
    static std::string out(const std::string& name) { return (dir_ / name).string(); }
    static std::string session() { return "--session '" + session_ + "' "; }

    static fs::path dir_;
    static std::string session_;
};
fs::path ChartCli::dir_;
std::string ChartCli::session_;

TEST_F(ChartCli, WritesCsvAndDrawnFormats) {
    CliRun r = cli(session() + "--chart pct --out " + out("pct.csv"));
    EXPECT_EQ(r.rc, 0) << r.output;
    EXPECT_NE(r.output.find("wrote"), std::string::npos);
    EXPECT_GT(fs::file_size(out("pct.csv")), 1000u);
    if (!sml::chart::chart_renderer_available()) {
        r = cli(session() + "--chart bandwidth --out " + out("bw.png"));
        EXPECT_EQ(r.rc, 1);
        EXPECT_NE(r.output.find("built without Cairo"), std::string::npos) << r.output;
        return;
    }
    r = cli(session() + "--chart bandwidth --out " + out("bw.png") +
            " --size 800x450 --theme dark --title 'My title'");
    EXPECT_EQ(r.rc, 0) << r.output;
    EXPECT_NE(r.output.find("800x450, dark"), std::string::npos) << r.output;
    EXPECT_GT(fs::file_size(out("bw.png")), 10000u);
    r = cli(session() + "--chart naive --cols 4096 --out " + out("naive.svg"));
    EXPECT_EQ(r.rc, 0) << r.output;
    r = cli(session() + "--chart metrics --out " + out("metrics.pdf"));
    EXPECT_EQ(r.rc, 0) << r.output;
}

TEST_F(ChartCli, BadArgumentsExitWithCode2AndSayWhatToDo) {
    CliRun r = cli(session() + "--chart speed --out " + out("x.png"));
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.output.find("unknown chart 'speed'"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("hint: valid charts: " + sml::chart::chart_kind_ids()),
              std::string::npos)
        << r.output;

    r = cli(session() + "--chart pct --out " + out("x.jpg"));
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.output.find("'.jpg'"), std::string::npos) << r.output;

    r = cli(session() + "--chart pct --out " + out("x.csv") + " --size 1600by900");
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.output.find("bad --size '1600by900'"), std::string::npos) << r.output;

    r = cli(session() + "--chart pct --out " + out("x.csv") + " --theme sepia");
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.output.find("unknown theme 'sepia'"), std::string::npos) << r.output;

    r = cli(session() + "--chart bytes --cols 4095 --out " + out("x.csv"));
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.output.find("N = 4095"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("available: 32, 64"), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(out("x.csv"))) << "nothing is written on error";
}

// Was: the whole chart drawn, then exit 1 at the write. Now checked with the other arguments,
// before the session is read (README: an unwritable output is a bad argument, exit 2).
TEST_F(ChartCli, UnwritableOutputIsRefusedBeforeDrawing) {
    for (const char* ext : {"csv", "png", "svg"}) {
        const std::string target = std::string("/nonexistent-sml-dir/x.") + ext;
        CliRun r = cli(session() + "--chart pct --out " + target);
        EXPECT_EQ(r.rc, 2) << r.output;
        EXPECT_NE(r.output.find("error: --out " + target + " is not writable: No such file"),
                  std::string::npos)
            << r.output;
        EXPECT_EQ(r.output.find("wrote"), std::string::npos) << r.output;
    }
    // Before the session is read: a missing session is not even looked at.
    CliRun r = cli("--session " + out("no-such-session.json") +
                   " --chart pct --out /nonexistent-sml-dir/x.csv");
    EXPECT_EQ(r.rc, 2) << r.output;
    EXPECT_EQ(r.output.find("no-such-session.json"), std::string::npos) << r.output;
}

TEST_F(ChartCli, RuntimeFailuresExitWithCode1) {
    CliRun r =
        cli("--session " + out("no-such-session.json") + " --chart pct --out " + out("x.csv"));
    EXPECT_EQ(r.rc, 1);
    EXPECT_NE(r.output.find("no-such-session.json"), std::string::npos) << r.output;
}

// --help lists every kind of the chart-kind table with its description.
TEST_F(ChartCli, HelpListsEveryChartKindOfTheTable) {
    const CliRun r = cli("--help");
    EXPECT_EQ(r.rc, 0) << r.output;
    size_t listed = 0;
    for (const sml::chart::ChartKind& k : sml::chart::chart_kinds()) {
        EXPECT_NE(r.output.find(std::string("  ") + k.id), std::string::npos) << k.id;
        EXPECT_NE(r.output.find(k.tooltip), std::string::npos) << k.id;
        ++listed;
    }
    EXPECT_EQ(listed, sml::chart::chart_kinds().size());
    EXPECT_NE(r.output.find("--compare"), std::string::npos);
}

TEST_F(ChartCli, CompareDrawsTwoSessionsOrSaysWhyNot) {
    const std::string compare = "--compare '" + out("other_gpu.json") + "' ";
    CliRun r = cli(session() + compare + "--chart pct --out " + out("cmp.csv"));
    EXPECT_EQ(r.rc, 0) << r.output;
    const std::string csv = [&] {
        FILE* f = std::fopen(out("cmp.csv").c_str(), "rb");
        std::string text;
        char buf[4096];
        for (size_t n; f && (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
        if (f) std::fclose(f);
        return text;
    }();
    EXPECT_NE(csv.find("(H100),line,"), std::string::npos);
    EXPECT_NE(csv.find("(RTX 4090),line,"), std::string::npos);
    if (sml::chart::chart_renderer_available()) {
        r = cli(session() + compare + "--chart bandwidth --out " + out("cmp.png"));
        EXPECT_EQ(r.rc, 0) << r.output;
        EXPECT_GT(fs::file_size(out("cmp.png")), 10000u);
    }

    // A chart of one session takes no second one: exit 2, naming the charts that compare.
    r = cli(session() + compare + "--chart bytes --out " + out("x.csv"));
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.output.find("takes no --compare"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(sml::chart::chart_kind_ids(", ", true)), std::string::npos) << r.output;

    // Another dtype: exit 2 with the reason.
    r = cli(session() + "--compare '" + out("other_gpu_fp16.json") + "' --chart pct --out " +
            out("x.csv"));
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.output.find("has no fp32 points (it has: fp16)"), std::string::npos) << r.output;

    // A compared file that cannot be read: exit 1, naming it.
    r = cli(session() + "--compare " + out("missing.json") + " --chart pct --out " + out("x.csv"));
    EXPECT_EQ(r.rc, 1);
    EXPECT_NE(r.output.find("missing.json"), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(out("x.csv"))) << "nothing is written on error";
}

}  // namespace
