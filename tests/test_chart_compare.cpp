// The chart-kind table (core/chart/chart_kinds.h) and the compare view of the chart model: a
// second session drawn over the first (core/chart/session_compare.h).
//
// The second session is SYNTHETIC: the fixture session of test_chart_fixture.h renamed to another
// GPU with every bandwidth scaled (test::synthetic_other_gpu), made here, never stored. Both
// sessions say they are synthetic, and every chart drawn from them says so.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/chart/chart_build.h"
#include "core/chart/chart_export.h"
#include "core/chart/chart_kinds.h"
#include "core/chart/chart_layout.h"
#include "core/chart/session_compare.h"
#include "kernels/registry.h"
#include "test_chart_fixture.h"

namespace sml::chart {
namespace {

const char* kOther = "NVIDIA GeForce RTX 4090";

Session other_gpu() {
    return test::synthetic_other_gpu(test::synthetic_session(), kOther, 0.33, 1008);
}

Result<Chart> build(const Session& a, const Session* b, const std::string& kind,
                    const std::string& dtype = "fp32") {
    ChartInput in;
    in.session = &a;
    in.compare = b;
    ChartOptions o;
    o.kind = kind;
    o.dtype = dtype;
    return build_chart(in, o);
}

const Series* find_series(const Panel& p, const std::string& key) {
    for (const Series& s : p.series)
        if (s.key == key) return &s;
    return nullptr;
}

// [SECTION] The chart-kind table ------------------------------------------------------------------
TEST(ChartKinds, EachEntryHasWhatEveryConsumerReads) {
    std::set<std::string> ids;
    size_t from_session = 0, comparing = 0;
    for (const ChartKind& k : chart_kinds()) {
        SCOPED_TRACE(k.id);
        EXPECT_TRUE(ids.insert(k.id).second) << "duplicate id";
        EXPECT_EQ(find_chart_kind(k.id), &k);
        EXPECT_FALSE(std::string(k.label).empty());
        EXPECT_FALSE(std::string(k.short_label).empty());
        EXPECT_GT(std::string(k.tooltip).size(), 20u) << "the tooltip says what the chart shows";
        EXPECT_NE(k.build, nullptr);
        EXPECT_NE(chart_kind_ids().find(k.id), std::string::npos);
        EXPECT_EQ(chart_kind_ids(", ", true).find(k.id) != std::string::npos, k.compares);
        from_session += k.source == ChartSource::session;
        comparing += k.compares;
        // Only a chart over N can overlay a second session's lines.
        if (k.compares) EXPECT_FALSE(k.per_n);
    }
    EXPECT_EQ(ids.size(), chart_kinds().size());
    EXPECT_GT(from_session, 0u);
    EXPECT_GT(comparing, 0u);
    EXPECT_EQ(find_chart_kind("histogram"), nullptr);
}

TEST(ChartKinds, BuildChartSetsTheKindFromTheTable) {
    const Session s = test::synthetic_session();
    size_t built = 0;
    for (const ChartKind& k : chart_kinds()) {
        if (k.source != ChartSource::session) continue;
        const Result<Chart> c = build(s, nullptr, k.id);
        ASSERT_TRUE(c) << k.id << ": " << c.error().message;
        EXPECT_EQ(c->kind, k.id);
        ++built;
    }
    EXPECT_GT(built, 0u);
    // No kind named: the table's first.
    const Result<Chart> first = build_chart(s, ChartOptions{});
    ASSERT_TRUE(first) << first.error().message;
    EXPECT_EQ(first->kind, chart_kinds().front().id);
}

TEST(ChartKinds, WrongKindOrInputIsAnErrorThatSaysWhatToPass) {
    const Session s = test::synthetic_session();
    const Session b = other_gpu();
    Result<Chart> c = build(s, nullptr, "histogram");
    ASSERT_FALSE(c);
    EXPECT_NE(c.error().message.find("histogram"), std::string::npos);
    EXPECT_NE(c.error().hint.find(chart_kind_ids()), std::string::npos) << c.error().hint;
    size_t checked = 0;
    for (const ChartKind& k : chart_kinds()) {
        SCOPED_TRACE(k.id);
        ChartOptions o;
        o.kind = k.id;
        // A kind given the other input (a session for peers, peers for a session kind).
        const std::vector<PeerRun> none;
        ChartInput wrong;
        if (k.source == ChartSource::peers)
            wrong.session = &s;
        else
            wrong.peers = &none;
        c = build_chart(wrong, o);
        ASSERT_FALSE(c);
        EXPECT_NE(c.error().message.find(k.id), std::string::npos) << c.error().message;
        EXPECT_FALSE(c.error().hint.empty());
        // A second session for a kind that shows one: refused, naming the kinds that compare.
        if (!k.compares && k.source == ChartSource::session) {
            c = build(s, &b, k.id);
            ASSERT_FALSE(c);
            EXPECT_NE(c.error().message.find("one session"), std::string::npos);
            EXPECT_NE(c.error().hint.find(chart_kind_ids(", ", true)), std::string::npos);
        }
        ++checked;
    }
    EXPECT_EQ(checked, chart_kinds().size());
}

// [SECTION] Naming and checking two sessions
// --------------------------------------------------------
TEST(SessionCompare, ShortDeviceNamesKeepTheGpuAndDropTheRest) {
    EXPECT_EQ(short_device_name("NVIDIA H100 80GB HBM3"), "H100");
    EXPECT_EQ(short_device_name(kOther), "RTX 4090");
    EXPECT_EQ(short_device_name("NVIDIA A100-SXM4-80GB"), "A100-SXM4");
    EXPECT_EQ(short_device_name("Tesla T4"), "T4");
    EXPECT_EQ(short_device_name("NVIDIA H100 PCIe"), "H100 PCIe");
    EXPECT_EQ(short_device_name("NVIDIA"), "NVIDIA");
    EXPECT_EQ(short_device_name(""), "unknown device");
}

TEST(SessionCompare, TwoSessionsOfOneDeviceAreLabelledByDate) {
    const Session a = test::synthetic_session();
    Session b = a;
    b.created_utc = "2026-12-01T10:00:00Z";
    SessionLabels l = compare_labels(a, b);
    EXPECT_EQ(l.first, "2026-11-22");
    EXPECT_EQ(l.second, "2026-12-01");
    b.created_utc = "2026-11-22T17:30:00Z";  // the same day: the time tells them apart
    l = compare_labels(a, b);
    EXPECT_EQ(l.first, "2026-11-22 09:00");
    EXPECT_EQ(l.second, "2026-11-22 17:30");
    l = compare_labels(a, a);
    EXPECT_NE(l.first, l.second) << "labels must always differ";
    l = compare_labels(a, other_gpu());
    EXPECT_EQ(l.first, "H100");
    EXPECT_EQ(l.second, "RTX 4090");
}

TEST(SessionCompare, OtherDtypeOrNoSharedNIsAClearError) {
    const Session a = test::synthetic_session();
    EXPECT_TRUE(check_comparable(a, other_gpu(), "fp32"));
    EXPECT_FALSE(shared_cols(a, other_gpu(), "fp32").empty());

    Session half = other_gpu();
    for (PointRecord& p : half.points) p.dtype = "fp16";
    Status st = check_comparable(a, half, "fp32");
    ASSERT_FALSE(st);
    EXPECT_NE(st.error().message.find("compared session (RTX 4090) has no fp32 points"),
              std::string::npos)
        << st.error().message;
    EXPECT_NE(st.error().message.find("fp16"), std::string::npos) << "says what it has";
    EXPECT_NE(st.error().hint.find("fp32"), std::string::npos);

    Session shifted = other_gpu();
    for (PointRecord& p : shifted.points) p.cols += 1;  // 33, 65, ...: no N in common
    st = check_comparable(a, shifted, "fp32");
    ASSERT_FALSE(st);
    EXPECT_NE(st.error().message.find("share no N"), std::string::npos) << st.error().message;
    EXPECT_NE(st.error().message.find("RTX 4090 has N = 33.."), std::string::npos)
        << st.error().message;

    st = check_comparable(a, Session{}, "fp32");
    ASSERT_FALSE(st);
    EXPECT_NE(st.error().message.find("no measured points"), std::string::npos);
}

// [SECTION] Compare charts
// ---------------------------------------------------------------------------
TEST(CompareChart, BandwidthDrawsTheSecondSessionDashedInEachKernelsColour) {
    const Session a = test::synthetic_session();
    const Session b = other_gpu();
    const Result<Chart> c = build(a, &b, "bandwidth");
    ASSERT_TRUE(c) << c.error().message;
    const Panel& p = c->panels.at(0);
    size_t checked = 0;
    for (const KernelInfo& k : registry()) {
        SCOPED_TRACE(k.id);
        const std::string mine = std::string(k.id) + " (H100)";
        const std::string theirs = std::string(k.id) + " (RTX 4090)";
        const Series* sa = find_series(p, mine);
        const Series* sb = find_series(p, theirs);
        ASSERT_TRUE(sa && sb);
        EXPECT_EQ(sa->label, mine);
        EXPECT_EQ(sb->label, theirs);
        EXPECT_EQ(sa->kernel, k.id);
        EXPECT_EQ(sb->kernel, k.id);
        EXPECT_EQ(sa->color, sb->color) << "the same kernel keeps its colour";
        EXPECT_EQ(sa->marker, sb->marker);
        EXPECT_FALSE(sa->dashed || sa->hollow);
        EXPECT_TRUE(sb->dashed && sb->hollow);
        EXPECT_EQ(sb - sa, 1) << "each kernel's second-session line follows its first";
        for (const Point& pt : sb->points) {
            const PointRecord* rec = b.find(k.id, static_cast<int64_t>(pt.x));
            ASSERT_NE(rec, nullptr);
            EXPECT_EQ(pt.y, rec->gbps) << "N = " << pt.x;
        }
        ++checked;
    }
    EXPECT_EQ(checked, registry().size());
    // Each session's copy is a reference line; the second dashed.
    const Series* copy_a = find_series(p, "copy (H100)");
    const Series* copy_b = find_series(p, "copy (RTX 4090)");
    ASSERT_TRUE(copy_a && copy_b);
    EXPECT_EQ(copy_a->points[0].y, a.device.copy_gbps);
    EXPECT_EQ(copy_b->points[0].y, b.device.copy_gbps);
    EXPECT_TRUE(copy_b->dashed);
    // The words say which is which, and that both are synthetic.
    EXPECT_NE(c->title.find("H100 vs RTX 4090"), std::string::npos) << c->title;
    EXPECT_NE(c->subtitle.find("solid lines: H100"), std::string::npos) << c->subtitle;
    EXPECT_NE(c->subtitle.find("dashed, hollow markers: RTX 4090 (" + std::string(kOther)),
              std::string::npos)
        << c->subtitle;
    EXPECT_NE(c->footnote.find("SYNTHETIC"), std::string::npos);
    EXPECT_NE(c->footnote.find("compared SYNTHETIC"), std::string::npos) << c->footnote;
    // The legend lists each kernel once, in its colour, then says which session is which.
    const std::vector<LegendEntry> legend = legend_entries(*c);
    size_t kernels = 0;
    bool first_style = false, second_style = false;
    for (const LegendEntry& e : legend) {
        kernels += find_kernel(e.label) != nullptr;
        EXPECT_EQ(e.label.find("(RTX 4090)"), std::string::npos) << "lines are not listed twice";
        if (e.label == "H100: solid lines, filled markers") first_style = !e.dashed && !e.hollow;
        if (e.label == "RTX 4090: dashed lines, hollow markers")
            second_style = e.dashed && e.hollow;
    }
    EXPECT_EQ(kernels, registry().size());
    EXPECT_TRUE(first_style && second_style);
    EXPECT_LT(legend.size(), 2 * registry().size()) << "half the entries of one per line";
}

TEST(CompareChart, PctIsEachSessionsOwnShareOfItsOwnCopy) {
    const Session a = test::synthetic_session();
    const Session b = other_gpu();
    const Result<Chart> c = build(a, &b, "pct");
    ASSERT_TRUE(c) << c.error().message;
    const Panel& p = c->panels.at(0);
    size_t points = 0;
    for (const Series& ser : p.series) {
        if (ser.kind != SeriesKind::line || !ser.dashed || ser.kernel.empty()) continue;
        for (const Point& pt : ser.points) {
            const PointRecord* rec = b.find(ser.kernel, static_cast<int64_t>(pt.x));
            ASSERT_NE(rec, nullptr) << ser.key;
            EXPECT_DOUBLE_EQ(pt.y, rec->pct_of_copy) << ser.key << " at N = " << pt.x;
            ++points;
        }
    }
    size_t b_points = 0;
    for (const PointRecord& r : b.points) b_points += r.variant.empty() && r.dtype == "fp32";
    EXPECT_EQ(points, b_points) << "every point of the compared session is drawn";
    EXPECT_NE(p.y.label.find("own copy"), std::string::npos) << p.y.label;
}

TEST(CompareChart, TwoSessionsOfOneDeviceAreTitledByDate) {
    const Session a = test::synthetic_session();
    Session later = test::synthetic_other_gpu(a, a.device.name, 1.02, a.device.copy_gbps);
    const Result<Chart> c = build(a, &later, "pct");
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_NE(c->title.find("2026-11-22 vs 2026-12-01"), std::string::npos) << c->title;
    EXPECT_NE(find_series(c->panels[0], std::string(registry().front().id) + " (2026-12-01)"),
              nullptr);
}

TEST(CompareChart, SessionsThatCannotBeComparedGiveTheReasonNotAChart) {
    const Session a = test::synthetic_session();
    Session half = other_gpu();
    for (PointRecord& p : half.points) p.dtype = "bf16";
    for (const ChartKind& k : chart_kinds()) {
        if (!k.compares) continue;
        const Result<Chart> c = build(a, &half, k.id);
        ASSERT_FALSE(c) << k.id;
        EXPECT_NE(c.error().message.find("no fp32 points (it has: bf16)"), std::string::npos)
            << c.error().message;
    }
}

TEST(CompareChart, CsvAndLayoutKeepTheTwoSessionsApart) {
    const Session a = test::synthetic_session();
    const Session b = other_gpu();
    for (const ChartKind& k : chart_kinds()) {
        if (!k.compares) continue;
        SCOPED_TRACE(k.id);
        const Result<Chart> c = build(a, &b, k.id);
        ASSERT_TRUE(c) << c.error().message;
        std::set<std::string> keys;
        for (const Series& s : c->panels[0].series)
            EXPECT_TRUE(keys.insert(s.key).second) << "duplicate key " << s.key;
        const std::string csv = chart_to_csv(*c);
        EXPECT_NE(csv.find("\n," + std::string(registry().back().id) + " (RTX 4090),line,"),
                  std::string::npos);
        for (auto [w, h] : std::vector<std::pair<double, double>>{{1600, 900}, {1200, 800}}) {
            const ChartLayout l = layout_chart(*c, light_theme(), w, h, approximate_text_size);
            if (!l.legend.visible) continue;
            EXPECT_FALSE(rect_covers_data(*c, l, l.legend.box)) << w << "x" << h;
            EXPECT_LE(l.legend.box.right(), w);
            EXPECT_LE(l.legend.box.bottom(), h);
        }
    }
}

}  // namespace
}  // namespace sml::chart
