// Lessons panel: the step's text, <- / -> navigation, the one-click experiment and the check
// question with its answer hidden until revealed.
#include <imgui.h>

#include <cstdio>

#include "app/viewer/app.h"
#include "app/viewer/model/format.h"
#include "kernels/registry.h"

namespace sml::viewer {

void App::draw_lessons() {
    const Palette& pal = palette();
    const LessonStep* step = s_.nav.current();
    // Header: position, title and the arrows, always visible above the scrolling text.
    const bool zh = s_.lessons_lang == "zh";
    if (!step) {
        ImGui::TextColored(pal.muted, "No lessons loaded.");
        ImGui::TextWrapped("The lesson text lives in lessons/<lang>/ next to the app.");
        return;
    }
    ImGui::BeginDisabled(!s_.nav.can_prev());
    if (ImGui::ArrowButton("##prev", ImGuiDir_Left) && s_.nav.prev()) on_step_changed();
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!s_.nav.can_next());
    if (ImGui::ArrowButton("##next", ImGuiDir_Right) && s_.nav.next()) on_step_changed();
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::TextColored(pal.muted, zh ? "\xE7\xAC\xAC %d / %d \xE6\xAD\xA5" : "Step %d of %d",
                       s_.nav.index(), s_.nav.count() - 1);
    // Step dots: one per step, the current one filled; click to jump.
    ImGui::SameLine();
    const float r = ImGui::GetFontSize() * 0.22f;
    for (int i = 0; i < s_.nav.count(); ++i) {
        ImVec2 p = ImGui::GetCursorScreenPos();
        p.y += ImGui::GetTextLineHeight() * 0.5f;
        ImGui::InvisibleButton(("##dot" + std::to_string(i)).c_str(),
                               ImVec2(r * 3, ImGui::GetTextLineHeight()));
        if (ImGui::IsItemClicked() && s_.nav.go(i)) on_step_changed();
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", s_.nav.book().steps[i].text.title.c_str());
        ImU32 col = ImGui::GetColorU32(i == s_.nav.index() ? pal.accent : pal.muted);
        if (i == s_.nav.index())
            ImGui::GetWindowDrawList()->AddCircleFilled(ImVec2(p.x + r * 1.5f, p.y), r, col);
        else
            ImGui::GetWindowDrawList()->AddCircle(ImVec2(p.x + r * 1.5f, p.y), r, col);
        ImGui::SameLine(0, 0);
    }
    ImGui::NewLine();
    ImGui::PushFont(fonts_.heading);
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(step->text.title.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
    ImGui::Separator();

    ImGui::BeginChild("lesson-text", ImVec2(0, 0), false);
    lesson_md_.draw(
        fonts_,
        [this](const std::string& href) {
            if (href.rfind("anchor:", 0) == 0) follow_anchor(href.substr(7));
        },
        [this](const std::string& href) -> std::string {
            if (href.rfind("anchor:", 0) != 0) return href;
            Result<LessonAnchor> a = parse_anchor_key(href.substr(7));
            if (!a) return "";
            if (a->is_ptx()) return "Show the PTX lines matching " + a->ptx;
            const KernelInfo* k = find_kernel(a->kernel);
            return "Show region '" + a->region + "' in " + (k ? k->lesson_source() : a->kernel);
        });

    // The experiment: what to run and what to watch, set up in one click.
    const LessonExperiment& e = step->experiment;
    if (!e.kernels.empty()) {
        ImGui::Spacing();
        ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::GetStyleColorVec4(ImGuiCol_FrameBg));
        std::string ks;
        for (const std::string& k : e.kernels) ks += (ks.empty() ? "" : ", ") + k;
        char what[512];
        std::snprintf(what, sizeof what, "%s  \xC2\xB7  M = %lld, N = %s, %s%s%s  \xC2\xB7  %s %s",
                      ks.c_str(), static_cast<long long>(e.rows), format_cols(e.cols).c_str(),
                      e.dtype.c_str(), e.variant.empty() ? "" : ", ", e.variant.c_str(),
                      zh ? "\xE8\xA7\x82\xE5\xAF\x9F" : "watch", e.metric.c_str());
        // Sized to its wrapped text: title, description, button.
        const ImGuiStyle& st = ImGui::GetStyle();
        const float wrap = ImGui::GetContentRegionAvail().x - 2 * st.WindowPadding.x;
        const float h = ImGui::GetTextLineHeightWithSpacing() +
                        ImGui::CalcTextSize(what, nullptr, false, wrap).y + st.ItemSpacing.y +
                        ImGui::GetFrameHeightWithSpacing() + 2 * st.WindowPadding.y;
        ImGui::BeginChild("experiment", ImVec2(0, h), true, ImGuiWindowFlags_NoScrollbar);
        ImGui::PushFont(fonts_.bold);
        ImGui::TextColored(pal.accent, zh ? "\xE5\xAE\x9E\xE9\xAA\x8C" : "Experiment");
        ImGui::PopFont();
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(what);
        ImGui::PopTextWrapPos();
        if (ImGui::Button(zh ? "\xE8\xAE\xBE\xE7\xBD\xAE\xE5\xAE\x9E\xE9\xAA\x8C" : "Set up"))
            apply_experiment();
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "Fill the Run panel with these kernels and sizes, and show N = %lld "
                "in the table and charts",
                static_cast<long long>(e.cols));
        ImGui::EndChild();
        ImGui::PopStyleColor();
    }

    // The check question's answer, hidden until asked for.
    if (!step->text.answer.empty()) {
        ImGui::Spacing();
        bool shown = s_.nav.answer_revealed();
        if (ImGui::Button(
                shown ? (zh ? "\xE9\x9A\x90\xE8\x97\x8F\xE7\xAD\x94\xE6\xA1\x88" : "Hide answer")
                      : (zh ? "\xE6\x98\xBE\xE7\xA4\xBA\xE7\xAD\x94\xE6\xA1\x88" : "Show answer")))
            s_.nav.reveal_answer(!shown);
        if (s_.nav.answer_revealed()) answer_md_.draw(fonts_, nullptr, nullptr);
    }
    ImGui::EndChild();
}

}  // namespace sml::viewer
