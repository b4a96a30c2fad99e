// CSV export: the exact numbers behind a chart, one row per series point (see chart_export.h).
//
// Columns: panel, series, kind, <x quantity (unit)>, <y quantity (unit)>, band_upper,
// l2_resident, range_end, counters_unavailable, note. When the panels of a chart plot different
// quantities (the naive and metrics charts), the y column becomes three: quantity, unit, value.
// Numbers are written in the shortest form that reads back to the same double, so a CSV
// reader gets exactly what the session holds. Missing values (no counters) are empty cells.
// No comment lines: every spreadsheet and CSV parser reads the file as it is.
#include <charconv>
#include <cmath>
#include <string>

#include "core/chart/chart_export.h"

namespace sml::chart {

namespace {

std::string number(double v) {
    if (!std::isfinite(v)) return "";
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

// RFC 4180 quoting: only when a field needs it.
std::string field(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) {
        if (c == '"') q += '"';
        q += c;
    }
    return q + "\"";
}

std::string column(const Axis& a, const std::string& fallback) {
    const std::string name = a.name.empty() ? fallback : a.name;
    return a.unit.empty() ? name : name + " (" + a.unit + ")";
}

const char* kind_name(SeriesKind k) {
    switch (k) {
        case SeriesKind::line:
            return "line";
        case SeriesKind::bars:
            return "bar";
        case SeriesKind::hline:
            return "reference";
        case SeriesKind::band:
            return "band";
    }
    return "?";
}

}  // namespace

std::string chart_to_csv(const Chart& chart) {
    bool same_y = true, same_x = true;
    for (const Panel& p : chart.panels) {
        same_y &= p.y.name == chart.panels[0].y.name && p.y.unit == chart.panels[0].y.unit;
        same_x &= p.x.name == chart.panels[0].x.name && p.x.unit == chart.panels[0].x.unit;
    }
    const Axis none;
    const Axis& x0 = chart.panels.empty() ? none : chart.panels[0].x;
    const Axis& y0 = chart.panels.empty() ? none : chart.panels[0].y;
    std::string out = "panel,series,kind," + field(same_x ? column(x0, "x") : "x") + ",";
    out += same_y ? field(column(y0, "y")) : "quantity,unit,value";
    out += ",band_upper,l2_resident,range_end,counters_unavailable,note\n";
    for (const Panel& p : chart.panels) {
        for (const Series& s : p.series) {
            for (const Point& pt : s.points) {
                std::string x;
                if (s.kind == SeriesKind::hline || s.kind == SeriesKind::band) {
                    x = "";  // spans the whole axis
                } else if (p.x.categorical()) {
                    const long i = std::lround(pt.x);
                    x = i >= 0 && static_cast<size_t>(i) < p.x.categories.size()
                            ? p.x.categories[static_cast<size_t>(i)]
                            : number(pt.x);
                } else {
                    x = number(pt.x);
                }
                std::string row = field(p.title) + "," + field(s.key) + "," + kind_name(s.kind) +
                                  "," + field(x) + ",";
                if (!same_y) row += field(p.y.name) + "," + field(p.y.unit) + ",";
                row += number(pt.y) + ",";
                row += (s.kind == SeriesKind::band ? number(pt.y_hi) : std::string()) + ",";
                row += (pt.flags & kPointL2Resident) ? "1," : "0,";
                row += (pt.flags & kPointRangeEnd) ? "1," : "0,";
                row += (pt.flags & kPointCountersUnavailable) ? "1," : "0,";
                row += field(message_en(pt.note)) + "\n";
                out += row;
            }
        }
    }
    return out;
}

}  // namespace sml::chart
