// Metrics panel: one row per kernel at the selected N (and, while comparing, the compared
// session's row under each). Header tooltips describe each metric; L2-resident and
// counters-unavailable states are labelled in the cells they affect.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>

#include "app/viewer/app.h"
#include "app/viewer/model/format.h"

namespace sml::viewer {

void App::draw_metrics() {
    const Palette& pal = palette();
    const ImGuiStyle& st = ImGui::GetStyle();
    // As wide as its longest entry: "N = 1M (2^20)" used to be cut to "N = 128k (2^1".
    const std::string preview = "N = " + format_cols(s_.cols);
    float combo_w = ImGui::CalcTextSize(preview.c_str()).x;
    for (int64_t c : s_.all_cols)
        combo_w = std::max(combo_w, ImGui::CalcTextSize(("N = " + format_cols(c)).c_str()).x);
    combo_w += ImGui::GetFrameHeight() + st.FramePadding.x * 2;
    // In a narrow panel (under the chart on a projector) the N and the button keep the row; the
    // panel's title gives way, and the session's M and copy go where they fit.
    const float title_w = ImGui::CalcTextSize(tr("Metrics")).x * 1.1f + st.ItemSpacing.x;
    const float button_w = s_.table_kernels.empty()
                               ? 0
                               : ImGui::CalcTextSize(tr("show all kernels")).x +
                                     st.FramePadding.x * 2 + st.ItemSpacing.x;
    const bool titled =
        !s_.has_session || title_w + combo_w + button_w <= ImGui::GetContentRegionAvail().x;
    if (titled) {
        ImGui::PushFont(fonts_.bold);
        ImGui::TextUnformatted(tr("Metrics"));
        ImGui::PopFont();
    }
    if (!s_.has_session) {
        ImGui::TextColored(pal.muted, "%s", tr("No session open."));
        return;
    }
    if (titled) ImGui::SameLine();
    ImGui::SetNextItemWidth(combo_w);
    if (ImGui::BeginCombo("##cols", preview.c_str())) {
        for (int64_t c : s_.all_cols)
            if (ImGui::Selectable(format_cols(c).c_str(), c == s_.cols)) select_cols(c);
        ImGui::EndCombo();
    }
    if (!s_.table_kernels.empty()) {
        ImGui::SameLine();
        if (ImGui::SmallButton(tr("show all kernels"))) {
            s_.table_kernels.clear();
            refresh_metrics();
        }
    }
    if (!s_.metric_rows.empty()) {
        char line[160];
        std::snprintf(line, sizeof line, "M = %lld  \xC2\xB7  %s %s",
                      static_cast<long long>(s_.metric_rows.front().rows), tr("copy"),
                      format_gbps(s_.session.device.copy_gbps).c_str());
        ImGui::SameLine();
        if (ImGui::GetContentRegionAvail().x >= ImGui::CalcTextSize(line).x)
            ImGui::TextColored(pal.muted, "%s", line);
        else
            ImGui::NewLine();
    }
    if (!s_.compare_note.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(pal.accent, "%s", s_.compare_note.c_str());
        ImGui::PopTextWrapPos();
    }
    if (!s_.counters_note.empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(pal.bad, "%s", s_.counters_note.c_str());
        ImGui::PopTextWrapPos();
    }
    if (s_.hides_numbers()) {
        // On the same row when it fits (the "?" cells say it too, and their tooltip).
        const std::string note = std::string(tr("hidden: predict first")) + "  [" +
                                 binding_of(Action::reveal).keys + "]";
        if (ImGui::GetItemRectMax().x + ImGui::CalcTextSize(note.c_str()).x + 20 <
            ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) {
            ImGui::SameLine();
            ImGui::TextColored(pal.accent, "%s", note.c_str());
        }
    }
    if (s_.metric_rows.empty()) {
        ImGui::TextColored(pal.muted, "%s", tr("No points at this N."));
        return;
    }
    const int ncols = static_cast<int>(MetricColumn::count_);
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                  ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX |
                                  ImGuiTableFlags_ScrollY;
    if (!ImGui::BeginTable("metrics-table", ncols, flags)) return;
    ImGui::TableSetupScrollFreeze(1, 1);
    for (int c = 0; c < ncols; ++c)
        ImGui::TableSetupColumn(tr(column_info(static_cast<MetricColumn>(c)).header));
    // Headers by hand, so each can carry its metric's description as a tooltip.
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int c = 0; c < ncols; ++c) {
        ImGui::TableSetColumnIndex(c);
        const MetricColumnInfo& info = column_info(static_cast<MetricColumn>(c));
        ImGui::TableHeader(tr(info.header));
        if (ImGui::IsItemHovered()) {
            // Narrow enough to stay on screen at any text size; ImGui keeps it inside the window.
            const float wrap =
                std::min(ImGui::GetFontSize() * 34, ImGui::GetMainViewport()->WorkSize.x * 0.45f);
            ImGui::SetNextWindowSizeConstraints(
                ImVec2(0, 0), ImVec2(wrap + ImGui::GetStyle().WindowPadding.x * 2, FLT_MAX));
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(wrap);
            ImGui::TextUnformatted(
                column_tooltip(static_cast<MetricColumn>(c), s_.lessons_lang).c_str());
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
    }
    for (const MetricRow& row : s_.metric_rows) {
        ImGui::TableNextRow();
        if (!metrics_focus_.empty() && row.kernel_id == metrics_focus_ && row.side == 0) {
            ImGui::TableSetColumnIndex(0);
            ImGui::SetScrollHereY(0.0f);  // the asked-about row at the top
            // and the asked-about column in view: on a projector the table is narrower than
            // its columns, and the question's (bank conflicts, DRAM) may be past the edge.
            if (metrics_focus_column_ > 0 && metrics_focus_column_ < ncols) {
                ImGui::TableSetColumnIndex(metrics_focus_column_);
                const float right = ImGui::GetCursorScreenPos().x +
                                    ImGui::GetContentRegionAvail().x +
                                    ImGui::GetStyle().CellPadding.x;  // the column's right edge
                ImGui::SetScrollFromPosX(right - ImGui::GetWindowPos().x, 1.0f);
            }
        }
        for (int c = 0; c < ncols; ++c) {
            ImGui::TableSetColumnIndex(c);
            const MetricColumn mc = static_cast<MetricColumn>(c);
            const std::string& cell = row.cells[c];
            if (mc == MetricColumn::kernel) {
                // The compared session's rows read in the accent colour, under the open one's.
                if (row.side == 1) ImGui::PushStyleColor(ImGuiCol_Text, pal.accent);
                if (ImGui::Selectable((cell + "##" + std::to_string(row.side)).c_str(),
                                      row.kernel_id == s_.source_kernel && row.side == 0,
                                      ImGuiSelectableFlags_SpanAllColumns))
                    show_source(row.kernel_id, SourceTab::cuda);
                if (row.side == 1) ImGui::PopStyleColor();
                continue;
            }
            if (mc == MetricColumn::pct_of_copy) {
                // A bar under the number: the table reads as a chart at a glance. A thin strip
                // along the cell's bottom, not a fill behind the digits, which took the contrast
                // of the first ones away ("17.9%" read as "7.9%" on a projector).
                const ImVec2 p = ImGui::GetCursorScreenPos();
                const float w = ImGui::GetColumnWidth();
                const float f = static_cast<float>(std::clamp(row.pct_of_copy / 100.0, 0.0, 1.0));
                const float h = ImGui::GetTextLineHeight();
                const float strip = std::max(2.0f, h * 0.16f);
                ImGui::GetWindowDrawList()->AddRectFilled(
                    ImVec2(p.x, p.y + h - strip), ImVec2(p.x + w * f, p.y + h),
                    ImGui::GetColorU32(ImVec4(pal.accent.x, pal.accent.y, pal.accent.z, 0.75f)));
            }
            if (cell == "?") {  // hidden by predict mode
                ImGui::TextColored(pal.accent, "?");
                if (ImGui::IsItemHovered())
                    ImGui::SetTooltip("%s  [%s]", tr("hidden: predict first"),
                                      binding_of(Action::reveal).keys);
                continue;
            }
            const bool missing = cell == "n/a";
            if (missing)
                ImGui::TextColored(pal.muted, "%s", cell.c_str());
            else
                ImGui::TextUnformatted(cell.c_str());
            if (missing && ImGui::IsItemHovered() && !row.counters_reason.empty())
                ImGui::SetTooltip("%s: %s", tr("counters unavailable"),
                                  row.counters_reason.c_str());
            if (mc == MetricColumn::dram_measured && row.l2_resident) {
                ImGui::SameLine();
                ImGui::TextColored(pal.accent, "[L2]");
                if (ImGui::IsItemHovered())
                    ImGui::SetTooltip("%s: %s", tr("L2-resident"),
                                      row.l2_reason.empty() ? tr("the working set fits in L2")
                                                            : row.l2_reason.c_str());
            }
        }
    }
    ImGui::EndTable();
    // A few frames, not one: the columns' widths are measured on the table's first frames, and
    // a scroll aimed before that lands short. Then the table is the user's to scroll.
    if (!metrics_focus_.empty() && --metrics_focus_frames_ <= 0) {
        metrics_focus_.clear();
        metrics_focus_column_ = -1;
    }
}

}  // namespace sml::viewer
