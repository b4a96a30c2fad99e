// save_session is atomic: the old file survives any failed save.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/session/session.h"

namespace sml {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

class SessionSave : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("sml_session_save_" + std::to_string(getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ec;
        fs::permissions(dir_, fs::perms::owner_all, ec);
        fs::remove_all(dir_, ec);
    }
    static Session session(const std::string& command) {
        Session s;
        s.command = command;
        s.device.name = "test GPU";
        PointRecord p;
        p.kernel = "fused";
        p.cols = 1024;
        s.points.push_back(p);
        return s;
    }
    fs::path dir_;
};

TEST_F(SessionSave, SaveThenLoadAndNoTempFileLeft) {
    const fs::path path = dir_ / "s.json";
    ASSERT_TRUE(save_session(path.string(), session("first")).ok());
    Result<Session> back = load_session(path.string());
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->command, "first");
    ASSERT_EQ(back->points.size(), 1u);
    EXPECT_EQ(back->points[0].kernel, "fused");
    EXPECT_FALSE(fs::exists(path.string() + ".partial"));
    // Saving again replaces the content.
    ASSERT_TRUE(save_session(path.string(), session("second")).ok());
    EXPECT_EQ(load_session(path.string())->command, "second");
}

TEST_F(SessionSave, FailedSaveKeepsTheOldFile) {
    const fs::path path = dir_ / "s.json";
    ASSERT_TRUE(save_session(path.string(), session("old")).ok());
    const std::string before = read_file(path);
    // Block the temporary file (a directory sits where it would be created): the save must fail
    // before the target is touched. This works as root too, unlike a permission change.
    fs::create_directory(path.string() + ".partial");
    Status s = save_session(path.string(), session("new"));
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find(path.string()), std::string::npos) << s.error().message;
    EXPECT_FALSE(s.error().hint.empty());
    EXPECT_EQ(read_file(path), before);
}

TEST_F(SessionSave, MissingDirectoryIsAnError) {
    const fs::path path = dir_ / "no" / "such" / "dir" / "s.json";
    Status s = save_session(path.string(), session("x"));
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find(path.string()), std::string::npos);
    EXPECT_FALSE(fs::exists(path));
}

}  // namespace
}  // namespace sml
