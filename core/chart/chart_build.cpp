// Chart builders (see chart_build.h).
//
// [SECTION] Session helpers: series keys, colours, provenance, N selection
// [SECTION] Compare: a second session's lines over the first's
// [SECTION] bandwidth
// [SECTION] pct
// [SECTION] bytes
// [SECTION] naive
// [SECTION] metrics
#include "core/chart/chart_build.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "core/common/text_cap.h"
#include "core/chart/session_compare.h"
#include "kernels/registry.h"

namespace sml::chart {

// ---------------------------------------------------------------------------------------------
// [SECTION] Session helpers

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct SeriesKey {
    std::string kernel, variant;
    bool operator==(const SeriesKey& o) const { return kernel == o.kernel && variant == o.variant; }
};

// Registry index of a kernel; kernels the registry does not know (a peer such as "torch" in a
// benchmark session) come after it, in order of first appearance.
int kernel_rank(const Session& s, const std::string& id) {
    const auto& reg = registry();
    for (size_t i = 0; i < reg.size(); ++i)
        if (id == reg[i].id) return static_cast<int>(i);
    std::vector<std::string> unknown;
    for (const PointRecord& p : s.points) {
        if (find_kernel(p.kernel) || std::count(unknown.begin(), unknown.end(), p.kernel)) continue;
        unknown.push_back(p.kernel);
    }
    const auto it = std::find(unknown.begin(), unknown.end(), id);
    return static_cast<int>(reg.size() + (it - unknown.begin()));
}

std::vector<const PointRecord*> points_of(const Session& s, const std::string& dtype) {
    std::vector<const PointRecord*> out;
    for (const PointRecord& p : s.points)
        if (p.dtype == dtype) out.push_back(&p);
    return out;
}

std::vector<SeriesKey> ordered_keys(const Session& s, const std::vector<const PointRecord*>& pts) {
    std::vector<SeriesKey> keys;
    for (const PointRecord* p : pts) {
        SeriesKey k{p->kernel, p->variant};
        if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    }
    std::stable_sort(keys.begin(), keys.end(), [&](const SeriesKey& a, const SeriesKey& b) {
        const int ra = kernel_rank(s, a.kernel), rb = kernel_rank(s, b.kernel);
        if (ra != rb) return ra < rb;
        return a.variant.empty() && !b.variant.empty();  // the default variant first
    });
    return keys;
}

std::string key_id(const SeriesKey& k) {
    return k.variant.empty() ? k.kernel : k.kernel + "/" + k.variant;
}

std::string join_cols(const std::vector<int64_t>& cols) {
    std::string s;
    for (int64_t c : cols) s += (s.empty() ? "" : ", ") + std::to_string(c);
    return s.empty() ? std::string("none") : s;
}

int elem_bytes(const std::string& dtype) {
    return dtype == "fp32" ? 4 : 2;
}

std::string size_words(double bytes) {
    std::ostringstream o;
    const double gib = bytes / (1024.0 * 1024 * 1024);
    const double mib = bytes / (1024.0 * 1024);
    if (gib >= 1 && std::fabs(gib - std::round(gib)) < 1e-9)
        o << std::round(gib) << " GiB";
    else if (mib >= 1 && std::fabs(mib - std::round(mib)) < 1e-9)
        o << std::round(mib) << " MiB";
    else
        o << format_tick(bytes, TickFormat::bytes);
    return o.str();
}

// "NVIDIA H100 80GB HBM3 · 2026-11-22 · softmaxlab-cli sweep ...": where the numbers came from.
std::string provenance(const Session& s) {
    std::vector<std::string> parts;
    parts.push_back(s.device.name.empty() ? "unknown device" : s.device.name);
    if (!s.created_utc.empty()) parts.push_back(s.created_utc.substr(0, 10));
    if (!s.command.empty()) parts.push_back(command_for_display(s.command));
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : "  ·  ") + p;
    return out;
}

// A synthetic session (test fixtures, demos) says so on every chart drawn from it.
std::string synthetic_warning(const Session& s) {
    const auto it = s.notes.find("synthetic");
    if (it == s.notes.end()) return "";
    return "SYNTHETIC session: illustrative numbers, not a measurement (" + it->second + ")";
}

// The chart's kind is set by build_chart (chart_kinds.cpp), from the table.
Chart new_chart(const Session& s, const std::string& title, const ChartOptions& o) {
    Chart c;
    // Capped here, before the layout measures them: a title can come from the command line and
    // the provenance from a session file, and either can be any length.
    c.title = cap_text(o.title.empty() ? title : o.title);
    c.subtitle = cap_text(provenance(s));
    c.footnote = cap_text(synthetic_warning(s));
    return c;
}

Error no_points_error(const Session& s, const std::string& dtype) {
    std::set<std::string> dtypes;
    for (const PointRecord& p : s.points) dtypes.insert(p.dtype);
    std::string have;
    for (const std::string& d : dtypes) have += (have.empty() ? "" : ", ") + d;
    if (s.points.empty())
        return Error{"the session has no measured points",
                     "record one with: softmaxlab-cli sweep --kernels all --out session.json"};
    return Error{"the session has no " + dtype + " points (it has: " + have + ")",
                 "pick one of the recorded dtypes"};
}

