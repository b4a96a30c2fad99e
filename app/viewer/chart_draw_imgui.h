// Draws a laid-out chart (core/chart/chart_layout.h) with ImDrawList: the same DrawOps the Cairo
// exporter paints, so the chart on screen and the exported file agree on axes, ticks and legend.
#pragma once

#include <imgui.h>

#include "app/viewer/theme.h"
#include "core/chart/chart_layout.h"

namespace sml::viewer {

// Text measurement with the viewer's fonts, for chart::layout_chart.
chart::TextMeasure imgui_text_measure(const Fonts& fonts);

// Paints every op of `layout` with its top-left corner at `origin` (screen pixels), every length
// multiplied by `scale` (see panel_charts.cpp: the layout is made on a smaller canvas and scaled
// up, so chart text stays readable in a panel much smaller than an exported 1600x900 figure).
void draw_chart(const chart::ChartLayout& layout, ImVec2 origin, float scale, const Fonts& fonts);

}  // namespace sml::viewer
