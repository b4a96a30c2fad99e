// Source panel: the kernel the learner reads is the kernel that runs. Tabs CUDA | PTX | SASS.
#include <imgui.h>

#include "app/viewer/app.h"
#include "kernels/registry.h"

namespace sml::viewer {

void App::draw_source() {
    const Palette& pal = palette();
    const KernelInfo* k = find_kernel(s_.source_kernel);
    // Kernel picker: every registry kernel, the current step's kernels first in the list order.
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    if (ImGui::BeginCombo("##kernel", k ? k->id : "kernel")) {
        // Keys K / Shift+K step through the same list.
        for (const KernelInfo& ki : registry())
            if (ImGui::Selectable(ki.id, k == &ki)) show_source(ki.id, s_.source_tab);
        ImGui::EndCombo();
    }
    if (k) {
        ImGui::SameLine();
        ImGui::TextColored(pal.muted, "%s", k->lesson_source());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: %s", k->title, k->summary);
    }
    if (!k) return;
    if (ImGui::BeginTabBar("source-tabs")) {
        struct TabDef {
            const char* label;
            SourceTab tab;
        } tabs[] = {{"CUDA", SourceTab::cuda}, {"PTX", SourceTab::ptx}, {"SASS", SourceTab::sass}};
        for (const TabDef& t : tabs) {
            // Select the tab programmatically when an anchor switched it.
            const ImGuiTabItemFlags f =
                (s_.source_tab == t.tab) ? ImGuiTabItemFlags_SetSelected : 0;
            bool open = ImGui::BeginTabItem(t.label, nullptr, f);
            if (ImGui::IsItemClicked() && s_.source_tab != t.tab)
                show_source(s_.source_kernel, t.tab);
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("[%s]", binding_of(Action::code_next_tab).keys);
            if (open) ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
    const std::string key =
        s_.source_kernel + "/" + std::to_string(static_cast<int>(s_.source_tab));
    auto it = s_.sources.find(key);
    if (it == s_.sources.end()) return;
    const Result<SourceDoc>& doc = *it->second;
    ImGui::BeginChild("code", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    if (!doc) {
        ImGui::PushTextWrapPos(0);
        // No SASS is expected without the recorded tarball: a note, not an error.
        if (s_.source_tab == SourceTab::sass)
            ImGui::TextColored(pal.muted, "%s", tr("No SASS for this kernel."));
        else
            ImGui::TextColored(pal.bad, "%s", doc.error().message.c_str());
        if (!doc.error().hint.empty())
            ImGui::TextColored(pal.muted, "%s", doc.error().hint.c_str());
        ImGui::PopTextWrapPos();
    } else {
        source_view_.draw(*doc, fonts_);
        // A margin after the widest line, so its last characters clear the panel's edge and
        // scrollbar instead of ending cut at the right border.
        ImGui::SameLine(0, 0);
        ImGui::Dummy(ImVec2(ImGui::GetFontSize() * 2, 1));
        // Where the code is, in lines, so a text-size change can keep it (app.cpp).
        ImGui::PushFont(fonts_.mono);
        const float line_h = ImGui::GetTextLineHeightWithSpacing();
        ImGui::PopFont();
        if (line_h > 0) code_top_line_ = static_cast<int>(ImGui::GetScrollY() / line_h);
    }
    ImGui::EndChild();
}

}  // namespace sml::viewer