Error missing_cols_error(const Session& s, const std::string& dtype, int64_t cols,
                         const std::string& kernel = "") {
    const std::string who = kernel.empty() ? "" : kernel + " ";
    return Error{"no " + who + "points in the session for N = " + std::to_string(cols) + " (" +
                     dtype + "); available: " + join_cols(available_cols(s, dtype, kernel)),
                 "pass --cols with one of the available values, or leave it out to pick one"};
}

// The size of one point's input, when every point of the chart shares it (a fixed-size sweep).
std::string common_input_size(const std::vector<const PointRecord*>& pts, const std::string& dt) {
    if (pts.empty()) return "";
    const double first = static_cast<double>(pts[0]->rows) * static_cast<double>(pts[0]->cols);
    for (const PointRecord* p : pts)
        if (static_cast<double>(p->rows) * static_cast<double>(p->cols) != first) return "";
    return ", " + size_words(first * elem_bytes(dt)) + " input per point";
}

Series kernel_series(const Session& s, const SeriesKey& k) {
    Series ser;
    ser.label = kernel_label(k.kernel, k.variant);
    ser.key = key_id(k);
    ser.kernel = k.kernel;
    ser.kind = SeriesKind::line;
    ser.color = kernel_rank(s, k.kernel);
    ser.marker = marker_for(kernel_rank(s, k.kernel));
    ser.dashed = !k.variant.empty();
    return ser;
}

Axis kernel_axis(const std::vector<SeriesKey>& keys) {
    Axis x;
    x.label = "kernel";
    x.name = "kernel";
    for (const SeriesKey& k : keys) x.categories.push_back(key_id(k));
    make_ticks(&x, 0, 0, false);
    return x;
}

// Lines over N, one per kernel, from `value(point)`; marks each kernel's last N when the
// session goes further (its range ends there).
// A kernel may have several points at one N (an extra point of another M, `sweep --extra`): its
// line takes the one of the session's usual input size (the M x N most points have), so it has
// one point an N and does not double back.
std::vector<Series> lines_over_n(const Session& s, const std::vector<const PointRecord*>& pts,
                                 double (*value)(const Session&, const PointRecord&)) {
    int64_t max_cols = 0;
    std::map<double, int> sizes;  // M x N -> points of that input size
    for (const PointRecord* p : pts) {
        max_cols = std::max(max_cols, p->cols);
        ++sizes[static_cast<double>(p->rows) * static_cast<double>(p->cols)];
    }
    double usual = 0;
    int most = 0;
    for (const auto& [size, count] : sizes)
        if (count > most) usual = size, most = count;
    const auto usual_size = [&](const PointRecord* p) {
        return static_cast<double>(p->rows) * static_cast<double>(p->cols) == usual;
    };
    std::vector<Series> out;
    for (const SeriesKey& k : ordered_keys(s, pts)) {
        Series ser = kernel_series(s, k);
        std::vector<const PointRecord*> mine;
        for (const PointRecord* p : pts)
            if (p->kernel == k.kernel && p->variant == k.variant) mine.push_back(p);
        // By N, the usual input size first at each N; then one point an N.
        std::stable_sort(mine.begin(), mine.end(), [&](const PointRecord* a, const PointRecord* b) {
            if (a->cols != b->cols) return a->cols < b->cols;
            return usual_size(a) && !usual_size(b);
        });
        mine.erase(std::unique(mine.begin(), mine.end(),
                               [](const PointRecord* a, const PointRecord* b) {
                                   return a->cols == b->cols;
                               }),
                   mine.end());
        for (const PointRecord* p : mine) {
            const double y = value(s, *p);
            if (!std::isfinite(y) || y <= 0) continue;  // a failed point has no bandwidth
            Point pt;
            pt.x = static_cast<double>(p->cols);
            pt.y = y;
            ser.points.push_back(pt);
        }
        if (ser.points.empty()) continue;
        if (ser.points.back().x < static_cast<double>(max_cols)) {
            ser.points.back().flags |= kPointRangeEnd;
            ser.points.back().note = "largest N recorded for " + k.kernel;
        }
        out.push_back(std::move(ser));
    }
    return out;
}

}  // namespace

// Building blocks shared with the other chart files (declared in chart_build.h).

// The recorded command as a reader wants it under a chart: the program's own name instead of the
// build path, and without the output files (--out/--csv), which say where the numbers went, not
// how they were made. The session keeps the exact command.
std::string command_for_display(const std::string& command) {
    std::istringstream in(command);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    std::string out;
    for (size_t i = 0; i < words.size(); ++i) {
        std::string w = words[i];
        if (i == 0) w = w.substr(w.find_last_of('/') + 1);  // npos + 1 == 0: no slash keeps it all
        if (w == "--out" || w == "-o" || w == "--csv") {
            ++i;  // and its value
            continue;
        }
        if (w.rfind("--out=", 0) == 0 || w.rfind("--csv=", 0) == 0) continue;
        out += (out.empty() ? "" : " ") + w;
    }
    return out;
}

