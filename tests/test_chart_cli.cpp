// `softmaxlab-cli chart` end to end: exit codes and the error lines a user sees.
// The session is the SYNTHETIC fixture (test_chart_fixture.h), written to a temporary file.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "core/chart/chart_export.h"
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
    EXPECT_NE(r.output.find("hint: valid charts: bandwidth, bytes, pct, naive, metrics"),
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

TEST_F(ChartCli, RuntimeFailuresExitWithCode1) {
    CliRun r = cli(session() + "--chart pct --out /nonexistent-sml-dir/x.csv");
    EXPECT_EQ(r.rc, 1);
    EXPECT_NE(r.output.find("cannot write '/nonexistent-sml-dir/x.csv'"), std::string::npos)
        << r.output;

    r = cli("--session " + out("no-such-session.json") + " --chart pct --out " + out("x.csv"));
    EXPECT_EQ(r.rc, 1);
    EXPECT_NE(r.output.find("no-such-session.json"), std::string::npos) << r.output;
}

}  // namespace
