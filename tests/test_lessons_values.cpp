// Lessons that speak of the GPU on screen (issue 20) and lessons that match their data (issue 22):
// the {{device:...}} values, claims that need clusters, the claim quantities the cliff and bank
// conflict explanations rest on, predict-mode scoring, and the lesson texts themselves (no typed
// H100 facts, step 8 a lesson and not a log).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/lessons/lesson_check.h"
#include "core/lessons/lesson_claims.h"
#include "core/lessons/lesson_model.h"
#include "core/lessons/lesson_values.h"
#include "kernels/registry.h"

namespace sml {
namespace {

const std::string kRecorded = std::string(SML_SOURCE_DIR) + "/assets/sessions/h100-2026-11-23.json";

Session recorded() {
    Result<Session> s = load_session(kRecorded);
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
    return s.ok() ? std::move(*s) : Session{};
}

// The recorded session as if it had been measured on an RTX 4090: what a learner's live session
// on a pre-Hopper-cluster GPU looks like to the lesson renderer.
Session on_an_rtx4090() {
    Session s = recorded();
    s.device.name = "NVIDIA GeForce RTX 4090";
    s.device.cc_major = 8;
    s.device.cc_minor = 9;
    s.device.sm_count = 128;
    s.device.l2_bytes = 72LL << 20;
    s.device.smem_per_block_optin = 101376;
    s.device.copy_gbps = 910;
    return s;
}

LessonBook book(const std::string& lang) {
    Result<LessonBook> b = load_lessons(default_lessons_root(), lang);
    EXPECT_TRUE(b.ok()) << (b.ok() ? "" : b.error().message);
    return b.ok() ? std::move(*b) : LessonBook{};
}

const LessonStep& step(const LessonBook& b, const std::string& id) {
    for (const LessonStep& s : b.steps)
        if (s.id == id) return s;
    ADD_FAILURE() << "no step " << id;
    static LessonStep none;
    return none;
}

double value(const LessonStep& s, const std::string& claim_id, const Session& session) {
    const LessonClaim* c = s.find_claim(claim_id);
    EXPECT_NE(c, nullptr) << claim_id;
    if (!c) return NAN;
    Result<double> v = evaluate_claim(*c, session);
    EXPECT_TRUE(v.ok()) << claim_id << ": " << (v.ok() ? "" : v.error().message);
    return v.ok() ? *v : NAN;
}

// [SECTION] GPU values in the text ---------------------------------------------------------------

TEST(LessonValues, ReadTheRecordedH100) {
    const Session s = recorded();
    EXPECT_EQ(lesson_value_text("device:sms", &s), "132");
    EXPECT_EQ(lesson_value_text("device:l2", &s), "50 MiB");
    EXPECT_EQ(lesson_value_text("device:regs_per_sm", &s), "65536");
    EXPECT_EQ(lesson_value_text("device:smem_optin", &s), "227 KiB");
    EXPECT_EQ(lesson_value_text("device:cc", &s), "9.0");
    EXPECT_EQ(lesson_value_text("session:copy", &s), "3034 GB/s");
    EXPECT_EQ(lesson_value_text("limit:smem", &s), "57984");
    EXPECT_EQ(lesson_value_text("limit:fused", &s), "16384");
    // No session: the H100 reference, the same numbers.
    EXPECT_EQ(lesson_value_text("device:sms", nullptr), "132");
    EXPECT_EQ(lesson_value_text("limit:smem", nullptr), "57984");
    EXPECT_EQ(lesson_value_text("device:nope", &s), "");
    EXPECT_FALSE(is_lesson_value_ref("limit:kernel9"));
    EXPECT_FALSE(is_lesson_value_ref("claim:x"));
}

TEST(LessonValues, AnotherGpuQuotesItsOwnNumbers) {
    const Session s = on_an_rtx4090();
    EXPECT_EQ(lesson_value_text("device:sms", &s), "128");
    EXPECT_EQ(lesson_value_text("device:l2", &s), "72 MiB");
    EXPECT_EQ(lesson_value_text("device:smem_optin", &s), "99 KiB");
    EXPECT_EQ(lesson_value_text("session:copy", &s), "910 GB/s");
    EXPECT_EQ(lesson_value_text("limit:smem", &s), std::to_string((101376 - 512) / 4));
    // The lesson text filled from it: no H100 number left where a value was asked for.
    const LessonBook en = book("en");
    const std::string smem = fill_lesson_text(step(en, "smem").text.body, step(en, "smem"), &s);
    EXPECT_NE(smem.find("N <= 25216 fp32 values on this GPU"), std::string::npos);
    EXPECT_EQ(smem.find("57984"), std::string::npos);
    const std::string fused = fill_lesson_text(step(en, "fused").text.body, step(en, "fused"), &s);
    EXPECT_NE(fused.find("128 SMs"), std::string::npos);
}

TEST(LessonValues, ParserAcceptsValuesAndRejectsUnknownOnes) {
    Result<LessonText> t =
        parse_lesson_text("# T\n{{device:sms}} and {{limit:smem}}\n:::answer\na\n:::\n", "x.md");
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t->value_refs, (std::vector<std::string>{"device:sms", "limit:smem"}));
    t = parse_lesson_text("# T\n{{device:tflops}}\n:::answer\na\n:::\n", "x.md");
    ASSERT_FALSE(t.ok());
    EXPECT_NE(t.error().message.find("unknown placeholder '{{device:tflops}}'"), std::string::npos);
    EXPECT_NE(t.error().hint.find("device:sms"), std::string::npos);
}

// [SECTION] Claims that only hold on Hopper
// ---------------------------------------------------------

TEST(LessonValues, ClusterClaimsSayNotOnThisGpuElsewhere) {
    const LessonBook en = book("en"), zh = book("zh");
    const LessonStep& best = step(en, "best");
    const LessonClaim* c = best.find_claim("best-pct-128k");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->requires_feature, "clusters");
    const Session h100 = recorded(), ada = on_an_rtx4090();
    EXPECT_TRUE(claim_applies(*c, &h100));
    EXPECT_TRUE(claim_applies(*c, nullptr));  // no session: the H100 the lessons describe
    EXPECT_FALSE(claim_applies(*c, &ada));
    LessonFill fill;
    fill.session = &ada;
    EXPECT_EQ(claim_text(*c, fill), "(not on this GPU)");
    fill.lang = "zh";
    EXPECT_EQ(claim_text(*c, fill), "（此 GPU 上没有）");
    // And the verdict check leaves it alone instead of calling it wrong.
    for (const std::string& p : check_step_claims(best, ada))
        EXPECT_EQ(p.find("best-pct-128k"), std::string::npos) << p;
    const std::string text = fill_lesson_text(best.text.body, best, &ada);
    EXPECT_NE(text.find("on clusters, (not on this GPU) at N = 131072"), std::string::npos);
    (void)zh;
}

