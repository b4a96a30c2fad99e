// The lab bench on a real GPU through the viewer's job path (app/viewer/model/lab_editor.h, the
// code its Run button uses), with no window: an unedited and a strided warp kernel (the strided
// load's line is less coalesced and the run is slower), a faulting edit, an endless loop, a
// launch the GPU refuses and a problem too large for its memory. Each of the bad ones ends in a
// clear result while the editor goes on (a good run follows) and the saved edit stays intact.
// Relabelled "gpu" (the name ends in _gpu); skips with a printed reason without a device.
// With SML_LAB_DUMP_DIR set, each result is also written there (bench/lab_device_check.sh).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "app/viewer/model/lab_editor.h"
#include "core/lab/sass_roles.h"
#include "lab_test_util.h"
#include "tests/gpu_env.h"

namespace sml::viewer {
namespace {

namespace fs = std::filesystem;
using labtest::edit_recipe;
using labtest::line_of;
using labtest::read_repo_file;

class LabGpu : public testing::Test {
  protected:
    void SetUp() override {
        std::string t = (fs::temp_directory_path() / "sml-lab-gpu-XXXXXX").string();
        dir_ = ::mkdtemp(t.data());
        options_.edits_dir = dir_ + "/edits";
        options_.compile_as_you_type = false;
        options_.child.time_limit_s = 180;
    }
    void TearDown() override {
        std::error_code ec;
        fs::remove_all(dir_, ec);
    }
    // Runs the editor's text and returns the result, dumped when asked.
    lab::LabResult run(LabEditor& ed, const LabRunSettings& s, const std::string& dump_name) {
        EXPECT_TRUE(ed.run(s));
        ed.wait_idle();
        EXPECT_TRUE(ed.result().has_value());
        lab::LabResult r = ed.result() ? *ed.result() : lab::LabResult{};
        std::printf("[%s] %s: %s\n", dump_name.c_str(), r.status.c_str(), r.message.c_str());
        if (const char* d = std::getenv("SML_LAB_DUMP_DIR"); d && *d)
            EXPECT_TRUE(lab::save_result(std::string(d) + "/" + dump_name + ".result.json", r));
        return r;
    }
    static double line_value(const lab::LabResult& r, int line, const char* role) {
        if (!r.session || r.session->points.empty()) return -1;
        const PointRecord& p = r.session->points.front();
        if (!p.source_lines) return -1;
        for (const LineCounters& l : p.source_lines->lines)
            if (l.line == line && l.file.find("warp_softmax.cu") != std::string::npos) {
                auto it = l.values.find(role);
                return it == l.values.end() ? -1 : it->second;
            }
        return -1;
    }
    static double pct(const lab::LabResult& r) {
        return r.session && !r.session->points.empty() ? r.session->points.front().pct_of_copy : 0;
    }

