// Chart layout: geometry and draw operations (see chart_layout.h).
//
// [SECTION] Text helpers
// [SECTION] Axis mapping
// [SECTION] Panel geometry
// [SECTION] Legend placement
// [SECTION] Draw operations: panels
// [SECTION] Draw operations: legend, titles, notes
// [SECTION] layout_chart
// [SECTION] Hit-testing
#include "core/chart/chart_layout.h"

#include <algorithm>
#include <cmath>

namespace sml::chart {

namespace {
constexpr double kPi = 3.14159265358979323846;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Text helpers

TextSize approximate_text_size(const std::string& text, double font_px, bool bold) {
    double em = 0;
    for (unsigned char c : text) {
        if ((c & 0xC0) == 0x80) continue;  // UTF-8 continuation byte: not a new character
        if (c == ' ' || c == '.' || c == ',' || c == ':' || c == 'i' || c == 'l' || c == '|')
            em += 0.32;
        else if (c >= 'A' && c <= 'Z')
            em += 0.70;
        else
            em += 0.58;
    }
    return TextSize{em * font_px * (bold ? 1.08 : 1.0), font_px * 1.17};
}

std::string elide(const std::string& text, double max_w, double font_px, bool bold,
                  const TextMeasure& measure) {
    if (measure(text, font_px, bold).w <= max_w) return text;
    // Where each character starts, so a cut never splits a UTF-8 sequence.
    std::vector<size_t> starts;
    for (size_t i = 0; i < text.size(); ++i)
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
    // The first `chars` characters, trailing spaces dropped, then "…".
    auto shortened = [&](size_t chars) {
        std::string t = text.substr(0, starts[chars]);
        while (!t.empty() && t.back() == ' ') t.pop_back();
        return t + "…";
    };
    // A longer prefix is never narrower, so a binary search finds the most characters that fit
    // in O(log n) measurements. (Dropping one character at a time and measuring again took
    // minutes for a 100000-character title.) Invariant: `lo` characters fit or lo == 0, and
    // `hi` characters do not (all of them did not fit above).
    size_t lo = 0, hi = starts.size();
    while (hi - lo > 1) {
        const size_t mid = lo + (hi - lo) / 2;
        if (measure(shortened(mid), font_px, bold).w <= max_w)
            lo = mid;
        else
            hi = mid;
    }
    return lo == 0 ? std::string("…") : shortened(lo);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Axis mapping

static double axis_t(const Axis& a, double v) {
    switch (a.scale) {
        case AxisScale::log2:
            return std::log2(std::max(v, 1e-300));
        case AxisScale::log10:
            return std::log10(std::max(v, 1e-300));
        case AxisScale::linear:
        default:
            return v;
    }
}

static double axis_fraction(const Axis& a, double v) {
    const double t0 = axis_t(a, a.min), t1 = axis_t(a, a.max);
    if (!(t1 != t0)) return 0.5;
    if (a.scale != AxisScale::linear && !(v > 0)) return 0;  // non-positive on a log axis: floor
    return (axis_t(a, v) - t0) / (t1 - t0);
}

double PanelLayout::x_px(double v) const {
    return plot.x + axis_fraction(x, v) * plot.w;
}
double PanelLayout::y_px(double v) const {
    return plot.bottom() - axis_fraction(y, v) * plot.h;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Panel geometry

namespace {

struct Metrics {   // derived sizes, all scaled with the canvas
    double s = 1;  // scale against the 1600x900 reference canvas
    double t = 1;  // the text's scale: s times LayoutOptions::text_scale
    double margin = 28, panel_gap = 45, gap = 10, tick_len = 6, marker = 6, line = 2.6;
    double above_plot = 0;  // from the top of a panel's area (below its title) to its plot
    int label_rows = 0;
    double label_row_h = 0;
    bool compact_legend = false;  // LayoutOptions::compact_legend
    FontSizes f;
};

Metrics make_metrics(double width, double height, const LayoutOptions& options,
                     const TextMeasure& measure) {
    Metrics m;
    // Fonts shrink with the canvas, but not below ~12 px for ticks: a small chart in a report
    // must stay readable, and the plots have room to give.
    m.s = std::clamp(std::min(width / 1600.0, height / 900.0), 0.62, 4.0);
    const double s = m.s;
    m.t = s * std::clamp(options.text_scale, 0.25, 8.0);
    m.compact_legend = options.compact_legend;
    m.panel_gap = m.margin * 1.6 * s;
    m.margin = options.margin_px >= 0 ? options.margin_px : m.margin * s;
    m.gap *= m.t;  // the space between texts grows with them
    m.tick_len *= s;
    m.marker *= s;
    m.line *= s;
    FontSizes& f = m.f;
    for (double* v : {&f.title, &f.subtitle, &f.panel_title, &f.axis_label, &f.tick, &f.legend,
                      &f.note, &f.value})
        *v *= m.t;
    // Above the plot: half the top y tick label (it is centred on the plot's top edge), or the
    // rows a caller asked for, each a tick label and a little air.
    m.label_rows = std::clamp(options.label_rows_above_plot, 0, 8);
    m.label_row_h = measure("Ag", f.tick, false).h + m.gap * 0.3;
    m.above_plot = std::max(f.tick * 0.6, m.label_rows * m.label_row_h + m.gap * 0.3);
    return m;
}

// Angle (degrees) at which categorical x labels are drawn: 0 when they fit their slot.
double category_label_angle(const Axis& x, double plot_w, const Metrics& m,
                            const TextMeasure& measure) {
    if (!x.categorical()) return 0;
    const double slot = plot_w / std::max<size_t>(1, x.categories.size());
    for (const std::string& c : x.categories)
        if (measure(c, m.f.tick, false).w > slot * 0.92) return -30;
    return 0;
}

double x_tick_band_height(const Axis& x, double angle, const Metrics& m,
                          const TextMeasure& measure) {
    double h = measure("0", m.f.tick, false).h;
    if (angle == 0) return h;
    double widest = 0;
    for (const Tick& t : x.ticks) widest = std::max(widest, measure(t.label, m.f.tick, false).w);
    const double a = std::fabs(angle) * kPi / 180;
    return widest * std::sin(a) + h * std::cos(a);
}

// Lays out one panel inside `area`: where the plot rect goes after room for the panel title,
// the y tick labels and axis label on the left and the x tick labels and axis label below.
PanelLayout place_panel(const Panel& panel, const Rect& area, const Metrics& m,
                        const TextMeasure& measure, double* x_label_angle) {
    PanelLayout pl;
    pl.x = panel.x;
    pl.y = panel.y;
    const double title_h = panel.title.empty() ? 0 : m.f.panel_title * 1.6;
    double y_tick_w = 0;
    for (const Tick& t : panel.y.ticks)
        y_tick_w = std::max(y_tick_w, measure(t.label, m.f.tick, false).w);
    const double y_label_w = panel.y.label.empty() ? 0 : measure("Ag", m.f.axis_label, false).h;
    const double left = area.x + y_label_w + m.gap * 1.2 + y_tick_w + m.tick_len + m.gap * 0.6;
    // Room on the right for half of the last x tick label, which is centred on its tick.
    double right_pad = m.gap * 2;
    if (!panel.x.categorical() && !panel.x.ticks.empty())
        right_pad = std::max(right_pad, measure(panel.x.ticks.back().label, m.f.tick, false).w / 2);
    const double plot_w = std::max(10.0, area.right() - right_pad - left);
    *x_label_angle = category_label_angle(panel.x, plot_w, m, measure);
    const double x_ticks_h = x_tick_band_height(panel.x, *x_label_angle, m, measure);
    const double x_label_h = panel.x.label.empty() ? 0 : measure("Ag", m.f.axis_label, false).h;
    const double top = area.y + title_h + m.above_plot;
    const double bottom = area.bottom() - x_label_h - m.gap * 1.2 - x_ticks_h - m.tick_len - m.gap;
    pl.plot = Rect{left, top, plot_w, std::max(10.0, bottom - top)};
    const double band_h = m.label_rows * m.label_row_h;
    pl.label_band = Rect{left, pl.plot.y - m.gap * 0.3 - band_h, plot_w, band_h};

    // Bars: series with a point at category i share the slot, side by side, in series order.
    pl.bar_rects.resize(panel.series.size());
    if (panel.x.categorical()) {
        const size_t n = panel.x.categories.size();
        std::vector<std::vector<std::pair<size_t, size_t>>> in_slot(n);  // (series, point)
        for (size_t s = 0; s < panel.series.size(); ++s) {
            const Series& ser = panel.series[s];
            if (ser.kind != SeriesKind::bars) continue;
            pl.bar_rects[s].resize(ser.points.size());
            for (size_t i = 0; i < ser.points.size(); ++i) {
                const long c = std::lround(ser.points[i].x);
                if (c >= 0 && static_cast<size_t>(c) < n) in_slot[c].push_back({s, i});
            }
        }
        const double slot_w = pl.plot.w / std::max<size_t>(1, n);
        const double base_v =
            panel.y.scale == AxisScale::linear ? std::max(0.0, panel.y.min) : panel.y.min;
        const double base_px = pl.y_px(base_v);
        for (size_t c = 0; c < n; ++c) {
            const size_t k = in_slot[c].size();
            if (k == 0) continue;
            const double group_w = slot_w * (k == 1 ? 0.6 : 0.8);
            const double bar_w = group_w / static_cast<double>(k);
            const double x0 = pl.x_px(static_cast<double>(c)) - group_w / 2;
            for (size_t j = 0; j < k; ++j) {
                const auto [s, i] = in_slot[c][j];
                const double v = panel.series[s].points[i].y;
                const double top_px = std::isfinite(v) ? std::min(pl.y_px(v), base_px) : base_px;
                pl.bar_rects[s][i] = Rect{x0 + bar_w * static_cast<double>(j) + bar_w * 0.06,
                                          top_px, bar_w * 0.88, base_px - top_px};
            }
        }
    }
    return pl;
}

std::vector<PanelLayout> place_panels(const Chart& chart, const Rect& region, const Metrics& m,
                                      const TextMeasure& measure, std::vector<double>* angles) {
    std::vector<PanelLayout> out;
    const size_t n = chart.panels.size();
    const double gap = m.panel_gap;
    const double w = (region.w - gap * static_cast<double>(n - 1)) / static_cast<double>(n);
    angles->assign(n, 0);
    for (size_t i = 0; i < n; ++i) {
        Rect area{region.x + static_cast<double>(i) * (w + gap), region.y, w, region.h};
        out.push_back(place_panel(chart.panels[i], area, m, measure, &(*angles)[i]));
    }
    return out;
}

Rect inflate(const Rect& r, double d) {
    return Rect{r.x - d, r.y - d, r.w + 2 * d, r.h + 2 * d};
}

bool segment_hits(Vec2 a, Vec2 b, const Rect& r) {
    const double len = std::hypot(b.x - a.x, b.y - a.y);
    const int steps = std::max(1, static_cast<int>(len / 2));
    for (int i = 0; i <= steps; ++i) {
        const double t = static_cast<double>(i) / steps;
        if (r.contains(Vec2{a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t})) return true;
    }
    return false;
}

}  // namespace

bool rect_covers_data(const Chart& chart, const ChartLayout& layout, const Rect& r) {
    const double pad = layout.fonts.tick / 20.0 * 10;  // a marker's radius plus breathing room
    const Rect grown = inflate(r, pad);
    for (size_t p = 0; p < chart.panels.size() && p < layout.panels.size(); ++p) {
        const Panel& panel = chart.panels[p];
        const PanelLayout& pl = layout.panels[p];
        if (!pl.plot.intersects(grown)) continue;
        for (size_t s = 0; s < panel.series.size(); ++s) {
            const Series& ser = panel.series[s];
            switch (ser.kind) {
                case SeriesKind::hline: {
                    if (ser.points.empty()) break;
                    const double y = pl.y_px(ser.points[0].y);
                    if (y >= grown.y && y <= grown.bottom()) return true;
                    break;
                }
                case SeriesKind::band: {
                    if (ser.points.empty()) break;
                    const double y0 = pl.y_px(ser.points[0].y_hi), y1 = pl.y_px(ser.points[0].y);
                    if (Rect{pl.plot.x, y0, pl.plot.w, y1 - y0}.intersects(r)) return true;
                    break;
                }
                case SeriesKind::bars:
                    for (const Rect& b : pl.bar_rects[s])
                        if (b.intersects(grown)) return true;
                    break;
                case SeriesKind::line:
                    for (size_t i = 0; i < ser.points.size(); ++i) {
                        const Vec2 a{pl.x_px(ser.points[i].x), pl.y_px(ser.points[i].y)};
                        if (grown.contains(a)) return true;
                        if (i + 1 < ser.points.size()) {
                            const Vec2 b{pl.x_px(ser.points[i + 1].x),
                                         pl.y_px(ser.points[i + 1].y)};
                            if (segment_hits(a, b, grown)) return true;
                        }
                    }
                    break;
            }
        }
    }
    return false;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Draw operations: panels

namespace {

struct Emitter {
    const Theme& theme;
    const Metrics& m;
    std::vector<DrawOp>& ops;

    void fill(const Rect& r, Rgb c, double alpha = 1) {
        DrawOp op;
        op.kind = OpKind::fill_rect;
        op.rect = r;
        op.color = c;
        op.alpha = alpha;
        ops.push_back(op);
    }
    void stroke(const Rect& r, Rgb c, double width) {
        DrawOp op;
        op.kind = OpKind::stroke_rect;
        op.rect = r;
        op.color = c;
        op.width = width;
        ops.push_back(op);
    }
    void line(Vec2 a, Vec2 b, Rgb c, double width, std::vector<double> dash = {}) {
        DrawOp op;
        op.kind = OpKind::line;
        op.pts = {a, b};
        op.color = c;
        op.width = width;
        op.dash = std::move(dash);
        ops.push_back(op);
    }
    void text(const std::string& t, Vec2 at, double px, Rgb c, double halign = 0, bool bold = false,
              double angle = 0) {
        DrawOp op;
        op.kind = OpKind::text;
        op.text = t;
        op.pts = {at};
        op.font_px = px;
        op.color = c;
        op.halign = halign;
        op.bold = bold;
        op.angle_deg = angle;
        ops.push_back(op);
    }
    void marker(MarkerShape shape, Vec2 at, double r, Rgb fill_c, Rgb outline) {
        DrawOp op;
        op.kind = OpKind::marker;
        op.shape = shape;
        op.pts = {at};
        op.radius = r;
        op.color = fill_c;
        op.outline = outline;
        op.width = 1.2 * m.s;
        ops.push_back(op);
    }
    // A series' marker in colour c on `background`: filled with a thin halo, or, for a hollow
    // series, an outline in c around the background (an X has no inside, so it stays solid).
    void series_marker(MarkerShape shape, Vec2 at, double r, Rgb c, Rgb background, bool hollow) {
        if (!hollow || shape == MarkerShape::cross) {
            marker(shape, at, r, c, background);
            return;
        }
        marker(shape, at, r, background, c);
        ops.back().width = 2.4 * m.s;
    }
    void ring(Vec2 at, double r, Rgb c, double width) {
        DrawOp op;
        op.kind = OpKind::ring;
        op.pts = {at};
        op.radius = r;
        op.color = c;
        op.width = width;
        ops.push_back(op);
    }
    void hatch(const Rect& r, Rgb c) {
        DrawOp op;
        op.kind = OpKind::hatch_rect;
        op.rect = r;
        op.color = c;
        op.width = 1.4 * m.s;
        op.radius = 7 * m.s;  // spacing between hatch lines
        ops.push_back(op);
    }
    std::vector<double> dash() const { return {10 * m.s, 6 * m.s}; }
};

// Which tick labels to write: all of them when they fit side by side, else every second (or
// third, ...) one, counted from the first, so a short plot or large text never piles labels on
// top of each other. The ticks and grid lines all stay.
std::vector<bool> labels_that_fit(const std::vector<Tick>& ticks, const PanelLayout& pl,
                                  bool along_x, const Metrics& m, const TextMeasure& measure) {
    std::vector<bool> shown(ticks.size(), true);
    double room = 1e300, need = 0;
    for (size_t i = 0; i < ticks.size(); ++i) {
        const TextSize sz = measure(ticks[i].label, m.f.tick, false);
        need = std::max(need, (along_x ? sz.w : sz.h) + m.gap * (along_x ? 0.8 : 0.1));
        if (i > 0) {
            const double d = along_x ? pl.x_px(ticks[i].value) - pl.x_px(ticks[i - 1].value)
                                     : pl.y_px(ticks[i - 1].value) - pl.y_px(ticks[i].value);
            room = std::min(room, std::fabs(d));
        }
    }
    if (ticks.size() < 2 || room >= need) return shown;
    const size_t every = static_cast<size_t>(std::ceil(need / std::max(room, 1e-9)));
    for (size_t i = 0; i < ticks.size(); ++i) shown[i] = i % every == 0;
    return shown;
}

void emit_panel(const Panel& panel, const PanelLayout& pl, double x_angle, Emitter& e,
                const TextMeasure& measure) {
    const Theme& th = e.theme;
    const Metrics& m = e.m;
    const Rect& r = pl.plot;
    e.fill(r, th.plot_background);

    // Grid under everything: horizontal lines at y ticks, vertical at x ticks (not categories).
    for (const Tick& t : panel.y.ticks) {
        if (t.value < std::min(panel.y.min, panel.y.max) - 1e-12 ||
            t.value > std::max(panel.y.min, panel.y.max) * (1 + 1e-12))
            continue;
        const double y = pl.y_px(t.value);
        e.line({r.x, y}, {r.right(), y}, th.grid, 1.0 * m.s);
    }
    if (!panel.x.categorical()) {
        for (const Tick& t : panel.x.ticks) {
            const double x = pl.x_px(t.value);
            if (x < r.x - 0.5 || x > r.right() + 0.5) continue;
            e.line({x, r.y}, {x, r.bottom()}, th.grid, 1.0 * m.s);
        }
    }

    DrawOp clip;
    clip.kind = OpKind::clip_begin;
    clip.rect = r;
    e.ops.push_back(clip);
    for (const Series& s : panel.series) {  // bands first: they are backgrounds
        if (s.kind != SeriesKind::band || s.points.empty()) continue;
        const double y0 = pl.y_px(s.points[0].y_hi), y1 = pl.y_px(s.points[0].y);
        e.fill(Rect{r.x, y0, r.w, y1 - y0}, th.series_color(s.color), 0.13);
    }
    for (size_t si = 0; si < panel.series.size(); ++si) {
        const Series& s = panel.series[si];
        const Rgb c = th.series_color(s.color);
        if (s.kind == SeriesKind::bars) {
            for (size_t i = 0; i < s.points.size(); ++i) {
                const Rect& b = pl.bar_rects[si][i];
                if (!std::isfinite(s.points[i].y)) continue;
                e.fill(b, c, 0.92);
                if (s.points[i].flags & kPointL2Resident) e.hatch(b, th.plot_background);
            }
        } else if (s.kind == SeriesKind::hline && !s.points.empty()) {
            const double y = pl.y_px(s.points[0].y);
            e.line({r.x, y}, {r.right(), y}, c, 2.0 * m.s,
                   s.dashed ? e.dash() : std::vector<double>{});
        } else if (s.kind == SeriesKind::line && !s.points.empty()) {
            DrawOp op;
            op.kind = OpKind::polyline;
            op.color = c;
            op.width = m.line;
            if (s.dashed) op.dash = e.dash();
            for (const Point& p : s.points) op.pts.push_back({pl.x_px(p.x), pl.y_px(p.y)});
            e.ops.push_back(op);
            for (const Point& p : s.points) {
                const Vec2 at{pl.x_px(p.x), pl.y_px(p.y)};
                if (p.flags & kPointRangeEnd)
                    e.line({at.x, at.y - 15 * m.s}, {at.x, at.y + 15 * m.s}, c, 3 * m.s);
                e.series_marker(s.marker, at, m.marker, c, th.plot_background, s.hollow);
                if (p.flags & kPointL2Resident) e.ring(at, m.marker * 2, th.reference, 1.8 * m.s);
            }
        }
    }
    DrawOp unclip;
    unclip.kind = OpKind::clip_end;
    e.ops.push_back(unclip);

    // Values over bars (a slide reader wants the number, not an estimate from the grid), and
    // "n/a" where a bar has no measurement.
    for (size_t si = 0; si < panel.series.size(); ++si) {
        const Series& s = panel.series[si];
        if (s.kind != SeriesKind::bars) continue;
        for (size_t i = 0; i < s.points.size(); ++i) {
            const Rect& b = pl.bar_rects[si][i];
            const bool missing = !std::isfinite(s.points[i].y);
            const std::string label = missing ? "n/a" : format_tick(s.points[i].y, panel.y.format);
            double px = e.m.f.value;
            while (px > e.m.f.value * 0.75 && measure(label, px, false).w > b.w * 1.25) px *= 0.92;
            if (measure(label, px, false).w > b.w * 1.25) continue;  // unreadable: leave it out
            e.text(label, {b.x + b.w / 2, b.y - px * 0.75}, px, missing ? th.muted_text : th.text,
                   0.5);
        }
    }

    // Axes: left and bottom spines, tick marks, tick labels, axis labels.
    e.line({r.x, r.bottom()}, {r.right(), r.bottom()}, th.axis, 1.3 * m.s);
    e.line({r.x, r.y}, {r.x, r.bottom()}, th.axis, 1.3 * m.s);
    const double tick_h = measure("0", m.f.tick, false).h;
    const std::vector<bool> y_shown = labels_that_fit(panel.y.ticks, pl, false, m, measure);
    for (size_t i = 0; i < panel.y.ticks.size(); ++i) {
        const Tick& t = panel.y.ticks[i];
        const double y = pl.y_px(t.value);
        if (y < r.y - 0.5 || y > r.bottom() + 0.5) continue;
        e.line({r.x - m.tick_len, y}, {r.x, y}, th.axis, 1.2 * m.s);
        if (y_shown[i])
            e.text(t.label, {r.x - m.tick_len - m.gap * 0.6, y}, m.f.tick, th.text, 1.0);
    }
    const std::vector<bool> x_shown = x_angle == 0 && !panel.x.categorical()
                                          ? labels_that_fit(panel.x.ticks, pl, true, m, measure)
                                          : std::vector<bool>(panel.x.ticks.size(), true);
    for (size_t i = 0; i < panel.x.ticks.size(); ++i) {
        const Tick& t = panel.x.ticks[i];
        const double x = pl.x_px(t.value);
        if (x < r.x - 0.5 || x > r.right() + 0.5) continue;
        e.line({x, r.bottom()}, {x, r.bottom() + m.tick_len}, th.axis, 1.2 * m.s);
        if (!x_shown[i]) continue;
        const double y = r.bottom() + m.tick_len + m.gap * 0.5 + tick_h / 2;
        if (x_angle == 0)
            e.text(t.label, {x, y}, m.f.tick, th.text, 0.5);
        else
            e.text(t.label, {x + tick_h * 0.3, y}, m.f.tick, th.text, 1.0, false, x_angle);
    }
    const double label_h = measure("Ag", m.f.axis_label, false).h;
    if (!panel.x.label.empty()) {
        const double x_ticks_h = x_tick_band_height(panel.x, x_angle, m, measure);
        const double y = r.bottom() + m.tick_len + m.gap + x_ticks_h + m.gap * 0.6 + label_h / 2;
        e.text(elide(panel.x.label, r.w, m.f.axis_label, false, measure), {r.x + r.w / 2, y},
               m.f.axis_label, th.text, 0.5);
    }
    if (!panel.y.label.empty()) {
        double y_tick_w = 0;
        for (const Tick& t : panel.y.ticks)
            y_tick_w = std::max(y_tick_w, measure(t.label, m.f.tick, false).w);
        const double x = r.x - m.tick_len - m.gap * 0.6 - y_tick_w - m.gap * 1.2 - label_h / 2;
        e.text(elide(panel.y.label, r.h, m.f.axis_label, false, measure), {x, r.y + r.h / 2},
               m.f.axis_label, th.text, 0.5, false, -90);
    }
    if (!panel.title.empty()) {
        e.text(elide(panel.title, r.w, m.f.panel_title, true, measure),
               {r.x + r.w / 2, r.y - m.above_plot - m.f.panel_title * 0.8}, m.f.panel_title,
               th.text, 0.5, true);
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Draw operations: legend, titles, notes

struct LegendBox {
    double w = 0, h = 0, pad = 0, row_h = 0, swatch_w = 0;
};

LegendBox measure_legend(const std::vector<LegendEntry>& entries, const Metrics& m,
                         const TextMeasure& measure) {
    LegendBox b;
    b.pad = 12 * m.t;
    b.row_h = m.f.legend * (m.compact_legend ? 1.3 : 1.55);
    b.swatch_w = (m.compact_legend ? 28 : 44) * m.s;
    double text_w = 0;
    for (const LegendEntry& e : entries)
        text_w = std::max(text_w, measure(e.label, m.f.legend, false).w);
    b.w = b.pad * 2 + b.swatch_w + m.gap + text_w;
    b.h = b.pad * 2 + b.row_h * static_cast<double>(entries.size());
    return b;
}

// Anchors for a boxed, one-entry-per-row legend whose box is at `box_rect`.
std::vector<Vec2> column_anchors(const Rect& box_rect, const LegendBox& box, size_t n) {
    std::vector<Vec2> out;
    for (size_t i = 0; i < n; ++i)
        out.push_back({box_rect.x + box.pad,
                       box_rect.y + box.pad + box.row_h * (static_cast<double>(i) + 0.5)});
    return out;
}

// A legend in rows across `width`, wrapping as needed; returns its height.
double row_anchors(const std::vector<LegendEntry>& entries, const LegendBox& box, double x0,
                   double y0, double width, const Metrics& m, const TextMeasure& measure,
                   std::vector<Vec2>* anchors) {
    double x = x0, row = 0;
    const double col_gap = (m.compact_legend ? 14 : 28) * m.t;
    for (const LegendEntry& e : entries) {
        const double w = box.swatch_w + m.gap + measure(e.label, m.f.legend, false).w;
        if (x > x0 && x + w > x0 + width) {
            x = x0;
            row += 1;
        }
        anchors->push_back({x, y0 + box.row_h * (row + 0.5)});
        x += w + col_gap;
    }
    return entries.empty() ? 0 : box.row_h * (row + 1);
}

void emit_legend(const LegendLayout& lg, const LegendBox& box, Emitter& e) {
    const Theme& th = e.theme;
    const Metrics& m = e.m;
    if (lg.placement != LegendPlacement::above) {
        e.fill(lg.box, th.legend_background, 0.94);
        e.stroke(lg.box, th.grid, 1.2 * m.s);
    }
    for (size_t i = 0; i < lg.entries.size() && i < lg.anchors.size(); ++i) {
        const LegendEntry& en = lg.entries[i];
        const double cy = lg.anchors[i].y;
        const double x0 = lg.anchors[i].x, x1 = x0 + box.swatch_w, cx = (x0 + x1) / 2;
        const Rgb c = th.series_color(en.color);
        switch (en.swatch) {
            case LegendSwatch::line:
                e.line({x0, cy}, {x1, cy}, c, m.line, en.dashed ? e.dash() : std::vector<double>{});
                e.series_marker(en.marker, {cx, cy}, m.marker, c, th.legend_background, en.hollow);
                break;
            case LegendSwatch::hline:
                e.line({x0, cy}, {x1, cy}, c, 2.0 * m.s,
                       en.dashed ? e.dash() : std::vector<double>{});
                break;
            case LegendSwatch::bar:
                e.fill(Rect{x0 + 6 * m.s, cy - 8 * m.s, box.swatch_w - 12 * m.s, 16 * m.s}, c,
                       0.92);
                break;
            case LegendSwatch::band:
                e.fill(Rect{x0, cy - 9 * m.s, box.swatch_w, 18 * m.s}, c, 0.18);
                break;
            case LegendSwatch::l2_ring:
                e.ring({cx, cy}, m.marker * 2, th.reference, 1.8 * m.s);
                break;
            case LegendSwatch::l2_hatch: {
                const Rect r{x0 + 6 * m.s, cy - 8 * m.s, box.swatch_w - 12 * m.s, 16 * m.s};
                e.fill(r, th.muted_text, 0.92);
                e.hatch(r, th.legend_background);
                break;
            }
            case LegendSwatch::range_end_marker:
                e.line({cx, cy - 10 * m.s}, {cx, cy + 10 * m.s}, th.reference, 3 * m.s);
                break;
        }
        e.text(en.label, {x1 + m.gap, cy}, m.f.legend, th.text, 0);
    }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] layout_chart

ChartLayout layout_chart(const Chart& chart, const Theme& theme, double width, double height,
                         const TextMeasure& measure, const LayoutOptions& options) {
    ChartLayout out;
    out.width = width;
    out.height = height;
    const Metrics m = make_metrics(width, height, options, measure);
    out.fonts = m.f;
    out.label_rows = m.label_rows;
    out.label_row_h = m.label_row_h;
    Emitter e{theme, m, out.ops};
    e.fill(Rect{0, 0, width, height}, theme.background);

    // Title block.
    double y = m.margin;
    const double text_w = width - 2 * m.margin;
    if (!chart.title.empty()) {
        const double h = measure(chart.title, m.f.title, true).h;
        e.text(elide(chart.title, text_w, m.f.title, true, measure), {m.margin, y + h / 2},
               m.f.title, theme.text, 0, true);
        y += h * 1.1;
    }
    if (!chart.subtitle.empty()) {
        const double h = measure(chart.subtitle, m.f.subtitle, false).h;
        e.text(elide(chart.subtitle, text_w, m.f.subtitle, false, measure), {m.margin, y + h / 2},
               m.f.subtitle, theme.muted_text, 0);
        y += h;
    }
    if (!chart.title.empty() || !chart.subtitle.empty()) y += m.gap * 2;  // under the title block

    // Notes and footnote at the bottom, where they cannot cover data.
    std::vector<std::string> notes;
    for (const Panel& p : chart.panels)
        for (const Message& note : p.notes) {
            const std::string n = message_en(note);
            notes.push_back(chart.panels.size() > 1 && !p.title.empty() ? p.title + ": " + n : n);
        }
    if (!chart.footnote.empty()) notes.push_back(chart.footnote);
    const double note_h = measure("Ag", m.f.note, false).h * 1.15;
    double bottom = height - m.margin - note_h * static_cast<double>(notes.size());
    for (size_t i = 0; i < notes.size(); ++i) {
        e.text(elide(notes[i], text_w, m.f.note, false, measure),
               {m.margin, bottom + note_h * (static_cast<double>(i) + 0.5)}, m.f.note,
               theme.muted_text, 0);
    }
    if (!notes.empty()) bottom -= m.gap;

    // Panels, then the legend: inside a free corner of a single plot when one exists, else in
    // its own column on the right (the plots shrink to make room), or in rows above the plots
    // for multi-panel charts and narrow canvases.
    Rect region{m.margin, y, width - 2 * m.margin, std::max(50.0, bottom - y)};
    std::vector<LegendEntry> entries = legend_entries(chart);
    if (m.compact_legend)
        for (LegendEntry& en : entries)
            if (en.swatch == LegendSwatch::range_end_marker) en.label = "range end";
    const LegendBox box = measure_legend(entries, m, measure);
    std::vector<double> angles;
    LegendPlacement want = chart.legend;
    if (entries.empty()) want = LegendPlacement::hidden;
    out.legend.entries = entries;
    out.legend.placement = LegendPlacement::hidden;
    // Rows of entries above the plots, which move down to make room.
    const auto place_above = [&] {
        out.legend.anchors.clear();
        const double h = row_anchors(entries, box, region.x, region.y, region.w, m, measure,
                                     &out.legend.anchors);
        out.legend.placement = LegendPlacement::above;
        out.legend.box = Rect{region.x, region.y, region.w, h};
        region.y += h + m.gap * 1.5;
        region.h -= h + m.gap * 1.5;
        out.panels = place_panels(chart, region, m, measure, &angles);
    };
    if (want == LegendPlacement::automatic && chart.panels.size() > 1)
        want = LegendPlacement::above;  // no single plot to tuck it into; keep the plots wide
    if (want == LegendPlacement::above) place_above();
    if (want != LegendPlacement::hidden && want != LegendPlacement::outside_right &&
        want != LegendPlacement::above) {
        out.panels = place_panels(chart, region, m, measure, &angles);
        const Rect& plot = out.panels[0].plot;
        const double inset = 14 * m.s;
        std::vector<LegendPlacement> tries = {LegendPlacement::top_left, LegendPlacement::top_right,
                                              LegendPlacement::bottom_right,
                                              LegendPlacement::bottom_left};
        if (want != LegendPlacement::automatic) tries = {want};
        const bool fits = chart.panels.size() == 1 && box.w < plot.w * 0.6 && box.h < plot.h * 0.8;
        for (LegendPlacement p : tries) {
            if (!fits) break;
            const bool left = p == LegendPlacement::top_left || p == LegendPlacement::bottom_left;
            const bool top = p == LegendPlacement::top_left || p == LegendPlacement::top_right;
            Rect r{left ? plot.x + inset : plot.right() - inset - box.w,
                   top ? plot.y + inset : plot.bottom() - inset - box.h, box.w, box.h};
            if (want == LegendPlacement::automatic && rect_covers_data(chart, out, r)) continue;
            out.legend.placement = p;
            out.legend.box = r;
            out.legend.anchors = column_anchors(r, box, entries.size());
            break;
        }
        if (out.legend.placement == LegendPlacement::hidden) {
            // No free corner. A column on the right, unless it would eat over a third of a narrow
            // canvas; then rows above the plot.
            want =
                box.w > region.w * 0.35 ? LegendPlacement::above : LegendPlacement::outside_right;
            if (want == LegendPlacement::above) place_above();
        }
    }
    if (want == LegendPlacement::outside_right) {
        Rect shrunk = region;
        shrunk.w -= box.w + m.margin;
        out.panels = place_panels(chart, shrunk, m, measure, &angles);
        out.legend.placement = LegendPlacement::outside_right;
        out.legend.box = Rect{region.right() - box.w, out.panels[0].plot.y, box.w, box.h};
        out.legend.anchors = column_anchors(out.legend.box, box, entries.size());
    } else if (out.panels.empty()) {
        out.panels = place_panels(chart, region, m, measure, &angles);
    }
    out.legend.visible = out.legend.placement != LegendPlacement::hidden;
    out.legend.row_h = box.row_h;

    for (size_t i = 0; i < chart.panels.size(); ++i)
        emit_panel(chart.panels[i], out.panels[i], angles[i], e, measure);
    if (out.legend.visible) emit_legend(out.legend, box, e);
    return out;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Hit-testing

std::optional<Hit> hit_test(const Chart& chart, const ChartLayout& layout, double px, double py,
                            double radius_px) {
    std::optional<Hit> best;
    for (size_t p = 0; p < chart.panels.size() && p < layout.panels.size(); ++p) {
        const PanelLayout& pl = layout.panels[p];
        if (!inflate(pl.plot, radius_px).contains({px, py})) continue;
        const Panel& panel = chart.panels[p];
        for (size_t s = 0; s < panel.series.size(); ++s) {
            const Series& ser = panel.series[s];
            for (size_t i = 0; i < ser.points.size(); ++i) {
                double d = 0;
                if (ser.kind == SeriesKind::bars) {
                    if (!inflate(pl.bar_rects[s][i], 2).contains({px, py})) continue;
                } else if (ser.kind == SeriesKind::line) {
                    d = std::hypot(pl.x_px(ser.points[i].x) - px, pl.y_px(ser.points[i].y) - py);
                    if (d > radius_px) continue;
                } else {
                    continue;
                }
                if (!best || d < best->distance_px)
                    best = Hit{static_cast<int>(p), static_cast<int>(s), static_cast<int>(i), d};
            }
        }
    }
    return best;
}

}  // namespace sml::chart
