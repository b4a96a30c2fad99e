// Ticks, tick labels, legend entries and themes for the chart model (chart_model.h).
#include "core/chart/chart_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sml::chart {

// ---------------------------------------------------------------------------------------------
// [SECTION] Tick labels

// Drops trailing zeros so 2.50 prints as "2.5" and 3.00 as "3".
static std::string trimmed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
        while (!s.empty() && s.back() == '0') s.pop_back();
        if (!s.empty() && s.back() == '.') s.pop_back();
    }
    if (s == "-0") s = "0";
    return s;
}

// Three significant digits at most, which is what a tick or bar label needs.
static std::string short_number(double v) {
    const double a = std::fabs(v);
    if (a == 0) return "0";
    if (a >= 100) return trimmed(v, 0);
    if (a >= 10) return trimmed(v, 1);
    if (a >= 1) return trimmed(v, 2);
    // Small values (milliseconds of a tiny launch): keep three significant digits.
    const int decimals = std::min(9, 2 - static_cast<int>(std::floor(std::log10(a))));
    return trimmed(v, decimals);
}

static std::string with_suffix(double v, double base, const char* const* suffixes, int count,
                               const char* unit_gap) {
    int i = 0;
    double a = std::fabs(v);
    while (i + 1 < count && a >= base) {
        v /= base;
        a /= base;
        ++i;
    }
    return short_number(v) + unit_gap + suffixes[i];
}

