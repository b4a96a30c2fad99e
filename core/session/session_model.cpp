// Small queries on the session model (the JSON side lives in session_json.cpp).
#include <algorithm>

#include "core/session/session.h"

namespace sml {

std::optional<double> MetricsRecord::get(const std::string& metric) const {
    for (const MetricValue& v : values)
        if (v.name == metric) return v.value;
    return std::nullopt;
}

const PointRecord* Session::find(const std::string& kernel, int64_t cols, const std::string& dtype,
                                 const std::string& variant) const {
    for (const PointRecord& p : points)
        if (p.kernel == kernel && p.cols == cols && p.dtype == dtype && p.variant == variant)
            return &p;
    return nullptr;
}

double cols_apart(int64_t a, int64_t b) {
    const double r = static_cast<double>(a) / static_cast<double>(b);
    return r >= 1 ? r : 1 / r;
}

int64_t nearest_cols(const std::vector<int64_t>& cols, int64_t want) {
    if (cols.empty()) return 0;
    return *std::min_element(cols.begin(), cols.end(), [&](int64_t a, int64_t b) {
        return cols_apart(a, want) < cols_apart(b, want);
    });
}

}  // namespace sml