TEST(LessonValues, AValueOutsideThePromiseSaysWhatWasPromised) {
    Session s = recorded();
    const LessonBook en = book("en");
    const LessonStep& fused = step(en, "fused");
    for (PointRecord& p : s.points)
        if (p.kernel == "fused" && p.cols == 8193) p.pct_of_copy = 97;
    LessonFill fill;
    fill.session = &s;
    EXPECT_EQ(claim_text(*fused.find_claim("fused-pct-8193"), fill),
              "97% (the lesson expects 60-88%)");
    fill.hide_claims = true;  // predict mode before the guess
    EXPECT_EQ(claim_text(*fused.find_claim("fused-pct-8193"), fill), kHiddenClaimText);
}

// [SECTION] The claims the corrected lessons rest on ---------------------------------------------

// Step 2: the cliff at 8193 is not occupancy. 12288 has the same registers and blocks per SM and
// runs far faster; what differs is the masked share of the padded block (and alignment, which
// block and online, with no padding, pay too).
TEST(CorrectedLessons, FusedCliffIsNotOccupancy) {
    const Session s = recorded();
    const LessonBook en = book("en");
    const LessonStep& f = step(en, "fused");
    EXPECT_EQ(value(f, "fused-regs-8193", s), value(f, "fused-regs-12288", s));
    EXPECT_EQ(value(f, "fused-blocks-8193", s), value(f, "fused-blocks-12288", s));
    EXPECT_GT(value(f, "fused-regs-8193", s), value(f, "fused-regs-8192", s));
    EXPECT_LT(value(f, "fused-blocks-8193", s), value(f, "fused-blocks-8192", s));
    EXPECT_GT(value(f, "fused-pct-12288", s), value(f, "fused-pct-8193", s) + 10);
    EXPECT_NEAR(value(f, "fused-masked-8193", s), 8191.0 / 16384, 1e-12);
    EXPECT_NEAR(value(f, "fused-masked-12288", s), 0.25, 1e-12);
    EXPECT_LT(value(f, "block-odd-8193", s), 1.0);  // no padding, still slower at odd N
    EXPECT_LT(value(f, "online-odd-8193", s), 1.0);
}

