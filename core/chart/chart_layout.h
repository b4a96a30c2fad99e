// Chart layout: turns a Chart (chart_model.h) into pixel geometry and a flat list of drawing
// operations, with no drawing library in sight.
//
// Every renderer draws the same DrawOps: render_cairo.cpp for PNG/SVG/PDF, and the viewer's
// ImDrawList panel. A renderer therefore only implements primitives (rect, line, polyline,
// marker, text, clip); plot rects, tick positions, bar groups and legend placement are decided
// here once, so the file and the screen agree. Text is measured through a callback because only
// the renderer knows its fonts.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/chart/chart_model.h"

namespace sml::chart {

struct Vec2 {
    double x = 0, y = 0;
};

struct Rect {
    double x = 0, y = 0, w = 0, h = 0;
    double right() const { return x + w; }
    double bottom() const { return y + h; }
    bool contains(Vec2 p) const {
        return p.x >= x && p.x <= right() && p.y >= y && p.y <= bottom();
    }
    bool intersects(const Rect& o) const {
        return x < o.right() && o.x < right() && y < o.bottom() && o.y < bottom();
    }
};

struct TextSize {
    double w = 0, h = 0;
};
// Width and line height of `text` (UTF-8) at `font_px`; bold when `bold`.
using TextMeasure = std::function<TextSize(const std::string& text, double font_px, bool bold)>;
// A font-free estimate (DejaVu Sans proportions), for tests and before fonts are loaded.
TextSize approximate_text_size(const std::string& text, double font_px, bool bold);

// ---------------------------------------------------------------------------------------------
// [SECTION] Drawing operations
enum class OpKind {
    fill_rect,    // rect, color, alpha
    stroke_rect,  // rect, color, width
    hatch_rect,   // rect filled with 45-degree lines (color, width, spacing = radius)
    line,         // pts[0] -> pts[1], color, width, dash
    polyline,     // pts, color, width, dash
    marker,       // shape at pts[0], radius, fill color, outline color
    ring,         // hollow circle at pts[0], radius, color, width
    text,         // text at pts[0]: halign 0/0.5/1, vertically centred; angle in degrees
    clip_begin,   // clip to rect until the matching clip_end
    clip_end,
};

struct DrawOp {
    OpKind kind = OpKind::line;
    Rgb color;
    double alpha = 1.0;
    double width = 1.0;
    std::vector<double> dash;  // on/off lengths in px; empty = solid
    Rect rect;
    std::vector<Vec2> pts;
    MarkerShape shape = MarkerShape::circle;
    double radius = 0;
    Rgb outline;
    std::string text;
    double font_px = 12;
    bool bold = false;
    double halign = 0;  // 0 left, 0.5 centre, 1 right
    double angle_deg = 0;
};

// ---------------------------------------------------------------------------------------------
// [SECTION] Geometry
struct FontSizes {
    double title = 34, subtitle = 19, panel_title = 23, axis_label = 23, tick = 20, legend = 20,
           note = 18, value = 16;
};

struct PanelLayout {
    Rect plot;  // the data area, inside the axes
    // The room kept above the plot for labels a caller draws (LayoutOptions::
    // label_rows_above_plot): as wide as the plot, label_rows rows of label_row_h; h = 0 without.
    Rect label_band;
    Axis x, y;  // copies of the panel's axes (scale and range define the mapping)
    double x_px(double v) const;
    double y_px(double v) const;
    // Bars as drawn: bar_rects[s][i] is the rect of series s, point i (empty for non-bars).
    std::vector<std::vector<Rect>> bar_rects;
};

struct LegendLayout {
    bool visible = false;
    LegendPlacement placement = LegendPlacement::hidden;  // where it ended up (never automatic)
    Rect box;
    std::vector<LegendEntry> entries;
    std::vector<Vec2> anchors;  // per entry: left edge of its swatch, vertical centre of its row
    double row_h = 0;           // the height of a row (an entry's clickable height)
};

struct ChartLayout {
    double width = 0, height = 0;
    FontSizes fonts;
    int label_rows = 0;      // rows of each panel's label_band
    double label_row_h = 0;  // the height of one, for text at fonts.tick
    std::vector<PanelLayout> panels;
    LegendLayout legend;
    std::vector<DrawOp> ops;  // in painting order
};

// What a screen asks of a layout beyond its canvas size. Exported files use the defaults.
struct LayoutOptions {
    // Every font size times this (the viewer's text size: 1.5 on a projector), and with them the
    // spacing measured in text: gaps around tick and axis labels, the legend's padding and
    // columns. The plot takes what is left; lines and markers keep the canvas's scale.
    double text_scale = 1.0;
    // Rows of tick-size text kept free above each plot (PanelLayout::label_band): the viewer puts
    // its N-mark labels there, off the data and off a legend inside the plot.
    int label_rows_above_plot = 0;
    // The blank border of the canvas, px; < 0: the canvas's own (28 px at 1600x900). A panel on
    // screen has its own padding.
    double margin_px = -1;
    // A legend that packs closer, for a short panel on screen where every kernel is listed
    // (step 7 on a projector): rows 1.3 x the font instead of 1.55, shorter swatches, half the
    // space between entries, and the range-end marker's entry as "range end". Exports never
    // set it.
    bool compact_legend = false;
};

// Lays `chart` out on a width x height canvas (px) in `theme`'s colours.
ChartLayout layout_chart(const Chart& chart, const Theme& theme, double width, double height,
                         const TextMeasure& measure, const LayoutOptions& options = {});

// Pixel rects that data occupies in a laid-out panel: markers, line segments (sampled), bars,
// reference lines. Used to keep the legend off the data, and by the tests to prove it.
bool rect_covers_data(const Chart& chart, const ChartLayout& layout, const Rect& r);

// ---------------------------------------------------------------------------------------------
// [SECTION] Hit-testing (the viewer's hover and click)
struct Hit {
    int panel = -1, series = -1, point = -1;
    double distance_px = 0;
};
// The nearest line point or the bar under (px, py) within `radius_px`; reference lines and bands
// are not hit. nullopt when nothing is close enough.
std::optional<Hit> hit_test(const Chart& chart, const ChartLayout& layout, double px, double py,
                            double radius_px = 12);

// Shortens `text` with a trailing "…" until it fits `max_w` px.
std::string elide(const std::string& text, double max_w, double font_px, bool bold,
                  const TextMeasure& measure);

}  // namespace sml::chart
