// Autosave (core/lab/edit_store.h): every edit saved atomically in the per-user folder and found
// again on the next start; a crash between writing and renaming leaves the old edit whole.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/lab/edit_store.h"

namespace sml::lab {
namespace {

namespace fs = std::filesystem;

class TempDir {
  public:
    TempDir() {
        std::string t = (fs::temp_directory_path() / "sml-lab-test-XXXXXX").string();
        path_ = ::mkdtemp(t.data());
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    const std::string& path() const { return path_; }

  private:
    std::string path_;
};

class ScopedEnv {
  public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old, had_ = true;
        value ? setenv(name, value, 1) : unsetenv(name);
    }
    ~ScopedEnv() { had_ ? setenv(name_, old_.c_str(), 1) : unsetenv(name_); }

  private:
    const char* name_;
    std::string old_;
    bool had_ = false;
};

TEST(LabAutosave, FolderFollowsXdgThenHome) {
    ScopedEnv e("SML_EDITS_DIR", nullptr);
    {
        ScopedEnv x("XDG_DATA_HOME", "/data/me");
        EXPECT_EQ(default_edits_dir(), "/data/me/softmaxlab/edits");
    }
    {
        ScopedEnv x("XDG_DATA_HOME", nullptr);
        ScopedEnv h("HOME", "/home/me");
        EXPECT_EQ(default_edits_dir(), "/home/me/.local/share/softmaxlab/edits");
    }
    ScopedEnv s("SML_EDITS_DIR", "/tmp/edits");
    EXPECT_EQ(default_edits_dir(), "/tmp/edits");
}

TEST(LabAutosave, SavesAndRestoresEveryEdit) {
    TempDir dir;
    const std::string folder = dir.path() + "/softmaxlab/edits";  // created on first save
    {
        EditStore store(folder);
        ASSERT_TRUE(store.save("warp", "first\n"));
        ASSERT_TRUE(store.save("warp", "second\n"));  // as the learner types
        ASSERT_TRUE(store.save("ex-warp-reduce", "exercise\n"));
    }
    EditStore next_start(folder);  // a new process, say
    EXPECT_EQ(next_start.keys(), (std::vector<std::string>{"ex-warp-reduce", "warp"}));
    Result<std::optional<std::string>> w = next_start.load("warp");
    ASSERT_TRUE(w);
    EXPECT_EQ(**w, "second\n");
    Result<std::optional<std::string>> none = next_start.load("fused");
    ASSERT_TRUE(none);
    EXPECT_FALSE(*none);
    ASSERT_TRUE(next_start.remove("warp"));
    EXPECT_EQ(next_start.keys(), std::vector<std::string>{"ex-warp-reduce"});
    // No temp files left behind by normal saves.
    for (const auto& e : fs::directory_iterator(folder))
        EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos);
}

// Only the edits folder is made: a file the user names (lab compile --ptx, run --result) in a
// folder that does not exist is an error, and no folder appears.
TEST(LabAutosave, WritingElsewhereNeverCreatesAFolder) {
    TempDir dir;
    const std::string missing = dir.path() + "/newdir/a";
    Status s = write_file_atomically(missing + "/c.ptx", "ptx\n");
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message.find("No such file or directory"), std::string::npos)
        << s.error().message;
    EXPECT_FALSE(fs::exists(dir.path() + "/newdir"));
    ASSERT_TRUE(write_file_atomically(dir.path() + "/c.ptx", "ptx\n"));  // an existing folder
    EXPECT_TRUE(fs::is_regular_file(dir.path() + "/c.ptx"));
    EditStore store(missing);  // the app's own folder: made on the first save
    ASSERT_TRUE(store.save("warp", "x"));
    EXPECT_TRUE(fs::is_regular_file(missing + "/warp.cu"));
}

TEST(LabAutosave, RejectsKeysThatAreNotFileNames) {
    TempDir dir;
    EditStore store(dir.path());
    EXPECT_FALSE(store.save("../escape", "x"));
    EXPECT_FALSE(store.save("", "x"));
    EXPECT_FALSE(store.save(".hidden", "x"));
    EXPECT_FALSE(store.save("a/b", "x"));
    EXPECT_TRUE(store.save("online_tiled", "x"));
    EXPECT_FALSE(store.save("big", std::string(EditStore::kMaxEditBytes + 1, 'x')));
}

// The process dies after the new text is written to its temp file and before the rename: the
// edit on disk is the old one, whole, and the temp file is not taken for an edit.
TEST(LabAutosave, CrashBetweenWriteAndRenameKeepsTheOldEdit) {
    TempDir dir;
    EditStore store(dir.path());
    ASSERT_TRUE(store.save("warp", "the old edit\n"));
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        testing_hooks::before_rename = [](const std::string&) { _exit(42); };
        (void)store.save("warp", "the new edit, never renamed\n");
        _exit(0);  // not reached
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 42) << "the crash hook did not run";
    Result<std::optional<std::string>> after = store.load("warp");
    ASSERT_TRUE(after);
    EXPECT_EQ(**after, "the old edit\n");
    int temps = 0;
    for (const auto& e : fs::directory_iterator(dir.path())) {
        const std::string name = e.path().filename().string();
        if (name.find(".tmp-") != std::string::npos) {
            ++temps;
            std::ifstream in(e.path());
            std::string text((std::istreambuf_iterator<char>(in)), {});
            EXPECT_EQ(text,
                      "the new edit, never renamed\n");  // complete, fsynced, just not in place
        }
    }
    EXPECT_EQ(temps, 1);
    EXPECT_EQ(store.keys(), std::vector<std::string>{"warp"});
    // The next save still works.
    ASSERT_TRUE(store.save("warp", "typed again\n"));
    EXPECT_EQ(**store.load("warp"), "typed again\n");
}

TEST(LabAutosave, CappedReadRefusesHugeFiles) {
    TempDir dir;
    const std::string p = dir.path() + "/big.cu";
    ASSERT_TRUE(write_file_atomically(p, std::string(100, 'x')));
    EXPECT_TRUE(read_file_capped(p, 100));
    Result<std::string> r = read_file_capped(p, 99);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("100 bytes"), std::string::npos);
    EXPECT_FALSE(read_file_capped(dir.path(), 100));  // a folder
    EXPECT_FALSE(read_file_capped(dir.path() + "/missing", 100));
}

}  // namespace
}  // namespace sml::lab
