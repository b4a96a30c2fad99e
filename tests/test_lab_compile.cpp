// The lab bench's compiler (core/lab/compile.h) on this machine, without a GPU: every lesson
// kernel file compiles with NVRTC as it stands (this is what keeps the lessons editable), and
// compile errors come back at their lines.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/lab/compile.h"
#include "core/lab/kernel_names.h"
#include "core/lab/lab_job.h"
#include "kernels/registry.h"
#include "lab_test_util.h"

namespace sml::lab {
namespace {

using labtest::line_of;
using labtest::read_repo_file;
using labtest::replace_once;

struct LessonArch {
    std::string kernel;
    std::string arch;
};

std::vector<LessonArch> lesson_archs() {
    std::vector<LessonArch> v;
    for (const KernelInfo& k : registry())
        if (k.lab_editable)
            for (const char* arch : {"sm_75", "sm_90"}) v.push_back({k.id, arch});
    return v;
}

void PrintTo(const LessonArch& a, std::ostream* os) {
    *os << a.kernel << " for " << a.arch;
}

class LessonCompiles : public testing::TestWithParam<LessonArch> {};

// Each lesson file, with every kernel the nvcc build instantiates, for the oldest architecture
// CUDA 13 builds for and for the H100's, with line info and a cubin.
TEST_P(LessonCompiles, WithNvrtc) {
    const KernelInfo* k = find_kernel(GetParam().kernel);
    ASSERT_NE(k, nullptr);
    Result<std::vector<std::string>> exprs = built_kernel_expressions(k->lesson_source());
    ASSERT_TRUE(exprs) << exprs.error().message;
    CompileRequest req;
    req.source = read_repo_file(k->lesson_source());
    req.source_name = k->lesson_source();
    req.arch = GetParam().arch;
    req.name_expressions = *exprs;
    Result<CompileResult> r = compile_source(req);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->ok) << r->log;
    EXPECT_FALSE(has_errors(r->diagnostics)) << format_diagnostics(r->diagnostics);
    EXPECT_FALSE(r->cubin.empty());
    EXPECT_NE(r->ptx.find(".target " + GetParam().arch), std::string::npos);
    ASSERT_EQ(r->kernels.size(), exprs->size());
    for (const CompiledKernel& c : r->kernels) {
        EXPECT_FALSE(c.lowered.empty()) << c.expression;
        EXPECT_NE(r->ptx.find(c.lowered), std::string::npos) << c.expression;
    }
    // No warnings either: a learner's edit starts from a clean slate.
    for (const Diagnostic& d : r->diagnostics)
        ADD_FAILURE() << "lesson file has a diagnostic: " << format_diagnostics({d});
}

INSTANTIATE_TEST_SUITE_P(Lessons, LessonCompiles, testing::ValuesIn(lesson_archs()),
                         [](const testing::TestParamInfo<LessonArch>& i) {
                             return i.param.kernel + "_" + i.param.arch;
                         });

TEST(LabCompile, EveryLessonButBestIsEditable) {
    int editable = 0;
    for (const KernelInfo& k : registry()) editable += k.lab_editable;
    EXPECT_GE(editable, 7);
    const KernelInfo* best = find_kernel("best");
    ASSERT_NE(best, nullptr);
    EXPECT_FALSE(best->lab_editable);
}

CompileResult compile_warp_edit(const std::string& source) {
    Result<std::vector<std::string>> exprs = built_kernel_expressions("kernels/warp_softmax.cu");
    EXPECT_TRUE(exprs);
    CompileRequest req;
    req.source = source;
    req.source_name = "kernels/warp_softmax.cu";
    req.arch = "sm_90";
    if (exprs) req.name_expressions = *exprs;
    Result<CompileResult> r = compile_source(req);
    EXPECT_TRUE(r) << (r ? "" : r.error().message);
    return r ? *r : CompileResult{};
}

TEST(LabCompile, SyntaxErrorIsReportedAtItsLine) {
    const std::string original = read_repo_file("kernels/warp_softmax.cu");
    const std::string good = "for (int k = 0; k < kVals; ++k) m = fmaxf(m, v[k]);";
    const std::string bad = "for (int k = 0; k < kVals; ++k) m = fmaxf(m, v[k];";
    const std::string edit = replace_once(original, good, bad);
    const int line = line_of(edit, bad);
    ASSERT_GT(line, 0);
    const CompileResult r = compile_warp_edit(edit);
    EXPECT_FALSE(r.ok);
    ASSERT_TRUE(has_errors(r.diagnostics)) << r.log;
    const Diagnostic& d = r.diagnostics.front();
    EXPECT_EQ(d.file, "kernels/warp_softmax.cu");
    EXPECT_EQ(d.line, line) << r.log;
    EXPECT_EQ(d.severity, "error");
    EXPECT_NE(d.message.find("expected a \")\""), std::string::npos) << d.message;
    // The caret points into the line, at the ';' that should have been ')'.
    EXPECT_GT(d.column, 1);
}

TEST(LabCompile, TypeErrorInATemplateIsReportedAtItsLine) {
    const std::string original = read_repo_file("kernels/warp_softmax.cu");
    const std::string good = "float s = 0.f;";
    const std::string bad = "const float* s = 0.f;";
    const std::string edit = replace_once(original, good, bad);
    const int line = line_of(edit, bad);
    ASSERT_GT(line, 0);
    const CompileResult r = compile_warp_edit(edit);
    EXPECT_FALSE(r.ok);
    std::vector<Diagnostic> here =
        diagnostics_for_line(r.diagnostics, "kernels/warp_softmax.cu", line);
    ASSERT_FALSE(here.empty()) << r.log;
    EXPECT_EQ(here.front().severity, "error");
    EXPECT_NE(here.front().message.find("float"), std::string::npos) << here.front().message;
    // Every error is on an edited line or a line that uses `s` (no error in a header).
    for (const Diagnostic& d : r.diagnostics) EXPECT_EQ(d.file, "kernels/warp_softmax.cu");
}

// The plan launches kernels by name: an edit that renames one says so, in the learner's terms.
TEST(LabCompile, RenamedKernelIsExplained) {
    std::string edit = read_repo_file("kernels/warp_softmax.cu");
    for (size_t at; (at = edit.find("warp_softmax_kernel")) != std::string::npos;)
        edit.replace(at, 19, "my_kernel");
    const CompileResult r = compile_warp_edit(edit);
    EXPECT_FALSE(r.ok);
    ASSERT_EQ(r.diagnostics.size(), 1u) << format_diagnostics(r.diagnostics);
    EXPECT_EQ(r.diagnostics[0].file, "kernels/warp_softmax.cu");
    EXPECT_NE(r.diagnostics[0].message.find("keep the original kernels' names"), std::string::npos);
}

// The edits the GPU checks make (tests/data/lab/edits.json) apply and compile here first, so a
// device run never fails on a typo in a recipe.
TEST(LabCompile, DeviceCheckEditsCompile) {
    for (const char* name : {"strided", "fault", "loop", "launch_refused"}) {
        const labtest::EditRecipe e = labtest::edit_recipe(name);
        const KernelInfo* k = find_kernel(e.kernel);
        ASSERT_NE(k, nullptr);
        EXPECT_NE(e.source, read_repo_file(k->lesson_source())) << name;
        LabJob job = make_job(e.kernel, k->lesson_source(), e.source);
        const LabResult r = compile_job(job, "sm_90");
        EXPECT_EQ(r.status, status::kOk) << name << ":\n" << format_diagnostics(r.diagnostics);
        if (e.spec.contains("edit_line"))
            EXPECT_GT(line_of(e.source, e.spec.at("edit_line").get<std::string>()), 0) << name;
    }
}

TEST(LabCompile, UnknownArchitectureIsAnErrorWithAHint) {
    CompileRequest req;
    req.source = "__global__ void k() {}";
    req.arch = "hopper";
    Result<CompileResult> r = compile_source(req);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().hint.find("sm_"), std::string::npos);
}

TEST(LabCompile, ComputeTargetGivesPtxOnly) {
    CompileRequest req;
    req.source = "__global__ void k(float* p) { p[threadIdx.x] = -INFINITY; }";
    req.arch = "compute_90";
    req.name_expressions = {"k"};
    Result<CompileResult> r = compile_source(req);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->ok) << r->log;
    EXPECT_TRUE(r->cubin.empty());
    EXPECT_NE(r->ptx.find(".entry"), std::string::npos);
}

}  // namespace
}  // namespace sml::lab
