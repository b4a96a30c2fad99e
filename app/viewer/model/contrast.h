// WCAG 2.x contrast between two colours, for the chart palette: every series must stand out from
// the plot background by at least 3:1, WCAG's minimum for graphics (success criterion 1.4.11),
// in both themes. tests/test_viewmodel_teach.cpp computes it for every series colour.
#pragma once

#include "core/chart/chart_model.h"

namespace sml::viewer {

// Relative luminance of an sRGB colour (channels 0..1), 0 for black to 1 for white.
double relative_luminance(const chart::Rgb& c);
// (L_lighter + 0.05) / (L_darker + 0.05): 1 for equal colours, 21 for black on white.
double contrast_ratio(const chart::Rgb& a, const chart::Rgb& b);

inline constexpr double kGraphicsContrast = 3.0;  // WCAG 1.4.11, non-text contrast

}  // namespace sml::viewer
