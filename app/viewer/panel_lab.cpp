// The lab bench window (Lab > Lab bench): edit a lesson kernel or an exercise, compile as you
// type, run it in a child process, and see per-line counters for a chosen metric. A minimal
// first panel: the state and every decision live in model/lab_editor.h (tested without a window);
// this file only draws it. The heat gutter is drawn as a table of the lines that have counters,
// beside the editor, until a code editor with a real gutter replaces the text box.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>

#include "app/viewer/app.h"
#include "core/lab/sass_roles.h"
#include "kernels/registry.h"

namespace sml::viewer {

namespace {

// What the picker offers: the lab's kernels, then the exercises. The label's first word is
// translated when drawn ("kernel: warp", "练习 3: ...").
struct LabChoice {
    std::string label, kernel, exercise;
    std::string label_zh;  // an exercise's, with its Chinese title
};

std::vector<LabChoice> lab_choices() {
    std::vector<LabChoice> out;
    for (const KernelInfo& k : registry())
        if (k.lab_editable) out.push_back({k.id, k.id, ""});
    if (Result<std::vector<lab::Exercise>> ex = lab::load_exercises())
        for (const lab::Exercise& e : *ex)
            out.push_back({std::to_string(e.step) + ": " + e.title, "", e.id,
                           std::to_string(e.step) + ": " + e.words("zh").title});
    return out;
}

ImVec4 severity_colour(const std::string& s) {
    return s == "warning" ? ImVec4(0.95f, 0.75f, 0.2f, 1) : ImVec4(0.95f, 0.35f, 0.3f, 1);
}

}  // namespace

void App::draw_lab_window() {
    lab_.poll();
    if (!show_lab_) return;
    ImGui::SetNextWindowSize(ImVec2(1100, 760), ImGuiCond_FirstUseEver);
    // The title is translated; "###" keeps the window's id (and its place) across languages.
    if (!ImGui::Begin((std::string(tr("Lab bench")) + "###lab-bench").c_str(), &show_lab_)) {
        ImGui::End();
        return;
    }
    static const std::vector<LabChoice> choices = lab_choices();
    auto open_choice = [this](const LabChoice& c) {
        Status s = c.exercise.empty() ? lab_.open_kernel(c.kernel) : lab_.open_exercise(c.exercise);
        lab_error_ = s ? "" : s.error().message;
        lab_buffer_ = lab_.text();
    };
    if (!lab_request_.empty()) {  // --lab warp, --lab ex:warp-reduce
        const bool ex = lab_request_.rfind("ex:", 0) == 0;
        const std::string id = ex ? lab_request_.substr(3) : lab_request_;
        for (int i = 0; i < int(choices.size()); ++i)
            if ((ex ? choices[size_t(i)].exercise : choices[size_t(i)].kernel) == id)
                lab_choice_ = i;
        lab_request_.clear();
        if (!choices.empty()) open_choice(choices[size_t(lab_choice_)]);
    }
    if (!lab_.is_open() && !choices.empty()) open_choice(choices[size_t(lab_choice_)]);
    auto label_of = [this](const LabChoice& c) {
        return std::string(c.exercise.empty() ? tr("kernel") : tr("exercise")) +
               (c.exercise.empty() ? ": " : " ") +
               (zh() && !c.label_zh.empty() ? c.label_zh : c.label);
    };
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
    const std::string current =
        lab_choice_ < int(choices.size()) ? label_of(choices[size_t(lab_choice_)]) : "";
    if (ImGui::BeginCombo("##what", current.c_str())) {
        for (int i = 0; i < int(choices.size()); ++i)
            if (ImGui::Selectable(label_of(choices[size_t(i)]).c_str(), i == lab_choice_)) {
                lab_choice_ = i;
                open_choice(choices[size_t(i)]);
            }
        ImGui::EndCombo();
    }
    const bool busy = lab_.busy() != LabEditor::Busy::none;
    const bool can_compile = LabEditor::can_compile();
    const char* no_compiler =
        tr("This softmaxlab was built without the CUDA toolkit, so it cannot compile or run "
           "kernels. Install the toolkit (12.6+) and rebuild with scripts/build.sh; NVRTC compiles "
           "without a GPU.");
    // A button that needs the compiler: disabled without one, and its tooltip says why (a
    // disabled item reports hover only when asked to).
    auto compiler_button = [&](const char* label, const char* what) {
        ImGui::BeginDisabled(busy || !can_compile);
        const bool pressed = ImGui::Button(label);
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
            ImGui::TextUnformatted(can_compile ? what : no_compiler);
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
        return pressed;
    };
    ImGui::SameLine();
    if (compiler_button(tr("Compile"),
                        tr("Compile the edit now (it also compiles by itself when typing pauses)")))
        lab_.compile_now();
    ImGui::SameLine();
    if (compiler_button(tr("Run"), tr("Run the edit in a child process at M x N")))
        lab_.run(lab_settings_);
    if (lab_.exercise()) {
        ImGui::SameLine();
        if (compiler_button(tr("Check"),
                            tr("Check the exercise: compile, run and compare with the reference")))
            lab_.check_exercise();
    }
    ImGui::SameLine();
    ImGui::BeginDisabled(busy);
    if (ImGui::Button(tr("Revert"))) {
        (void)lab_.revert();
        lab_buffer_ = lab_.text();
    }
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", tr("Back to the original text; your saved edit is removed"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5.5f);
    ImGui::InputScalar("M", ImGuiDataType_S64, &lab_settings_.rows);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5.5f);
    ImGui::InputScalar("N", ImGuiDataType_S64, &lab_settings_.cols);
    const std::string status = lab_.status_line(s_.lessons_lang);
    ImGui::PushTextWrapPos(0);
    if (status == kNoCompilerStatus)
        ImGui::TextColored(palette().muted, "%s", tr(kNoCompilerStatus));
    else
        ImGui::TextUnformatted(status.c_str());
    ImGui::PopTextWrapPos();
    ImGui::TextDisabled("%s", lab_.save_status(s_.lessons_lang).c_str());
    if (!lab_error_.empty()) ImGui::TextColored(severity_colour("error"), "%s", lab_error_.c_str());
    if (const lab::Exercise* e = lab_.exercise()) {
        const lab::ExerciseWords words = e->words(s_.lessons_lang);
        ImGui::TextWrapped("%s", words.task.c_str());
        for (size_t i = 0; i < words.hints.size(); ++i)
            if (ImGui::TreeNode((std::string(tr("hint")) + " " + std::to_string(i + 1) + "###hint" +
                                 std::to_string(i))
                                    .c_str())) {
                ImGui::TextWrapped("%s", words.hints[i].c_str());
                ImGui::TreePop();
            }
    }

