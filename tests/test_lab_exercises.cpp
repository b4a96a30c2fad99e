// Exercises (core/lab/exercises.h): every step 1-6 has one; each exercise is its lesson's kernel
// file with one region stubbed, so putting the lesson's region back gives the lesson file;
// the unsolved exercise compiles (and is wrong until solved); a broken attempt shows its error
// at its line; and the checker's verdict on known-good and known-bad results.
#include <gtest/gtest.h>

#include <set>

#include "core/lab/compile.h"
#include "core/lab/exercises.h"
#include "core/lessons/annotated_source.h"
#include "kernels/registry.h"
#include "lab_test_util.h"

namespace sml::lab {
namespace {

using labtest::line_of;
using labtest::read_repo_file;

std::vector<Exercise> all() {
    Result<std::vector<Exercise>> e = load_exercises();
    EXPECT_TRUE(e) << (e ? "" : e.error().message);
    return e ? *e : std::vector<Exercise>{};
}

// The exercise's leading "// EXERCISE ..." block, up to its closing "//" line.
std::string strip_header(const std::string& text) {
    if (text.rfind("// EXERCISE", 0) != 0) return text;
    const size_t end = text.find("\n//\n");
    return end == std::string::npos ? text : text.substr(end + 4);
}

TEST(LabExercises, EveryStepOneToSixHasOne) {
    std::set<int> steps;
    for (const Exercise& e : all()) {
        steps.insert(e.step);
        EXPECT_GE(e.hints.size(), 2u) << e.id;
        EXPECT_LE(e.hints.size(), 3u) << e.id;
        EXPECT_FALSE(e.task.empty()) << e.id;
        // The Chinese lab bench shows the exercise in Chinese: every one has its words there.
        const ExerciseWords zh = e.words("zh");
        EXPECT_NE(zh.title, e.title) << e.id;
        EXPECT_NE(zh.task, e.task) << e.id;
        ASSERT_EQ(zh.hints.size(), e.hints.size()) << e.id;
        EXPECT_EQ(e.words("en").title, e.title);
        EXPECT_EQ(e.words("en").hints, e.hints);
        for (const ExerciseShape& s : e.shapes) {
            // Odd shapes, all inside the kernel's range on the H100 reference.
            const KernelInfo* k = find_kernel(e.kernel);
            ASSERT_NE(k, nullptr);
            EXPECT_TRUE(check_problem(*k, SoftmaxProblem::contiguous(s.rows, s.cols),
                                      DeviceLimits::h100_reference()))
                << e.id << " " << s.rows << "x" << s.cols;
        }
        EXPECT_GT(e.min_pct_of_copy, 0);
        EXPECT_LE(e.min_pct_of_copy, 70) << e.id << ": keep the bar conservative";
    }
    for (int s = 1; s <= 6; ++s) EXPECT_TRUE(steps.count(s)) << "step " << s;
}

// The solution is the lesson's kernel file; the exercise is that file with one region's body
// replaced by the stub, after a header: putting the lesson's region back gives the lesson file.
TEST(LabExercises, ExerciseIsTheLessonFileWithOneRegionStubbed) {
    int checked = 0;
    for (const Exercise& e : all()) {
        const KernelInfo* k = find_kernel(e.kernel);
        ASSERT_NE(k, nullptr);
        const std::string lesson = read_repo_file(k->lesson_source());
        Result<std::string> solved = solved_exercise(e);
        ASSERT_TRUE(solved) << solved.error().message;
        EXPECT_EQ(*solved, lesson) << e.id;
        Result<std::string> exercise = exercise_text(e);
        ASSERT_TRUE(exercise) << exercise.error().message;
        EXPECT_NE(exercise->find("// EXERCISE (" + e.id + ")"), std::string::npos) << e.id;
        EXPECT_NE(exercise->find("TODO(exercise)"), std::string::npos) << e.id;
        Result<std::string> lesson_body = region_body(lesson, e.region, k->lesson_source());
        ASSERT_TRUE(lesson_body) << lesson_body.error().message;
        EXPECT_NE(*lesson_body, e.stub) << e.id << ": the stub must leave something to write";
        Result<std::string> back = replace_region(*exercise, e.region, *lesson_body, e.id);
        ASSERT_TRUE(back) << back.error().message;
        EXPECT_EQ(strip_header(*back), lesson) << e.id;
        ++checked;
    }
    EXPECT_EQ(checked, int(all().size()));
}

LabResult compile_exercise(const Exercise& e, const std::string& source) {
    const KernelInfo* k = find_kernel(e.kernel);
    LabJob j = make_job(e.kernel, k->lesson_source(), source);
    return compile_job(j, "sm_90");
}

TEST(LabExercises, UnsolvedAndSolvedBothCompile) {
    for (const Exercise& e : all()) {
        Result<std::string> exercise = exercise_text(e);
        ASSERT_TRUE(exercise) << exercise.error().message;
        const LabResult unsolved = compile_exercise(e, *exercise);
        EXPECT_EQ(unsolved.status, status::kOk) << e.id << ":\n"
                                                << format_diagnostics(unsolved.diagnostics);
        Result<std::string> solved = solved_exercise(e);
        ASSERT_TRUE(solved);
        const LabResult good = compile_exercise(e, *solved);
        EXPECT_EQ(good.status, status::kOk) << e.id << ":\n"
                                            << format_diagnostics(good.diagnostics);
        EXPECT_FALSE(good.ptx.empty());
    }
}

// A broken attempt: its error is on the line the learner wrote, inside the region.
TEST(LabExercises, BrokenAttemptShowsItsErrorInTheRegion) {
    for (const Exercise& e : all()) {
        Result<std::string> exercise = exercise_text(e);
        ASSERT_TRUE(exercise) << exercise.error().message;
        const std::string bad = "    int attempt = \"not a number\";  // a broken attempt\n";
        Result<std::string> attempt = replace_region(*exercise, e.region, bad + e.stub, e.id);
        ASSERT_TRUE(attempt) << attempt.error().message;
        const int line = line_of(*attempt, "int attempt =");
        const LabResult r = compile_exercise(e, *attempt);
        EXPECT_EQ(r.status, status::kCompileError) << e.id;
        ASSERT_TRUE(has_errors(r.diagnostics)) << e.id;
        bool at_line = false;
        for (const Diagnostic& d : r.diagnostics)
            at_line = at_line || (d.line == line && d.severity == "error");
        EXPECT_TRUE(at_line) << e.id << " expected an error at line " << line << ":\n"
                             << format_diagnostics(r.diagnostics);
    }
}

LabResult result(const char* st, double pct = 0) {
    return labtest::lab_result(st, st, pct > 0 ? pct : -1);
}

// The checker's verdict: a known-good run passes; a wrong shape, a slow run, a compile error or
// no GPU do not, and each says why.
TEST(LabExercises, VerdictOnGoodAndBadRuns) {
    const std::vector<Exercise> ex = all();
    ASSERT_FALSE(ex.empty());
    const Exercise& e = *find_exercise(ex, "warp-reduce");
    std::vector<LabResult> ok(e.shapes.size(), result(status::kOk));
    ExerciseVerdict v = evaluate_exercise(e, ok, result(status::kOk, e.min_pct_of_copy + 20));
    EXPECT_TRUE(v.passed) << v.summary;
    EXPECT_EQ(v.checks.size(), e.shapes.size() + 1);

    std::vector<LabResult> one_wrong = ok;
    one_wrong[1] = result(status::kWrong);
    v = evaluate_exercise(e, {one_wrong.begin(), one_wrong.begin() + 2}, std::nullopt);
    EXPECT_FALSE(v.passed);
    EXPECT_NE(
        v.summary.find(std::to_string(e.shapes[1].rows) + " x " + std::to_string(e.shapes[1].cols)),
        std::string::npos)
        << v.summary;

    v = evaluate_exercise(e, ok, result(status::kOk, e.min_pct_of_copy - 1));
    EXPECT_FALSE(v.passed);
    EXPECT_NE(v.summary.find("speed"), std::string::npos) << v.summary;

    LabResult broken = result(status::kCompileError);
    broken.diagnostics.push_back(Diagnostic{"kernels/warp_softmax.cu", 40, 5, "error", "x"});
    v = evaluate_exercise(e, {broken}, std::nullopt);
    EXPECT_FALSE(v.passed);
    EXPECT_FALSE(v.ran);
    EXPECT_EQ(v.diagnostics.size(), 1u);

    v = evaluate_exercise(e, {result(status::kNoGpu)}, std::nullopt);
    EXPECT_FALSE(v.passed);
    EXPECT_NE(v.summary.find("needs a GPU"), std::string::npos);
}

TEST(LabExercises, JobsCheckEveryShapeThenSpeed) {
    const std::vector<Exercise> ex = all();
    const Exercise& e = *find_exercise(ex, "online-merge");
    const std::vector<LabJob> jobs = exercise_jobs(e, "src");
    ASSERT_EQ(jobs.size(), e.shapes.size() + 1);
    for (size_t i = 0; i < e.shapes.size(); ++i) {
        EXPECT_EQ(jobs[i].mode, "check");
        EXPECT_EQ(jobs[i].rows, e.shapes[i].rows);
        EXPECT_EQ(jobs[i].source, "src");
    }
    EXPECT_EQ(jobs.back().mode, "measure");
    EXPECT_EQ(jobs.back().cols, e.speed.cols);
}

}  // namespace
}  // namespace sml::lab
