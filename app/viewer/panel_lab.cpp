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

// What the picker offers: the lab's kernels, then the exercises.
struct LabChoice {
    std::string label, kernel, exercise;
};

std::vector<LabChoice> lab_choices() {
    std::vector<LabChoice> out;
    for (const KernelInfo& k : registry())
        if (k.lab_editable) out.push_back({std::string("kernel: ") + k.id, k.id, ""});
    if (Result<std::vector<lab::Exercise>> ex = lab::load_exercises())
        for (const lab::Exercise& e : *ex)
            out.push_back({"exercise " + std::to_string(e.step) + ": " + e.title, "", e.id});
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
    if (!ImGui::Begin("Lab bench", &show_lab_)) {
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
    ImGui::SetNextItemWidth(320);
    const std::string current =
        lab_choice_ < int(choices.size()) ? choices[size_t(lab_choice_)].label : "";
    if (ImGui::BeginCombo("##what", current.c_str())) {
        for (int i = 0; i < int(choices.size()); ++i)
            if (ImGui::Selectable(choices[size_t(i)].label.c_str(), i == lab_choice_)) {
                lab_choice_ = i;
                open_choice(choices[size_t(i)]);
            }
        ImGui::EndCombo();
    }
    const bool busy = lab_.busy() != LabEditor::Busy::none;
    ImGui::SameLine();
    ImGui::BeginDisabled(busy);
    if (ImGui::Button("Compile")) lab_.compile_now();
    ImGui::SameLine();
    if (ImGui::Button("Run")) lab_.run(lab_settings_);
    if (lab_.exercise()) {
        ImGui::SameLine();
        if (ImGui::Button("Check")) lab_.check_exercise();
    }
    ImGui::SameLine();
    if (ImGui::Button("Revert")) {
        (void)lab_.revert();
        lab_buffer_ = lab_.text();
    }
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::SetNextItemWidth(110);
    ImGui::InputScalar("M", ImGuiDataType_S64, &lab_settings_.rows);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(110);
    ImGui::InputScalar("N", ImGuiDataType_S64, &lab_settings_.cols);
    ImGui::TextUnformatted(lab_.status_line().c_str());
    ImGui::TextDisabled("%s", lab_.save_status().c_str());
    if (!lab_error_.empty()) ImGui::TextColored(severity_colour("error"), "%s", lab_error_.c_str());
    if (const lab::Exercise* e = lab_.exercise()) {
        ImGui::TextWrapped("%s", e->task.c_str());
        for (size_t i = 0; i < e->hints.size(); ++i)
            if (ImGui::TreeNode(("hint " + std::to_string(i + 1)).c_str())) {
                ImGui::TextWrapped("%s", e->hints[i].c_str());
                ImGui::TreePop();
            }
    }

    const float side = 360;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    ImGui::PushFont(fonts_.mono);
    if (ImGui::InputTextMultiline("##edit", &lab_buffer_, ImVec2(avail.x - side, avail.y),
                                  ImGuiInputTextFlags_AllowTabInput))
        (void)lab_.set_text(lab_buffer_);  // autosaved at once; compiled when typing pauses
    ImGui::PopFont();
    ImGui::SameLine();
    if (ImGui::BeginChild("lab-side", ImVec2(side, avail.y), true)) {
        for (const lab::Diagnostic& d : lab_.diagnostics())
            ImGui::TextColored(severity_colour(d.severity), "%d:%d %s: %s", d.line, d.column,
                               d.severity.c_str(), d.message.c_str());
        if (const auto& r = lab_.result()) {
            ImGui::Separator();
            ImGui::TextWrapped("%s: %s", r->status.c_str(), r->message.c_str());
            if (!r->hint.empty()) ImGui::TextWrapped("%s", r->hint.c_str());
        }
        if (const auto& v = lab_.verdict()) {
            ImGui::Separator();
            for (const lab::ExerciseCheck& c : v->checks)
                ImGui::Text("[%s] %s", c.passed ? "ok" : "--", c.what.c_str());
            ImGui::TextWrapped("%s", v->summary.c_str());
        }
        const std::vector<std::string> metrics = lab_.gutter_metrics();
        if (!metrics.empty()) {
            ImGui::Separator();
            const lab::SassRole* cur = lab::find_sass_role(lab_.gutter_metric());
            if (ImGui::BeginCombo("per line", cur ? cur->label : "")) {
                for (const std::string& m : metrics) {
                    const lab::SassRole* r = lab::find_sass_role(m);
                    if (ImGui::Selectable(r ? r->label : m.c_str(), m == lab_.gutter_metric()))
                        lab_.set_gutter_metric(m);
                }
                ImGui::EndCombo();
            }
            if (ImGui::BeginTable("gutter", 2, ImGuiTableFlags_RowBg)) {
                const int lines = int(std::count(lab_buffer_.begin(), lab_buffer_.end(), '\n')) + 1;
                for (int line = 1; line <= lines; ++line) {
                    std::optional<GutterCell> c = lab_.gutter(line);
                    if (!c) continue;
                    ImGui::TableNextRow();
                    ImGui::TableNextColumn();
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
