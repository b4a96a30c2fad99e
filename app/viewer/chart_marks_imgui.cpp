// What the lesson adds on top of the chart, drawn with ImDrawList over the laid-out chart: a
// dashed line and a label at each N the step talks about (ChartView::marks), and hidden legend
// entries greyed and struck through. The geometry comes from the core layout (PanelLayout::x_px
// and the legend's anchors), so the marks sit exactly on the points.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/viewer/app.h"

namespace sml::viewer {

void App::draw_chart_marks(const ImVec2& o) {
    if (chart_layout_.panels.empty()) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float k = chart_scale_;
    const chart::PanelLayout& pl = chart_layout_.panels.front();
    const ImU32 ink = to_u32(chart_theme().text, 0.85f);
    const ImU32 bg = to_u32(chart_theme().plot_background, 0.85f);
    const float top = o.y + static_cast<float>(pl.plot.y) * k;
    const float bottom = o.y + static_cast<float>(pl.plot.bottom()) * k;
    float label_y = top + 2;
    float last_right = -1e9f;
    for (const ChartMark& m : s_.chart_view.marks) {
        const float x = o.x + static_cast<float>(pl.x_px(m.x)) * k;
        // Dashed, so it never reads as a data line.
        const float dash = 6, gap = 5;
        for (float y = top; y < bottom; y += dash + gap)
            dl->AddLine(ImVec2(x, y), ImVec2(x, std::min(bottom, y + dash)), ink, 1.5f);
        // Labels that would overlap the previous one step down a line (8192 next to 8193).
        const ImVec2 sz = ImGui::CalcTextSize(m.label.c_str());
        float lx = x + 4;
        if (lx + sz.x > o.x + static_cast<float>(pl.plot.right()) * k) lx = x - 4 - sz.x;
        float ly = top + 2;
        if (lx < last_right + 4) ly = label_y + sz.y + 2;
        dl->AddRectFilled(ImVec2(lx - 2, ly), ImVec2(lx + sz.x + 2, ly + sz.y), bg, 2);
        dl->AddText(ImVec2(lx, ly), ink, m.label.c_str());
        label_y = ly;
        last_right = lx + sz.x;
    }
    // Hidden series: their legend entries stay, greyed and struck through, to click again.
    const chart::LegendLayout& lg = chart_layout_.legend;
    if (!lg.visible) return;
    const ImU32 veil = to_u32(chart_theme().legend_background, 0.7f);
    const ImU32 strike = to_u32(chart_theme().muted_text);
    const float half = static_cast<float>(chart_layout_.fonts.legend * 0.775) * k;
    for (size_t i = 0; i < lg.entries.size() && i < lg.anchors.size(); ++i) {
        if (std::find(s_.chart_view.hidden_labels.begin(), s_.chart_view.hidden_labels.end(),
                      lg.entries[i].label) == s_.chart_view.hidden_labels.end())
            continue;
        const float x0 = o.x + static_cast<float>(lg.anchors[i].x) * k;
        const float y = o.y + static_cast<float>(lg.anchors[i].y) * k;
        float x1 = o.x + static_cast<float>(lg.box.right()) * k;
        if (lg.placement == chart::LegendPlacement::above)
            for (size_t j = i + 1; j < lg.anchors.size(); ++j)
                if (std::fabs(lg.anchors[j].y - lg.anchors[i].y) < 1e-6) {
                    x1 = o.x + static_cast<float>(lg.anchors[j].x) * k - 8;
                    break;
                }
        dl->AddRectFilled(ImVec2(x0 - 2, y - half), ImVec2(x1, y + half), veil);
        dl->AddLine(ImVec2(x0, y), ImVec2(x1 - 4, y), strike, 1.5f);
    }
}

}  // namespace sml::viewer
