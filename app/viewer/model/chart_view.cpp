// A lesson step's chart. See chart_view.h.
#include "app/viewer/model/chart_view.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <tuple>

#include "app/viewer/model/ui_text.h"
#include "core/chart/chart_build.h"

namespace sml::viewer {

namespace {

constexpr double kDodgeOctaves = 0.2;

bool is_pow2(double v) {
    if (!(v >= 1) || v != std::floor(v) || v > 9.0e15) return false;
    const auto n = static_cast<long long>(v);
    return (n & (n - 1)) == 0;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

std::string kernel_of_key(const std::string& key) {
    return key.substr(0, key.find('/'));
}

constexpr const char* kLegendPrefix = "legend: ";

// A series key split into its id ("fused", "smem/bank-conflicted") and what a comparison adds:
// the compared lines are "fused (H100)", the legend's kernel entries "legend: fused" and its
// style entries "legend: H100" (core/chart/chart_build.cpp, side_lines). Kernel ids have no
// spaces, so the id ends at the first one.
struct KeyParts {
    std::string id;
    std::string session;  // " (H100)" or ""
    bool legend = false;  // a legend-only entry of a comparison
};

KeyParts split_key(const std::string& key) {
    KeyParts k;
    std::string rest = key;
    if (rest.rfind(kLegendPrefix, 0) == 0) {
        k.legend = true;
        rest = rest.substr(std::char_traits<char>::length(kLegendPrefix));
    }
    const size_t space = rest.find(' ');
    k.id = rest.substr(0, space);
    if (space != std::string::npos) k.session = rest.substr(space);
    return k;
}

// An axis over N (the bandwidth and % of copy charts), not a category axis or a value axis.
bool is_n_axis(const chart::Axis& a) {
    return !a.categorical() && a.scale == chart::AxisScale::log2 &&
           a.format == chart::TickFormat::pow2_count;
}

}  // namespace

double dodge_n(double n, const std::vector<double>& all_n) {
    if (!is_pow2(n - 1)) return n;
    if (std::find(all_n.begin(), all_n.end(), n - 1) == all_n.end()) return n;
    return n * std::pow(2.0, kDodgeOctaves);
}

double ChartView::real_x(double drawn) const {
    for (const auto& [x, n] : shifted)
        if (std::fabs(x - drawn) <= 1e-9 * std::max(1.0, std::fabs(x))) return n;
    return drawn;
}

std::string ChartView::key_of_label(const std::string& label) const {
    for (const chart::Panel& p : chart.panels)
        for (const chart::Series& s : p.series)
            if (s.label == label) return s.key;
    return "";
}

Result<ChartView> build_chart_view(const Session& session, const Session* compared,
                                   const ChartPreset& preset) {
    // Only the preset's kernels: the axes then fit what is shown, and the per-N charts list only
    // these kernels. Colours come from the registry index, so they do not change.
    auto only_preset = [&](const Session& s) {
        Session shown = s;
        if (!preset.kernels.empty()) {
            shown.points.clear();
            for (const PointRecord& p : s.points)
                if (contains(preset.kernels, p.kernel)) shown.points.push_back(p);
        }
        return shown;
    };
    const Session shown = only_preset(session);
    Session shown_compared;
    chart::ChartInput input;
    input.session = &shown;
    if (compared) {
        shown_compared = only_preset(*compared);
        input.compare = &shown_compared;
    }
    chart::ChartOptions opt;
    opt.kind = preset.kind;
    opt.cols = preset.cols;
    opt.dtype = preset.dtype;
    Result<chart::Chart> built = chart::build_chart(input, opt);
    if (!built) return built.error();

    ChartView v;
    v.chart = std::move(*built);
    std::vector<std::string> withheld_shown;
    for (chart::Panel& panel : v.chart.panels) {
        const bool over_n = is_n_axis(panel.x);
        std::vector<double> all_n;
        if (over_n)
            for (const chart::Series& s : panel.series)
                if (s.kind == chart::SeriesKind::line)
                    for (const chart::Point& p : s.points) all_n.push_back(p.x);

        std::vector<chart::Series> kept;
        for (chart::Series& s : panel.series) {
            const KeyParts parts = split_key(s.key);
            // A comparison's style entries ("H100: solid lines") name a session, not a kernel.
            const bool style_entry = parts.legend && s.kernel.empty();
            const std::string kernel = !s.kernel.empty() ? s.kernel
                                       : style_entry     ? ""
                                                         : kernel_of_key(parts.id);
            // Predict mode: the lines of the kernels asked about wait for the guess.
            if (preset.withheld.count(kernel) && s.kind == chart::SeriesKind::line) {
                if (!contains(withheld_shown, kernel)) withheld_shown.push_back(kernel);
                continue;
            }
            if (panel.x.categorical() && s.kind == chart::SeriesKind::bars) {
                // Bars of a withheld kernel (its category) go too, the formula's with them: a
                // predicted 4x is step 1's answer.
                std::vector<chart::Point> pts;
                for (const chart::Point& p : s.points) {
                    const long c = std::lround(p.x);
                    const std::string cat =
                        c >= 0 && static_cast<size_t>(c) < panel.x.categories.size()
                            ? panel.x.categories[static_cast<size_t>(c)]
                            : "";
                    if (preset.withheld.count(kernel_of_key(split_key(cat).id)) ||
                        preset.withheld.count(kernel)) {
                        // (a metrics chart's series is the kernel; a bytes chart's category)
                        const std::string k = kernel_of_key(split_key(cat).id);
                        if (!contains(withheld_shown, k)) withheld_shown.push_back(k);
                        continue;
                    }
                    pts.push_back(p);
                }
                s.points = std::move(pts);
            }
            if (over_n && s.kind == chart::SeriesKind::line)
                for (chart::Point& p : s.points) {
                    const double x = dodge_n(p.x, all_n);
                    if (x != p.x) {
                        v.shifted.emplace_back(x, p.x);
                        p.x = x;
                    }
                }
            // The legend entry stays. A comparison's legend lists a kernel once: hiding it
            // hides both sessions' lines.
            if (preset.hidden.count(s.key) ||
                (!style_entry && preset.hidden.count(kLegendPrefix + parts.id)))
                s.points.clear();
            // On screen the legend must fit a panel a third of a projector tall: a kernel is
            // its id (the code panel and the lesson call it that), the shaded 85-100% band
            // explains itself against the y axis.
            if (!kernel.empty() &&
                (s.kind == chart::SeriesKind::line || s.kind == chart::SeriesKind::bars) &&
                s.key != "predicted" && s.key != "measured" && s.key != "time") {
                const size_t slash = parts.id.find('/');
                s.label = (slash == std::string::npos ? parts.id
                                                      : parts.id.substr(0, slash) + " [" +
                                                            parts.id.substr(slash + 1) + "]") +
                          parts.session;
            }
            if (s.kind == chart::SeriesKind::band) s.in_legend = false;
            kept.push_back(std::move(s));
        }
        panel.series = std::move(kept);
        if (over_n)
            for (int64_t m : preset.marks) {
                const double x = dodge_n(static_cast<double>(m), all_n);
                if (x < panel.x.min || x > panel.x.max) continue;
                v.marks.push_back({x, "N = " + std::to_string(m), m});
            }
    }
    // Left to right: close ones share a label (place_mark_labels).
    std::sort(v.marks.begin(), v.marks.end(),
              [](const ChartMark& a, const ChartMark& b) { return a.x < b.x; });
    translate_chart(&v.chart, preset.lang);
    for (const chart::Panel& p : v.chart.panels)
        for (const chart::Series& s : p.series)
            if (preset.hidden.count(s.key) && !contains(v.hidden_labels, s.label))
                v.hidden_labels.push_back(s.label);
    if (!withheld_shown.empty()) {
        std::string who;
        for (const std::string& k : withheld_shown) who += (who.empty() ? "" : ", ") + k;
        v.note = who + ": " + ui_text("hidden until you predict", preset.lang) +
                 (preset.lang == "zh" ? "（按 R 揭晓）" : " (R reveals)");
    }
    return v;
}

int legend_entry_at(const chart::ChartLayout& layout, double x, double y) {
    const chart::LegendLayout& lg = layout.legend;
    if (!lg.visible) return -1;
    const double half = lg.row_h / 2;
    for (size_t i = 0; i < lg.entries.size() && i < lg.anchors.size(); ++i) {
        const chart::Vec2 a = lg.anchors[i];
        double right = lg.box.right();
        if (lg.placement == chart::LegendPlacement::above)
            for (size_t j = i + 1; j < lg.anchors.size(); ++j)
                if (std::fabs(lg.anchors[j].y - a.y) < 1e-6) {
                    right = lg.anchors[j].x;
                    break;
                }
        if (x >= a.x && x < right && y >= a.y - half && y < a.y + half) return static_cast<int>(i);
    }
    return -1;
}

namespace {

// One place a label can take: a row of the band, on one side of its lines or over them.
enum class Side { right, left, over };  // the order of preference
struct LabelOption {
    int row = 0;
    Side side = Side::right;
    chart::Rect rect;
};

}  // namespace

std::vector<MarkLabel> place_mark_labels(const chart::ChartLayout& layout,
                                         const std::vector<ChartMark>& marks,
                                         const chart::TextMeasure& measure, bool name_n) {
    if (layout.panels.empty() || marks.empty() || layout.label_rows <= 0) return {};
    const chart::PanelLayout& pl = layout.panels.front();
    const chart::Rect& band = pl.label_band;
    const double px = layout.fonts.tick;
    const double beside = px * 0.3;  // from a line to its label
    const double pad = px * 0.2;     // a label's background reaches this far past its text
    std::vector<double> xs;
    for (const ChartMark& m : marks) xs.push_back(pl.x_px(m.x));
    // Marks closer than a line of text (8192 and 8193) share a label.
    std::vector<MarkLabel> groups;
    for (size_t i = 0; i < marks.size(); ++i) {
        if (!groups.empty() && xs[i] - xs[groups.back().last] < px * 1.2) {
            groups.back().last = i;
            groups.back().text += ", " + std::to_string(marks[i].n);
            continue;
        }
        MarkLabel g;
        g.first = g.last = i;
        g.text = name_n ? marks[i].label : std::to_string(marks[i].n);
        groups.push_back(g);
    }
    const size_t n = groups.size();
    std::vector<std::vector<LabelOption>> options(n);
    for (size_t g = 0; g < n; ++g) {
        const chart::TextSize sz = measure(groups[g].text, px, false);
        const double lo = xs[groups[g].first], hi = xs[groups[g].last];
        for (int row = 0; row < layout.label_rows; ++row) {
            const double y = band.bottom() - (row + 0.5) * layout.label_row_h - sz.h / 2;
            // Beside the lines, on their right or left, or over them (moved to stay on the
            // canvas, but still over every one of them: the lines end under it).
            const double over =
                std::clamp((lo + hi - sz.w) / 2, pl.plot.x + pad, layout.width - pad - sz.w);
            for (const auto& [side, x] :
                 {std::pair{Side::right, hi + beside}, std::pair{Side::left, lo - beside - sz.w},
                  std::pair{Side::over, over}}) {
                const chart::Rect r{x, y, sz.w, sz.h};
                // On the canvas, right of the y axis' tick labels, off the legend.
                if (r.x - pad < pl.plot.x - 0.01 || r.right() + pad > layout.width + 0.01) continue;
                if (side == Side::over && (r.x > lo || r.right() < hi)) continue;
                if (layout.legend.visible && layout.legend.box.intersects(r)) continue;
                options[g].push_back({row, side, r});
            }
        }
    }
    // Two labels clash when they overlap, or when one covers a line of the other, which reaches
    // up into its label's row.
    const auto covers_line_of = [&](const LabelOption& a, size_t g) {
        for (size_t i = groups[g].first; i <= groups[g].last; ++i)
            if (xs[i] >= a.rect.x - pad && xs[i] <= a.rect.right() + pad) return true;
        return false;
    };
    const auto clash = [&](size_t g, const LabelOption& a, size_t h, const LabelOption& b) {
        if (a.row == b.row && a.rect.x - pad < b.rect.right() + pad &&
            b.rect.x - pad < a.rect.right() + pad)
            return true;
        return (b.row >= a.row && covers_line_of(a, h)) || (a.row >= b.row && covers_line_of(b, g));
    };
    // Every choice of side and row (or none) per label, best first. A step marks a few N, so
    // the search is small; a budget bounds it for many.
    struct Cost {
        size_t skipped = 0;
        int rows = 0;
        size_t sides = 0;  // the sides' order of preference, summed
        bool operator<(const Cost& o) const {
            return std::tie(skipped, rows, sides) < std::tie(o.skipped, o.rows, o.sides);
        }
    };
    std::vector<int> pick(n, -1), best_pick(n, -1);
    Cost best{n + 1, 0, 0};
    long budget = 100000;
    const std::function<void(size_t, Cost)> search = [&](size_t g, Cost c) {
        if (--budget < 0 || !(c < best)) return;  // a partial cost only grows
        if (g == n) {
            best = c;
            best_pick = pick;
            return;
        }
        for (size_t o = 0; o < options[g].size(); ++o) {
            const LabelOption& a = options[g][o];
            bool ok = true;
            for (size_t h = 0; h < g && ok; ++h)
                if (pick[h] >= 0) ok = !clash(g, a, h, options[h][static_cast<size_t>(pick[h])]);
            if (!ok) continue;
            pick[g] = static_cast<int>(o);
            Cost next = c;
            next.rows = std::max(next.rows, a.row + 1);
            next.sides += static_cast<size_t>(a.side);
            search(g + 1, next);
        }
        pick[g] = -1;
        Cost next = c;
        ++next.skipped;
        search(g + 1, next);
    };
    search(0, Cost{});
    std::vector<MarkLabel> out;
    for (size_t g = 0; g < n; ++g) {
        if (best_pick[g] < 0) continue;
        const LabelOption& a = options[g][static_cast<size_t>(best_pick[g])];
        MarkLabel l = groups[g];
        l.row = a.row;
        l.rect = a.rect;
        // A line beside its label reaches the middle of the label's row; one under it, its foot.
        l.line_top = a.side == Side::over ? a.rect.bottom()
                                          : band.bottom() - (a.row + 0.5) * layout.label_row_h;
        out.push_back(std::move(l));
    }
    return out;
}

namespace {
size_t labelled(const std::vector<MarkLabel>& labels) {
    size_t n = 0;
    for (const MarkLabel& l : labels) n += l.last - l.first + 1;
    return n;
}
}  // namespace

double screen_tick_px(double text_scale) {
    return 12.5 * text_scale;
}

ScreenChart layout_screen_chart(const chart::Chart& chart, const chart::Theme& theme, double width,
                                double height, double text_scale,
                                const std::vector<ChartMark>& marks,
                                const chart::TextMeasure& measure,
                                const std::string& short_y_label) {
    ScreenChart out;
    chart::Chart shown = chart;
    double want = screen_tick_px(text_scale);
    chart::LayoutOptions opt;
    opt.label_rows_above_plot = marks.empty() ? 0 : 1;
    opt.margin_px = 4;  // the panel has its own padding
    bool name_n = true;
    const auto lay_out = [&] {
        // The layout sizes its fonts for the canvas (a 1600x900 figure has 20 px ticks); a panel
        // a third that size would get unreadable 8 px ticks. So lay out on a smaller canvas and
        // draw it scaled up, picking the smallest scale whose tick labels reach body-text size,
        // but never on a canvas below ~480x270: the plot itself would become a sliver.
        const double max_k = std::max(1.0, std::min(width / 480.0, height / 270.0));
        opt.text_scale = 1;
        for (double k : {1.0, 1.25, 1.5, 1.75, 2.0, 2.5}) {
            if (k > max_k) break;
            out.layout = chart::layout_chart(shown, theme, width / k, height / k, measure, opt);
            out.scale = static_cast<float>(k);
            if (out.layout.fonts.tick * k >= want) break;
        }
        // A panel too small to draw larger (1280x720 with text at 1.5x): larger text on this
        // canvas, and the plot gives up the room.
        const double got = out.layout.fonts.tick * out.scale;
        if (got < want * 0.995) {
            opt.text_scale = want / got;
            out.layout = chart::layout_chart(shown, theme, width / out.scale, height / out.scale,
                                             measure, opt);
        }
        out.mark_labels = place_mark_labels(out.layout, marks, measure, name_n);
    };
    // The marks' labels in one row if they fit, as "N = 8193" or else as "8193" (the axis is N);
    // else in two rows.
    lay_out();
    if (labelled(out.mark_labels) < marks.size()) {
        name_n = false;
        out.mark_labels = place_mark_labels(out.layout, marks, measure, name_n);
    }
    if (labelled(out.mark_labels) < marks.size()) {
        opt.label_rows_above_plot = 2;
        name_n = true;
        lay_out();
        if (labelled(out.mark_labels) < marks.size()) {
            name_n = false;
            out.mark_labels = place_mark_labels(out.layout, marks, measure, name_n);
        }
    }
    // A short plot: the long axis labels give way. The y axis takes the chart kind's short name
    // ("% copy" for "% of copy bandwidth (same run)", which would be cut to "% of co…"), and
    // where the plot is still under two fifths of the canvas, the x axis' label goes (its tick
    // labels are the N, and every chart over N has the same label; a zoomed chart keeps it).
    const auto plot_h = [&] { return out.layout.panels.empty() ? 0 : out.layout.panels[0].plot.h; };
    if (shown.panels.size() == 1 && !short_y_label.empty() &&
        measure(shown.panels[0].y.label, out.layout.fonts.axis_label, false).w > plot_h()) {
        shown.panels[0].y.label = short_y_label;
        lay_out();
    }
    if (plot_h() * out.scale < 0.4 * height) {
        for (chart::Panel& p : shown.panels) p.x.label.clear();
        lay_out();
    }
    // A legend of many lines (step 7 shows every kernel) would still leave a sliver of a plot on
    // a projector's panel: there the text gives back some of its size, never below the size at
    // text scale 1, until the plot has a quarter of the panel's height.
    // A legend of many lines (step 7 shows every kernel) in rows above a short plot: packed
    // closer, so it takes fewer rows and the plot gets them.
    if (out.layout.legend.placement == chart::LegendPlacement::above &&
        plot_h() * out.scale < 0.4 * height) {
        opt.compact_legend = true;
        lay_out();
    }
    while (plot_h() * out.scale < 0.25 * height && want > screen_tick_px(1.0) * 1.01) {
        want = std::max(screen_tick_px(1.0), want * 0.92);
        lay_out();
    }
    return out;
}

std::set<std::string> toggle_hidden(const std::set<std::string>& hidden, const std::string& key) {
    std::set<std::string> out = hidden;
    if (key.empty()) return out;
    if (!out.erase(key)) out.insert(key);
    return out;
}

}  // namespace sml::viewer