Series reference_line(const std::string& label, const std::string& key, double y, bool dashed) {
    Series ser;
    ser.label = label;
    ser.key = key;
    ser.kind = SeriesKind::hline;
    ser.color = kReferenceColor;
    ser.marker = MarkerShape::none;
    ser.dashed = dashed;
    Point p;
    p.y = y;
    ser.points.push_back(p);
    return ser;
}

Axis pct_of_copy_axis(const std::string& label) {
    Axis y;
    y.label = label;
    y.name = "share of copy bandwidth";
    y.unit = "%";
    y.format = TickFormat::percent;
    return y;
}

bool fit_pct_of_copy_axes(Panel* panel) {
    double lo = std::numeric_limits<double>::max(), hi = 0, y_hi = 110;
    for (const Series& ser : panel->series)
        if (ser.kind == SeriesKind::line)
            for (const Point& p : ser.points) {
                lo = std::min(lo, p.x);
                hi = std::max(hi, p.x);
                y_hi = std::max(y_hi, p.y * 1.04);
            }
    if (hi == 0) return false;
    make_ticks(&panel->x, lo, hi, false);
    // 0-110% keeps 100% (copy) visibly below the frame; taller only if a line beats copy.
    panel->y.ticks = nice_linear_ticks(0, 100, 5, TickFormat::percent);
    panel->y.min = 0;
    panel->y.max = y_hi;
    if (y_hi > 110) make_ticks(&panel->y, 0, y_hi, true);
    return true;
}

Axis n_axis() {
    Axis x;
    x.label = "N, columns per row (log2 scale)";
    x.name = "N";
    x.unit = "columns";
    x.scale = AxisScale::log2;
    x.format = TickFormat::pow2_count;
    return x;
}

std::string kernel_label(const std::string& kernel_id, const std::string& variant) {
    std::string label = kernel_id;
    if (const KernelInfo* k = find_kernel(kernel_id)) {
        std::string title = k->title ? k->title : "";
        // Legends want the short form: "Online softmax (running max ...)" -> "Online softmax".
        if (const size_t paren = title.find(" ("); paren != std::string::npos) title.resize(paren);
        // A title that only repeats the id adds nothing; a long one would crowd the legend.
        if (!title.empty() && title != kernel_id && title.size() <= 34) label += ": " + title;
    }
    if (!variant.empty()) label += " [" + variant + "]";
    return label;
}

std::vector<int64_t> available_cols(const Session& s, const std::string& dtype,
                                    const std::string& kernel) {
    std::set<int64_t> cols;
    for (const PointRecord& p : s.points)
        if (p.dtype == dtype && (kernel.empty() || p.kernel == kernel)) cols.insert(p.cols);
    return {cols.begin(), cols.end()};
}

