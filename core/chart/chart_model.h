// The chart model: what a chart shows, as plain data, with nothing that draws.
//
// A Chart is built from a Session (chart_build.h), then
//   - laid out by chart_layout.h (pixel geometry: plot rects, ticks, legend) and drawn by a
//     renderer that only knows primitives: Cairo for PNG/SVG/PDF (render_cairo.cpp), ImDrawList
//     in the viewer;
//   - or exported as CSV (csv_export.h) with the exact numbers behind it.
// Keeping the model free of drawing code is what makes the on-screen chart and the exported
// file agree: both read the same axes, ticks, series and legend entries.
//
// Units: every axis label carries its unit, e.g. "bandwidth (GB/s)". Values are stored in the
// axis unit (GB/s, ms, %, bytes); the CSV writes them unchanged.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/message.h"

namespace sml::chart {

// ---------------------------------------------------------------------------------------------
// [SECTION] Axes and ticks
enum class AxisScale { linear, log2, log10 };

// How tick values are written: 1024 -> "1K" (pow2_count), 2.5e9 -> "2.5 GB" (bytes), 85 -> "85%".
enum class TickFormat { number, pow2_count, bytes, percent };

struct Tick {
    double value = 0;
    std::string label;
};

struct Axis {
    std::string label;  // shown on the chart, with the unit: "bandwidth, GB/s"
    std::string name;   // short quantity for CSV columns: "N", "bandwidth", "kernel"
    std::string unit;   // "GB/s", "ms", "%", "bytes", "" (CSV column "bandwidth (GB/s)")
    AxisScale scale = AxisScale::linear;
    TickFormat format = TickFormat::number;
    double min = 0, max = 1;  // visible range, in data units (> 0 on log axes)
    std::vector<Tick> ticks;
    // Non-empty: a categorical axis. Category i sits at value i, the range is [-0.5, n-0.5].
    std::vector<std::string> categories;

    bool categorical() const { return !categories.empty(); }
};

// "Nice" linear ticks covering [lo, hi] (steps of 1, 2, 2.5 or 5 x 10^k), about `target` of them.
// Returns the ticks; *nice_lo / *nice_hi receive the range rounded out to whole steps.
std::vector<Tick> nice_linear_ticks(double lo, double hi, int target, TickFormat format,
                                    double* nice_lo = nullptr, double* nice_hi = nullptr);
// Ticks at powers of two (or ten) inside [lo, hi]; every other power when there would be too many.
std::vector<Tick> log_ticks(double lo, double hi, AxisScale scale, TickFormat format);
std::string format_tick(double value, TickFormat format);
// Fills axis.ticks (and widens min/max to nice values on linear axes) for the axis's scale.
void make_ticks(Axis* axis, double data_lo, double data_hi, bool include_zero);

// ---------------------------------------------------------------------------------------------
// [SECTION] Series
enum class SeriesKind {
    line,   // points joined by a line, with a marker at each point
    bars,   // one bar per point on a categorical x axis; bars sharing a category are grouped
    hline,  // a horizontal reference line at points[0].y across the whole plot
    band,   // a shaded horizontal band from points[0].y to points[0].y_hi
};

enum PointFlag : uint32_t {
    kPointL2Resident = 1u << 0,  // working set fits in L2: measured DRAM < formula
    kPointRangeEnd = 1u << 1,    // the kernel has no point at a larger N in this session
    kPointCountersUnavailable = 1u << 2,
};

struct Point {
    double x = 0, y = 0;
    double y_hi = 0;     // band only
    uint32_t flags = 0;  // PointFlag bits
    // One line shown on hover, e.g. the L2-residency reason. A sentence (common/message.h) where
    // the builder had one, such as a counters reason, so the viewer can say it in its language;
    // message_en() of it is the English (the CSV's note column).
    Message note;
};

enum class MarkerShape { circle, square, triangle, diamond, triangle_down, pentagon, cross, none };

struct Series {
    std::string label;  // legend text
    std::string key;    // stable id for CSV/hit-testing, e.g. "fused" or "copy"
    std::string kernel;  // registry id of the kernel the series shows; "" for references
    SeriesKind kind = SeriesKind::line;
    int color = 0;  // index into Theme::series (kReferenceColor: the theme's reference ink)
    MarkerShape marker = MarkerShape::circle;
    bool dashed = false;
    bool hollow = false;  // markers drawn as outlines: a compared session's lines
    bool in_legend = true;
    std::vector<Point> points;
};

constexpr int kReferenceColor = -1;

// ---------------------------------------------------------------------------------------------
// [SECTION] Panels, legend and the chart
struct Panel {
    std::string title;  // small heading over the plot ("" for single-panel charts)
    Axis x, y;
    std::vector<Series> series;
    // Shown under the plot, e.g. "counters unavailable for naive: ...": sentences, like Point's
    // note, drawn as message_en() of each.
    std::vector<Message> notes;
};

enum class LegendPlacement {
    automatic,  // the layout picks an inside corner free of data, else outside right
    outside_right,
    above,  // one or more rows between the subtitle and the plots (multi-panel charts)
    top_left,
    top_right,
    bottom_left,
    bottom_right,
    hidden,
};

// l2_ring marks an L2-resident point on a line; l2_hatch an L2-resident bar.
enum class LegendSwatch { line, bar, hline, band, l2_ring, l2_hatch, range_end_marker };

struct LegendEntry {
    std::string label;
    LegendSwatch swatch = LegendSwatch::line;
    int color = 0;
    MarkerShape marker = MarkerShape::circle;
    bool dashed = false;
    bool hollow = false;
};

struct Chart {
    std::string kind;  // the ChartKind id it was built as (chart_kinds.h)
    std::string title;
    std::string subtitle;  // provenance: device, date, command (of both sessions when comparing)
    std::vector<Panel> panels;
    LegendPlacement legend = LegendPlacement::automatic;
    std::string footnote;  // e.g. "synthetic session" warnings; "" for none
};

// The legend's entries: one per distinct series label (in order), then one per point flag that
// some point carries (L2-resident, range end).
std::vector<LegendEntry> legend_entries(const Chart& chart);

// ---------------------------------------------------------------------------------------------
// [SECTION] Theme and palette
struct Rgb {
    double r = 0, g = 0, b = 0;
};
Rgb rgb_hex(uint32_t hex);

struct Theme {
    std::string name;
    Rgb background, plot_background, grid, axis, text, muted_text, reference, legend_background;
    std::vector<Rgb> series;  // colourblind-safe (Okabe-Ito order, yellow last)

    Rgb series_color(int index) const;  // wraps around; kReferenceColor -> reference
};

Theme light_theme();
Theme dark_theme();
// "light" or "dark"; nullopt otherwise.
std::optional<Theme> theme_by_name(const std::string& name);

MarkerShape marker_for(int index);

}  // namespace sml::chart
