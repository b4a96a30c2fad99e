// The chart a lesson step opens: which series, where N sits, what is hidden, in which language.
//
// A preset names a chart kind (core/chart/chart_build.h), the kernels to show (the step's own,
// the contrast kernels, and copy, which every chart draws as its reference) and the N the text
// talks about. The chart is built from the session with only those kernels' points, so axes fit
// what is shown and each kernel keeps its registry colour. On top of the core chart:
//   - N and N+1 are drawn apart: on an N axis a point at 2^k + 1 next to one at 2^k moves right by
//     a fifth of an octave, so 8192 and 8193 are two markers, not one spike (hover still reads
//     8193; real_x() maps back);
//   - the marks (N = 8193, ...) are vertical lines with a label, at the points' drawn position;
//   - a legend click hides a series: its points go, its legend entry stays to click again;
//   - predict mode withholds the lines (and bars) of the kernels asked about until the guess.
// No ImGui: panel_charts.cpp draws ChartView::chart and the marks.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"
#include "core/chart/chart_kinds.h"
#include "core/chart/chart_layout.h"
#include "core/chart/chart_model.h"
#include "core/session/session.h"

namespace sml::viewer {

struct ChartPreset {
    std::string kind = "pct";
    std::vector<std::string> kernels;  // empty: every kernel of the session ("show all")
    std::vector<int64_t> marks;        // N values to mark (lines over N only)
    int64_t cols = 0;                  // the N of per-N charts (bytes, naive, metrics)
    std::string dtype = "fp32";
    std::set<std::string> hidden;    // series keys the learner hid from the legend
    std::set<std::string> withheld;  // kernel ids hidden until the prediction
    std::string lang = "en";
};

struct ChartMark {
    double x = 0;       // where it is drawn, in the (shifted) axis value
    std::string label;  // "N = 8193"
    int64_t n = 0;      // 8193
};

struct ChartView {
    chart::Chart chart;
    std::vector<ChartMark> marks;
    std::string note;  // one line under the chart, e.g. which lines predict mode withholds
    std::vector<std::pair<double, double>> shifted;  // (drawn x, real N) of moved points
    std::vector<std::string> hidden_labels;          // legend entries whose series are hidden

    // The N a drawn x stands for (a moved N+1 point maps back to N+1).
    double real_x(double drawn) const;
    // The series key behind a legend label ("" for the layout's own entries, e.g. L2-resident).
    std::string key_of_label(const std::string& label) const;
};

// `compared`: a second session to draw over the first (dashed; core/chart/session_compare.h), or
// null; the preset's kernels filter both.
Result<ChartView> build_chart_view(const Session& session, const Session* compared,
                                   const ChartPreset& preset);

// The position an N takes on a chart where both 2^k and 2^k + 1 are plotted: 2^k + 1 moves to
// (2^k + 1) * 2^(1/5). Any other N stays.
double dodge_n(double n, const std::vector<double>& all_n);

// The legend entry under (x, y) in layout pixels, or -1: a row of the legend box from its swatch
// to the box's right edge (boxed legends) or to the next entry (legends in rows above the plot).
int legend_entry_at(const chart::ChartLayout& layout, double x, double y);

// A label of marks as placed above the plot (place_mark_labels), in layout pixels.
struct MarkLabel {
    size_t first = 0, last = 0;  // the marks it names, first to last (close ones share one)
    std::string text;            // "N = 4096", or "N = 8192, 8193, 12288" for close marks
    int row = 0;                 // 0: the row next to the plot; its lines reach up to this row
    chart::Rect rect;            // the text's box; the text starts at rect.x
    double line_top = 0;         // where its marks' lines end, the middle of its row
};

// Places the marks' labels in the band the layout kept above the first plot
// (chart::LayoutOptions::label_rows_above_plot), in text at the layout's tick size. Marks closer
// than a line of text share one label. Each label sits beside its lines (on the right, else on
// the left) or, where neither fits, over them with the lines ending under it; inside the canvas,
// never over the plot (so never on a data line) nor on the legend, over another label or over a
// line that reaches its row; where labels are too close for one row, one moves up a row and its
// lines reach up to it. Of all the choices of side and row, the one with the fewest labels left out
// (their lines stay), then the fewest rows, then the most beside their lines on the right.
// `name_n`: labels read "N = 8193", else "8193".
std::vector<MarkLabel> place_mark_labels(const chart::ChartLayout& layout,
                                         const std::vector<ChartMark>& marks,
                                         const chart::TextMeasure& measure, bool name_n = true);

// The chart as the Charts panel draws it, in a panel of width x height screen pixels.
struct ScreenChart {
    chart::ChartLayout layout;  // in layout pixels
    float scale = 1;            // screen pixels per layout pixel
    std::vector<MarkLabel> mark_labels;
};
// Lays `chart` out for the screen so its text is as large as the UI's (`text_scale`, 1.5 on a
// projector): a layout made for a small canvas and drawn `scale` times larger where the panel
// has room, and, where it has not, text larger than the canvas alone would give it (the plot
// takes what is left). Room above the plot holds the marks' labels (one row, or two when
// labels need it). A single plot too short for its y axis' label ("% of copy bandwidth (same
// run)" cut to "% of co…") is labelled `short_y_label` instead (the chart kind's name, "% copy"),
// and a plot under two fifths of the panel's height drops its x axis' label. Where a plot would
// still get under a quarter of the panel (a legend of every kernel), the text gives back some of
// its size, never below its size at text scale 1.
ScreenChart layout_screen_chart(const chart::Chart& chart, const chart::Theme& theme, double width,
                                double height, double text_scale,
                                const std::vector<ChartMark>& marks,
                                const chart::TextMeasure& measure,
                                const std::string& short_y_label = "");
// The tick labels' size the panel aims at: the UI's body text (12.5 px at text scale 1).
double screen_tick_px(double text_scale);

// The preset's series toggled: a key that was hidden shows again, and the other way round.
std::set<std::string> toggle_hidden(const std::set<std::string>& hidden, const std::string& key);

}  // namespace sml::viewer
