// Small queries on the session model (the JSON side lives in session_json.cpp).
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

}  // namespace sml