    std::string dir_;
    LabEditor::Options options_;
};

TEST_F(LabGpu, StridedLoadIsLessCoalescedAndSlower) {
    SML_REQUIRE_GPU();
    LabEditor ed(options_);
    ASSERT_TRUE(ed.open_kernel("warp"));
    LabRunSettings s;
    s.rows = 65536;  // 256 MiB in, 256 MiB out: far past the 50 MB L2
    s.cols = 1024;
    // Whole-kernel counters off: this process's only CUPTI client is the SASS metrics pass.
    // (bench/lab_device_check.sh runs the same pair through the CLI with both.)
    s.metrics = "off";
    const lab::LabResult orig = run(ed, s, "warp-unedited");
    ASSERT_EQ(orig.status, lab::status::kOk) << orig.message << "\n" << orig.hint;
    const labtest::EditRecipe e = edit_recipe("strided");
    ASSERT_TRUE(ed.set_text(e.source));
    const lab::LabResult strided = run(ed, s, "warp-strided");
    ASSERT_EQ(strided.status, lab::status::kOk) << strided.message << "\n" << strided.hint;

    const PointRecord& p = orig.session->points.front();
    ASSERT_TRUE(p.source_lines);
    if (!p.source_lines->available &&
        p.source_lines->reason.find("PRIVILEGES") != std::string::npos)
        GTEST_SKIP() << "hardware counters not permitted: " << p.source_lines->reason;
    ASSERT_TRUE(p.source_lines->available) << p.source_lines->reason;
    for (const auto& [role, name] : p.source_lines->metric_names)
        std::printf("  role %s = %s\n", role.c_str(), name.c_str());

    const int orig_line = line_of(read_repo_file("kernels/warp_softmax.cu"),
                                  e.spec.at("original_line").get<std::string>());
    const int edit_line = line_of(e.source, e.spec.at("edit_line").get<std::string>());
    const double orig_eff = line_value(orig, orig_line, lab::role::kGlobalSectorEfficiencyPct);
    const double edit_eff = line_value(strided, edit_line, lab::role::kGlobalSectorEfficiencyPct);
    std::printf(
        "load line: unedited %d at %.1f%% coalesced, %.1f%% of copy; strided %d at %.1f%%, "
        "%.1f%% of copy\n",
        orig_line, orig_eff, pct(orig), edit_line, edit_eff, pct(strided));
    EXPECT_GT(orig_eff, 90.0);
    EXPECT_GE(edit_eff, 0.0) << "no sector counts on the strided load's line";
    EXPECT_LT(edit_eff, 0.5 * orig_eff);
    EXPECT_LT(pct(strided), pct(orig));
    // The gutter shows it: coalescing is hot on the strided line.
    ASSERT_TRUE(ed.set_gutter_metric(lab::role::kGlobalSectorEfficiencyPct));
    std::optional<GutterCell> cell = ed.gutter(edit_line);
    ASSERT_TRUE(cell);
    EXPECT_GT(cell->heat, 0.5f);
}

TEST_F(LabGpu, FaultEndsInAClearErrorAndTheEditorGoesOn) {
    SML_REQUIRE_GPU();
    LabEditor ed(options_);
    ASSERT_TRUE(ed.open_kernel("warp"));
    const labtest::EditRecipe e = edit_recipe("fault");
    ASSERT_TRUE(ed.set_text(e.source));
    LabRunSettings s;
    s.rows = 4096;
    s.cols = 1024;
    s.metrics = "off";
    s.per_line = false;
    const lab::LabResult r = run(ed, s, "warp-fault");
    EXPECT_EQ(r.status, lab::status::kFault) << r.message;
    ASSERT_TRUE(r.fault);
    EXPECT_EQ(r.fault->kind, "illegal_address");
    EXPECT_EQ(r.fault->step, "warp");
    const int line = line_of(e.source, e.spec.at("edit_line").get<std::string>());
    if (r.fault->located_by == "compute-sanitizer")
        EXPECT_EQ(r.fault->line, line) << r.message;
    else
        std::printf("fault line not located: %s\n",
                    r.notes.count("fault_line") ? r.notes.at("fault_line").c_str() : "");
    // The edit is intact on disk, and the editor runs the next job.
    lab::EditStore store(options_.edits_dir);
    EXPECT_EQ(**store.load("warp"), e.source);
    EXPECT_EQ(ed.text(), e.source);
    ASSERT_TRUE(ed.revert());
    EXPECT_EQ(run(ed, s, "warp-after-fault").status, lab::status::kOk);
}

TEST_F(LabGpu, EndlessLoopIsStoppedAndTheEditorGoesOn) {
    SML_REQUIRE_GPU();
    options_.child.time_limit_s = 15;
    LabEditor ed(options_);
    ASSERT_TRUE(ed.open_kernel("warp"));
    const labtest::EditRecipe e = edit_recipe("loop");
    ASSERT_TRUE(ed.set_text(e.source));
    LabRunSettings s;
    s.rows = 4096;
    s.cols = 1024;
    s.metrics = "off";
    s.per_line = false;
    const lab::LabResult r = run(ed, s, "warp-loop");
    EXPECT_EQ(r.status, lab::status::kTimeout) << r.message;
    EXPECT_NE(r.message.find("did not finish"), std::string::npos);
    lab::EditStore store(options_.edits_dir);
    EXPECT_EQ(**store.load("warp"), e.source);
    ASSERT_TRUE(ed.revert());
    EXPECT_EQ(run(ed, s, "warp-after-loop").status, lab::status::kOk);
}

TEST_F(LabGpu, RefusedLaunchAndTooLargeAProblemAreReported) {
    SML_REQUIRE_GPU();
    LabEditor ed(options_);
    const labtest::EditRecipe e = edit_recipe("launch_refused");
    ASSERT_TRUE(ed.open_kernel(e.kernel));
    ASSERT_TRUE(ed.set_text(e.source));
    LabRunSettings s;
    s.rows = 1024;
    s.cols = 4096;
    s.metrics = "off";
    s.per_line = false;
    const lab::LabResult refused = run(ed, s, "online-launch-refused");
    EXPECT_EQ(refused.status, lab::status::kLaunchError) << refused.message;
    ASSERT_TRUE(ed.open_kernel("warp"));
    s.rows = int64_t(1) << 27;  // 512 GiB in and 512 GiB out
    s.cols = 1024;
    const lab::LabResult oom = run(ed, s, "warp-out-of-memory");
    EXPECT_EQ(oom.status, lab::status::kOutOfMemory) << oom.message;
    EXPECT_NE(oom.message.find("GPU memory"), std::string::npos) << oom.message;
}

}  // namespace
}  // namespace sml::viewer
