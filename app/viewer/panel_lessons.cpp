// Lessons panel: the step's text, <- / -> navigation, the predict card (a number to guess before
// the step shows it), the one-click experiment and the check question with its answer hidden
// until revealed.
#include <imgui.h>

#include <cstdio>

#include "app/viewer/app.h"
#include "app/viewer/model/format.h"
#include "kernels/registry.h"

namespace sml::viewer {

namespace {
// A hint after a button: which key does the same.
void key_hint(const char* keys) {
    ImGui::SameLine();
    ImGui::TextDisabled("[%s]", keys);
}
}  // namespace

void App::draw_lessons() {
    const Palette& pal = palette();
    const LessonStep* step = s_.nav.current();
    if (!step) {
        ImGui::TextColored(pal.muted, "%s", tr("No lessons loaded."));
        ImGui::TextWrapped("%s", tr("The lesson text lives in lessons/<lang>/ next to the app."));
        return;
    }
    // Header: position, title and the arrows, always visible above the scrolling text.
    ImGui::BeginDisabled(!s_.nav.can_prev());
    if (ImGui::ArrowButton("##prev", ImGuiDir_Left)) do_action(Action::prev_step);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!s_.nav.can_next());
    if (ImGui::ArrowButton("##next", ImGuiDir_Right)) do_action(Action::next_step);
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::TextColored(pal.muted, "%s", s_.nav.position_text(s_.lessons_lang).c_str());
    // Step dots: one per step, the current one filled; click to jump. On a new line when the
    // panel is too narrow for them next to the counter.
    const float r = ImGui::GetFontSize() * 0.22f;
    const float dots_w = s_.nav.count() * r * 3;
    const float room = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x -
                       ImGui::GetItemRectMax().x - ImGui::GetStyle().ItemSpacing.x;
    if (room > dots_w) ImGui::SameLine();
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
    // Wrapped by the Markdown view, which breaks Chinese between characters (ImGui only at spaces).
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_Text));
    title_md_.draw(fonts_, nullptr, nullptr);
    ImGui::PopStyleColor();
    ImGui::Separator();

    ImGui::BeginChild("lesson-text", ImVec2(0, 0), false);
    // A new step opens at its top; a text-size change keeps the place (by fraction, once the
    // content has been measured in the new fonts).
    if (lesson_scroll_top_) {
        ImGui::SetScrollY(0);
        lesson_scroll_top_ = false;
    } else if (lesson_scroll_restore_ > 0 && --lesson_scroll_restore_ == 0) {
        ImGui::SetScrollY(lesson_scroll_frac_ * ImGui::GetScrollMaxY());
    } else if (lesson_scroll_restore_ == 0) {
        const float max = ImGui::GetScrollMaxY();
        lesson_scroll_frac_ = max > 0 ? ImGui::GetScrollY() / max : 0;
    }

    draw_predict();

    lesson_md_.draw(
        fonts_,
        [this](const std::string& href) {
            if (href.rfind("anchor:", 0) == 0) follow_anchor(href.substr(7));
        },
        [this](const std::string& href) -> std::string {
            if (href.rfind("anchor:", 0) != 0) return href;
            Result<LessonAnchor> a = parse_anchor_key(href.substr(7));
            if (!a) return "";
            if (a->is_ptx())
                return (zh() ? "显示匹配 " + a->ptx + " 的 PTX 行"
                             : "Show the PTX lines matching " + a->ptx);
            const KernelInfo* k = find_kernel(a->kernel);
            const std::string file = k ? k->lesson_source() : a->kernel;
            return zh() ? "在 " + file + " 中显示区域 '" + a->region + "'"
                        : "Show region '" + a->region + "' in " + file;
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
                      tr("watch"), e.metric.c_str());
        // Sized to its wrapped text: title, description, button.
        const ImGuiStyle& st = ImGui::GetStyle();
        const float wrap = ImGui::GetContentRegionAvail().x - 2 * st.WindowPadding.x;
        const float h = ImGui::GetTextLineHeightWithSpacing() +
                        ImGui::CalcTextSize(what, nullptr, false, wrap).y + st.ItemSpacing.y +
                        ImGui::GetFrameHeightWithSpacing() + 2 * st.WindowPadding.y;
        ImGui::BeginChild("experiment", ImVec2(0, h), true, ImGuiWindowFlags_NoScrollbar);
        ImGui::PushFont(fonts_.bold);
        ImGui::TextColored(pal.accent, "%s", tr("Experiment"));
        ImGui::PopFont();
        ImGui::PushTextWrapPos(0);
        ImGui::TextUnformatted(what);
        ImGui::PopTextWrapPos();
        if (ImGui::Button(tr("Set up"))) do_action(Action::set_up);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "%s", tr("Fill the Run panel with these kernels and sizes, and show this N in the "
                         "table and charts"));
        key_hint(binding_of(Action::set_up).keys);
        ImGui::EndChild();
        ImGui::PopStyleColor();
    }

    // The check question's answer, hidden until asked for.
    if (!step->text.answer.empty()) {
        ImGui::Spacing();
        const bool shown = s_.nav.answer_revealed();
        if (ImGui::Button(shown ? tr("Hide answer") : tr("Show answer")))
            do_action(Action::show_answer);
        key_hint(binding_of(Action::show_answer).keys);
        if (s_.nav.answer_revealed()) answer_md_.draw(fonts_, nullptr, nullptr);
    }
    ImGui::EndChild();
}