int64_t default_cols(const Session& s, const std::string& dtype) {
    std::map<int64_t, std::set<std::string>> kernels_at;
    for (const PointRecord& p : s.points)
        if (p.dtype == dtype) kernels_at[p.cols].insert(p.kernel + "/" + p.variant);
    int64_t best = 0;
    size_t best_count = 0;
    for (const auto& [cols, ks] : kernels_at) {  // ascending N, so ">=" keeps the largest on ties
        if (ks.size() >= best_count) {
            best = cols;
            best_count = ks.size();
        }
    }
    return best;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Compare: a second session's lines over the first's

namespace {

// What a chart over N is drawn from: the session's points and, when comparing, the compared
// session's, with the names that tell the two apart.
struct Sides {
    const Session* first = nullptr;
    const Session* second = nullptr;  // null: one session
    SessionLabels names;
    std::vector<const PointRecord*> first_pts, second_pts;

    std::vector<const PointRecord*> all_points() const {
        std::vector<const PointRecord*> all = first_pts;
        all.insert(all.end(), second_pts.begin(), second_pts.end());
        return all;
    }
    // ", H100 vs RTX 4090" for a title; "" for one session.
    std::string versus() const {
        return second ? ", " + names.first + " vs " + names.second : std::string();
    }
};

Result<Sides> sides_of(const ChartInput& in, const ChartOptions& o) {
    Sides sd;
    sd.first = in.session;
    sd.first_pts = points_of(*in.session, o.dtype);
    if (sd.first_pts.empty()) return no_points_error(*in.session, o.dtype);
    if (!in.compare) return sd;
    const Status comparable = check_comparable(*in.session, *in.compare, o.dtype);
    if (!comparable) return comparable.error();
    sd.second = in.compare;
    sd.names = compare_labels(*in.session, *in.compare);
    sd.second_pts = points_of(*in.compare, o.dtype);
    return sd;
}

// "NVIDIA H100 80GB HBM3, 2026-11-23": a session's device and date, without its command (two
// commands do not fit on one line).
std::string device_and_date(const Session& s) {
    std::string out = s.device.name.empty() ? "unknown device" : s.device.name;
    if (!s.created_utc.empty()) out += ", " + s.created_utc.substr(0, 10);
    return out;
}

// When comparing, the subtitle says whose lines are solid and whose dashed, and the footnote
// warns about either session being synthetic.
void describe_sides(Chart* c, const Sides& sd) {
    if (!sd.second) return;
    c->subtitle = "solid lines: " + sd.names.first + " (" + device_and_date(*sd.first) +
                  ")   ·   dashed, hollow markers: " + sd.names.second + " (" +
                  device_and_date(*sd.second) + ")";
    const std::string warning = synthetic_warning(*sd.second);
    if (!warning.empty())
        c->footnote += (c->footnote.empty() ? "" : "; ") + std::string("compared ") + warning;
}

// Lines over N of the session and, when comparing, of the compared one. Each kernel's line of
// the first session comes before the same kernel's line of the second, which keeps the kernel's
// colour and marker shape and is dashed with hollow markers (a variant's line is dashed too, so
// the hollow markers are what tells the sessions apart). Every line's label and key name its
// session, "best (H100)", for hover and CSV. The legend lists each kernel once and then which
// session is which, so twice the lines do not need twice the legend.
std::vector<Series> side_lines(const Sides& sd,
                               double (*value)(const Session&, const PointRecord&)) {
    std::vector<Series> first = lines_over_n(*sd.first, sd.first_pts, value);
    if (!sd.second) return first;
    std::vector<Series> second = lines_over_n(*sd.second, sd.second_pts, value);
    if (first.empty() && second.empty()) return {};
    const auto by_kernel = [&](const Series& a, const Series& b) {
        return kernel_rank(*sd.first, a.kernel) < kernel_rank(*sd.first, b.kernel);
    };

    // The legend's kernel entries: one per kernel (and variant) either session has, drawn as a
    // line of the first session would be. They carry no points.
    std::vector<Series> legend;
    for (const std::vector<Series>* side : {&first, &second})
        for (const Series& ser : *side) {
            const bool listed = std::any_of(legend.begin(), legend.end(),
                                            [&](const Series& l) { return l.label == ser.key; });
            if (listed) continue;
            Series entry = ser;
            entry.points.clear();
            entry.label = ser.key;  // the id ("best"): the style entries below name the sessions
            entry.key = "legend: " + ser.key;
            legend.push_back(std::move(entry));
        }
    std::stable_sort(legend.begin(), legend.end(), by_kernel);

    std::vector<Series> lines;
    for (std::vector<Series>* side : {&first, &second}) {
        const bool compared = side == &second;
        const std::string& who = compared ? sd.names.second : sd.names.first;
        for (Series& ser : *side) {
            ser.dashed = ser.dashed || compared;
            ser.hollow = compared;
            ser.key += " (" + who + ")";
            ser.label = ser.key;
            ser.in_legend = false;
            for (Point& p : ser.points)
                if (p.flags & kPointRangeEnd) p.note.text += " on " + who;  // a literal
            lines.push_back(std::move(ser));
        }
    }
    std::stable_sort(lines.begin(), lines.end(), by_kernel);

    // Which session is which: a solid line with filled markers, a dashed one with hollow ones.
    for (const bool compared : {false, true}) {
        Series style;
        style.label = compared ? sd.names.second + ": dashed lines, hollow markers"
                               : sd.names.first + ": solid lines, filled markers";
        style.key = "legend: " + (compared ? sd.names.second : sd.names.first);
        style.color = kReferenceColor;
        style.marker = MarkerShape::circle;
        style.dashed = compared;
        style.hollow = compared;
        legend.push_back(std::move(style));
    }
    lines.insert(lines.begin(), legend.begin(), legend.end() - 2);
    lines.insert(lines.end(), legend.end() - 2, legend.end());
    return lines;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] bandwidth

static double gbps_of(const Session&, const PointRecord& p) {
    return p.gbps;
}

Result<Chart> build_bandwidth_chart(const ChartInput& in, const ChartOptions& o) {
    const Result<Sides> sides = sides_of(in, o);
    if (!sides) return sides.error();
    const Session& s = *in.session;
    Chart c = new_chart(s,
                        "Softmax effective bandwidth vs row length" + sides->versus() + " (" +
                            o.dtype + common_input_size(sides->all_points(), o.dtype) + ")",
                        o);
    describe_sides(&c, *sides);
    Panel panel;
    panel.x = n_axis();
    panel.y.label =
        "bandwidth, GB/s  (2·M·N·" + std::to_string(elem_bytes(o.dtype)) + " B / median time)";
    panel.y.name = "bandwidth";
    panel.y.unit = "GB/s";
    panel.series = side_lines(*sides, gbps_of);
    if (panel.series.empty())
        return Error{"no point in the session has a bandwidth above 0",
                     "re-record the session; every point failed or was not timed"};
    double lo = std::numeric_limits<double>::max(), hi = 0, y_hi = 0;
    for (const Series& ser : panel.series)
        for (const Point& p : ser.points) {
            lo = std::min(lo, p.x);
            hi = std::max(hi, p.x);
            y_hi = std::max(y_hi, p.y);
        }
    // A hand-edited session may say "inf": a line at infinity has nowhere to be drawn.
    const auto drawable = [](double gbps) { return std::isfinite(gbps) && gbps > 0; };
    if (!sides->second) {
        std::ostringstream copy, peak;
        copy << "device-to-device copy, same run: " << std::lround(s.device.copy_gbps) << " GB/s";
        peak << "datasheet peak: " << std::lround(s.device.peak_dram_gbps) << " GB/s";
        if (drawable(s.device.copy_gbps)) {
            panel.series.push_back(reference_line(copy.str(), "copy", s.device.copy_gbps, false));
            y_hi = std::max(y_hi, s.device.copy_gbps);
        }
        if (drawable(s.device.peak_dram_gbps)) {
            panel.series.push_back(
                reference_line(peak.str(), "peak", s.device.peak_dram_gbps, true));
            y_hi = std::max(y_hi, s.device.peak_dram_gbps);
        }
    } else {
        // Each session's own copy is its ceiling; the datasheet peaks would only crowd the plot.
        const std::pair<const Session*, const std::string*> both[] = {
            {sides->first, &sides->names.first}, {sides->second, &sides->names.second}};
        for (const auto& [session, who] : both) {
            const double gbps = session->device.copy_gbps;
            if (!drawable(gbps)) continue;
            std::ostringstream copy;
            copy << "copy, " << *who << ": " << std::lround(gbps) << " GB/s";
            panel.series.push_back(
                reference_line(copy.str(), "copy (" + *who + ")", gbps, session == sides->second));
            y_hi = std::max(y_hi, gbps);
        }
    }
    make_ticks(&panel.x, lo, hi, false);
    make_ticks(&panel.y, 0, y_hi * 1.04, true);
    c.panels.push_back(std::move(panel));
    return c;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] pct

static double pct_of(const Session& s, const PointRecord& p) {
    if (p.pct_of_copy > 0) return p.pct_of_copy;
    return s.device.copy_gbps > 0 ? p.gbps / s.device.copy_gbps * 100 : kNaN;
}

// Whether % of copy can be worked out for a session's points: recorded with each point, or
// from the session's copy bandwidth.
static bool has_pct(const Session& s, const std::vector<const PointRecord*>& pts) {
    const bool any_pct = std::any_of(pts.begin(), pts.end(),
                                     [](const PointRecord* p) { return p->pct_of_copy > 0; });
    return any_pct || s.device.copy_gbps > 0;
}

Result<Chart> build_pct_chart(const ChartInput& in, const ChartOptions& o) {
    const Result<Sides> sides = sides_of(in, o);
    if (!sides) return sides.error();
    const Session& s = *in.session;
    const char* no_copy_hint =
        "re-record with a softmaxlab-cli sweep that measures copy in the same run";
    if (!has_pct(s, sides->first_pts))
        return Error{"the session has no copy bandwidth, so % of copy cannot be computed",
                     no_copy_hint};
    if (sides->second && !has_pct(*sides->second, sides->second_pts))
        return Error{"the compared session (" + sides->names.second +
                         ") has no copy bandwidth, so % of copy cannot be computed",
                     no_copy_hint};
    Chart c = new_chart(s,
                        "Softmax bandwidth as % of device-to-device copy" + sides->versus() + " (" +
                            o.dtype + common_input_size(sides->all_points(), o.dtype) + ")",
                        o);
    describe_sides(&c, *sides);
    Panel panel;
    panel.x = n_axis();
    panel.y = pct_of_copy_axis(sides->second ? "% of copy bandwidth (each session's own copy)"
                                             : "% of copy bandwidth (same run)");

    // The "sweet spot" zone first so it is painted under the lines.
    Series zone;
    zone.label = "within 15% of copy (85-100%)";
    zone.key = "sweet_spot";
    zone.kind = SeriesKind::band;
    zone.color = 2;
    zone.marker = MarkerShape::none;
    Point z;
    z.y = 85;
    z.y_hi = 100;
    zone.points.push_back(z);
    panel.series.push_back(zone);
    for (Series& ser : side_lines(*sides, pct_of)) panel.series.push_back(std::move(ser));
    panel.series.push_back(reference_line("copy bandwidth = 100%", "copy", 100, false));
    if (!fit_pct_of_copy_axes(&panel))
        return Error{"no point has a % of copy above 0", "re-record the session"};
    c.panels.push_back(std::move(panel));
    return c;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] bytes

namespace {

std::optional<double> measured_dram(const MetricsRecord& m) {
    if (!m.available) return std::nullopt;
    const auto r = m.get(metric::kDramRead), w = m.get(metric::kDramWrite);
    if (!r || !w) return std::nullopt;
    return *r + *w;
}

std::optional<double> measured_dram(const std::vector<MetricValue>& values) {
    std::optional<double> r, w;
    for (const MetricValue& v : values) {
        if (v.name == metric::kDramRead) r = v.value;
        if (v.name == metric::kDramWrite) w = v.value;
    }
    if (!r || !w) return std::nullopt;
    return *r + *w;
}

// Resolves --cols for the per-N charts: the given N when the session has it, else the default.
Result<int64_t> pick_cols(const Session& s, const ChartOptions& o) {
    if (points_of(s, o.dtype).empty()) return no_points_error(s, o.dtype);
    if (o.cols < 0)
        return Error{"--cols must be a positive N, got " + std::to_string(o.cols),
                     "available: " + join_cols(available_cols(s, o.dtype))};
    const int64_t cols = o.cols > 0 ? o.cols : default_cols(s, o.dtype);
    const auto have = available_cols(s, o.dtype);
    if (std::find(have.begin(), have.end(), cols) == have.end())
        return missing_cols_error(s, o.dtype, cols);
    return cols;
}

std::vector<const PointRecord*> points_at(const Session& s, const std::string& dtype,
                                          int64_t cols) {
    std::vector<const PointRecord*> out;
    for (const PointRecord* p : points_of(s, dtype))
        if (p->cols == cols) out.push_back(p);
    return out;
}

const PointRecord* point_for(const std::vector<const PointRecord*>& pts, const SeriesKey& k) {
    for (const PointRecord* p : pts)
        if (p->kernel == k.kernel && p->variant == k.variant) return p;
    return nullptr;
}

std::string rows_words(const std::vector<const PointRecord*>& pts) {
    if (pts.empty()) return "";
    for (const PointRecord* p : pts)
        if (p->rows != pts[0]->rows) return "";
    return ", M = " + std::to_string(pts[0]->rows);
}

// Why a point has no counters: the sentence it recorded, where that still says what its English
// says (so the English note is the one it always was), else the English as it was written.
Message counters_reason(const MetricsRecord& m) {
    if (m.reason_message.is_sentence() && message_en(m.reason_message) == m.reason)
        return m.reason_message;
    return Message(m.reason);
}

// Counters missing for some kernels: one note naming them and the recorded reason.
void note_missing_counters(Panel* panel, const std::vector<std::string>& missing,
                           const Message& reason) {
    if (missing.empty()) return;
    std::string who;
    for (const std::string& m : missing) who += (who.empty() ? "" : ", ") + m;
    panel->notes.push_back(reason.empty()
                               ? Message(Msg::chart_counters_missing, {who})
                               : Message(Msg::chart_counters_missing_why, {who, reason}));
}

// No measured bytes at all: only the formula's bars, and why.
Message predicted_only_note(const Message& reason) {
    return reason.empty() ? Message(Msg::chart_predicted_only)
                          : Message(Msg::chart_predicted_only_why, {reason});
}

}  // namespace

Result<Chart> build_bytes_chart(const ChartInput& in, const ChartOptions& o) {
    const Session& s = *in.session;
    const Result<int64_t> cols = pick_cols(s, o);
    if (!cols) return cols.error();
    const auto pts = points_at(s, o.dtype, *cols);
    const auto keys = ordered_keys(s, pts);
    Chart c = new_chart(s,
                        "DRAM traffic per kernel at N = " + std::to_string(*cols) +
                            rows_words(pts) + " (" + o.dtype + "): predicted vs measured",
                        o);
    Panel panel;
    panel.x = kernel_axis(keys);
    panel.y.label = "DRAM bytes read + written";
    panel.y.name = "DRAM bytes";
    panel.y.unit = "bytes";
    panel.y.format = TickFormat::bytes;
    Series predicted, measured;
    predicted.label = "predicted by the kernel's traffic formula";
    predicted.key = "predicted";
    predicted.kind = SeriesKind::bars;
    predicted.color = 5;
    measured.label = "measured by CUPTI (dram__bytes_read + write)";
    measured.key = "measured";
    measured.kind = SeriesKind::bars;
    measured.color = 3;
    std::vector<std::string> missing;
    Message reason;
    double lo = std::numeric_limits<double>::max(), hi = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
        const PointRecord* p = point_for(pts, keys[i]);
        Point pp;
        pp.x = static_cast<double>(i);
        pp.y = p->predicted.dram_read_bytes + p->predicted.dram_write_bytes;
        pp.note = p->predicted.read_formula + " read, " + p->predicted.write_formula + " written";
        predicted.points.push_back(pp);
        Point mp;
        mp.x = static_cast<double>(i);
        if (const auto m = measured_dram(p->metrics)) {
            mp.y = *m;
        } else {
            mp.y = kNaN;
            mp.flags |= kPointCountersUnavailable;
            mp.note = counters_reason(p->metrics);
            missing.push_back(key_id(keys[i]));
            if (reason.empty()) reason = mp.note;
        }
        if (p->predicted.l2_resident) {
            mp.flags |= kPointL2Resident;
            mp.note = p->predicted.l2_reason;
        }
        measured.points.push_back(mp);
        for (double v : {pp.y, mp.y})
            if (std::isfinite(v) && v > 0) {
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
    }
    if (hi == 0)
        return Error{"no predicted or measured DRAM bytes at N = " + std::to_string(*cols),
                     "re-record the session with a softmaxlab version that predicts traffic"};
    // The minimum any softmax must move: read the input once, write the output once.
    if (!pts.empty() && !rows_words(pts).empty()) {
        const double ideal = 2.0 * static_cast<double>(pts[0]->rows) * static_cast<double>(*cols) *
                             elem_bytes(o.dtype);
        panel.series.push_back(reference_line(
            "minimum: read once + write once = " + format_tick(ideal, TickFormat::bytes), "minimum",
            ideal, true));
        lo = std::min(lo, ideal);
    }
    if (missing.size() == keys.size()) {
        // No measured bar anywhere: a legend entry with nothing behind it would only confuse.
        panel.series.insert(panel.series.begin(), predicted);
        panel.notes.push_back(predicted_only_note(reason));
    } else {
        panel.series.insert(panel.series.begin(), {predicted, measured});
        note_missing_counters(&panel, missing, reason);
    }
    // A log scale once the bars span more than 10x, so the small ones stay readable.
    panel.y.scale = hi / lo > 10 ? AxisScale::log10 : AxisScale::linear;
    if (panel.y.scale == AxisScale::log10) panel.y.label += " (log scale)";
    make_ticks(&panel.y, lo, hi * 1.12, true);
    c.panels.push_back(std::move(panel));
    return c;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] naive

Result<Chart> build_naive_chart(const ChartInput& in, const ChartOptions& o) {
    const Session& s = *in.session;
    const auto naive_cols = available_cols(s, o.dtype, "naive");
    if (naive_cols.empty())
        return Error{"the session has no naive " + o.dtype + " points",
                     "record one with: softmaxlab-cli sweep --kernels naive --out session.json"};
    int64_t cols = o.cols;
    if (cols == 0) {
        // Prefer the largest N whose per-launch breakdown was recorded.
        cols = naive_cols.back();
        for (auto it = naive_cols.rbegin(); it != naive_cols.rend(); ++it) {
            const PointRecord* p = s.find("naive", *it, o.dtype);
            if (p && p->launches.size() > 1) {
                cols = *it;
                break;
            }
        }
    }
    const PointRecord* p = s.find("naive", cols, o.dtype);
    if (!p) return missing_cols_error(s, o.dtype, cols, "naive");

    // Launch order comes from the launch records; the predicted split fills in if they are absent.
    std::vector<std::string> names;
    for (const LaunchRecord& l : p->launches) names.push_back(l.name);
    if (names.empty())
        for (const auto& [name, rw] : p->predicted.per_launch) names.push_back(name);
    if (names.empty())
        return Error{"naive at N = " + std::to_string(cols) + " has no per-launch records",
                     "re-record with softmaxlab-cli sweep, which stores naive's five launches"};

    Chart c = new_chart(s,
                        "Naive softmax, launch by launch at N = " + std::to_string(cols) +
                            ", M = " + std::to_string(p->rows) + " (" + o.dtype + ")",
                        o);
    Panel time_panel, bytes_panel;
    time_panel.title = "time per launch";
    bytes_panel.title = "DRAM bytes per launch";
    for (Panel* panel : {&time_panel, &bytes_panel}) {
        panel->x.label = "launch (in order)";
        panel->x.name = "launch";
        panel->x.categories = names;
        make_ticks(&panel->x, 0, 0, false);
    }
    time_panel.y.label = "median time, ms";
    time_panel.y.name = "median time";
    time_panel.y.unit = "ms";
    bytes_panel.y.label = "DRAM bytes read + written";
    bytes_panel.y.name = "DRAM bytes";
    bytes_panel.y.unit = "bytes";
    bytes_panel.y.format = TickFormat::bytes;

    Series time;
    time.label = "median time (CUDA events, cold L2)";
    time.key = "time";
    time.kind = SeriesKind::bars;
    time.color = 2;  // not a kernel colour: these bars are launches of one kernel
    Series predicted = time, measured = time;
    predicted.label = "predicted by the kernel's traffic formula";
    predicted.key = "predicted";
    predicted.color = 5;
    measured.label = "measured by CUPTI (dram__bytes_read + write)";
    measured.key = "measured";
    measured.color = 3;
    double t_hi = 0, b_hi = 0;
    std::vector<std::string> missing;
    for (size_t i = 0; i < names.size(); ++i) {
        const double x = static_cast<double>(i);
        const auto launch = std::find_if(p->launches.begin(), p->launches.end(),
                                         [&](const LaunchRecord& l) { return l.name == names[i]; });
        Point tp;
        tp.x = x;
        tp.y = launch != p->launches.end() && launch->median_ms > 0 ? launch->median_ms : kNaN;
        if (std::isfinite(tp.y)) t_hi = std::max(t_hi, tp.y);
        time.points.push_back(tp);
        Point pp;
        pp.x = x;
        const auto pl = p->predicted.per_launch.find(names[i]);
        pp.y = pl != p->predicted.per_launch.end() ? pl->second.first + pl->second.second : kNaN;
        if (std::isfinite(pp.y)) b_hi = std::max(b_hi, pp.y);
        predicted.points.push_back(pp);
        Point mp;
        mp.x = x;
        mp.y = kNaN;
        const auto ml = p->metrics.per_launch.find(names[i]);
        if (p->metrics.available && ml != p->metrics.per_launch.end())
            if (const auto m = measured_dram(ml->second)) mp.y = *m;
        if (!std::isfinite(mp.y)) {
            mp.flags |= kPointCountersUnavailable;
            missing.push_back(names[i]);
        }
        if (p->predicted.l2_resident) {
            mp.flags |= kPointL2Resident;
            mp.note = p->predicted.l2_reason;
        }
        if (std::isfinite(mp.y)) b_hi = std::max(b_hi, mp.y);
        measured.points.push_back(mp);
    }
    if (t_hi == 0) time_panel.notes.push_back("per-launch times were not recorded");
    if (t_hi > 0 && t_hi < 0.1) {
        // Launches of a small problem take microseconds; "5.79 µs" reads better than "0.00579".
        for (Point& pt : time.points) pt.y *= 1000;
        t_hi *= 1000;
        time_panel.y.label = "median time, µs";
        time_panel.y.unit = "us";
    }
    time_panel.series.push_back(time);
    bytes_panel.series = {predicted, measured};
    if (missing.size() == names.size()) {
        bytes_panel.series.pop_back();  // nothing measured: show the formula alone
        bytes_panel.notes.push_back(predicted_only_note(counters_reason(p->metrics)));
    } else {
        note_missing_counters(&bytes_panel, missing, counters_reason(p->metrics));
    }
    make_ticks(&time_panel.y, 0, std::max(t_hi, 1e-3) * 1.12, true);
    make_ticks(&bytes_panel.y, 0, std::max(b_hi, 1.0) * 1.12, true);
    c.panels.push_back(std::move(time_panel));
    c.panels.push_back(std::move(bytes_panel));
    return c;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] metrics

namespace {

struct MetricPanelSpec {
    std::string title, unit, y_label;
    std::vector<const char*> names;  // summed (bank conflicts: loads + stores)
    TickFormat format;
};

}  // namespace

Result<Chart> build_metrics_chart(const ChartInput& in, const ChartOptions& o) {
    const Session& s = *in.session;
    const Result<int64_t> cols = pick_cols(s, o);
    if (!cols) return cols.error();
    const auto pts = points_at(s, o.dtype, *cols);
    const auto keys = ordered_keys(s, pts);
    const std::vector<MetricPanelSpec> specs = {
        {"achieved occupancy",
         "%",
         "active warps, % of the SM's maximum",
         {metric::kOccupancy},
         TickFormat::percent},
        {"L2 hit rate",
         "%",
         "L2 sector hits, % of lookups",
         {metric::kL2HitRate},
         TickFormat::percent},
        {"bank conflicts",
         "count",
         "conflicts (shared loads + stores)",
         {metric::kBankConflictsLd, metric::kBankConflictsSt},
         TickFormat::number},
    };
    Chart c = new_chart(s,
                        "Hardware counters per kernel at N = " + std::to_string(*cols) +
                            rows_words(pts) + " (" + o.dtype + ")",
                        o);
    c.legend = LegendPlacement::hidden;  // the x axis names the kernels; colours match charts
    bool any_value = false;
    Message reason;
    for (const MetricPanelSpec& spec : specs) {
        Panel panel;
        panel.title = spec.title;
        panel.x = kernel_axis(keys);
        panel.y.label = spec.y_label;
        panel.y.name = spec.title;
        panel.y.unit = spec.unit;
        panel.y.format = spec.format;
        std::vector<std::string> missing;
        double hi = 0;
        for (size_t i = 0; i < keys.size(); ++i) {
            const PointRecord* p = point_for(pts, keys[i]);
            Series ser = kernel_series(s, keys[i]);
            ser.kind = SeriesKind::bars;
            Point pt;
            pt.x = static_cast<double>(i);
            double sum = 0;
            bool have_all = p->metrics.available;
            for (const char* name : spec.names) {
                const auto v = p->metrics.get(name);
                have_all = have_all && v.has_value();
                if (v) sum += *v;
            }
            pt.y = have_all ? sum : kNaN;
            if (!have_all) {
                pt.flags |= kPointCountersUnavailable;
                pt.note = counters_reason(p->metrics);
                missing.push_back(key_id(keys[i]));
                if (reason.empty()) reason = pt.note;
            } else {
                any_value = true;
                hi = std::max(hi, sum);
            }
            ser.points.push_back(pt);
            panel.series.push_back(std::move(ser));
        }
        note_missing_counters(&panel, missing, reason);
        if (spec.unit == "%")
            make_ticks(&panel.y, 0, std::max(100.0, hi), true);
        else
            make_ticks(&panel.y, 0, std::max(10.0, hi * 1.12), true);  // counts: no 0.2 ticks
        c.panels.push_back(std::move(panel));
    }
    if (!any_value)
        return Error{"the session has no hardware counters at N = " + std::to_string(*cols) +
                         (reason.empty() ? std::string() : " (" + message_en(reason) + ")"),
                     "record with --metrics default on a GPU whose counters are readable, or "
                     "pick a chart that needs no counters: bandwidth, pct"};
    return c;
}

}  // namespace sml::chart
