// What the lesson adds on top of the chart, drawn with ImDrawList over the laid-out chart: a
// dashed line at each N the step talks about (ChartView::marks) with its label above the plot
// (place_mark_labels), and hidden legend entries greyed and struck through. The geometry comes
// from the core layout (PanelLayout::x_px, the band kept above the plot and the legend's
// anchors), so the marks sit exactly on the points.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "app/viewer/app.h"

namespace sml::viewer {

void App::draw_chart_marks(const ImVec2& o) {
    if (chart_layout_.panels.empty()) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float k = chart_scale_;
    const chart::PanelLayout& pl = chart_layout_.panels.front();
    const ImU32 ink = to_u32(chart_theme().text, 0.85f);
    const ImU32 bg = to_u32(chart_theme().background, 0.85f);
    const float top = o.y + static_cast<float>(pl.plot.y) * k;
    const float bottom = o.y + static_cast<float>(pl.plot.bottom()) * k;
    // Labels in the chart's own tick size, not the UI's: they belong to the plot. They sit above
    // it where place_mark_labels (model/chart_view.h) put them, and a mark's line reaches up to
    // its label; a mark whose label found no room keeps its line.
    ImFont* font = ImGui::GetFont();
    const float px = static_cast<float>(chart_layout_.fonts.tick) * k;
    const auto screen = [&](double x, double y) {
        return ImVec2(o.x + static_cast<float>(x) * k, o.y + static_cast<float>(y) * k);
    };
    const float pad = px * 0.2f;
    for (size_t i = 0; i < s_.chart_view.marks.size(); ++i) {
        const float x = o.x + static_cast<float>(pl.x_px(s_.chart_view.marks[i].x)) * k;
        const auto label =
            std::find_if(chart_mark_labels_.begin(), chart_mark_labels_.end(),
                         [&](const MarkLabel& l) { return l.first <= i && i <= l.last; });
        const float from =
            label == chart_mark_labels_.end() ? top : o.y + static_cast<float>(label->line_top) * k;
        // Dashed, so it never reads as a data line.
        const float dash = 6, gap = 5;
        for (float y = from; y < bottom; y += dash + gap)
            dl->AddLine(ImVec2(x, y), ImVec2(x, std::min(bottom, y + dash)), ink, 1.5f);
    }
    for (const MarkLabel& l : chart_mark_labels_) {
        const ImVec2 a = screen(l.rect.x, l.rect.y);
        const ImVec2 b = screen(l.rect.right(), l.rect.bottom());
        dl->AddRectFilled(ImVec2(a.x - pad, a.y), ImVec2(b.x + pad, b.y), bg, 2);
        dl->AddText(font, px, a, ink, l.text.c_str());
    }
    // Predict mode: where the step's own lines will appear, say why they are not there yet.
    if (!s_.chart_view.note.empty()) {
        const float left = o.x + static_cast<float>(pl.plot.x) * k;
        const float right = o.x + static_cast<float>(pl.plot.right()) * k;
        const ImVec2 sz = font->CalcTextSizeA(px * 1.1f, right - left - 16, right - left - 16,
                                              s_.chart_view.note.c_str());
        const ImVec2 at((left + right - sz.x) / 2, (top + bottom - sz.y) / 2);
        dl->AddRectFilled(ImVec2(at.x - 6, at.y - 4), ImVec2(at.x + sz.x + 6, at.y + sz.y + 4),
                          to_u32(chart_theme().legend_background, 0.92f), 4);
        dl->AddText(font, px * 1.1f, at, to_u32(chart_theme().muted_text),
                    s_.chart_view.note.c_str(), nullptr, right - left - 16);
    }
    // Hidden series: their legend entries stay, greyed and struck through, to click again.
    const chart::LegendLayout& lg = chart_layout_.legend;
    if (!lg.visible) return;
    const ImU32 veil = to_u32(chart_theme().legend_background, 0.7f);
    const ImU32 strike = to_u32(chart_theme().muted_text);
    const float half = static_cast<float>(lg.row_h / 2) * k;
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