// The predict card: the step's questions one at a time, a field for the guess, Check and Reveal;
// once answered, each question's measured value (from the session on screen), how close the
// guess was, and why.
void App::draw_predict() {
    predict_report_.clear();
    const LessonStep* step = s_.nav.current();
    if (!step || step->questions.empty()) return;
    const Palette& pal = palette();
    const ImGuiStyle& st = ImGui::GetStyle();
    const int next = s_.predict.enabled ? s_.predict.next_question(*step) : -1;
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::GetStyleColorVec4(ImGuiCol_FrameBg));
    ImGui::PushStyleColor(ImGuiCol_Border, pal.accent);
    // Sized to its content by ImGui (AutoResizeY is not in 1.86): draw in a group, then a frame.
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->ChannelsSplit(2);
    dl->ChannelsSetCurrent(1);
    const ImVec2 top = ImGui::GetCursorScreenPos();
    const float pad = st.WindowPadding.x;
    const float width = ImGui::GetContentRegionAvail().x;
    ImGui::SetCursorScreenPos(ImVec2(top.x + pad, top.y + pad));
    ImGui::BeginGroup();
    ImGui::PushTextWrapPos(ImGui::GetCursorPos().x + width - 2 * pad);
    ImGui::PushFont(fonts_.bold);
    ImGui::TextColored(pal.accent, "%s", tr("Predict"));
    ImGui::PopFont();
    if (!s_.predict.enabled) {
        ImGui::SameLine();
        ImGui::TextColored(pal.muted, "%s",
                           tr("Predict mode is off: every number is shown (P turns it on)."));
    } else if (next >= 0) {
        ImGui::TextColored(pal.muted, "%s",
                           tr("Guess first: the step's numbers stay hidden until you do (Enter "
                              "checks, R reveals)."));
    }
    for (int q = 0; q < static_cast<int>(step->questions.size()); ++q) {
        const QuestionState& qs = s_.predict.question(*step, q);
        const bool answered = !s_.predict.enabled || qs.guess || qs.revealed;
        if (!answered && q != next) break;  // one question at a time
        ImGui::Spacing();
        if (q < static_cast<int>(question_md_.size()))
            question_md_[static_cast<size_t>(q)].draw(fonts_, nullptr, nullptr);
        if (!answered) {
            // The field for the guess: Enter checks it, R reveals without one.
            if (focus_guess_) {
                ImGui::SetKeyboardFocusHere();
                focus_guess_ = false;
            }
            ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
            const bool enter =
                ImGui::InputTextWithHint("##guess", tr("Your guess"), s_.guess_buf,
                                         sizeof s_.guess_buf, ImGuiInputTextFlags_EnterReturnsTrue);
            // The buttons follow on the same row when they fit inside the card, else below.
            const float right = top.x + width - pad;
            auto next_to = [&](const char* label) {
                const float w = ImGui::CalcTextSize(label).x + st.FramePadding.x * 2;
                if (ImGui::GetItemRectMax().x + st.ItemSpacing.x + w <= right) ImGui::SameLine();
            };
            next_to(tr("Check"));
            if (ImGui::Button(tr("Check")) || enter) submit_guess();
            next_to(tr("Reveal"));
            if (ImGui::Button(tr("Reveal"))) reveal_step();
            const float reveal_bottom = ImGui::GetItemRectMax().y;
            const float view_bottom = ImGui::GetWindowPos().y + ImGui::GetWindowHeight();
            predict_report_ =
                reveal_bottom <= view_bottom
                    ? "Reveal button in view"
                    : "Reveal button cut off, " +
                          std::to_string(static_cast<int>(reveal_bottom - view_bottom)) +
                          " px below the lesson pane";
            next_to("[R]");
            ImGui::TextDisabled("[%s]", binding_of(Action::reveal).keys);
            if (guess_into_view_ > 0) {
                // The buttons' bottom (and the card's) in the lesson text's content coordinates:
                // when it lies below the visible part, scroll just enough to show it.
                --guess_into_view_;
                const float bottom = ImGui::GetItemRectMax().y - ImGui::GetWindowPos().y +
                                     ImGui::GetScrollY() + pad + st.ItemSpacing.y;
                const float over = bottom - ImGui::GetWindowHeight();
                if (over > 0) ImGui::SetScrollY(over);
            }
            if (!s_.guess_error.empty()) ImGui::TextColored(pal.bad, "%s", s_.guess_error.c_str());
            continue;
        }
        if (q >= static_cast<int>(s_.predict_answers.size())) continue;
        const PredictAnswer& a = s_.predict_answers[static_cast<size_t>(q)];
        // "measured 79%   your guess 90%: close (11 points off)"
        ImGui::PushFont(fonts_.bold);
        ImGui::TextUnformatted((a.measured_label + "  " + a.measured).c_str());
        ImGui::PopFont();
        if (!a.guess.empty() && q < static_cast<int>(score_md_.size())) {
            const ImVec4 grade = a.grade == 0   ? pal.good
                                 : a.grade == 1 ? pal.accent
                                 : a.grade == 2 ? pal.bad
                                                : pal.muted;
            ImGui::PushStyleColor(ImGuiCol_Text, grade);
            score_md_[static_cast<size_t>(q)].draw(fonts_, nullptr, nullptr);
            ImGui::PopStyleColor();
        } else if (s_.predict.enabled) {
            ImGui::TextColored(pal.muted, "%s", tr("revealed without a guess"));
        }
        if (q < static_cast<int>(explain_md_.size()))
            explain_md_[static_cast<size_t>(q)].draw(fonts_, nullptr, nullptr);
    }
    ImGui::PopTextWrapPos();
    ImGui::EndGroup();
    const ImVec2 bottom = ImGui::GetItemRectMax();
    dl->ChannelsSetCurrent(0);
    const ImVec2 box_max(top.x + width, bottom.y + pad);
    dl->AddRectFilled(top, box_max, ImGui::GetColorU32(ImGuiCol_FrameBg), st.ChildRounding);
    dl->AddRect(top, box_max, ImGui::GetColorU32(pal.accent), st.ChildRounding, 0, 1.5f);
    dl->ChannelsMerge();
    ImGui::SetCursorScreenPos(ImVec2(top.x, box_max.y));
    ImGui::Dummy(ImVec2(width, st.ItemSpacing.y));
    ImGui::PopStyleColor(2);
}

}  // namespace sml::viewer