// Step 1: the 16 MB case only moves fewer DRAM bytes; it is not faster.
TEST(CorrectedLessons, NaiveAtSixteenMegabytesIsNotFaster) {
    const Session s = recorded();
    const LessonBook en = book("en");
    const LessonStep& n = step(en, "naive");
    EXPECT_LT(value(n, "naive-dram-l2", s), 0.6);
    EXPECT_LT(value(n, "naive-gbps-l2", s), 1.15 * value(n, "naive-gbps-big", s));
    EXPECT_NEAR(value(n, "naive-vs-fused-dram", s), 4.0, 0.5);
    // The experiment's second run (M = 262144, N = 1024) is where its claims are measured.
    EXPECT_EQ(n.find_claim("naive-pct")->cols, n.experiment.cols);
    EXPECT_EQ(n.find_claim("naive-pct")->rows, 262144);
}

// Step 5: the table's column is loads + stores; 3 of 4 passes are conflicts with the mirrored
// layout; the conflict-free layout's residue is a small share; and the cost in bandwidth is small.
TEST(CorrectedLessons, BankConflictsAreLoadsPlusStoresAndCostLittle) {
    const Session s = recorded();
    const LessonBook en = book("en");
    const LessonStep& m = step(en, "smem");
    const PointRecord* bad = s.find("smem", 32768, "fp32", "bank-conflicted");
    ASSERT_NE(bad, nullptr);
    const double ld = *bad->metrics.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
    const double st = *bad->metrics.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum");
    EXPECT_DOUBLE_EQ(value(m, "smem-conflicts-bad", s), ld + st);
    EXPECT_NEAR(value(m, "smem-share-bad", s), 0.75, 0.05);
    EXPECT_LT(value(m, "smem-share-4k", s), 0.1);
    EXPECT_GT(value(m, "smem-conflicts-4k", s), 1e5);
    EXPECT_LT(value(m, "smem-conflict-cost", s), 1.25);
    EXPECT_EQ(m.experiment.metric, "bank_conflicts");
}

// Step 7: just past warp's range fused, not block, is the fastest teaching kernel.
TEST(CorrectedLessons, FusedWinsJustPastWarp) {
    const Session s = recorded();
    const LessonBook en = book("en");
    const LessonStep& t = step(en, "together");
    EXPECT_EQ(value(t, "fused-wins-1025", s), 1);
    EXPECT_GT(value(t, "fused-pct-1025", s), value(t, "block-pct-1025", s));
}

// Step 6: the odd-N dip is explained and measured.
TEST(CorrectedLessons, OnlineDipsAtOddN) {
    const Session s = recorded();
    const LessonBook en = book("en");
    const LessonStep& o = step(en, "online");
    EXPECT_LT(value(o, "online-dip-1025", s), 0.75);
    EXPECT_GT(value(o, "online-dram-100003", s), 1.05);
}

// [SECTION] The texts ----------------------------------------------------------------------------

