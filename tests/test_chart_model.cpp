// The chart model and layout: ticks, builders, errors, legend placement and hit-testing.
// Uses the SYNTHETIC session of test_chart_fixture.h (no GPU, no Cairo).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "core/chart/chart_build.h"
#include "core/chart/chart_layout.h"
#include "core/metrics/metric_table.h"
#include "kernels/registry.h"
#include "test_chart_fixture.h"

namespace sml::chart {
namespace {

Chart must_build(const Session& s, const std::string& kind, int64_t cols = 0) {
    ChartOptions o;
    o.kind = kind;
    o.cols = cols;
    Result<Chart> c = build_chart(s, o);
    EXPECT_TRUE(c.ok()) << kind << ": " << (c.ok() ? "" : c.error().message);
    return c.ok() ? *c : Chart{};
}

const Series* find_series(const Panel& p, const std::string& key) {
    for (const Series& s : p.series)
        if (s.key == key) return &s;
    return nullptr;
}

// ---------------------------------------------------------------------------------------------
// Ticks

TEST(ChartTicks, Log2TicksArePowersOfTwoInsideTheRange) {
    for (auto [lo, hi] : std::vector<std::pair<double, double>>{
             {32, 1048576}, {1, 1024}, {100, 5000}, {3, 7}, {32, 32}}) {
        const auto ticks = log_ticks(lo, hi, AxisScale::log2, TickFormat::pow2_count);
        EXPECT_LE(ticks.size(), 12u) << lo << ".." << hi;
        for (const Tick& t : ticks) {
            const double e = std::log2(t.value);
            EXPECT_EQ(e, std::round(e)) << t.value << " is not a power of two";
            EXPECT_GE(t.value, lo);
            EXPECT_LE(t.value, hi);
        }
    }
    const auto ticks = log_ticks(1, 1 << 20, AxisScale::log2, TickFormat::pow2_count);
    std::set<std::string> labels;
    for (const Tick& t : ticks) labels.insert(t.label);
    EXPECT_TRUE(labels.count("1K")) << "2^10 must be labelled 1K";
    EXPECT_TRUE(labels.count("1M")) << "2^20 must be labelled 1M";
}

TEST(ChartTicks, ANarrowLogAxisStillGetsLabels) {
    Axis x;
    x.scale = AxisScale::log2;
    x.format = TickFormat::pow2_count;
    make_ticks(&x, 1000, 1000, false);  // one N that is not a power of two
    ASSERT_EQ(x.ticks.size(), 1u);
    EXPECT_EQ(x.ticks[0].label, "1000");
    EXPECT_LT(x.min, 1000);
    EXPECT_GT(x.max, 1000);
    make_ticks(&x, 32, 1048576, false);
    EXPECT_GE(x.ticks.size(), 8u);
}

TEST(ChartTicks, NiceLinearTicksUseRoundStepsAndCoverTheData) {
    for (auto [lo, hi] : std::vector<std::pair<double, double>>{
             {0, 3486}, {0, 0.741}, {0, 110}, {-3, 17}, {0, 2.15e9}}) {
        double a = 0, b = 0;
        const auto ticks = nice_linear_ticks(lo, hi, 7, TickFormat::number, &a, &b);
        ASSERT_GE(ticks.size(), 3u);
        EXPECT_LE(a, lo);
        EXPECT_GE(b, hi);
        const double step = ticks[1].value - ticks[0].value;
        const double mant = step / std::pow(10.0, std::floor(std::log10(step)));
        EXPECT_TRUE(std::fabs(mant - 1) < 1e-9 || std::fabs(mant - 2) < 1e-9 ||
                    std::fabs(mant - 2.5) < 1e-9 || std::fabs(mant - 5) < 1e-9)
            << "step " << step;
        for (size_t i = 1; i < ticks.size(); ++i)
            EXPECT_NEAR(ticks[i].value - ticks[i - 1].value, step, step * 1e-9);
    }
}

TEST(ChartTicks, NonFiniteEndsGiveAFewTicksNotAnEndlessLoop) {
    const double inf = std::numeric_limits<double>::infinity();
    for (auto [lo, hi] : std::vector<std::pair<double, double>>{
             {0, inf}, {-inf, 10}, {0, std::nan("")}, {std::nan(""), std::nan("")}}) {
        double a = 0, b = 0;
        const auto ticks = nice_linear_ticks(lo, hi, 7, TickFormat::number, &a, &b);
        EXPECT_GE(ticks.size(), 2u);
        EXPECT_LE(ticks.size(), 20u);
        EXPECT_TRUE(std::isfinite(a) && std::isfinite(b));
    }
}

TEST(ChartBuild, BandwidthSkipsNonFiniteCopyAndPeakLines) {
    Session s = test::synthetic_session();
    s.device.copy_gbps = std::numeric_limits<double>::infinity();
    s.device.peak_dram_gbps = std::nan("");
    const Chart c = must_build(s, "bandwidth");
    ASSERT_EQ(c.panels.size(), 1u);
    EXPECT_EQ(find_series(c.panels[0], "copy"), nullptr);
    EXPECT_EQ(find_series(c.panels[0], "peak"), nullptr);
    EXPECT_TRUE(std::isfinite(c.panels[0].y.max));
}

TEST(ChartTicks, LabelsCarryUnitsCompactly) {
    EXPECT_EQ(format_tick(1024, TickFormat::pow2_count), "1K");
    EXPECT_EQ(format_tick(32, TickFormat::pow2_count), "32");
    EXPECT_EQ(format_tick(268435456.0, TickFormat::bytes), "268 MB");
    EXPECT_EQ(format_tick(2.15e9, TickFormat::bytes), "2.15 GB");
    EXPECT_EQ(format_tick(85, TickFormat::percent), "85%");
    EXPECT_EQ(format_tick(0.3, TickFormat::number), "0.3");
    EXPECT_EQ(format_tick(2500, TickFormat::number), "2500");
}

// ---------------------------------------------------------------------------------------------
// Builders

TEST(ChartBuild, BandwidthHasOneLinePerKernelInRegistryOrderWithReferenceLines) {
    const Session s = test::synthetic_session();
    const Chart c = must_build(s, "bandwidth");
    ASSERT_EQ(c.panels.size(), 1u);
    const Panel& p = c.panels[0];
    EXPECT_EQ(p.x.scale, AxisScale::log2);
    EXPECT_EQ(p.y.min, 0);
    EXPECT_GE(p.y.max, s.device.peak_dram_gbps);
    std::vector<std::string> lines;
    for (const Series& ser : p.series)
        if (ser.kind == SeriesKind::line) lines.push_back(ser.key);
    std::vector<std::string> expected;
    for (const KernelInfo& k : registry()) expected.push_back(k.id);
    EXPECT_EQ(lines, expected) << "one line per registry kernel, in registry order";
    // Every point is the session's number, at the session's N, in ascending N.
    for (const Series& ser : p.series) {
        if (ser.kind != SeriesKind::line) continue;
        const int rank =
            static_cast<int>(std::find_if(registry().begin(), registry().end(),
                                          [&](const KernelInfo& k) { return ser.key == k.id; }) -
                             registry().begin());
        EXPECT_EQ(ser.color, rank) << "a kernel's colour is its registry index";
        for (size_t i = 0; i < ser.points.size(); ++i) {
            const PointRecord* rec = s.find(ser.key, static_cast<int64_t>(ser.points[i].x), "fp32");
            ASSERT_NE(rec, nullptr);
            EXPECT_EQ(ser.points[i].y, rec->gbps);
            if (i) EXPECT_GT(ser.points[i].x, ser.points[i - 1].x);
        }
    }
    const Series* copy = find_series(p, "copy");
    const Series* peak = find_series(p, "peak");
    ASSERT_TRUE(copy && peak);
    EXPECT_EQ(copy->kind, SeriesKind::hline);
    EXPECT_EQ(copy->points[0].y, s.device.copy_gbps);
    EXPECT_EQ(peak->points[0].y, s.device.peak_dram_gbps);
    EXPECT_NE(c.footnote.find("SYNTHETIC"), std::string::npos);
    EXPECT_NE(c.subtitle.find(s.device.name), std::string::npos);
}

TEST(ChartBuild, SubtitleShowsTheCommandWithoutBuildPathsOrOutputFiles) {
    Session s = test::synthetic_session();
    s.command =
        "/tmp/b/app/cli/softmaxlab-cli sweep --out /tmp/x/session.json --cols 32,64 "
        "--csv /tmp/x/s.csv --extra naive:4096x1024";
    const Chart c = must_build(s, "bandwidth");
    EXPECT_NE(c.subtitle.find("softmaxlab-cli sweep --cols 32,64 --extra naive:4096x1024"),
              std::string::npos)
        << c.subtitle;
    EXPECT_EQ(c.subtitle.find("/tmp"), std::string::npos) << c.subtitle;
}

TEST(ChartBuild, BandwidthMarksWhereAKernelsRangeEnds) {
    const Chart c = must_build(test::synthetic_session(), "bandwidth");
    const int64_t largest = test::synthetic_cols().back();
    size_t checked = 0, ended = 0;
    for (const test::SyntheticKernel& k : test::synthetic_kernels()) {
        SCOPED_TRACE(k.info->id);
        const Series* line = find_series(c.panels[0], k.info->id);
        ASSERT_NE(line, nullptr);
        // A kernel whose range stops inside the sweep ends at its last sweep N, marked.
        const bool stops = k.max_cols < largest;
        EXPECT_EQ((line->points.back().flags & kPointRangeEnd) != 0, stops);
        if (stops) EXPECT_LE(line->points.back().x, static_cast<double>(k.max_cols));
        ended += stops;
        ++checked;
    }
    EXPECT_EQ(checked, registry().size());
    ASSERT_GT(ended, 0u) << "some registry kernel has a range that ends inside the sweep";
    bool l2 = false;
    for (const LegendEntry& e : legend_entries(c)) l2 |= e.swatch == LegendSwatch::range_end_marker;
    EXPECT_TRUE(l2) << "the range-end marker needs a legend entry";
}

// An extra point of another input size at an N the sweep has (`sweep --extra naive:4096x1024`)
// does not put a second point on the kernel's line at that N: the line keeps the sweep's point.
TEST(ChartBuild, AnExtraPointOfAnotherSizeLeavesOnePointAnN) {
    Session s = test::synthetic_session();
    const PointRecord* at = nullptr;
    for (const PointRecord& p : s.points)
        if (p.kernel == "naive" && p.gbps > 0 && !at) at = &p;
    ASSERT_NE(at, nullptr);
    PointRecord extra = *at;
    extra.rows = std::max<int64_t>(1, at->rows / 64);
    extra.gbps = at->gbps / 80;  // a different bandwidth, so a second point would show
    extra.pct_of_copy = at->pct_of_copy / 80;
    s.points.insert(s.points.begin(), extra);  // before the sweep's point, to be sure
    for (const char* kind : {"bandwidth", "pct"}) {
        SCOPED_TRACE(kind);
        const Chart c = must_build(s, kind);
        const Series* line = find_series(c.panels[0], "naive");
        ASSERT_NE(line, nullptr);
        std::set<double> xs;
        for (const Point& p : line->points) EXPECT_TRUE(xs.insert(p.x).second) << "N " << p.x;
        const Chart plain = must_build(test::synthetic_session(), kind);
        const Series* before = find_series(plain.panels[0], "naive");
        ASSERT_NE(before, nullptr);
        ASSERT_EQ(line->points.size(), before->points.size());
        for (size_t i = 0; i < line->points.size(); ++i)
            EXPECT_DOUBLE_EQ(line->points[i].y, before->points[i].y) << "N " << line->points[i].x;
    }
}

TEST(ChartBuild, PctUsesZeroTo110WithCopyAt100) {
    const Chart c = must_build(test::synthetic_session(), "pct");
    const Panel& p = c.panels[0];
    EXPECT_EQ(p.y.min, 0);
    EXPECT_EQ(p.y.max, 110);
    const Series* copy = find_series(p, "copy");
    ASSERT_NE(copy, nullptr);
    EXPECT_EQ(copy->points[0].y, 100);
}

TEST(ChartBuild, DefaultColsIsTheNWithTheMostKernels) {
    // The fixture gives each kernel every sweep N in its range, so the N with the most kernels is
    // the largest one every kernel of the registry can run.
    const int64_t all_run = test::synthetic_cols_all_kernels_run();
    ASSERT_GT(all_run, 0);
    EXPECT_EQ(default_cols(test::synthetic_session(), "fp32"), all_run);
    const Chart c = must_build(test::synthetic_session(), "bytes");
    EXPECT_EQ(c.panels[0].x.categories.size(), registry().size());
}

TEST(ChartBuild, BytesMarksL2ResidentPointsAndComparesPredictedWithMeasured) {
    const Session s = test::synthetic_l2_session();
    const Chart c = must_build(s, "bytes", 1024);
    const Panel& p = c.panels[0];
    const Series* predicted = find_series(p, "predicted");
    const Series* measured = find_series(p, "measured");
    ASSERT_TRUE(predicted && measured);
    ASSERT_EQ(p.x.categories.size(), predicted->points.size());
    size_t checked = 0, resident = 0;
    for (size_t i = 0; i < p.x.categories.size(); ++i) {
        const PointRecord* rec = s.find(p.x.categories[i], 1024);
        ASSERT_NE(rec, nullptr) << p.x.categories[i];
        EXPECT_EQ(predicted->points[i].y,
                  rec->predicted.dram_read_bytes + rec->predicted.dram_write_bytes);
        EXPECT_EQ((measured->points[i].flags & kPointL2Resident) != 0, rec->predicted.l2_resident)
            << rec->kernel << ": the hatch follows the session's flag";
        resident += rec->predicted.l2_resident;
        ++checked;
    }
    EXPECT_EQ(checked, registry().size()) << "every registry kernel runs N = 1024 on the H100";
    ASSERT_GT(resident, 0u) << "16 MB tensors fit in the 50 MiB L2";
    // The several-launch kernel's intermediates stay in L2: it measures well under its formula.
    const KernelInfo& first = registry().front();
    EXPECT_LT(measured->points[0].y, predicted->points[0].y) << first.id;
    bool hatch = false;
    for (const LegendEntry& e : legend_entries(c)) hatch |= e.swatch == LegendSwatch::l2_hatch;
    EXPECT_TRUE(hatch);
}

TEST(ChartBuild, BytesSwitchesToLogScaleWhenBarsSpanMoreThanTenfold) {
    Session s = test::synthetic_l2_session();
    EXPECT_EQ(must_build(s, "bytes", 1024).panels[0].y.scale, AxisScale::linear);
    for (PointRecord& p : s.points)
        if (p.kernel == registry().front().id) p.predicted.dram_read_bytes *= 100;
    const Chart c = must_build(s, "bytes", 1024);
    EXPECT_EQ(c.panels[0].y.scale, AxisScale::log10);
    for (const Tick& t : c.panels[0].y.ticks) {
        const double e = std::log10(t.value);
        EXPECT_NEAR(e, std::round(e), 1e-9) << t.value;
    }
}

TEST(ChartBuild, MissingCountersAreSaidNotHidden) {
    const Session s = test::synthetic_session(/*with_counters=*/false);
    const Chart c = must_build(s, "bytes");
    ASSERT_EQ(c.panels[0].notes.size(), 1u);
    EXPECT_NE(message_en(c.panels[0].notes[0]).find("counters unavailable"), std::string::npos);
    EXPECT_NE(message_en(c.panels[0].notes[0]).find("SML_WITH_CUPTI=OFF"), std::string::npos);
    EXPECT_EQ(find_series(c.panels[0], "measured"), nullptr);

    ChartOptions o;
    o.kind = "metrics";
    const Result<Chart> m = build_chart(s, o);
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.error().message.find("no hardware counters"), std::string::npos);
    EXPECT_FALSE(m.error().hint.empty());
}

TEST(ChartBuild, NaiveShowsFiveLaunchesInOrder) {
    const Session s = test::synthetic_session();
    const Chart c = must_build(s, "naive", 4096);
    ASSERT_EQ(c.panels.size(), 2u);
    const std::vector<std::string> order = {"row_max", "subtract", "exp", "row_sum", "divide"};
    EXPECT_EQ(c.panels[0].x.categories, order);
    const PointRecord* naive = s.find("naive", 4096);
    const Series* time = find_series(c.panels[0], "time");
    ASSERT_NE(time, nullptr);
    for (size_t i = 0; i < order.size(); ++i)
        EXPECT_EQ(time->points[i].y, naive->launches[i].median_ms);
    const Series* predicted = find_series(c.panels[1], "predicted");
    const auto& rw = naive->predicted.per_launch.at("subtract");
    EXPECT_EQ(predicted->points[1].y, rw.first + rw.second);
}

TEST(ChartBuild, MetricsHasOccupancyL2HitRateAndBankConflicts) {
    const Session s = test::synthetic_session();
    const Chart c = must_build(s, "metrics", 1024);
    ASSERT_EQ(c.panels.size(), 3u);
    size_t checked = 0;
    for (const KernelInfo& k : registry()) {
        SCOPED_TRACE(k.id);
        const PointRecord* rec = s.find(k.id, 1024);
        ASSERT_NE(rec, nullptr);
        const Series* occupancy = find_series(c.panels[0], k.id);
        const Series* l2 = find_series(c.panels[1], k.id);
        const Series* conflicts = find_series(c.panels[2], k.id);
        ASSERT_TRUE(occupancy && l2 && conflicts);
        EXPECT_EQ(occupancy->points[0].y, *rec->metrics.get(metric::kOccupancy));
        EXPECT_EQ(l2->points[0].y, *rec->metrics.get(metric::kL2HitRate));
        EXPECT_DOUBLE_EQ(conflicts->points[0].y, *rec->metrics.get(metric::kBankConflictsLd) +
                                                     *rec->metrics.get(metric::kBankConflictsSt));
        ++checked;
    }
    EXPECT_EQ(checked, registry().size());
}

TEST(ChartBuild, PartlyMissingCountersShowAsNotAvailableWithANote) {
    Session s = test::synthetic_session();
    for (PointRecord& p : s.points)
        if (p.kernel == "online") {
            p.metrics = MetricsRecord{};
            p.metrics.reason = "running under compute-sanitizer (CUPTI error 39)";
        }
    const Chart c = must_build(s, "metrics", 1024);
    const Series* online = find_series(c.panels[1], "online");
    ASSERT_NE(online, nullptr);
    EXPECT_TRUE(std::isnan(online->points[0].y));
    EXPECT_TRUE(online->points[0].flags & kPointCountersUnavailable);
    ASSERT_EQ(c.panels[1].notes.size(), 1u);
    EXPECT_NE(message_en(c.panels[1].notes[0]).find("online"), std::string::npos);
    EXPECT_NE(message_en(c.panels[1].notes[0]).find("error 39"), std::string::npos);
    EXPECT_FALSE(std::isnan(find_series(c.panels[1], "warp")->points[0].y));
}

TEST(ChartBuild, VariantsAreTheirOwnDashedSeries) {
    Session s = test::synthetic_session();
    PointRecord v = *s.find("smem", 4096);
    v.variant = "bank-conflicted";
    v.gbps /= 3;
    s.points.push_back(v);
    const Chart c = must_build(s, "bandwidth");
    const Series* plain = find_series(c.panels[0], "smem");
    const Series* conflicted = find_series(c.panels[0], "smem/bank-conflicted");
    ASSERT_TRUE(plain && conflicted);
    EXPECT_TRUE(conflicted->dashed);
    EXPECT_FALSE(plain->dashed);
    EXPECT_EQ(conflicted->color, plain->color) << "same kernel, same colour";
    EXPECT_NE(conflicted->label.find("[bank-conflicted]"), std::string::npos);
    ASSERT_EQ(conflicted->points.size(), 1u);
    EXPECT_EQ(conflicted->points[0].y, v.gbps);
}

TEST(ChartBuild, ChartMetricNamesExistInTheProfilersTable) {
    for (const char* name :
         {metric::kDramRead, metric::kDramWrite, metric::kOccupancy, metric::kL2HitRate,
          metric::kBankConflictsLd, metric::kBankConflictsSt})
        EXPECT_NE(find_metric(name), nullptr) << name;
}

TEST(ChartBuild, ErrorsNameWhatIsMissingAndWhatExists) {
    const Session s = test::synthetic_session();
    ChartOptions o;
    o.kind = "bytes";
    o.cols = 4095;
    Result<Chart> c = build_chart(s, o);
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.error().message.find("N = 4095"), std::string::npos) << c.error().message;
    EXPECT_NE(c.error().message.find("available: 32, 64"), std::string::npos) << c.error().message;
    EXPECT_FALSE(c.error().hint.empty());

