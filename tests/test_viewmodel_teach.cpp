// The teaching loop's view model, with no window (issue 22): predict mode, what entering a step
// sets, the step's chart preset (series, N and N+1, marks, legend clicks, withheld lines), the
// palette's contrast, the layout on a projector, the key table and the Chinese UI words.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "app/viewer/model/chart_view.h"
#include "app/viewer/model/contrast.h"
#include "app/viewer/model/key_bindings.h"
#include "app/viewer/model/panel_layout.h"
#include "app/viewer/model/predict.h"
#include "app/viewer/model/settings.h"
#include "app/viewer/model/step_view.h"
#include "app/viewer/model/ui_text.h"
#include "app/viewer/model/viewer_args.h"
#include "core/chart/chart_build.h"
#include "core/chart/chart_kinds.h"
#include "core/lessons/lesson_claims.h"
#include "core/lessons/lesson_model.h"
#include "kernels/registry.h"

namespace sml::viewer {
namespace {

Session recorded() {
    Result<Session> s =
        load_session(std::string(SML_SOURCE_DIR) + "/assets/sessions/h100-2026-11-23.json");
    EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
    return s.ok() ? std::move(*s) : Session{};
}

LessonBook book(const std::string& lang = "en") {
    Result<LessonBook> b = load_lessons(default_lessons_root(), lang);
    EXPECT_TRUE(b.ok()) << (b.ok() ? "" : b.error().message);
    return b.ok() ? std::move(*b) : LessonBook{};
}

int index_of(const LessonBook& b, const std::string& id) {
    for (const LessonStep& s : b.steps)
        if (s.id == id) return s.index;
    ADD_FAILURE() << "no step " << id;
    return 0;
}

// [SECTION] Predict mode --------------------------------------------------------------------------

TEST(Predict, ParsesGuessesAsLearnersTypeThem) {
    LessonClaim ratio, pct, share, count;
    ratio.quantity = "ratio_gbps";
    pct.quantity = "pct_of_copy";
    share.quantity = "conflict_share";
    count.quantity = "bank_conflicts";
    EXPECT_DOUBLE_EQ(*parse_guess("4", ratio), 4);
    EXPECT_DOUBLE_EQ(*parse_guess(" 4.5x ", ratio), 4.5);
    EXPECT_DOUBLE_EQ(*parse_guess("3\xC3\x97", ratio), 3);  // 3×
    EXPECT_DOUBLE_EQ(*parse_guess("80%", pct), 80);
    EXPECT_DOUBLE_EQ(*parse_guess("80", pct), 80);
    EXPECT_DOUBLE_EQ(*parse_guess("75%", share), 0.75);
    EXPECT_DOUBLE_EQ(*parse_guess("75", share), 0.75);
    EXPECT_DOUBLE_EQ(*parse_guess("0.75", share), 0.75);
    EXPECT_DOUBLE_EQ(*parse_guess("1e8", count), 1e8);
    EXPECT_DOUBLE_EQ(*parse_guess("100M", count), 1e8);
    EXPECT_DOUBLE_EQ(*parse_guess("72.2k", count), 72200);
    for (const char* bad : {"", "  ", "four", "4 4", "0,5", "x", "%", "nan", "inf", "1e999"})
        EXPECT_FALSE(parse_guess(bad, ratio).ok()) << bad;
}

TEST(Predict, HidesTheStepsNumbersUntilEveryQuestionIsAnsweredOrRevealed) {
    const LessonBook b = book();
    const LessonStep& fused = b.steps[index_of(b, "fused")];
    ASSERT_EQ(fused.questions.size(), 2u);
    PredictState p;
    EXPECT_TRUE(p.hides_numbers(fused));
    EXPECT_EQ(p.next_question(fused), 0);
    EXPECT_FALSE(p.guess(fused, 0, "lots").ok());  // an error, nothing recorded
    EXPECT_EQ(p.next_question(fused), 0);
    ASSERT_TRUE(p.guess(fused, 0, "85%").ok());
    EXPECT_EQ(p.next_question(fused), 1);
    EXPECT_TRUE(p.hides_numbers(fused));  // one question still open
    ASSERT_TRUE(p.guess(fused, 1, "90").ok());
    EXPECT_FALSE(p.hides_numbers(fused));
    EXPECT_DOUBLE_EQ(*p.question(fused, 1).guess, 90);
    // Per step: the next step is still hidden.
    const LessonStep& warp = b.steps[index_of(b, "warp")];
    EXPECT_TRUE(p.hides_numbers(warp));
    p.reveal(warp);
    EXPECT_FALSE(p.hides_numbers(warp));
    EXPECT_FALSE(p.question(warp, 0).guess.has_value());
    // An instructor replays the step; or switches the mode off altogether.
    p.forget(fused);
    EXPECT_TRUE(p.hides_numbers(fused));
    p.enabled = false;
    EXPECT_FALSE(p.hides_numbers(fused));
}

TEST(Predict, TheAnswerIsReadFromTheSessionOnScreen) {
    const LessonBook b = book();
    const Session s = recorded();
    const LessonStep& naive = b.steps[index_of(b, "naive")];
    PredictState p;
    ASSERT_TRUE(p.guess(naive, 0, "3").ok());
    PredictAnswer a = predict_answer(naive, 0, p.question(naive, 0), &s, "en");
    EXPECT_TRUE(a.from_session);
    EXPECT_EQ(a.measured, "4.03x");
    EXPECT_EQ(a.guess, "3.00x");
    EXPECT_EQ(a.score, "close (1.34x off)");
    EXPECT_EQ(a.grade, static_cast<int>(GuessScore::Grade::close));
    EXPECT_NE(a.explain.find("naive moves 4.03x fused's bytes"), std::string::npos) << a.explain;
    EXPECT_EQ(a.explain.find("{{"), std::string::npos);
    // Another session, another answer: the numbers are the session's, not the H100's.
    Session other = s;
    for (PointRecord& pt : other.points)
        if (pt.kernel == "fused" && pt.cols == 1024)
            for (MetricValue& m : pt.metrics.values) m.value *= 2;
    // (outside the lesson's promise, so the card says what the lesson expected)
    EXPECT_EQ(predict_answer(naive, 0, p.question(naive, 0), &other, "en").measured,
              "2.01x (the lesson expects 3.50-4.50x)");
    EXPECT_EQ(a.measured_label, "measured");
    // No session: the lesson's promise, and the guess against it (3x is below 3.5-4.5x, 1.17x
    // off its nearer end: close, not far).
    a = predict_answer(naive, 0, p.question(naive, 0), nullptr, "en");
    EXPECT_FALSE(a.from_session);
    EXPECT_EQ(a.measured, "3.50-4.50x");
    EXPECT_EQ(a.measured_label, "promised by the lesson (no session open)");
    EXPECT_EQ(a.score, "outside the lesson's range");
    EXPECT_EQ(a.grade, static_cast<int>(GuessScore::Grade::close));
    // A session open that lacks the claim's point: the label must not say no session is open,
    // and a guess inside the promised range is graded right, not wrong.
    Session without = s;
    without.points.clear();
    PredictState inside;
    ASSERT_TRUE(inside.guess(naive, 0, "4").ok());
    a = predict_answer(naive, 0, inside.question(naive, 0), &without, "en");
    EXPECT_FALSE(a.from_session);
    EXPECT_EQ(a.measured_label, "promised by the lesson (not measured in this session)");
    EXPECT_EQ(a.score, "within the lesson's range");
    EXPECT_EQ(a.grade, static_cast<int>(GuessScore::Grade::spot_on));
    a = predict_answer(b.steps[index_of(b, "naive")], 0, inside.question(naive, 0), &without, "zh");
    EXPECT_EQ(a.measured_label, "课程给出的范围（本会话没有测这个数）");
    // Revealed without a guess: the value and the why, no score.
    PredictState q;
    q.reveal(naive);
    const LessonBook zh = book("zh");
    const LessonStep& naive_zh = zh.steps[index_of(zh, "naive")];
    a = predict_answer(naive_zh, 0, q.question(naive, 0), &s, "zh");
    EXPECT_TRUE(a.guess.empty());
    EXPECT_TRUE(a.score.empty());
    EXPECT_NE(a.question.find("倍"), std::string::npos);
}

TEST(Predict, HiddenClaimsShowABlankInTheText) {
    const LessonBook b = book();
    const Session s = recorded();
    const LessonStep& smem = b.steps[index_of(b, "smem")];
    LessonFill fill;
    fill.session = &s;
    fill.hide_claims = true;
    const std::string hidden = fill_lesson_text(smem.text.body, smem, fill);
    EXPECT_EQ(hidden.find("101 M"), std::string::npos);
    EXPECT_NE(hidden.find(kHiddenClaimText), std::string::npos);
    EXPECT_NE(hidden.find("227 KiB"), std::string::npos);  // GPU facts are givens, not answers
    fill.hide_claims = false;
    EXPECT_NE(fill_lesson_text(smem.text.body, smem, fill).find("101 M"), std::string::npos);
}

TEST(Predict, TheTableHidesMeasuredCellsButKeepsThePrediction) {
    const Session s = recorded();
    std::vector<MetricRow> rows = build_metric_rows(s, 1024, "fp32", {"naive", "fused"});
    ASSERT_FALSE(rows.empty());
    hide_measured_cells(&rows);
    for (const MetricRow& r : rows) {
        EXPECT_EQ(r.cells[static_cast<int>(MetricColumn::gbps)], "?");
        EXPECT_EQ(r.cells[static_cast<int>(MetricColumn::dram_measured)], "?");
        EXPECT_EQ(r.cells[static_cast<int>(MetricColumn::bank_conflicts)], "?");
        // The formula's bytes too: naive's against fused's is step 1's answer.
        EXPECT_EQ(r.cells[static_cast<int>(MetricColumn::dram_predicted)], "?");
        EXPECT_EQ(r.pct_of_copy, 0);
        EXPECT_NE(r.cells[static_cast<int>(MetricColumn::kernel)], "?");
    }
}

TEST(Predict, ModeIsASettingThatSurvivesARestart) {
    Settings s;
    EXPECT_TRUE(s.predict);  // on by default
    const std::string path = ::testing::TempDir() + "/sml_predict_settings.json";
    s.predict = false;
    ASSERT_TRUE(save_settings(path, s).ok());
    Result<Settings> back = load_settings(path);
    ASSERT_TRUE(back.ok());
    EXPECT_FALSE(back->predict);
}

// [SECTION] Steps own their state
// ------------------------------------------------------------------

TEST(StepState, EnteringAStepSetsItsKernelsNChartAndCode) {
    const LessonBook b = book();
    const Session s = recorded();
    const StepView fused = step_view(b, index_of(b, "fused"), &s);
    EXPECT_EQ(fused.source_kernel, "fused");
    EXPECT_EQ(fused.source_region, "persistent-grid");
    EXPECT_EQ(fused.kernels, (std::vector<std::string>{"fused", "naive"}));  // + previous step's
    EXPECT_EQ(fused.own_kernels, (std::vector<std::string>{"fused"}));
    EXPECT_EQ(fused.chart_kind, "pct");
    EXPECT_EQ(fused.marks, (std::vector<int64_t>{8192, 8193, 12288}));
    EXPECT_EQ(fused.cols, 8192);
    EXPECT_EQ(fused.run_kernels, (std::vector<std::string>{"naive", "fused"}));
    EXPECT_EQ(fused.run_rows, 65536);
    EXPECT_EQ(fused.run_cols, 4096);
}

TEST(StepState, StepSevensCodeIsItsFirstAnchorNotNaive) {
    const LessonBook b = book();
    const StepView v = step_view(b, index_of(b, "together"), nullptr);
    EXPECT_EQ(v.source_kernel, "warp");
    EXPECT_EQ(v.source_region, "dispatch");
    EXPECT_EQ(v.cols, 0);  // no session: no N to pick
}

TEST(StepState, NothingLeaksFromOneStepToTheNext) {
    // The leak the issue saw: after Set up in step 5, step 7 kept M = 8192, N = 32768, smem only.
    // Each step's state comes from its own entry, whatever came before.
    const LessonBook b = book();
    const Session s = recorded();
    const StepView smem = step_view(b, index_of(b, "smem"), &s);
    EXPECT_EQ(smem.run_rows, 8192);
    EXPECT_EQ(smem.run_variant, "bank-conflicted");
    const StepView together = step_view(b, index_of(b, "together"), &s);
    EXPECT_EQ(together.run_rows, 65536);
    EXPECT_EQ(together.run_cols, 4096);
    EXPECT_TRUE(together.run_variant.empty());
    EXPECT_EQ(together.run_kernels.size(), 4u);
    EXPECT_GE(together.kernels.size(), 7u);
    EXPECT_EQ(together.cols, 1025);
    // Every step's N is one the session has, and every step has a chart of a known kind.
    const std::vector<int64_t> cols = chart::available_cols(s, "fp32");
    for (const LessonStep& st : b.steps) {
        const StepView v = step_view(b, st.index, &s);
        EXPECT_NE(std::find(cols.begin(), cols.end(), v.cols), cols.end()) << st.id;
        const chart::ChartKind* kind = chart::find_chart_kind(v.chart_kind);
        ASSERT_NE(kind, nullptr) << st.id << ": " << v.chart_kind;
        EXPECT_EQ(kind->source, chart::ChartSource::session) << st.id;
        EXPECT_FALSE(v.source_kernel.empty()) << st.id;
    }
}

TEST(StepState, AClickOutsideTheFilterNeverEmptiesTheTable) {
    const Session s = recorded();
    const std::vector<std::string> compare = {"warp"};
    // warp has no point at N = 2^20: the table was empty. Now the clicked kernel joins.
    std::vector<std::string> after = compare_after_click(compare, "online", 1048576, s);
    EXPECT_EQ(after, (std::vector<std::string>{"warp", "online"}));
    // A click with no kernel (a reference line) at an N the filter has no point at: no filter.
    EXPECT_TRUE(compare_after_click(compare, "", 1048576, s).empty());
    EXPECT_TRUE(compare_after_click({}, "warp", 32, s).empty());      // no filter stays none
    EXPECT_EQ(compare_after_click(compare, "warp", 32, s), compare);  // already in: unchanged
}

// [SECTION] Chart presets
// --------------------------------------------------------------------------

std::set<std::string> series_keys(const chart::Chart& c) {
    std::set<std::string> keys;
    for (const chart::Panel& p : c.panels)
        for (const chart::Series& s : p.series)
            if (!s.points.empty()) keys.insert(s.key);
    return keys;
}

TEST(ChartPreset, AStepShowsItsKernelsThePreviousStepsAndCopy) {
    const LessonBook b = book();
    const Session s = recorded();
    const StepView v = step_view(b, index_of(b, "fused"), &s);
    ChartPreset preset;
    preset.kind = v.chart_kind;
    preset.kernels = v.kernels;
    preset.marks = v.marks;
    Result<ChartView> cv = build_chart_view(s, nullptr, preset);
    ASSERT_TRUE(cv.ok()) << cv.error().message;
    EXPECT_EQ(series_keys(cv->chart),
              (std::set<std::string>{"fused", "naive", "copy", "sweet_spot"}));
    // "All kernels": every kernel of the session.
    preset.kernels.clear();
    cv = build_chart_view(s, nullptr, preset);
    ASSERT_TRUE(cv.ok());
    for (const char* k : {"warp", "block", "smem", "online", "best"})
        EXPECT_TRUE(series_keys(cv->chart).count(k)) << k;
}

TEST(ChartPreset, NAndNPlusOneAreDrawnApartAndMarked) {
    const Session s = recorded();
    ChartPreset preset;
    preset.kernels = {"fused", "naive"};
    preset.marks = {8192, 8193, 12288};
    Result<ChartView> cv = build_chart_view(s, nullptr, preset);
    ASSERT_TRUE(cv.ok());
    const chart::Series* fused = nullptr;
    for (const chart::Series& ser : cv->chart.panels[0].series)
        if (ser.key == "fused") fused = &ser;
    ASSERT_NE(fused, nullptr);
    std::vector<double> xs;
    for (const chart::Point& p : fused->points) xs.push_back(p.x);
    // 8193 moved right of 8192 by a fifth of an octave; 12288 and 8192 stay.
    const double moved = 8193 * std::pow(2.0, 0.2);
    EXPECT_NE(std::find(xs.begin(), xs.end(), 8192.0), xs.end());
    EXPECT_NE(std::find(xs.begin(), xs.end(), moved), xs.end());
    EXPECT_EQ(std::find(xs.begin(), xs.end(), 8193.0), xs.end());
    EXPECT_DOUBLE_EQ(cv->real_x(moved), 8193);  // hover and click read the real N
    EXPECT_DOUBLE_EQ(cv->real_x(12288), 12288);
    ASSERT_EQ(cv->marks.size(), 3u);
    EXPECT_EQ(cv->marks[1].label, "N = 8193");
    EXPECT_DOUBLE_EQ(cv->marks[1].x, moved);
    // 1025 next to 1024 too, and an N + 1 without its power of two stays put.
    EXPECT_GT(dodge_n(1025, {1024, 1025}), 1025);
    EXPECT_DOUBLE_EQ(dodge_n(1025, {1025}), 1025);
    EXPECT_DOUBLE_EQ(dodge_n(100003, {100003, 131072}), 100003);
}

TEST(ChartPreset, ALegendClickHidesASeriesAndAnotherShowsIt) {
    const Session s = recorded();
    ChartPreset preset;
    preset.kernels = {"fused", "naive"};
    preset.hidden = toggle_hidden({}, "naive");
    Result<ChartView> cv = build_chart_view(s, nullptr, preset);
    ASSERT_TRUE(cv.ok());
    EXPECT_FALSE(series_keys(cv->chart).count("naive"));
    // The entry stays in the legend, so the learner can click it again.
    const std::vector<chart::LegendEntry> legend = chart::legend_entries(cv->chart);
    ASSERT_EQ(cv->hidden_labels.size(), 1u);
    EXPECT_TRUE(std::any_of(legend.begin(), legend.end(), [&](const chart::LegendEntry& e) {
        return e.label == cv->hidden_labels[0];
    }));
    EXPECT_EQ(cv->key_of_label(cv->hidden_labels[0]), "naive");
    EXPECT_TRUE(toggle_hidden(preset.hidden, "naive").empty());

    // The hit test over a laid-out legend finds each entry's row and nothing outside it.
    const chart::ChartLayout lay = chart::layout_chart(cv->chart, chart::light_theme(), 900, 500,
                                                       chart::approximate_text_size);
    ASSERT_TRUE(lay.legend.visible);
    for (size_t i = 0; i < lay.legend.entries.size(); ++i) {
        const chart::Vec2 a = lay.legend.anchors[i];
        EXPECT_EQ(legend_entry_at(lay, a.x + 5, a.y), static_cast<int>(i));
    }
    EXPECT_EQ(legend_entry_at(lay, -10, -10), -1);
}

// [SECTION] The chart on screen --------------------------------------------------------------

// A step's chart as the Charts panel lays it out: its preset, without the title block (the
// panel's toolbar names it).
chart::Chart step_chart(const LessonBook& b, const LessonStep& st, const Session& s,
                        std::vector<ChartMark>* marks) {
    const StepView v = step_view(b, st.index, &s);
    ChartPreset preset;
    preset.kind = v.chart_kind;
    preset.kernels = v.kernels;
    preset.marks = v.marks;
    preset.cols = v.cols;
    preset.lang = b.lang;
    Result<ChartView> cv = build_chart_view(s, nullptr, preset);
    EXPECT_TRUE(cv.ok()) << st.id;
    if (!cv.ok()) return {};
    *marks = cv->marks;
    chart::Chart c = cv->chart;
    c.title.clear();
    c.subtitle.clear();
    c.footnote.clear();
    return c;
}

// The chart panel's canvas: at 1280x720 with text at 1.5x (a projector), at 1600x1000, and a
// zoomed chart on the projector.
struct Canvas {
    double w, h, text_scale;
};
const Canvas kCanvases[] = {{485, 266, 1.5}, {485, 266, 1.0}, {660, 560, 1.0}, {1256, 600, 1.5}};

// The audit's defect: at 1280x720 with text at 1.5x the chart's ticks, legend and labels stayed
// 11-12 px while the rest of the UI grew. They follow the text size now, and the plot keeps room.
TEST(ScreenChart, ChartTextFollowsTheTextScale) {
    const LessonBook b = book();
    const Session s = recorded();
    std::vector<ChartMark> marks;
    const chart::Chart c =
        step_chart(b, b.steps[static_cast<size_t>(index_of(b, "fused"))], s, &marks);
    ASSERT_FALSE(marks.empty());
    for (const Canvas& cv : kCanvases) {
        const ScreenChart sc =
            layout_screen_chart(c, chart::dark_theme(), cv.w, cv.h, cv.text_scale, marks,
                                chart::approximate_text_size, "% copy");
        const std::string at = std::to_string(cv.w) + "x" + std::to_string(cv.h) + " text x" +
                               std::to_string(cv.text_scale);
        EXPECT_GE(sc.layout.fonts.tick * sc.scale, screen_tick_px(cv.text_scale) * 0.99) << at;
        EXPECT_GE(sc.layout.fonts.legend * sc.scale, screen_tick_px(cv.text_scale) * 0.99) << at;
        EXPECT_GE(sc.layout.fonts.axis_label * sc.scale, screen_tick_px(cv.text_scale) * 0.99)
            << at;
        ASSERT_EQ(sc.layout.panels.size(), 1u);
        EXPECT_GE(sc.layout.panels[0].plot.h * sc.scale, cv.h * 0.25) << at << ": plot too short";
    }
    EXPECT_NEAR(screen_tick_px(1.5), 18.75, 1e-9);
    // The same small canvas at 1x and 1.5x: the text and the legend's rows grow by half.
    const ScreenChart one = layout_screen_chart(c, chart::dark_theme(), 485, 266, 1.0, marks,
                                                chart::approximate_text_size);
    const ScreenChart big = layout_screen_chart(c, chart::dark_theme(), 485, 266, 1.5, marks,
                                                chart::approximate_text_size);
    EXPECT_NEAR(big.layout.fonts.tick * big.scale / (one.layout.fonts.tick * one.scale), 1.5, 0.02);
    ASSERT_TRUE(one.layout.legend.visible && big.layout.legend.visible);
    EXPECT_GT(big.layout.legend.box.h * big.scale, one.layout.legend.box.h * one.scale * 1.3);
}

// Step 7 lists every kernel: on a projector its legend in rows above the plot packs closer
// (compact_legend: fewer rows, test_chart_model), so the plot gets the room; at 1600x1000 the
// legend keeps its usual spacing. Its entries are still found where they are drawn.
TEST(ScreenChart, AProjectorsLegendOfEveryKernelLeavesThePlotRoom) {
    const Session s = recorded();
    for (const char* lang : {"en", "zh"}) {
        const LessonBook b = book(lang);
        std::vector<ChartMark> marks;
        const chart::Chart c =
            step_chart(b, b.steps[static_cast<size_t>(index_of(b, "together"))], s, &marks);
        ASSERT_GE(chart::legend_entries(c).size(), 9u) << lang;
        const ScreenChart small = layout_screen_chart(c, chart::dark_theme(), 485, 266, 1.5, marks,
                                                      chart::approximate_text_size, "% copy");
        const chart::ChartLayout& l = small.layout;
        ASSERT_TRUE(l.legend.visible) << lang;
        EXPECT_EQ(l.legend.placement, chart::LegendPlacement::above) << lang;
        EXPECT_NEAR(l.legend.row_h, l.fonts.legend * 1.3, 1e-9) << lang;
        EXPECT_GE(l.panels.at(0).plot.h * small.scale, 266 * 0.25) << lang << ": plot too short";
        EXPECT_GE(l.fonts.legend * small.scale, screen_tick_px(1.5) * 0.99) << lang;
        for (size_t i = 0; i < l.legend.anchors.size(); ++i)
            EXPECT_EQ(legend_entry_at(l, l.legend.anchors[i].x + 5, l.legend.anchors[i].y),
                      static_cast<int>(i))
                << lang;
        // 1600x1000: the usual legend.
        const ScreenChart big = layout_screen_chart(c, chart::dark_theme(), 660, 560, 1.0, marks,
                                                    chart::approximate_text_size, "% copy");
        EXPECT_NEAR(big.layout.legend.row_h, big.layout.fonts.legend * 1.55, 1e-9) << lang;
    }
}

// The N marks' labels sit above the plot, so they never cover a data line, and stay off the
// legend, off each other and off each other's lines; each names its N. At every step with marks,
// in both languages, on the projector and at 1600x1000.
TEST(ScreenChart, NMarkLabelsStayOffTheDataTheLegendAndEachOther) {
    const Session s = recorded();
    int checked = 0;
    for (const char* lang : {"en", "zh"}) {
        const LessonBook b = book(lang);
        for (const LessonStep& st : b.steps) {
            std::vector<ChartMark> marks;
            const chart::Chart c = step_chart(b, st, s, &marks);
            if (marks.empty()) continue;
            for (const Canvas& cv : kCanvases) {
                const ScreenChart sc =
                    layout_screen_chart(c, chart::dark_theme(), cv.w, cv.h, cv.text_scale, marks,
                                        chart::approximate_text_size, "% copy");
                const std::string at = st.id + " (" + lang + ") at " + std::to_string(cv.w) + "x" +
                                       std::to_string(cv.h);
                const chart::ChartLayout& l = sc.layout;
                const chart::Rect& plot = l.panels[0].plot;
                size_t labelled = 0;
                for (const MarkLabel& m : sc.mark_labels) {
                    labelled += m.last - m.first + 1;
                    for (size_t i = m.first; i <= m.last; ++i)
                        EXPECT_NE(m.text.find(std::to_string(marks[i].n)), std::string::npos)
                            << at << ": " << m.text;
                    EXPECT_LE(m.rect.bottom(), plot.y + 1e-9) << at << ": " << m.text;
                    EXPECT_GE(m.rect.x, plot.x) << at << ": " << m.text;
                    EXPECT_LE(m.rect.right(), l.width) << at << ": " << m.text;
                    EXPECT_GE(m.rect.y, 0) << at << ": " << m.text;
                    if (l.legend.visible)
                        EXPECT_FALSE(l.legend.box.intersects(m.rect)) << at << ": " << m.text;
                    for (const MarkLabel& o : sc.mark_labels) {
                        if (&o == &m) continue;
                        EXPECT_FALSE(m.rect.intersects(o.rect)) << at << ": " << m.text;
                        // A line of another label that reaches this label's row passes beside it.
                        if (o.row < m.row) continue;
                        for (size_t i = o.first; i <= o.last; ++i) {
                            const double x = l.panels[0].x_px(marks[i].x);
                            EXPECT_TRUE(x < m.rect.x || x > m.rect.right())
                                << at << ": the line of " << marks[i].n << " crosses " << m.text;
                        }
                    }
                }
                EXPECT_EQ(labelled, marks.size()) << at << ": a mark has no label";
                ++checked;
            }
        }
    }
    EXPECT_GE(checked, 2 * 8 * 4 - 16);  // most steps mark an N
}

TEST(ChartPreset, PredictModeWithholdsTheStepsOwnLines) {
    const Session s = recorded();
    ChartPreset preset;
    preset.kernels = {"fused", "naive"};
    preset.withheld = {"fused"};
    Result<ChartView> cv = build_chart_view(s, nullptr, preset);
    ASSERT_TRUE(cv.ok());
    EXPECT_FALSE(series_keys(cv->chart).count("fused"));
    EXPECT_TRUE(series_keys(cv->chart).count("naive"));
    EXPECT_NE(cv->note.find("fused: hidden until you predict"), std::string::npos);
    // In a per-N bar chart the kernels' bars go, the formula's predictions with them.
    preset.kind = "bytes";
    preset.cols = 1024;
    preset.kernels = {"naive", "fused"};
    preset.withheld = {"naive", "fused"};
    cv = build_chart_view(s, nullptr, preset);
    ASSERT_TRUE(cv.ok()) << cv.error().message;
    EXPECT_FALSE(series_keys(cv->chart).count("predicted"));
    EXPECT_FALSE(series_keys(cv->chart).count("measured"));
    EXPECT_NE(cv->note.find("naive"), std::string::npos);
}

// Comparing two sessions: the compared lines' keys name their session ("block (2026-11-25)") and
// the legend lists each kernel once ("legend: block"); predict mode must withhold both sides,
// and the legend must read as labels, not keys.
TEST(ChartPreset, AComparisonWithholdsBothSidesAndLabelsItsLegend) {
    const Session s = recorded();
    Result<Session> other =
        load_session(std::string(SML_SOURCE_DIR) + "/assets/sessions/h100-2026-11-25.json");
    ASSERT_TRUE(other.ok()) << other.error().message;
    ChartPreset preset;
    preset.kernels = {"fused", "block", "naive"};
    preset.withheld = {"block"};
    Result<ChartView> cv = build_chart_view(s, &*other, preset);
    ASSERT_TRUE(cv.ok()) << cv.error().message;
    int naive_lines = 0;
    for (const chart::Series& ser : cv->chart.panels[0].series) {
        EXPECT_NE(ser.kernel, "block") << ser.key;  // no line and no legend entry of block
        EXPECT_EQ(ser.label.find("legend:"), std::string::npos) << ser.key;
        if (ser.kernel == "naive" && !ser.points.empty()) ++naive_lines;
    }
    EXPECT_EQ(naive_lines, 2);  // both sessions' naive lines stay
    EXPECT_NE(cv->note.find("block: hidden until you predict"), std::string::npos) << cv->note;
    const std::vector<chart::LegendEntry> legend = chart::legend_entries(cv->chart);
    std::vector<std::string> labels;
    for (const chart::LegendEntry& e : legend) labels.push_back(e.label);
    EXPECT_NE(std::find(labels.begin(), labels.end(), "naive"), labels.end());
    EXPECT_NE(std::find(labels.begin(), labels.end(), "fused"), labels.end());
    EXPECT_TRUE(std::any_of(labels.begin(), labels.end(), [](const std::string& l) {
        return l.find(": solid lines, filled markers") != std::string::npos;
    }));
    EXPECT_TRUE(std::any_of(labels.begin(), labels.end(), [](const std::string& l) {
        return l.find(": dashed lines, hollow markers") != std::string::npos;
    }));

    // A click on a kernel's legend entry hides both sessions' lines of it.
    preset.withheld.clear();
    preset.hidden = toggle_hidden({}, cv->key_of_label("naive"));
    cv = build_chart_view(s, &*other, preset);
    ASSERT_TRUE(cv.ok());
    for (const chart::Series& ser : cv->chart.panels[0].series)
        if (ser.kernel == "naive") EXPECT_TRUE(ser.points.empty()) << ser.key;
    ASSERT_EQ(cv->hidden_labels, std::vector<std::string>{"naive"});
}

TEST(ChartPreset, ChineseChartsHaveChineseLegendsAndAxes) {
    const Session s = recorded();
    ChartPreset preset;
    preset.kernels = {"fused"};
    preset.lang = "zh";
    Result<ChartView> cv = build_chart_view(s, nullptr, preset);
    ASSERT_TRUE(cv.ok());
    const chart::Panel& p = cv->chart.panels[0];
    EXPECT_EQ(p.x.label, "N，每行列数（log2 刻度）");
    for (const chart::Series& ser : p.series) {
        if (ser.key == "fused") EXPECT_EQ(ser.label, "fused");  // on screen a kernel is its id
        if (ser.key == "copy") EXPECT_EQ(ser.label, "拷贝带宽 = 100%");
    }
    // A full kernel label (an exported chart's) gets the Chinese title.
    chart::Chart full;
    full.panels.emplace_back();
    chart::Series fused;
    fused.key = "smem/bank-conflicted";
    fused.label = "smem: Shared-memory row [bank-conflicted]";
    full.panels[0].series.push_back(fused);
    translate_chart(&full, "zh");
    EXPECT_EQ(full.panels[0].series[0].label, "smem：整行缓存在共享内存 [bank-conflicted]");
    EXPECT_EQ(chart_text("L2-resident: data fits in L2, so DRAM < formula", "zh"),
              "L2 驻留：数据放得进 L2，所以显存流量 < 公式");
    EXPECT_EQ(chart_text("device-to-device copy, same run: 3034 GB/s", "zh"),
              "设备内拷贝（同次运行）：3034 GB/s");
}

// [SECTION] Contrast
// -------------------------------------------------------------------------------

TEST(Contrast, WcagRatiosOfKnownPairs) {
    EXPECT_NEAR(contrast_ratio(chart::rgb_hex(0x000000), chart::rgb_hex(0xFFFFFF)), 21.0, 1e-9);
    EXPECT_NEAR(contrast_ratio(chart::rgb_hex(0x777777), chart::rgb_hex(0xFFFFFF)), 4.48, 0.01);
    EXPECT_NEAR(contrast_ratio(chart::rgb_hex(0xF0E442), chart::rgb_hex(0xFFFFFF)), 1.32, 0.01);
    EXPECT_DOUBLE_EQ(contrast_ratio(chart::rgb_hex(0x336699), chart::rgb_hex(0x336699)), 1.0);
}

// Every series colour, and the reference line, stands out from the plot by WCAG's 3:1 for
// graphics, in both themes: best (the eighth kernel) no longer vanishes on white.
TEST(Contrast, EverySeriesMeetsThreeToOneOnThePlotInBothThemes) {
    for (const chart::Theme& t : {chart::light_theme(), chart::dark_theme()}) {
        const size_t needed = std::max<size_t>(registry().size(), 8);
        ASSERT_GE(t.series.size(), 8u);
        for (size_t i = 0; i < needed; ++i) {
            const double r = contrast_ratio(t.series_color(static_cast<int>(i)), t.plot_background);
            EXPECT_GE(r, kGraphicsContrast)
                << t.name << " theme, series " << i << ": " << r << ":1 against the plot";
        }
        EXPECT_GE(contrast_ratio(t.reference, t.plot_background), kGraphicsContrast) << t.name;
    }
}

// [SECTION] Layout on a projector
// -------------------------------------------------------------------

LayoutInput projector(float scale) {
    // What ImGui reports at 1280x720 with 16 px text times `scale` (frame padding 3, item
    // spacing 6, window padding 8, all scaled), below a menu bar.
    LayoutInput in;
    in.window_height = 720;
    in.width = 1280 - 12;
    in.height = 720 - (16 * scale + 8) - 12;
    in.gap = 8 * scale;
    in.frame_line = (16 + 6 + 6) * scale;
    in.text_line = (16 + 2 + 6) * scale;
    in.padding = 8 * scale;
    in.run_content = 3 * in.frame_line;  // the toolbar wraps to three rows at 1.5x
    in.metric_rows = 3;
    return in;
}

TEST(Layout, HoldsOnAProjectorAtOneAndAHalfTimesTheText) {
    for (float scale : {1.0f, 1.2f, 1.5f}) {
        const LayoutInput in = projector(scale);
        const PanelBoxes b = layout_panels(in);
        EXPECT_GE(b.charts.h, 720.0f / 3) << "text x" << scale;
        EXPECT_GE(b.charts.w, 400.0f) << "text x" << scale;
        EXPECT_GE(b.lessons.w, 300.0f);
        EXPECT_GE(b.source.h, b.charts.h);
        EXPECT_GE(b.metrics.h, in.frame_line * 2) << "the table keeps a header and a row";
        EXPECT_GE(b.run.h, in.run_content) << "the toolbar's rows all show";
        // Nothing overlaps and nothing leaves the area.
        EXPECT_LE(b.metrics.y + b.metrics.h, in.height + 0.5f);
        EXPECT_LE(b.charts.x + b.charts.w, in.width + 0.5f);
        EXPECT_LE(b.run.y + b.run.h, b.source.y);
        EXPECT_LE(b.source.x + b.source.w, b.charts.x);
    }
}

// On the projector the code runs down beside the table, which goes under the chart: the code
// shows about twice the lines, the chart keeps its height. A 1600x1000 window keeps the table
// across the bottom.
TEST(Layout, OnAProjectorTheCodeRunsDownBesideTheTable) {
    const LayoutInput in = projector(1.5f);
    const PanelBoxes b = layout_panels(in);
    EXPECT_GE(b.source.h, b.charts.h + b.metrics.h) << "the code takes the table's rows";
    EXPECT_EQ(b.metrics.x, b.charts.x);
    EXPECT_EQ(b.metrics.w, b.charts.w);
    EXPECT_GE(b.metrics.y, b.charts.y + b.charts.h);
    EXPECT_LE(b.source.y + b.source.h, in.height + 0.5f);
    EXPECT_GE(b.charts.h, 720.0f * 0.45f - 1);
    LayoutInput wide;
    wide.window_height = 1000;
    wide.width = 1600 - 12;
    wide.height = 1000 - 24 - 12;
    wide.run_content = 28;
    const PanelBoxes w = layout_panels(wide);
    EXPECT_EQ(w.source.h, w.charts.h);
    EXPECT_EQ(w.metrics.x, w.source.x);
    EXPECT_EQ(w.metrics.w, wide.width - w.metrics.x);
}

TEST(Layout, AZoomedPanelGetsTheWholeArea) {
    LayoutInput in = projector(1.5f);
    in.zoom = zoom_from_name("chart");
    const PanelBoxes b = layout_panels(in);
    EXPECT_EQ(b.charts.w, in.width);
    EXPECT_EQ(b.charts.h, in.height);
    EXPECT_FALSE(b.lessons.visible());
    EXPECT_FALSE(b.metrics.visible());
    EXPECT_EQ(zoom_from_name("code"), Zoom::source);
    EXPECT_EQ(zoom_from_name("nope"), Zoom::none);
}

TEST(Layout, TextScaleFromTheCommandLine) {
    const char* argv[] = {"softmaxlab", "--text-scale", "1.5", "--predict", "off",
                          "--reveal",   "--guess",      "80%", "--zoom",    "chart"};
    Result<ViewerArgs> a = parse_viewer_args(10, argv, nullptr);
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_FLOAT_EQ(a->text_scale, 1.5f);
    EXPECT_EQ(a->predict, "off");
    EXPECT_TRUE(a->reveal);
    EXPECT_EQ(a->guess, "80%");
    EXPECT_EQ(a->zoom, "chart");
    for (const char* bad : {"0.2", "4", "1.5x", "nan", ""}) {
        const char* bad_argv[] = {"softmaxlab", "--text-scale", bad};
        Result<ViewerArgs> r = parse_viewer_args(3, bad_argv, nullptr);
        ASSERT_FALSE(r.ok()) << bad;
        EXPECT_NE(r.error().message.find("--text-scale"), std::string::npos);
    }
}

// [SECTION] Keys and words
// ----------------------------------------------------------------------------

TEST(Keys, EveryActionHasOneKeyAndNoKeyDoesTwoThings) {
    const std::vector<KeyBinding>& k = key_bindings();
    std::set<std::string> keys;
    for (int a = 0; a < static_cast<int>(Action::count_); ++a) {
        const auto n = std::count_if(k.begin(), k.end(), [&](const KeyBinding& b) {
            return static_cast<int>(b.action) == a;
        });
        EXPECT_EQ(n, 1) << "action " << a;
    }
    for (const KeyBinding& b : k) {
        EXPECT_TRUE(keys.insert(b.keys).second) << b.keys << " is bound twice";
        EXPECT_NE(std::string(b.zh), b.en);
    }
    // The actions the issue listed: Show answer, Set up, chart type, Export, code tabs, N, kernel.
    for (Action a : {Action::show_answer, Action::set_up, Action::chart_next_kind,
                     Action::export_png, Action::code_next_tab, Action::cols_next,
                     Action::kernel_next, Action::reveal, Action::toggle_predict})
        EXPECT_STRNE(binding_of(a).keys, "");
}

TEST(UiText, ChineseForEveryKeyAndEnglishFallsThrough) {
    EXPECT_STREQ(ui_text("File", "zh"), "文件");
    EXPECT_STREQ(ui_text("File", "en"), "File");
    EXPECT_STREQ(ui_text("not in the table", "zh"), "not in the table");
    for (const std::string& k : ui_text_keys()) {
        const std::string zh = ui_text(k.c_str(), "zh");
        EXPECT_FALSE(zh.empty()) << k;
    }
    const std::string all = ui_text_all_chinese();
    EXPECT_NE(all.find("预测"), std::string::npos);
}

}  // namespace
}  // namespace sml::viewer
