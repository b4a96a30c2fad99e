// Per-line metrics. See line_metrics.h.
#include "core/code/line_metrics.h"

#include <cmath>
#include <limits>

namespace sml {

std::vector<double> metric_per_listing_line(const LineMetric& m, const AsmListing& listing) {
    std::vector<double> out(listing.lines.size(), std::numeric_limits<double>::quiet_NaN());
    if (m.key == LineMetric::Key::source_line) return out;
    if (!m.function.empty() && m.function != listing.entry.key &&
        m.function != listing.entry.symbol)
        return out;
    for (size_t i = 0; i < listing.lines.size(); ++i) {
        const AsmLine& l = listing.lines[i];
        if (!l.instruction) continue;
        const int64_t key = m.key == LineMetric::Key::sass_address ? l.address : l.file_line;
        if (key < 0) continue;
        auto it = m.values.find(key);
        if (it != m.values.end()) out[i] = it->second;
    }
    return out;
}

LineMetric metric_per_source_line(const LineMetric& m, const AsmListing& listing,
                                  const LineMap& map) {
    LineMetric s;
    s.id = m.id;
    s.label = m.label;
    s.unit = m.unit;
    s.description = m.description;
    s.key = LineMetric::Key::source_line;
    const std::vector<double> per_line = metric_per_listing_line(m, listing);
    for (size_t i = 0; i < per_line.size(); ++i) {
        if (std::isnan(per_line[i])) continue;
        const int src = map.source_line(static_cast<int>(i));
        if (src > 0) s.values[src] += per_line[i];
    }
    return s;
}

double metric_max(const std::vector<double>& values) {
    double mx = 0;
    for (double v : values)
        if (std::isfinite(v) && v > mx) mx = v;
    return mx;
}

}  // namespace sml