    const float side = std::max(360.0f, ImGui::GetFontSize() * 20);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    ImGui::PushFont(fonts_.mono);
    if (ImGui::InputTextMultiline("##edit", &lab_buffer_, ImVec2(avail.x - side, avail.y),
                                  ImGuiInputTextFlags_AllowTabInput))
        (void)lab_.set_text(lab_buffer_);  // autosaved at once; compiled when typing pauses
    ImGui::PopFont();
    ImGui::SameLine();
    if (ImGui::BeginChild("lab-side", ImVec2(side, avail.y), true)) {
        ImGui::PushTextWrapPos(0);  // compiler messages are long: wrap them in the side panel
        for (const lab::Diagnostic& d : lab_.diagnostics()) {
            const std::string where =
                d.line > 0 ? std::to_string(d.line) + ":" + std::to_string(d.column) + " " : "";
            ImGui::TextColored(severity_colour(d.severity), "%s%s: %s", where.c_str(),
                               tr(d.severity.c_str()),
                               lab_text(d.message, s_.lessons_lang).c_str());
        }
        ImGui::PopTextWrapPos();
        if (const auto& r = lab_.result()) {
            ImGui::Separator();
            ImGui::TextWrapped("%s: %s", lab_status_text(r->status, s_.lessons_lang).c_str(),
                               lab_text(r->message, s_.lessons_lang).c_str());
            if (!r->hint.empty())
                ImGui::TextWrapped("%s", lab_text(r->hint, s_.lessons_lang).c_str());
        }
        if (const auto& v = lab_.verdict()) {
            ImGui::Separator();
            for (const lab::ExerciseCheck& c : v->checks)
                ImGui::Text("[%s] %s", c.passed ? "ok" : "--",
                            lab_text(c.what, s_.lessons_lang).c_str());
            ImGui::TextWrapped("%s", lab_text(v->summary, s_.lessons_lang).c_str());
        }
        const std::vector<std::string> metrics = lab_.gutter_metrics();
        if (!metrics.empty()) {
            ImGui::Separator();
            const lab::SassRole* cur = lab::find_sass_role(lab_.gutter_metric());
            if (ImGui::BeginCombo(tr("per line"), cur ? tr(cur->label) : "")) {
                for (const std::string& m : metrics) {
                    const lab::SassRole* r = lab::find_sass_role(m);
                    if (ImGui::Selectable(r ? tr(r->label) : m.c_str(), m == lab_.gutter_metric()))
                        lab_.set_gutter_metric(m);
                }
                ImGui::EndCombo();
            }
            if (ImGui::BeginTable("gutter", 2, ImGuiTableFlags_RowBg)) {
                const int lines = int(std::count(lab_buffer_.begin(), lab_buffer_.end(), '\n')) + 1;
                for (int line = 1; line <= lines; ++line) {
                    std::optional<GutterCell> c = lab_.gutter(line, s_.lessons_lang);
                    if (!c) continue;
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
                    if (zh())
                        ImGui::Text("\xE7\xAC\xAC %d \xE8\xA1\x8C", line);  // 第 12 行
                    else
                        ImGui::Text("line %d", line);
                    ImGui::TableNextColumn();
                    ImGui::PushStyleColor(ImGuiCol_PlotHistogram,
                                          ImVec4(0.9f, 0.3f + 0.5f * (1 - c->heat), 0.2f, 1));
                    char label[32];
                    std::snprintf(label, sizeof label, "%.4g", c->value);
                    ImGui::ProgressBar(c->heat, ImVec2(-1, 0), label);
                    ImGui::PopStyleColor();
                    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", c->tooltip.c_str());
                }
                ImGui::EndTable();
            }
        }
    }
    ImGui::EndChild();
    ImGui::End();
}

}  // namespace sml::viewer
