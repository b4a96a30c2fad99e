// Charts panel: the core chart model drawn with ImDrawList, hover values, click to select a
// kernel and N, and export through the core exporters (the same files the CLI writes). The
// buttons come from the chart-kind table (core/chart/chart_kinds.h); while comparing, the kinds
// that compare draw the second session dashed over the first.
#include <imgui.h>

#include <cctype>
#include <cmath>

#include "app/viewer/app.h"
#include "app/viewer/chart_draw_imgui.h"
#include "app/viewer/model/format.h"
#include "core/chart/chart_export.h"
#include "core/chart/chart_kinds.h"
#include "kernels/registry.h"

namespace sml::viewer {

namespace {
// A hovered value in full, in the axis unit: "6144", "2520 GB/s", "2.14 GB", "95.2%".
std::string value_text(double v, const chart::Axis& axis) {
    if (axis.format == chart::TickFormat::pow2_count) return format_cols(std::llround(v));
    if (axis.format == chart::TickFormat::bytes || axis.unit == "bytes") return format_bytes(v);
    if (axis.format == chart::TickFormat::percent || axis.unit == "%") return format_pct(v);
    if (axis.unit == "GB/s") return format_gbps(v);
    if (axis.unit == "ms") return format_ms(v);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

}  // namespace

void App::draw_charts() {
    const Palette& pal = palette();
    // The chart type: a list (one row at any text size; key C steps through it), of the kinds
    // of the chart-kind table drawn from a session (the peers chart reads bench/peers.py
    // results, which the viewer does not open).
    const chart::ChartKind* current = chart::find_chart_kind(s_.chart_kind);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.5f);
    if (ImGui::BeginCombo("##chart-kind", current ? tr(current->short_label) : "")) {
        for (const chart::ChartKind* kind : viewer_chart_kinds()) {
            const bool on = kind == current;
            if (ImGui::Selectable(tr(kind->short_label), on) && !on) {
                s_.chart_kind = kind->id;
                refresh_chart();
            }
            if (ImGui::IsItemHovered()) {
                ImGui::BeginTooltip();
                ImGui::TextUnformatted(tr(kind->tooltip));
                if (s_.compared && !kind->compares)
                    ImGui::TextColored(pal.muted, "%s",
                                       tr("shows the open session only, not the compared one"));
                ImGui::EndTooltip();
            }
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s  [%s]", current ? tr(current->tooltip) : "",
                          binding_of(Action::chart_next_kind).keys);
    // The step's preset (its kernels, the previous step's, copy) or every kernel: key A.
    ImGui::SameLine();
    if (ImGui::Button(s_.chart_all ? tr("All kernels") : tr("This step")))
        do_action(Action::chart_all);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s  [%s]",
                          tr("The step's kernels, the previous step's and copy (A shows all)"),
                          binding_of(Action::chart_all).keys);
    // Export: through the same exporters as `softmaxlab-cli chart`. Picking a format opens the
    // Export dialog (app.cpp), which suggests a new file in a folder it names and asks before
    // it replaces anything.
    ImGui::SameLine();
    if (ImGui::Button(tr("Export..."))) ImGui::OpenPopup("export-menu");
    if (ImGui::BeginPopup("export-menu")) {
        const char* formats[] = {"png", "svg", "pdf", "csv"};
        for (const char* f : formats) {
            const bool drawn = std::string(f) != "csv";
            const bool can = s_.chart && (!drawn || chart::chart_renderer_available());
            std::string label = f;
            for (char& c : label)
                c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            label += "...";
            if (ImGui::MenuItem(label.c_str(), nullptr, false, can)) {
                export_format_ = f;
                show_export_ = true;
            }
            if (drawn && !chart::chart_renderer_available() &&
                ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
                ImGui::SetTooltip("%s",
                                  tr("this build has no Cairo: install libcairo2-dev and rebuild"));
        }
        ImGui::EndPopup();
    }
    if (!s_.chart_note.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(pal.muted, "%s", s_.chart_note.c_str());
        ImGui::PopTextWrapPos();
    }
    if (!s_.chart) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(pal.muted, "%s",
                           !s_.chart_error.empty() ? s_.chart_error.c_str()
                           : s_.has_session
                               ? tr("No chart for this selection.")
                               : tr("No session open: File > Open a session, or Run on a GPU."));
        ImGui::PopTextWrapPos();
        return;
    }
    // The footnote (e.g. "SYNTHETIC session") must stay readable: it goes under the plot as text.
    const std::string& foot = s_.chart->footnote;
    const bool footnote = !foot.empty();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImVec2 size = ImGui::GetContentRegionAvail();
    if (footnote)
        size.y -= ImGui::CalcTextSize(foot.c_str(), nullptr, false, size.x).y +
                  ImGui::GetStyle().ItemSpacing.y;
    if (size.x < 50 || size.y < 50) return;
    if (chart_layout_generation_ != chart_generation_ || chart_layout_w_ != size.x ||
        chart_layout_h_ != size.y || chart_layout_theme_ != s_.settings.theme) {
        // On screen the kind buttons name the chart and the menu bar names the device, so the
        // title block is left to the exported files; axes, series and legend are the same.
        chart::Chart laid = *s_.chart;
        laid.title.clear();
        laid.subtitle.clear();
        laid.footnote.clear();
        // Text as large as the UI's, and room above the plot for the step's N marks.
        ScreenChart fit = layout_screen_chart(
            laid, chart_theme(), size.x, size.y, s_.settings.font_scale, s_.chart_view.marks,
            imgui_text_measure(fonts_), current ? tr(current->short_label) : "");
        chart_layout_ = std::move(fit.layout);
        chart_scale_ = fit.scale;
        chart_mark_labels_ = std::move(fit.mark_labels);
        translate_layout(&chart_layout_, s_.lessons_lang);  // the legend entries it made itself
        chart_layout_generation_ = chart_generation_;
        chart_layout_w_ = size.x;
        chart_layout_h_ = size.y;
        chart_layout_theme_ = s_.settings.theme;
    }
    ImGui::InvisibleButton("chart-canvas", size);
    const bool hovered = ImGui::IsItemHovered();
    const bool clicked = ImGui::IsItemClicked();
    draw_chart(chart_layout_, origin, chart_scale_, fonts_);
    draw_chart_marks(origin);
    if (footnote) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(pal.bad, "%s", foot.c_str());
        ImGui::PopTextWrapPos();
    }
    if (!hovered) return;
    const ImVec2 m = ImGui::GetMousePos();
    // The legend: a click hides or shows that entry's series.
    const int entry = legend_entry_at(chart_layout_, (m.x - origin.x) / chart_scale_,
                                      (m.y - origin.y) / chart_scale_);
    if (entry >= 0 &&
        !s_.chart_view.key_of_label(chart_layout_.legend.entries[entry].label).empty()) {
        ImGui::SetTooltip("%s", tr("click: hide or show this line"));
        if (clicked) toggle_legend_entry(chart_layout_.legend.entries[entry].label);
        return;
    }
    auto hit = chart::hit_test(*s_.chart, chart_layout_, (m.x - origin.x) / chart_scale_,
                               (m.y - origin.y) / chart_scale_);
    if (!hit) return;
    const chart::Panel& panel = s_.chart->panels[hit->panel];
    const chart::Series& series = panel.series[hit->series];
    const chart::Point& pt = series.points[hit->point];
    ImGui::BeginTooltip();
    ImGui::PushFont(fonts_.bold);
    ImGui::TextUnformatted(series.label.c_str());
    ImGui::PopFont();
    const std::string xs = panel.x.categorical() && pt.x >= 0 && pt.x < panel.x.categories.size()
                               ? panel.x.categories[static_cast<size_t>(pt.x)]
                               : value_text(s_.chart_view.real_x(pt.x), panel.x);
    ImGui::Text("%s: %s", panel.x.label.c_str(), xs.c_str());
    ImGui::Text("%s: %s", panel.y.label.c_str(), value_text(pt.y, panel.y).c_str());
    if (!pt.note.empty())  // translate_chart has put it in the lesson language
        ImGui::TextColored(pal.muted, "%s", message_en(pt.note).c_str());
    ImGui::TextColored(pal.muted, "%s", tr("click: select this kernel and N"));
    ImGui::EndTooltip();
    if (!clicked) return;
    // Click: show that kernel's code, and its N in the table when the x axis is N.
    std::string kernel = series.kernel;
    if (!find_kernel(kernel) && panel.x.categorical() && pt.x >= 0 &&
        pt.x < panel.x.categories.size())
        kernel = panel.x.categories[static_cast<size_t>(pt.x)];
    if (find_kernel(kernel)) show_source(kernel, s_.source_tab);
    if (!panel.x.categorical() && panel.x.scale != chart::AxisScale::linear) {
        const int64_t cols = static_cast<int64_t>(std::llround(s_.chart_view.real_x(pt.x)));
        // The table follows the click: the kernel joins its filter, so it never goes empty.
        s_.table_kernels =
            compare_after_click(s_.table_kernels, find_kernel(kernel) ? kernel : "", cols, s_.session);
        select_cols(cols);
    }
}

}  // namespace sml::viewer
