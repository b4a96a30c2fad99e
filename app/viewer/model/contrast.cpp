// WCAG contrast. See contrast.h.
#include "app/viewer/model/contrast.h"

#include <algorithm>
#include <cmath>

namespace sml::viewer {

namespace {
double linear(double channel) {
    return channel <= 0.04045 ? channel / 12.92 : std::pow((channel + 0.055) / 1.055, 2.4);
}
}  // namespace

double relative_luminance(const chart::Rgb& c) {
    return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b);
}

double contrast_ratio(const chart::Rgb& a, const chart::Rgb& b) {
    const double la = relative_luminance(a), lb = relative_luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

}  // namespace sml::viewer