std::string format_tick(double value, TickFormat format) {
    switch (format) {
        case TickFormat::pow2_count: {
            // Column counts are powers of two on the sweep, so binary K/M read naturally:
            // 1024 -> "1K", 1048576 -> "1M". Other values keep every digit.
            const double a = std::fabs(value);
            if (a >= 1048576 && std::fmod(a, 1048576) == 0)
                return trimmed(value / 1048576, 0) + "M";
            if (a >= 1024 && std::fmod(a, 1024) == 0) return trimmed(value / 1024, 0) + "K";
            return trimmed(value, 3);
        }
        case TickFormat::bytes: {
            static const char* const kUnits[] = {"B", "KB", "MB", "GB", "TB", "PB"};
            return with_suffix(value, 1000.0, kUnits, 6, " ");
        }
        case TickFormat::percent:
            return short_number(value) + "%";
        case TickFormat::number:
        default: {
            if (std::fabs(value) < 1e6) return short_number(value);
            static const char* const kSi[] = {"", "k", "M", "G", "T", "P"};
            return with_suffix(value, 1000.0, kSi, 6, "");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Tick placement

std::vector<Tick> nice_linear_ticks(double lo, double hi, int target, TickFormat format,
                                    double* nice_lo, double* nice_hi) {
    // A non-finite end would make the step infinite and the tick count unbounded.
    if (!std::isfinite(lo)) lo = 0;
    if (!std::isfinite(hi) || !(hi > lo)) hi = lo + 1;
    target = std::max(2, target);
    const double raw = (hi - lo) / target;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * mag;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (m * mag >= raw * 0.999) {
            step = m * mag;
            break;
        }
    }
    const long long first = static_cast<long long>(std::floor(lo / step + 1e-9));
    const long long last = static_cast<long long>(std::ceil(hi / step - 1e-9));
    std::vector<Tick> ticks;
    for (long long k = first; k <= last; ++k) {
        // k * step, not an accumulated sum, so 0.1-steps do not drift to 0.30000000000000004.
        const double v = static_cast<double>(k) * step;
        ticks.push_back(Tick{v, format_tick(v, format)});
    }
    if (nice_lo) *nice_lo = static_cast<double>(first) * step;
    if (nice_hi) *nice_hi = static_cast<double>(last) * step;
    return ticks;
}

std::vector<Tick> log_ticks(double lo, double hi, AxisScale scale, TickFormat format) {
    std::vector<Tick> ticks;
    if (!(lo > 0) || !(hi >= lo)) return ticks;
    const double base = scale == AxisScale::log10 ? 10.0 : 2.0;
    const auto exponent = [&](double v) { return std::log(v) / std::log(base); };
    const int e0 = static_cast<int>(std::ceil(exponent(lo) - 1e-9));
    const int e1 = static_cast<int>(std::floor(exponent(hi) + 1e-9));
    const int count = e1 - e0 + 1;
    // More than 12 labels crowd a slide; keep every 2nd (or 3rd...) power, aligned to multiples
    // of the stride so 2^10 = 1K is always labelled when it is in range.
    const int stride = count > 12 ? (count + 11) / 12 : 1;
    for (int e = e0; e <= e1; ++e) {
        if (((e % stride) + stride) % stride != 0) continue;
        const double v = base == 2.0 ? std::ldexp(1.0, e) : std::pow(10.0, e);
        ticks.push_back(Tick{v, format_tick(v, format)});
    }
    return ticks;
}

void make_ticks(Axis* axis, double data_lo, double data_hi, bool include_zero) {
    if (axis->categorical()) {
        axis->min = -0.5;
        axis->max = static_cast<double>(axis->categories.size()) - 0.5;
        axis->ticks.clear();
        for (size_t i = 0; i < axis->categories.size(); ++i)
            axis->ticks.push_back(Tick{static_cast<double>(i), axis->categories[i]});
        return;
    }
    if (axis->scale == AxisScale::linear) {
        double lo = include_zero ? std::min(0.0, data_lo) : data_lo;
        double hi = data_hi;
        if (!(hi > lo)) hi = lo + (lo == 0 ? 1 : std::fabs(lo));
        axis->ticks = nice_linear_ticks(lo, hi, 7, axis->format, &axis->min, &axis->max);
        return;
    }
    // Log axes: pad a quarter of a power each side so end points do not sit on the frame.
    if (!(data_lo > 0)) data_lo = data_hi > 0 ? data_hi / 10 : 1;
    if (!(data_hi >= data_lo)) data_hi = data_lo;
    if (axis->scale == AxisScale::log2) {
        axis->min = data_lo / std::pow(2.0, 0.3);
        axis->max = data_hi * std::pow(2.0, 0.3);
    } else {
        // Bars grow from the axis minimum, so round out to whole decades: bar heights then
        // compare like for like.
        axis->min = std::pow(10.0, std::floor(std::log10(data_lo)));
        axis->max = std::pow(10.0, std::ceil(std::log10(data_hi) + 1e-9));
        if (axis->max <= data_hi * 1.05) axis->max *= 2;  // room for value labels over bars
    }
    axis->ticks = log_ticks(axis->min, axis->max, axis->scale, axis->format);
    if (axis->ticks.size() < 2) {
        // A narrow range (one N, or N = 1000..1500) may hold no power at all: label the data's
        // own ends so the axis still says where it is.
        axis->ticks.clear();
        axis->ticks.push_back(Tick{data_lo, format_tick(data_lo, axis->format)});
        if (data_hi > data_lo)
            axis->ticks.push_back(Tick{data_hi, format_tick(data_hi, axis->format)});
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Legend entries

std::vector<LegendEntry> legend_entries(const Chart& chart) {
    std::vector<LegendEntry> out;
    bool l2_line = false, l2_bar = false, range_end = false;
    for (const Panel& panel : chart.panels) {
        for (const Series& s : panel.series) {
            for (const Point& p : s.points) {
                const bool l2 = (p.flags & kPointL2Resident) != 0;
                (s.kind == SeriesKind::bars ? l2_bar : l2_line) |= l2;
                range_end |= (p.flags & kPointRangeEnd) != 0;
            }
            if (!s.in_legend) continue;
            const bool seen = std::any_of(out.begin(), out.end(),
                                          [&](const LegendEntry& e) { return e.label == s.label; });
            if (seen) continue;
            LegendEntry e;
            e.label = s.label;
            e.color = s.color;
            e.marker = s.marker;
            e.dashed = s.dashed;
            e.hollow = s.hollow;
            switch (s.kind) {
                case SeriesKind::line:
                    e.swatch = LegendSwatch::line;
                    break;
                case SeriesKind::bars:
                    e.swatch = LegendSwatch::bar;
                    break;
                case SeriesKind::hline:
                    e.swatch = LegendSwatch::hline;
                    break;
                case SeriesKind::band:
                    e.swatch = LegendSwatch::band;
                    break;
            }
            out.push_back(e);
        }
    }
    if (l2_line || l2_bar) {
        LegendEntry e;
        e.label = "L2-resident: data fits in L2, so DRAM < formula";
        e.swatch = l2_bar ? LegendSwatch::l2_hatch : LegendSwatch::l2_ring;
        e.color = kReferenceColor;
        out.push_back(e);
    }
    if (range_end) {
        LegendEntry e;
        e.label = "largest N in the kernel's range";
        e.swatch = LegendSwatch::range_end_marker;
        e.color = kReferenceColor;
        out.push_back(e);
    }
    return out;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Themes

Rgb rgb_hex(uint32_t hex) {
    return Rgb{((hex >> 16) & 0xff) / 255.0, ((hex >> 8) & 0xff) / 255.0, (hex & 0xff) / 255.0};
}

Rgb Theme::series_color(int index) const {
    if (index == kReferenceColor || series.empty()) return reference;
    const int n = static_cast<int>(series.size());
    return series[((index % n) + n) % n];
}

// Okabe & Ito's colourblind-safe palette. Yellow comes last: it is hard to see on white, so the
// kernels that come first in the registry (the first lessons) never get it.
static std::vector<Rgb> okabe_ito(uint32_t ink) {
    return {rgb_hex(0x0072B2), rgb_hex(0xE69F00), rgb_hex(0x009E73), rgb_hex(0xD55E00),
            rgb_hex(0xCC79A7), rgb_hex(0x56B4E9), rgb_hex(ink),      rgb_hex(0xF0E442)};
}

Theme light_theme() {
    Theme t;
    t.name = "light";
    t.background = rgb_hex(0xFFFFFF);
    t.plot_background = rgb_hex(0xFFFFFF);
    t.grid = rgb_hex(0xE2E2E2);
    t.axis = rgb_hex(0x3A3A3A);
    t.text = rgb_hex(0x1A1A1A);
    t.muted_text = rgb_hex(0x595959);
    t.reference = rgb_hex(0x4D4D4D);
    t.legend_background = rgb_hex(0xFFFFFF);
    t.series = okabe_ito(0x000000);
    // Okabe-Ito's orange, pink, sky blue and yellow fall below WCAG's 3:1 for graphics on white
    // (yellow `best` all but vanished on the copy line): the same hues, darkened until each
    // stands out from the plot by at least 3:1 (tests/test_viewmodel_teach.cpp checks it).
    t.series[1] = rgb_hex(0xB26B00);
    t.series[4] = rgb_hex(0xAD4F87);
    t.series[5] = rgb_hex(0x2A8BC9);
    t.series[7] = rgb_hex(0x947F00);
    return t;
}

Theme dark_theme() {
    Theme t;
    t.name = "dark";
    t.background = rgb_hex(0x15171C);
    t.plot_background = rgb_hex(0x1B1E25);
    t.grid = rgb_hex(0x31353F);
    t.axis = rgb_hex(0x9DA2AB);
    t.text = rgb_hex(0xECECEC);
    t.muted_text = rgb_hex(0xA9AEB7);
    t.reference = rgb_hex(0xBDBDBD);
    t.legend_background = rgb_hex(0x1F232B);
    t.series = okabe_ito(0xECECEC);
    t.series[0] = rgb_hex(0x2F82C8);  // Okabe-Ito blue, lifted: #0072B2 is too dark on #1B1E25
    return t;
}

std::optional<Theme> theme_by_name(const std::string& name) {
    if (name == "light") return light_theme();
    if (name == "dark") return dark_theme();
    return std::nullopt;
}

MarkerShape marker_for(int index) {
    // Shape as well as colour tells the kernels apart, in greyscale print and for every reader.
    static const MarkerShape kShapes[] = {MarkerShape::circle,        MarkerShape::square,
                                          MarkerShape::triangle,      MarkerShape::diamond,
                                          MarkerShape::triangle_down, MarkerShape::pentagon,
                                          MarkerShape::cross};
    const int n = 7;
    return kShapes[((index % n) + n) % n];
}

}  // namespace sml::chart
