// The lab editor's view model (app/viewer/model/lab_editor.h), with no window and no GPU: edits
// autosave and come back on the next start, compiles put diagnostics on their lines, and a run
// (a fake child process here) fills the heat gutter, or reports a crash while the edit stays.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "app/viewer/model/lab_editor.h"
#include "core/lab/compile.h"
#include "core/lab/exercises.h"
#include "core/lab/sass_roles.h"
#include "lab_test_util.h"

namespace sml::viewer {
namespace {

namespace fs = std::filesystem;
using labtest::line_of;
using labtest::read_repo_file;
using labtest::replace_once;

class Sandbox {
  public:
    Sandbox() {
        std::string t = (fs::temp_directory_path() / "sml-lab-vm-XXXXXX").string();
        dir_ = ::mkdtemp(t.data());
    }
    ~Sandbox() {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    LabEditor::Options options(bool as_you_type = false) const {
        LabEditor::Options o;
        o.edits_dir = dir_ + "/edits";
        o.compile_as_you_type = as_you_type;
        o.compile_delay_s = 0;
        return o;
    }
    std::string script(const std::string& name, const std::string& body) const {
        const std::string p = dir_ + "/" + name;
        std::ofstream(p) << "#!/bin/sh\n" << body << "\n";
        ::chmod(p.c_str(), 0755);
        return p;
    }
    const std::string& dir() const { return dir_; }

  private:
    std::string dir_;
};

TEST(ViewModelLab, EditsAutosaveAndComeBackOnTheNextStart) {
    Sandbox box;
    const std::string original = read_repo_file("kernels/warp_softmax.cu");
    const std::string edited = original + "// my note\n";
    {
        LabEditor ed(box.options());
        ASSERT_TRUE(ed.open_kernel("warp"));
        EXPECT_EQ(ed.text(), original);
        EXPECT_FALSE(ed.dirty());
        EXPECT_FALSE(ed.restored());
        ASSERT_TRUE(ed.set_text(edited));
        EXPECT_TRUE(ed.dirty());
        EXPECT_NE(ed.save_status().find("saved to"), std::string::npos);
    }
    LabEditor next(box.options());  // the viewer starts again
    ASSERT_TRUE(next.open_kernel("warp"));
    EXPECT_TRUE(next.restored());
    EXPECT_TRUE(next.dirty());
    EXPECT_EQ(next.text(), edited);
    ASSERT_TRUE(next.revert());
    EXPECT_FALSE(next.dirty());
    LabEditor third(box.options());
    ASSERT_TRUE(third.open_kernel("warp"));
    EXPECT_FALSE(third.restored());
    EXPECT_FALSE(third.open_kernel("best"));  // not editable: an error, not a crash
}

TEST(ViewModelLab, CompileErrorsSitOnTheirLines) {
    Sandbox box;
    LabEditor ed(box.options());
    ASSERT_TRUE(ed.open_kernel("warp"));
    const std::string text =
        replace_once(ed.text(), "float s = 0.f;", "float s = 0.f\n        oops;");
    ASSERT_TRUE(ed.set_text(text));
    ed.compile_now();
    EXPECT_EQ(ed.busy(), LabEditor::Busy::compiling);
    ed.wait_idle();
    EXPECT_FALSE(ed.compiled_ok());
    const int line = line_of(text, "oops;");
    EXPECT_FALSE(ed.diagnostics_on_line(line).empty()) << lab::format_diagnostics(ed.diagnostics());
    EXPECT_NE(ed.status_line().find("error"), std::string::npos) << ed.status_line();
    ASSERT_TRUE(ed.revert());
    ed.compile_now();
    ed.wait_idle();
    EXPECT_TRUE(ed.compiled_ok()) << lab::format_diagnostics(ed.diagnostics());
    EXPECT_NE(ed.ptx().find(".entry"), std::string::npos);
    EXPECT_EQ(ed.status_line(), "compiles");
}

TEST(ViewModelLab, CompilesWhenTypingPauses) {
    Sandbox box;
    LabEditor ed(box.options(/*as_you_type=*/true));
    ASSERT_TRUE(ed.open_kernel("online_tiled"));
    ed.poll();  // opening asks for a compile
    EXPECT_EQ(ed.busy(), LabEditor::Busy::compiling);
    ed.wait_idle();
    EXPECT_TRUE(ed.compiled_ok()) << lab::format_diagnostics(ed.diagnostics());
}

// A fake runner writes a result with per-line counters: the gutter shows them per line.
TEST(ViewModelLab, RunFillsTheGutter) {
    Sandbox box;
    lab::LabResult r;
    r.status = lab::status::kOk;
    r.message = "correct";
    Session s;
    PointRecord p;
    p.kernel = "warp";
    p.rows = 64;  // a session's sizes are checked when read (1..2^40)
    p.cols = 1024;
    SourceLinesRecord lines;
    lines.available = true;
    lines.lines.push_back(LineCounters{"kernels/warp_softmax.cu",
                                       70,
                                       {{lab::role::kInstExecuted, 400},
                                        {lab::role::kGlobalSectors, 800},
                                        {lab::role::kGlobalIdealSectors, 100},
                                        {lab::role::kGlobalSectorEfficiencyPct, 12.5}}});
    lines.lines.push_back(
        LineCounters{"kernels/warp_softmax.cu", 71, {{lab::role::kInstExecuted, 100}}});
    lines.lines.push_back(LineCounters{"kernels/softmax_device.cuh",
                                       70,
                                       {{lab::role::kInstExecuted, 9999},
                                        {lab::role::kSharedWavefronts, 5}}});
    p.source_lines = lines;
    s.points.push_back(p);
    r.session = s;
    const std::string prepared = box.dir() + "/result.json";
    ASSERT_TRUE(lab::save_result(prepared, r));
    LabEditor::Options o = box.options();
    o.child.cli = box.script("fake-cli", "cp " + prepared + " \"$6\"");
    LabEditor ed(o);
    ASSERT_TRUE(ed.open_kernel("warp"));
    ASSERT_TRUE(ed.run(LabRunSettings{}));
    EXPECT_FALSE(ed.run(LabRunSettings{}));  // one at a time
    ed.wait_idle();
    ASSERT_TRUE(ed.result());
    EXPECT_EQ(ed.result()->status, lab::status::kOk);
    const std::vector<std::string> m = ed.gutter_metrics();
    EXPECT_NE(std::find(m.begin(), m.end(), lab::role::kGlobalSectorEfficiencyPct), m.end());
    // Only the header's lines have shared wavefronts: not offered for this file.
    EXPECT_EQ(std::find(m.begin(), m.end(), lab::role::kSharedWavefronts), m.end());
    EXPECT_FALSE(ed.set_gutter_metric(lab::role::kSharedWavefronts));
    EXPECT_EQ(ed.gutter_metric(), lab::role::kInstExecuted);  // the first, by default
    std::optional<GutterCell> c70 = ed.gutter(70), c71 = ed.gutter(71);
    ASSERT_TRUE(c70 && c71);
    EXPECT_FLOAT_EQ(c70->heat, 1.0f);  // the header's line 70 is another file: not counted
    EXPECT_FLOAT_EQ(c71->heat, 0.25f);
    EXPECT_NE(c70->tooltip.find("coalescing: 12.5%"), std::string::npos) << c70->tooltip;
    EXPECT_FALSE(ed.gutter(72));
    ASSERT_TRUE(ed.set_gutter_metric(lab::role::kGlobalSectorEfficiencyPct));
    EXPECT_FLOAT_EQ(ed.gutter(70)->heat, 0.875f);  // poorly coalesced is hot
    EXPECT_FALSE(ed.gutter(71));
    EXPECT_FALSE(ed.set_gutter_metric("no_such_metric"));
}

// The runner crashes: the viewer gets a clear result, and the edit is still there, saved.
TEST(ViewModelLab, ACrashedRunLeavesTheEditIntact) {
    Sandbox box;
    LabEditor::Options o = box.options();
    o.child.cli = box.script("fake-cli", "kill -SEGV $$");
    LabEditor ed(o);
    ASSERT_TRUE(ed.open_kernel("warp"));
    const std::string edited = ed.text() + "// faulty idea\n";
    ASSERT_TRUE(ed.set_text(edited));
    ASSERT_TRUE(ed.run(LabRunSettings{}));
    ed.wait_idle();
    ASSERT_TRUE(ed.result());
    EXPECT_EQ(ed.result()->status, lab::status::kCrashed);
    EXPECT_NE(ed.status_line().find("signal 11"), std::string::npos) << ed.status_line();
    EXPECT_EQ(ed.text(), edited);
    LabEditor again(box.options());
    ASSERT_TRUE(again.open_kernel("warp"));
    EXPECT_EQ(again.text(), edited);
}

TEST(ViewModelLab, ExercisesOpenWithTheirOwnKeyAndCompile) {
    Sandbox box;
    LabEditor ed(box.options());
    ASSERT_TRUE(ed.open_exercise("warp-reduce"));
    EXPECT_EQ(ed.key(), "ex-warp-reduce");
    EXPECT_EQ(ed.kernel(), "warp");
    ASSERT_NE(ed.exercise(), nullptr);
    Result<std::vector<lab::Exercise>> all = lab::load_exercises();
    ASSERT_TRUE(all);
    Result<std::string> start = lab::exercise_text(*lab::find_exercise(*all, "warp-reduce"));
    ASSERT_TRUE(start);
    EXPECT_EQ(ed.text(), *start);
    ed.compile_now();
    ed.wait_idle();
    EXPECT_TRUE(ed.compiled_ok()) << lab::format_diagnostics(ed.diagnostics());
    EXPECT_FALSE(ed.open_exercise("no-such-exercise"));
}

}  // namespace
}  // namespace sml::viewer
