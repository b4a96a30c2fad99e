// Run panel: M, N, dtype, kernels (one, or a compare set), metric set, Run / Sweep / Cancel.
#include <imgui.h>

#include <algorithm>
#include <optional>

#include "app/viewer/app.h"
#include "app/viewer/model/device_view.h"
#include "app/viewer/model/format.h"
#include "app/viewer/model/run_job.h"
#include "kernels/device_profiles.h"
#include "kernels/registry.h"

namespace sml::viewer {

// A toolbar over the code and the charts, that wraps to as many rows as its width needs (at 1.5x
// text on a 1280 px projector, three); the layout gives it the height it reported last frame.
//   Run  M [....] N [....] dtype [..] counters [..] GPU class [..]  [Run] [Sweep N]  progress
//   [x] naive [ ] fused [ ] warp ...   (out-of-range kernels greyed, with the reason)
void App::draw_run() {
    const Palette& pal = palette();
    const ImGuiStyle& st = ImGui::GetStyle();
    const std::string disabled = run_disabled_reason();
    const float field = ImGui::GetFontSize() * 5.5f;
    // The next item on this row when `w` more pixels fit, else at the start of the next.
    auto flow = [&](float w) {
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        if (ImGui::GetItemRectMax().x + st.ItemSpacing.x + w <= right) ImGui::SameLine();
    };
    auto labelled = [&](const char* label, float w) {
        return w + st.ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
    };
    ImGui::AlignTextToFramePadding();
    ImGui::PushFont(fonts_.bold);
    ImGui::TextUnformatted(tr("Run"));
    ImGui::PopFont();

    ImGui::BeginDisabled(s_.running);
    flow(labelled("M", field));
    ImGui::SetNextItemWidth(field);
    ImGui::InputScalar("M##rows", ImGuiDataType_S64, &s_.run_rows);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("M: rows of the input matrix"));
    flow(labelled("N", field));
    ImGui::SetNextItemWidth(field);
    ImGui::InputScalar("N##cols", ImGuiDataType_S64, &s_.run_cols);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", tr("N: columns, the length of each softmax row"));
    s_.run_rows = std::max<int64_t>(1, s_.run_rows);
    s_.run_cols = std::max<int64_t>(1, s_.run_cols);
    static const char* dtypes[] = {"fp32", "fp16", "bf16"};
    flow(labelled("dtype", ImGui::GetFontSize() * 4.5f));
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 4.5f);
    ImGui::Combo("dtype", &s_.run_dtype, dtypes, 3);
    const char* sets[] = {tr("off"), tr("default"), tr("deep (8 passes)")};
    flow(labelled(tr("counters"), ImGui::GetFontSize() * 6));
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::Combo((std::string(tr("counters")) + "##set").c_str(), &s_.run_metric_set, sets, 3);
    // Which class of GPU ranges and best's dispatch follow (kernels/device_profiles.h).
    flow(labelled(tr("GPU class"), ImGui::GetFontSize() * 7));
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    const std::string here = s_.gpu_available ? tr("this GPU") : tr("H100 (recorded)");
    if (ImGui::BeginCombo((std::string(tr("GPU class")) + "##profile").c_str(),
                          s_.device_profile.empty() ? here.c_str() : s_.device_profile.c_str())) {
        if (ImGui::Selectable(here.c_str(), s_.device_profile.empty())) set_device_profile("");
        for (const DeviceProfile& p : device_profiles()) {
            if (ImGui::Selectable(p.id, s_.device_profile == p.id)) set_device_profile(p.id);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.gpus);
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "%s\n%s",
            tr(s_.gpu_available ? "Ranges and best's path follow this class of GPU "
                                  "(runs stay on this GPU, restricted to it)."
                                : "Ranges and best's path follow this class of GPU."),
            best_choice_text(s_.run_cols, DType::f32, s_.limits, s_.lessons_lang).c_str());
    ImGui::EndDisabled();

    // Kernels: a list that opens on click, so the toolbar stays one or two rows at any text size.
    // Out-of-range kernels are greyed with the registry's reason; smem's layout is chosen there.
    const DType dt =
        s_.run_dtype == 1 ? DType::f16 : (s_.run_dtype == 2 ? DType::bf16 : DType::f32);
    const SoftmaxProblem problem = SoftmaxProblem::contiguous(s_.run_rows, s_.run_cols, dt);
    std::vector<std::string> on;
    for (const auto& [id, checked] : s_.run_kernels)
        if (checked) on.push_back(id);
    std::string ticked;
    for (const std::string& id : runnable_kernels(on, problem, s_.limits))
        ticked += (ticked.empty() ? "" : ", ") + id;
    if (ticked.empty()) ticked = "-";
    const float kernels_w = ImGui::GetFontSize() * 9;
    flow(labelled(tr("kernels"), kernels_w));
    ImGui::BeginDisabled(s_.running);
    ImGui::SetNextItemWidth(kernels_w);
    if (ImGui::BeginCombo((std::string(tr("kernels")) + "##run").c_str(), ticked.c_str())) {
        for (const KernelInfo& k : registry()) {
            const std::optional<MessageError> unfit = problem_error(k, problem, s_.limits);
            ImGui::BeginDisabled(unfit.has_value());
            bool on = s_.run_kernels[k.id] && !unfit;
            if (ImGui::Checkbox(k.id, &on)) s_.run_kernels[k.id] = on;
            ImGui::EndDisabled();
            if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
                ImGui::SetTooltip(
                    "%s\n%s", k.title,
                    unfit ? message_text(unfit->what, s_.lessons_lang).c_str() : k.summary);
            // Kernels with variants (smem's conflict-free vs bank-conflicted layout): a toggle.
            if (on && k.variants.size() > 1) {
                int& v = s_.run_variants[k.id];
                if (v < 0 || v >= static_cast<int>(k.variants.size())) v = 0;
                ImGui::SameLine();
                ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
                std::string preview = k.variants[static_cast<size_t>(v)];
                if (ImGui::BeginCombo(("##variant-" + std::string(k.id)).c_str(),
                                      preview.c_str())) {
                    for (size_t i = 0; i < k.variants.size(); ++i)
                        if (ImGui::Selectable(k.variants[i].c_str(), static_cast<int>(i) == v)) {
                            v = static_cast<int>(i);
                            refresh_code();  // the code panel's counters follow the variant
                        }
                    ImGui::EndCombo();
                }
                if (ImGui::IsItemHovered())
                    ImGui::SetTooltip(
                        "%s", ui_format("variant of {0} used by Run (Sweep uses the default)",
                                        s_.lessons_lang, {k.id})
                                  .c_str());
            }
        }
        ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s",
                          best_choice_text(s_.run_cols, dt, s_.limits, s_.lessons_lang).c_str());
    ImGui::EndDisabled();

    flow(ImGui::CalcTextSize(tr("Run")).x + ImGui::CalcTextSize(tr("Sweep N")).x +
         st.FramePadding.x * 4 + st.ItemSpacing.x);
    ImGui::BeginDisabled(!disabled.empty());
    if (ImGui::Button((std::string(tr("Run")) + "##go").c_str())) start_run(false);
    ImGui::SameLine();
    if (ImGui::Button(tr("Sweep N"))) start_run(true);
    ImGui::EndDisabled();
    if (!disabled.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
        ImGui::SetTooltip("%s", disabled.c_str());
    } else if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
        const Result<int64_t> elements = matrix_elements(s_.run_rows, s_.run_cols, s_.lessons_lang);
        if (elements)
            ImGui::SetTooltip(
                "%s", ui_format("Run every ticked kernel over the default N values (32 .. 1M), "
                                "keeping M x N = {0} elements, each kernel only inside its range.",
                                s_.lessons_lang, {format_count(static_cast<double>(*elements))})
                          .c_str());
        else
            ImGui::SetTooltip("%s\n%s: %s.",
                              tr("Run every ticked kernel over the default N values (32 .. 1M)."),
                              elements.error().message.c_str(), elements.error().hint.c_str());
    }
    if (s_.running) {
        flow(ImGui::GetFontSize() * 16);
        const float frac = s_.run_total > 0 ? static_cast<float>(s_.run_done) / s_.run_total : 0.0f;
        char overlay[128];
        std::snprintf(overlay, sizeof overlay, "%d / %d  %s", s_.run_done, s_.run_total,
                      s_.run_label.c_str());
        ImGui::ProgressBar(frac, ImVec2(ImGui::GetFontSize() * 10, 0), overlay);
        ImGui::SameLine();
        if (ImGui::Button(tr("Cancel"))) worker_.cancel();
    } else if (!disabled.empty()) {
        // Only where it fits on the buttons' row: the greyed buttons and their tooltip say it too.
        const float w = ImGui::CalcTextSize(tr("Run is off: no GPU")).x;
        if (ImGui::GetItemRectMax().x + st.ItemSpacing.x + w <=
            ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) {
            ImGui::SameLine();
            ImGui::AlignTextToFramePadding();
            ImGui::TextColored(pal.muted, "%s", tr("Run is off: no GPU"));
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", disabled.c_str());
        }
    }

    // How tall the toolbar was, for next frame's layout (model/panel_layout.h).
    run_content_h_ = ImGui::GetCursorPosY() - st.WindowPadding.y - st.ItemSpacing.y;
}

}  // namespace sml::viewer