// What a lesson may not type: facts of the H100 that differ on the learner's GPU. They are
// {{device:...}}, {{session:...}} or {{limit:...}} values instead.
TEST(LessonTexts, TypeNoH100Facts) {
    const char* const typed[] = {"132 SM",    "132 个 SM",       "50 MB",          "50 MiB",
                                 "227 KB",    "228 KB",          "227 KiB",        "57984",
                                 "3034",      "65536 registers", "65536 个寄存器", "on an H100",
                                 "this H100", "这台 H100"};
    for (const std::string lang : lesson_languages())
        for (const LessonStep& s : book(lang).steps)
            for (const std::string* text : {&s.text.body, &s.text.answer})
                for (const char* t : typed)
                    EXPECT_EQ(text->find(t), std::string::npos)
                        << s.text.path << " types \"" << t << "\": use a {{device:...}} value";
}

// Step 8 is a lesson, not an engineering log: at most 1.5x the median step's length.
TEST(LessonTexts, BestIsNoLongerThanOneAndAHalfMedianSteps) {
    for (const std::string lang : lesson_languages()) {
        const LessonBook b = book(lang);
        std::vector<size_t> sizes;
        for (const LessonStep& s : b.steps) sizes.push_back(s.text.body.size());
        std::vector<size_t> sorted = sizes;
        std::sort(sorted.begin(), sorted.end());
        const double median = static_cast<double>(sorted[sorted.size() / 2]);
        EXPECT_LE(static_cast<double>(step(b, "best").text.body.size()), 1.5 * median)
            << lang << ": step 8 has " << step(b, "best").text.body.size()
            << " bytes, the median step " << median;
    }
}

TEST(LessonTexts, PredictQuestionsInBothLanguagesAskForTheSameClaims) {
    const LessonBook en = book("en"), zh = book("zh");
    ASSERT_EQ(en.steps.size(), zh.steps.size());
    for (size_t i = 0; i < en.steps.size(); ++i) {
        ASSERT_EQ(en.steps[i].questions.size(), zh.steps[i].questions.size());
        for (size_t q = 0; q < en.steps[i].questions.size(); ++q) {
            EXPECT_EQ(en.steps[i].questions[q].claim, zh.steps[i].questions[q].claim);
            EXPECT_NE(en.steps[i].questions[q].question, zh.steps[i].questions[q].question);
        }
    }
}

// [SECTION] Predict mode's scoring ---------------------------------------------------------------

TEST(GuessScore, PercentInPointsEverythingElseByRatio) {
    LessonClaim pct;
    pct.quantity = "pct_of_copy";
    GuessScore g = score_guess(pct, 80, 79.4);
    EXPECT_EQ(g.grade, GuessScore::Grade::spot_on);
    EXPECT_TRUE(g.in_points);
    EXPECT_NEAR(g.off, 0.6, 1e-9);
    EXPECT_EQ(score_guess(pct, 90, 79.4).grade, GuessScore::Grade::close);
    EXPECT_EQ(score_guess(pct, 50, 79.4).grade, GuessScore::Grade::far);
    EXPECT_EQ(guess_score_text(score_guess(pct, 90, 79.4), "en"), "close (11 points off)");

    LessonClaim ratio;
    ratio.quantity = "ratio_gbps";
    EXPECT_EQ(score_guess(ratio, 4, 4.03).grade, GuessScore::Grade::spot_on);
    g = score_guess(ratio, 2, 7.96);
    EXPECT_EQ(g.grade, GuessScore::Grade::far);
    EXPECT_NEAR(g.off, 3.98, 1e-9);
    EXPECT_EQ(guess_score_text(g, "en"), "far off (3.98x off)");
    EXPECT_EQ(guess_score_text(g, "zh"), "差得较远（相差 3.98 倍）");
    // A count guessed from above or below scores the same.
    LessonClaim count;
    count.quantity = "bank_conflicts";
    EXPECT_DOUBLE_EQ(score_guess(count, 2e8, 1e8).off, score_guess(count, 5e7, 1e8).off);
    EXPECT_EQ(score_guess(count, 0, 0).grade, GuessScore::Grade::spot_on);
    EXPECT_EQ(score_guess(count, 0, 5).grade, GuessScore::Grade::far);
    LessonClaim share;
    share.quantity = "conflict_share";
    EXPECT_TRUE(score_guess(share, 0.7, 0.75).in_points);
}

}  // namespace
}  // namespace sml
