// The shipped lessons (lessons/) against the rest of the tree: every kernel they name exists,
// every anchor resolves in today's kernel sources (and PTX, when this build generated it), every
// experiment is runnable, and English and Chinese tell the same lesson.
// The measured claims are checked against the recorded session in test_lessons_claims.cpp.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/lessons/annotated_source.h"
#include "core/lessons/lesson_check.h"
#include "core/lessons/lesson_claims.h"
#include "core/lessons/lesson_model.h"
#include "kernels/registry.h"

namespace sml {
namespace {

std::string join_lines(const std::vector<std::string>& problems) {
    std::string s;
    for (const std::string& p : problems) s += "\n  " + p;
    return s;
}

// Steps whose kernels have all landed. A draft step (step 8 while `best` is being written) may
// name a kernel that is not in the registry yet; those are reported by DraftStepsAreReady.
bool kernels_landed(const LessonStep& s) {
    return check_step_kernels(s).empty();
}

class Lessons : public ::testing::TestWithParam<std::string> {
  protected:
    void SetUp() override {
        Result<LessonBook> b = load_lessons(default_lessons_root(), GetParam());
        ASSERT_TRUE(b.ok()) << b.error().message << "\nhint: " << b.error().hint;
        book_ = std::move(*b);
    }
    LessonBook book_;
};

TEST_P(Lessons, LoadAllStepsInOrderWithTitlesAndSections) {
    // The steps as designed: the memory-bound intro, one step per idea, the summary, best.
    const std::vector<std::string> ids = {"memory-bound", "naive",  "fused",    "warp", "block",
                                          "smem",         "online", "together", "best"};
    ASSERT_EQ(book_.steps.size(), ids.size());
    for (size_t i = 0; i < ids.size(); ++i) {
        const LessonStep& s = book_.steps[i];
        EXPECT_EQ(s.id, ids[i]);
        EXPECT_EQ(s.index, static_cast<int>(i));
        EXPECT_FALSE(s.text.title.empty());
        // The idea; traffic arithmetic; read the code; experiment; what you should see; check.
        EXPECT_EQ(s.text.sections.size(), 6u)
            << s.text.path << " has sections: " << join_lines(s.text.sections);
        EXPECT_GT(s.text.body.size(), 1000u) << s.text.path << " is too short to teach anything";
    }
}

TEST_P(Lessons, TextAndIndexAgree) {
    for (const LessonStep& s : book_.steps)
        EXPECT_TRUE(check_step_text(s).empty()) << join_lines(check_step_text(s));
}

TEST_P(Lessons, EveryStepAsksForAPrediction) {
    for (const LessonStep& s : book_.steps)
        EXPECT_TRUE(check_step_predict(s).empty()) << join_lines(check_step_predict(s));
}

TEST_P(Lessons, WhatYouShouldSeeTypesNoMeasuredNumber) {
    for (const LessonStep& s : book_.steps)
        EXPECT_TRUE(check_step_numbers(s).empty()) << join_lines(check_step_numbers(s));
}

TEST_P(Lessons, EveryStepPointsAtCodeAndPromisesNumbers) {
    for (const LessonStep& s : book_.steps) {
        EXPECT_GE(s.anchors.size(), 2u) << "step " << s.id << " must point at code";
        if (s.index > 0) EXPECT_GE(s.claims.size(), 1u) << "step " << s.id << " promises nothing";
        // The promised numbers come from claims: no measured number is typed into the text.
        EXPECT_GE(s.text.claim_refs.size(), s.claims.size());
    }
}

INSTANTIATE_TEST_SUITE_P(EnglishAndChinese, Lessons, ::testing::Values("en", "zh"),
                         [](const auto& info) { return info.param; });

LessonBook load_or_die(const std::string& lang) {
    Result<LessonBook> b = load_lessons(default_lessons_root(), lang);
    EXPECT_TRUE(b.ok()) << b.error().message;
    return b.ok() ? std::move(*b) : LessonBook{};
}

TEST(LessonsMatchRegistry, TeachingStepsNameKernelsThatExist) {
    const LessonBook book = load_or_die("en");
    ASSERT_FALSE(book.steps.empty());
    for (const LessonStep& s : book.steps) {
        if (s.draft) continue;
        EXPECT_TRUE(check_step_kernels(s).empty()) << join_lines(check_step_kernels(s));
    }
    // Every registry kernel up to step 6 is taught somewhere.
    for (const KernelInfo& k : registry()) {
        bool taught = false;
        for (const LessonStep& s : book.steps)
            for (const std::string& id : s.kernels) taught = taught || id == k.id;
        EXPECT_TRUE(taught) << "kernel " << k.id << " appears in no lesson";
    }
}

TEST(LessonsMatchRegistry, DraftStepsAreReady) {
    const LessonBook book = load_or_die("en");
    std::vector<std::string> waiting;
    for (const LessonStep& s : book.steps)
        if (s.draft && !kernels_landed(s))
            for (const std::string& p : check_step_kernels(s)) waiting.push_back(p);
    EXPECT_TRUE(waiting.empty()) << "a draft lesson waits for kernels not in the registry:"
                                 << join_lines(waiting);
    for (const LessonStep& s : book.steps)
        if (s.draft) EXPECT_TRUE(check_step_kernels(s).empty());
}

TEST(LessonsMatchSources, EveryRegionAnchorResolves) {
    const LessonBook book = load_or_die("en");
    int regions = 0;
    for (const LessonStep& s : book.steps) {
        if (!kernels_landed(s)) continue;  // DraftStepsAreReady reports these
        EXPECT_TRUE(check_step_anchors(s, SML_SOURCE_DIR, SML_BUILD_DIR, nullptr).empty())
            << join_lines(check_step_anchors(s, SML_SOURCE_DIR, SML_BUILD_DIR, nullptr));
        for (const LessonAnchor& a : s.anchors) regions += a.is_ptx() ? 0 : 1;
    }
    EXPECT_GT(regions, 20);
}

TEST(LessonsMatchSources, EveryKernelSourceParses) {
    // The viewer shows every kernel, not only the anchored ones: all markers must be well formed.
    size_t parsed = 0;
    for (const KernelInfo& k : registry())
        for (const char* path : k.sources) {
            Result<AnnotatedSource> src =
                load_annotated_source(std::string(SML_SOURCE_DIR) + "/" + path);
            EXPECT_TRUE(src.ok()) << src.error().message;
            ++parsed;
        }
    EXPECT_GE(parsed, registry().size());
}

#if SML_HAVE_CUDA  // the PTX is generated by nvcc
TEST(LessonsMatchSources, EveryPtxAnchorResolvesInThisBuild) {
    const LessonBook book = load_or_die("en");
    int checked = 0, declared = 0;
    std::vector<std::string> problems;
    for (const LessonStep& s : book.steps) {
        if (!kernels_landed(s)) continue;
        for (const LessonAnchor& a : s.anchors) declared += a.is_ptx() ? 1 : 0;
        for (const std::string& p : check_step_anchors(s, SML_SOURCE_DIR, SML_BUILD_DIR, &checked))
            problems.push_back(p);
    }
    EXPECT_TRUE(problems.empty()) << join_lines(problems);
    ASSERT_GT(declared, 0);
    EXPECT_EQ(checked, declared) << "PTX anchors unchecked: is build/ptx/ missing?";
}
#endif

TEST(LessonsMatchRegistry, ExperimentsAndClaimsLieInsideKernelRanges) {
    const LessonBook book = load_or_die("en");
    const DeviceLimits h100 = DeviceLimits::h100_reference();
    for (const LessonStep& s : book.steps) {
        if (!kernels_landed(s)) continue;
        EXPECT_TRUE(check_step_ranges(s, h100).empty()) << join_lines(check_step_ranges(s, h100));
        // One click must not ask for more than a 1 GiB input, the size the session records.
        const LessonExperiment& e = s.experiment;
        EXPECT_LE(e.rows * e.cols, int64_t(1) << 28) << "step " << s.id;
    }
}

// The text quotes each kernel's N limit, as a plain number where it is a fact of the code
// (warp, fused, block) or as {{limit:smem}} where it depends on the GPU's shared memory: filled
// from the recorded H100 session, each must read the registry's limit. If a kernel's range
// changes, the step that teaches the limit must change too.
TEST(LessonsMatchRegistry, QuotedLimitsAreTheRegistrysLimits) {
    const DeviceLimits h100 = DeviceLimits::h100_reference();
    Result<Session> recorded =
        load_session(std::string(SML_SOURCE_DIR) + "/assets/sessions/h100-2026-11-23.json");
    ASSERT_TRUE(recorded.ok()) << recorded.error().message;
    const struct {
        const char* step;
        const char* kernel;
    } quoted[] = {{"warp", "warp"}, {"fused", "fused"}, {"block", "block"}, {"smem", "smem"}};
    for (const std::string& lang : lesson_languages()) {
        const LessonBook book = load_or_die(lang);
        for (const auto& q : quoted) {
            const KernelInfo* k = find_kernel(q.kernel);
            ASSERT_NE(k, nullptr) << q.kernel;
            const std::string limit = std::to_string(k->max_cols(h100, DType::f32));
            const LessonStep* step = nullptr;
            for (const LessonStep& s : book.steps)
                if (s.id == q.step) step = &s;
            ASSERT_NE(step, nullptr) << q.step;
            const std::string filled = fill_lesson_text(step->text.body, *step, &*recorded);
            EXPECT_NE(filled.find(limit), std::string::npos)
                << step->text.path << " should quote " << q.kernel << "'s limit N = " << limit
                << " (registry: " << k->limit_reason << ")";
        }
    }
}

TEST(LessonLanguages, ChineseTellsTheSameLessonAsEnglish) {
    const LessonBook en = load_or_die("en"), zh = load_or_die("zh");
    EXPECT_TRUE(check_same_structure(en, zh).empty()) << join_lines(check_same_structure(en, zh));
    for (size_t i = 0; i < std::min(en.steps.size(), zh.steps.size()); ++i) {
        // The structure comes from one lessons.json, so the experiments are identical by
        // construction; the text must differ (a translation, not a copy).
        EXPECT_EQ(en.steps[i].experiment.cols, zh.steps[i].experiment.cols);
        EXPECT_NE(en.steps[i].text.title, zh.steps[i].text.title) << "step " << i;
        EXPECT_NE(en.steps[i].text.answer, zh.steps[i].text.answer) << "step " << i;
    }
}

TEST(LessonLanguages, EveryLanguageHasAFolderAndNoStrayFiles) {
    const LessonBook en = load_or_die("en");
    for (const std::string& lang : lesson_languages()) {
        size_t md_files = 0;
        for (const auto& f :
             std::filesystem::directory_iterator(default_lessons_root() + "/" + lang))
            md_files += f.path().extension() == ".md" ? 1 : 0;
        // A file left behind after renaming a step would silently never be shown.
        EXPECT_EQ(md_files, en.steps.size()) << "lessons/" << lang;
    }
}

// Decodes the UTF-8 code point starting at s[i] (no validation: the files are ours).
char32_t code_point_at(const std::string& s, size_t i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80 || i + 2 >= s.size()) return c;
    if ((c & 0xF0) == 0xE0)
        return ((c & 0x0F) << 12) | ((s[i + 1] & 0x3F) << 6) | (s[i + 2] & 0x3F);
    return c;  // 2- and 4-byte sequences are not CJK ideographs or CJK punctuation
}

bool is_cjk(char32_t c) {
    return (c >= 0x3000 && c <= 0x9FFF) || (c >= 0xFF00 && c <= 0xFFEF);
}

// Markdown renders a line break inside a paragraph as a space; between two CJK characters that
// space is a visible typo. So Chinese paragraphs are written as one line.
TEST(LessonLanguages, ChineseParagraphsHaveNoSoftBreaksBetweenCjkCharacters) {
    const LessonBook zh = load_or_die("zh");
    for (const LessonStep& s : zh.steps) {
        for (const std::string* text : {&s.text.body, &s.text.answer}) {
            size_t pos = 0;
            while ((pos = text->find('\n', pos)) != std::string::npos) {
                if (pos >= 3 && pos + 1 < text->size() && is_cjk(code_point_at(*text, pos - 3)) &&
                    is_cjk(code_point_at(*text, pos + 1)))
                    ADD_FAILURE() << s.text.path << ": a line ends and the next begins with CJK "
                                  << "text inside one paragraph: "
                                  << text->substr(pos >= 30 ? pos - 30 : 0, 60);
                ++pos;
            }
        }
    }
}

TEST(LessonsLoader, ErrorsNameTheProblem) {
    Result<LessonBook> b = load_lessons(default_lessons_root(), "fr");
    ASSERT_FALSE(b.ok());
    EXPECT_NE(b.error().message.find("unknown lesson language 'fr'"), std::string::npos);
    b = load_lessons("/nonexistent/lessons", "en");
    ASSERT_FALSE(b.ok());
    EXPECT_NE(b.error().message.find("/nonexistent/lessons/lessons.json"), std::string::npos);
}

}  // namespace
}  // namespace sml