    o.kind = "naive";
    o.cols = 1000;
    c = build_chart(s, o);
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.error().message.find("naive"), std::string::npos);

    o.kind = "histogram";
    c = build_chart(s, o);
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.error().hint.find(chart_kind_ids()), std::string::npos) << c.error().hint;

    o.kind = "bandwidth";
    o.dtype = "bf16";
    c = build_chart(s, o);
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.error().message.find("no bf16 points"), std::string::npos);

    c = build_chart(Session{}, ChartOptions{});
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.error().hint.find("sweep"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Layout

TEST(ChartLayout, LegendNeverCoversDataAndStaysOnTheCanvas) {
    const std::vector<Session> sessions = {test::synthetic_session(), test::synthetic_l2_session(),
                                           test::synthetic_session(false)};
    for (const Session& s : sessions) {
        for (const ChartKind& kind : chart_kinds()) {
            if (kind.source != ChartSource::session) continue;  // peers: tests/test_chart_peers
            ChartOptions o;
            o.kind = kind.id;
            const Result<Chart> c = build_chart(s, o);
            if (!c.ok()) continue;  // metrics without counters: tested above
            for (auto [w, h] : std::vector<std::pair<double, double>>{
                     {1600, 900}, {1200, 800}, {800, 600}, {2400, 1000}}) {
                const ChartLayout l = layout_chart(*c, light_theme(), w, h, approximate_text_size);
                if (!l.legend.visible) continue;
                const Rect& b = l.legend.box;
                EXPECT_FALSE(rect_covers_data(*c, l, b)) << kind.id << " at " << w << "x" << h;
                EXPECT_GE(b.x, 0);
                EXPECT_GE(b.y, 0);
                EXPECT_LE(b.right(), w);
                EXPECT_LE(b.bottom(), h);
                for (const PanelLayout& p : l.panels) {
                    const bool inside = p.plot.x <= b.x && b.right() <= p.plot.right() &&
                                        p.plot.y <= b.y && b.bottom() <= p.plot.bottom();
                    // Either tucked fully inside a plot (in a free corner) or clear of it.
                    EXPECT_TRUE(inside || !p.plot.intersects(b)) << kind.id;
                }
            }
        }
    }
}

TEST(ChartLayout, LegendAvoidsACornerFullOfData) {
    Chart c;
    Panel p;
    p.x.scale = AxisScale::linear;
    p.y.scale = AxisScale::linear;
    Series s;
    s.label = "falls from the top-left corner";
    s.key = "s";
    for (int i = 0; i <= 20; ++i) s.points.push_back(Point{i * 1.0, 100 - i * 4.0});
    p.series.push_back(s);
    make_ticks(&p.x, 0, 20, true);
    make_ticks(&p.y, 0, 100, true);
    c.panels.push_back(p);
    const ChartLayout l = layout_chart(c, light_theme(), 1600, 900, approximate_text_size);
    ASSERT_TRUE(l.legend.visible);
    EXPECT_NE(l.legend.placement, LegendPlacement::top_left);
    EXPECT_FALSE(rect_covers_data(c, l, l.legend.box));
    // Inside a corner, the covered-data check would have failed: prove it sees the line.
    const Rect& plot = l.panels[0].plot;
    EXPECT_TRUE(rect_covers_data(c, l, Rect{plot.x, plot.y, plot.w / 4, plot.h / 4}));
}

// A chart as the viewer shows one in a panel: one plot of two lines with axis labels and a
// legend, no title block.
Chart panel_chart() {
    Chart c;
    Panel p;
    p.x.scale = AxisScale::linear;
    p.y.scale = AxisScale::linear;
    p.x.label = "N, columns per row";
    p.y.label = "% of copy";
    for (int k = 0; k < 2; ++k) {
        Series s;
        s.label = k == 0 ? "rises" : "falls";
        s.key = s.label;
        for (int i = 0; i <= 20; ++i)
            s.points.push_back(Point{i * 1.0, k == 0 ? 10 + i * 4.0 : 90 - i * 4.0});
        p.series.push_back(s);
    }
    make_ticks(&p.x, 0, 20, true);
    make_ticks(&p.y, 0, 100, true);
    c.panels.push_back(p);
    return c;
}

// The viewer's text size (LayoutOptions::text_scale) grows the chart's text and the room
// measured in it (tick and axis label bands, the legend's rows), not the canvas; the defaults
// leave exported files as they were.
TEST(ChartLayout, TextScaleGrowsTheTextAndItsRoomNotTheCanvas) {
    const Chart c = panel_chart();
    const ChartLayout plain = layout_chart(c, light_theme(), 800, 450, approximate_text_size);
    const ChartLayout same = layout_chart(c, light_theme(), 800, 450, approximate_text_size, {});
    EXPECT_EQ(plain.ops.size(), same.ops.size());
    EXPECT_DOUBLE_EQ(plain.panels[0].plot.h, same.panels[0].plot.h);
    LayoutOptions big;
    big.text_scale = 1.5;
    const ChartLayout l = layout_chart(c, light_theme(), 800, 450, approximate_text_size, big);
    EXPECT_NEAR(l.fonts.tick, plain.fonts.tick * 1.5, 1e-9);
    EXPECT_NEAR(l.fonts.legend, plain.fonts.legend * 1.5, 1e-9);
    EXPECT_NEAR(l.fonts.axis_label, plain.fonts.axis_label * 1.5, 1e-9);
    // Every text op is drawn at the larger sizes.
    double smallest = 1e9;
    for (const DrawOp& op : l.ops)
        if (op.kind == OpKind::text) smallest = std::min(smallest, op.font_px);
    EXPECT_GE(smallest, l.fonts.tick * 0.74) << "bar values may shrink to 3/4, nothing less";
    ASSERT_TRUE(l.legend.visible);
    EXPECT_GT(l.legend.box.h, plain.legend.box.h * 1.3);
    EXPECT_LT(l.panels[0].plot.h, plain.panels[0].plot.h);  // the plot gives up the room
    EXPECT_GT(l.panels[0].plot.x, plain.panels[0].plot.x);  // wider y tick labels
    EXPECT_DOUBLE_EQ(l.width, 800);
}

// compact_legend (the viewer's short projector panel, where step 7 lists every kernel): a
// legend in rows above the plot packs closer, so it takes fewer rows and the plot gets them; the
// range-end entry is shortened. Off by default, so exports keep their legend.
TEST(ChartLayout, ACompactLegendTakesFewerRowsAndGivesThemToThePlot) {
    Chart c = must_build(test::synthetic_session(), "pct");
    c.legend = LegendPlacement::above;
    for (Series& s : c.panels[0].series)  // the viewer's legend names kernels by id
        if (!s.kernel.empty()) s.label = s.key;
    LayoutOptions o;
    o.text_scale = 1.5;
    o.margin_px = 4;
    const ChartLayout usual = layout_chart(c, light_theme(), 640, 360, approximate_text_size, o);
    o.compact_legend = true;
    const ChartLayout compact = layout_chart(c, light_theme(), 640, 360, approximate_text_size, o);
    auto rows = [](const ChartLayout& l) {
        std::set<double> ys;
        for (const Vec2& a : l.legend.anchors) ys.insert(a.y);
        return ys.size();
    };
    ASSERT_GE(usual.legend.entries.size(), 5u);
    EXPECT_LT(rows(compact), rows(usual));
    EXPECT_NEAR(usual.legend.row_h, usual.fonts.legend * 1.55, 1e-9);
    EXPECT_NEAR(compact.legend.row_h, compact.fonts.legend * 1.3, 1e-9);
    EXPECT_LT(compact.legend.box.h, usual.legend.box.h);
    EXPECT_GT(compact.panels[0].plot.h, usual.panels[0].plot.h);
    EXPECT_DOUBLE_EQ(compact.fonts.legend, usual.fonts.legend);  // the text keeps its size
    for (size_t i = 0; i < usual.legend.entries.size(); ++i)
        if (usual.legend.entries[i].swatch == LegendSwatch::range_end_marker) {
            EXPECT_EQ(usual.legend.entries[i].label, "largest N in the kernel's range");
            EXPECT_EQ(compact.legend.entries[i].label, "range end");
        }
    EXPECT_FALSE(LayoutOptions{}.compact_legend);
}

// Room above the plot for labels the viewer draws there (its N marks): rows of tick-size text
// between the plot and whatever is above it (the legend's rows).
TEST(ChartLayout, RowsAboveThePlotAreKeptFree) {
    const Chart c = must_build(test::synthetic_session(), "pct");
    const ChartLayout none = layout_chart(c, light_theme(), 800, 500, approximate_text_size);
    EXPECT_EQ(none.label_rows, 0);
    EXPECT_DOUBLE_EQ(none.panels[0].label_band.h, 0);
    LayoutOptions o;
    o.label_rows_above_plot = 2;
    const ChartLayout l = layout_chart(c, light_theme(), 800, 500, approximate_text_size, o);
    const Rect& band = l.panels[0].label_band;
    EXPECT_EQ(l.label_rows, 2);
    EXPECT_NEAR(band.h, 2 * l.label_row_h, 1e-9);
    EXPECT_GE(l.label_row_h, approximate_text_size("0", l.fonts.tick, false).h);
    EXPECT_LE(band.bottom(), l.panels[0].plot.y);
    EXPECT_DOUBLE_EQ(band.x, l.panels[0].plot.x);
    EXPECT_DOUBLE_EQ(band.w, l.panels[0].plot.w);
    if (l.legend.visible && l.legend.placement == LegendPlacement::above)
        EXPECT_LE(l.legend.box.bottom(), band.y);
    EXPECT_LT(l.panels[0].plot.h, none.panels[0].plot.h);
}

// Large text on a short plot: tick labels that would pile up are thinned (every second, ...),
// so no two drawn labels overlap; the ticks and grid lines stay.
TEST(ChartLayout, TickLabelsNeverOverlapOnAShortPlot) {
    const Chart c = panel_chart();
    LayoutOptions big;
    big.text_scale = 2.5;
    for (auto [w, h] : std::vector<std::pair<double, double>>{{480, 270}, {400, 220}, {800, 450}}) {
        const ChartLayout l = layout_chart(c, light_theme(), w, h, approximate_text_size, big);
        const Rect& plot = l.panels[0].plot;
        std::vector<Rect> y_labels, x_labels;
        for (const DrawOp& op : l.ops) {
            if (op.kind != OpKind::text || op.font_px != l.fonts.tick || op.pts.empty()) continue;
            const TextSize sz = approximate_text_size(op.text, op.font_px, op.bold);
            const Rect r{op.pts[0].x - sz.w * op.halign, op.pts[0].y - sz.h / 2, sz.w, sz.h};
            if (r.right() <= plot.x + 0.5)
                y_labels.push_back(r);
            else if (r.y >= plot.bottom() - 0.5)
                x_labels.push_back(r);
        }
        EXPECT_GE(y_labels.size(), 2u) << w << "x" << h;
        EXPECT_GE(x_labels.size(), 2u) << w << "x" << h;
        for (const std::vector<Rect>* v : {&y_labels, &x_labels})
            for (size_t i = 0; i < v->size(); ++i)
                for (size_t j = i + 1; j < v->size(); ++j)
                    EXPECT_FALSE((*v)[i].intersects((*v)[j]))
                        << w << "x" << h << ": tick labels " << i << " and " << j << " overlap";
    }
}

TEST(ChartLayout, HitTestFindsThePointUnderTheCursor) {
    const Chart c = must_build(test::synthetic_session(), "bandwidth");
    const ChartLayout l = layout_chart(c, light_theme(), 1600, 900, approximate_text_size);
    const PanelLayout& pl = l.panels[0];
    for (size_t si = 0; si < c.panels[0].series.size(); ++si) {
        const Series& s = c.panels[0].series[si];
        if (s.kind != SeriesKind::line) continue;
        const Point& pt = s.points[s.points.size() / 2];
        const auto hit = hit_test(c, l, pl.x_px(pt.x) + 2, pl.y_px(pt.y) - 1);
        ASSERT_TRUE(hit.has_value());
        // Lines overlap in the fixture; the hit must be a point at that spot, maybe another's.
        const Point& got = c.panels[0].series[hit->series].points[hit->point];
        EXPECT_LE(std::hypot(pl.x_px(got.x) - pl.x_px(pt.x), pl.y_px(got.y) - pl.y_px(pt.y)), 4);
    }
    EXPECT_FALSE(hit_test(c, l, 1, 1).has_value()) << "the title area holds no data";

    const Chart bars = must_build(test::synthetic_session(), "bytes");
    const ChartLayout lb = layout_chart(bars, light_theme(), 1600, 900, approximate_text_size);
    const Rect& r = lb.panels[0].bar_rects[1][2];  // measured bar of the third kernel
    const auto hit = hit_test(bars, lb, r.x + r.w / 2, r.y + r.h / 2);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->series, 1);
    EXPECT_EQ(hit->point, 2);
}

TEST(ChartLayout, LongTitlesAreElidedToFit) {
    const std::string t(300, 'x');
    const std::string e = elide(t, 400, 20, false, approximate_text_size);
    EXPECT_LE(approximate_text_size(e, 20, false).w, 400);
    EXPECT_NE(e.find("…"), std::string::npos);
    EXPECT_EQ(elide("short", 400, 20, false, approximate_text_size), "short");
}

}  // namespace
}  // namespace sml::chart
