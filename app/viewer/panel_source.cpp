// Source panel: the kernel the learner reads is the kernel that runs. Tabs CUDA | PTX | SASS.
//
// PTX and SASS show one entry point at a time (the one that ran at the N on screen first), with
// the source it came from beside it: a source line and its instructions share a colour in the
// gutter, hovering either lights the other, clicking scrolls the other pane there
// (app/viewer/model/code_view.h). In step 2 the PTX tab also offers the Triton tutorial's PTX.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/viewer/app.h"
#include "core/lab/sass_roles.h"
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
    // The file on screen: in the PTX and SASS tabs, the entry point's own (best's cluster kernel
    // lives in kernels/best/cluster.cu whatever file the CUDA tab last showed).
    const std::string shown = s_.source_tab == SourceTab::cuda || code_.source_path().empty()
                                  ? s_.source_file
                                  : code_.source_path();
    if (k && k->sources.size() > 1) {
        // best's lesson file and its machinery in kernels/best/: one file at a time.
        ImGui::SameLine();
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
        if (ImGui::BeginCombo("##file", shown.c_str())) {
            for (const char* f : k->sources)
                if (ImGui::Selectable(f, shown == f)) show_source(k->id, s_.source_tab, f);
            ImGui::EndCombo();
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: %s", k->title, k->summary);
    } else if (k) {
        ImGui::SameLine();
        ImGui::TextColored(pal.muted, "%s", shown.c_str());
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
    if (s_.source_tab != SourceTab::cuda) {
        draw_listing();
        return;
    }
    draw_line_metric_row();
    auto it = s_.sources.find(s_.source_kernel + "/" + s_.source_file);
    if (it == s_.sources.end()) return;
    const Result<SourceDoc>& doc = *it->second;
    ImGui::BeginChild("code", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    if (!doc) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(pal.bad, "%s", doc.error().message.c_str());
        if (!doc.error().hint.empty())
            ImGui::TextColored(pal.muted, "%s", doc.error().hint.c_str());
        ImGui::PopTextWrapPos();
    } else {
        LineDecor decor;
        if (!line_values_.empty()) {
            decor.metric = &line_values_;
            decor.metric_max = line_max_;
            decor.metric_info = &line_metric_;
            decor.metric_detail = &line_details_;
        }
        source_view_.draw(*doc, fonts_, decor);
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

void App::draw_listing() {
    const Palette& pal = palette();
    const float em = ImGui::GetFontSize();
    // Row 1: which listing (step 2: the CUDA port's or the Triton tutorial's), which entry point.
    if (s_.source_tab == SourceTab::ptx && !code_.peers().empty()) {
        const std::string peer_title = code_.peers().front().title_in(s_.lessons_lang);
        ImGui::SetNextItemWidth(em * 11);
        if (ImGui::BeginCombo("##listing",
                              s_.peer_listing ? peer_title.c_str() : tr("CUDA port"))) {
            if (ImGui::Selectable(tr("CUDA port"), !s_.peer_listing)) {
                s_.peer_listing = false;
                refresh_code();
            }
            if (ImGui::Selectable(peer_title.c_str(), s_.peer_listing)) {
                s_.peer_listing = true;
                refresh_code();
            }
            ImGui::EndCombo();
        }
        if (!code_.choices().empty()) ImGui::SameLine();
    }
    const std::vector<EntryChoice>& choices = code_.choices();
    if (!choices.empty()) {
        const float right = em * 11;
        ImGui::SetNextItemWidth(std::max(em * 8, ImGui::GetContentRegionAvail().x - right));
        const int sel = code_.selected();
        if (ImGui::BeginCombo("##entry", sel >= 0 ? choices[sel].label.c_str() : "")) {
            for (size_t i = 0; i < choices.size(); ++i) {
                if (ImGui::Selectable(choices[i].label.c_str(), static_cast<int>(i) == sel)) {
                    code_.select(static_cast<int>(i));
                    refresh_code();
                }
                if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", choices[i].detail.c_str());
            }
            ImGui::EndCombo();
        }
        if (ImGui::IsItemHovered() && sel >= 0)
            ImGui::SetTooltip("%s", choices[sel].detail.c_str());
        ImGui::SameLine();
        bool all = code_.show_all();
        const std::string all_label =
            std::string(tr("all")) +
            (code_.hidden() > 0 || all ? " (+" + std::to_string(code_.hidden()) + ")" : "") +
            "###all-entries";
        if (ImGui::Checkbox(all_label.c_str(), &all)) {
            code_.set_show_all(all);
            refresh_code();
        }
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", tr("List every entry point of the file, not only those that "
                                       "ran or that this step points at"));
        ImGui::SameLine();
        ImGui::Checkbox((std::string(tr("source")) + "###source-beside").c_str(), &s_.code_beside);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s",
                              tr("Show the source beside the instructions, linked line by line"));
    }
    // Row 2, one line: what the hover links, else where the listing came from (in full on
    // hover); then, when its sources differ from the checkout's or are unknown, a note.
    if (!code_.hover_text().empty())
        ImGui::TextColored(pal.accent, "%s", code_.hover_text().c_str());
    else if (!code_.origin().empty()) {
        ImGui::TextColored(pal.muted, "%s", code_.origin().c_str());
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s\n\n%s", code_.origin().c_str(),
                              tr("Hover a line to light what it links to; click to go there."));
    }
    if (!code_.list_note().empty()) {  // one line, as the origin: the listing needs the room
        ImGui::TextColored(pal.muted, "%s", code_.list_note().c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", code_.list_note().c_str());
    }
    if (!code_.provenance_note().empty()) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(pal.bad, "%s", code_.provenance_note().c_str());
        ImGui::PopTextWrapPos();
    }
    const AsmListing* listing = code_.listing();
    if (!listing) {
        ImGui::PushTextWrapPos(0);
        ImGui::TextColored(pal.muted, "%s", code_.message().c_str());
        if (!code_.hint().empty()) ImGui::TextColored(pal.muted, "%s", code_.hint().c_str());
        ImGui::PopTextWrapPos();
        return;
    }
    // Row 3: the anchors of this listing, each a button that steps through its lines.
    bool first_anchor = true;
    for (const ListingAnchor& a : code_.anchors()) {
        if (!first_anchor) ImGui::SameLine();
        first_anchor = false;
        const std::string label = a.label + " (" + std::to_string(a.lines.size()) + ")";
        ImGui::BeginDisabled(a.lines.empty());
        if (ImGui::SmallButton(label.c_str())) {
            // The next match below what is on screen, else the first.
            auto next =
                std::upper_bound(a.lines.begin(), a.lines.end(), listing_view_.first_visible() + 3);
            listing_view_.scroll_to(next != a.lines.end() ? *next : a.lines.front());
        }
        ImGui::EndDisabled();
        if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip("%s%s%s", a.pattern.c_str(), a.note.empty() ? "" : "\n\n",
                              a.note.c_str());
    }
    draw_line_metric_row();
    if (!listing->line_info)
        ImGui::TextColored(pal.muted, "%s",
                           tr("No line info in this listing: its lines cannot be linked to the "
                              "source."));

    // The panes: source beside the listing when there is room, else above it.
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const SourceDoc* src = s_.code_beside ? code_.source_doc() : nullptr;
    // Side by side when wide enough, or when stacking would leave too few lines for either.
    const bool side = avail.x >= em * 40 || avail.y < ImGui::GetTextLineHeightWithSpacing() * 24;
    const float gap = ImGui::GetStyle().ItemSpacing.x;
    ImVec2 src_size(0, 0), asm_size(0, 0);
    if (src) {
        if (side)
            src_size = ImVec2(std::floor((avail.x - gap) * 0.42f), avail.y);
        else
            src_size = ImVec2(avail.x, std::floor(avail.y * 0.38f));
    }
    LineDecor src_decor;
    src_decor.slots = &code_.source_slots();
    src_decor.lit = &code_.source_lit();
    src_decor.metric = &code_.source_metric();
    src_decor.metric_max = code_.source_metric_max();
    src_decor.metric_info = code_.metric();
    src_decor.region_notes = false;
    // Every recorded counter of a line on hover (the source pane shows the file's lines).
    src_decor.metric_detail = listing_src_details_.empty() ? nullptr : &listing_src_details_;
    LineDecor asm_decor;
    asm_decor.slots = &code_.listing_slots();
    asm_decor.lit = &code_.listing_lit();
    asm_decor.metric = &code_.listing_metric();
    asm_decor.metric_max = code_.listing_metric_max();
    asm_decor.metric_info = code_.metric();
    asm_decor.line_numbers = listing->kind == AsmKind::ptx;  // SASS lines start with addresses
    int hovered_src = -1, hovered_asm = -1, clicked_src = -1, clicked_asm = -1;
    if (src) {
        ImGui::BeginChild("code-src", src_size, true, ImGuiWindowFlags_HorizontalScrollbar);
        hovered_src = source_view_.draw(*src, fonts_, src_decor);
        clicked_src = source_view_.clicked();
        ImGui::EndChild();
        if (side) ImGui::SameLine();
    }
    ImGui::BeginChild("code-asm", asm_size, true, ImGuiWindowFlags_HorizontalScrollbar);
    hovered_asm = listing_view_.draw(*code_.listing_doc(), fonts_, asm_decor);
    clicked_asm = listing_view_.clicked();
    ImGui::EndChild();
    // Hover and click link the panes (transient UI state, like ImGui's own hover).
    if (hovered_src >= 0)
        code_.hover_source(hovered_src);
    else if (hovered_asm >= 0)
        code_.hover_listing(hovered_asm);
    else
        code_.hover_none();
    if (clicked_src >= 0) {
        const int line = code_.first_listing_line_of(clicked_src);
        if (line >= 0) listing_view_.scroll_to(line);
    }
    if (clicked_asm >= 0 && src) {
        const int line = code_.source_display_line_of(clicked_asm);
        if (line >= 0) source_view_.scroll_to(line);
    }
}

void App::draw_line_metric_row() {
    if (line_note_.empty()) return;  // no per-line counters for this file in the session
    const Palette& pal = palette();
    const float em = ImGui::GetFontSize();
    if (rec_lines_.point && !line_roles_.empty()) {
        const std::string role = line_metric_role();
        const lab::SassRole* def = lab::find_sass_role(role);
        const std::string preview =
            role.empty() ? std::string(tr("counters: off"))
                         : std::string(tr("counters: ")) + (def ? tr(def->label) : role.c_str());
        ImGui::SetNextItemWidth(em * 11);
        if (ImGui::BeginCombo("##line-metric", preview.c_str())) {
            if (ImGui::Selectable(tr("off"), role.empty())) {
                line_role_.clear();
                refresh_code();
            }
            for (const std::string& r : line_roles_) {
                const lab::SassRole* d = lab::find_sass_role(r);
                if (ImGui::Selectable(d ? tr(d->label) : r.c_str(), r == role)) {
                    line_role_ = r;
                    refresh_code();
                }
                if (d && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(d->description));
            }
            ImGui::EndCombo();
        }
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(
                "%s [%s]",
                tr("Per-line counters recorded with the session, folded per source line"),
                binding_of(Action::line_metric_next).keys);
        // A kernel with variants (smem: conflict-free, bank-conflicted): whose counters.
        const KernelInfo* k = find_kernel(s_.source_kernel);
        if (k && k->variants.size() > 1) {
            int& v = s_.run_variants[k->id];
            if (v < 0 || v >= static_cast<int>(k->variants.size())) v = 0;
            ImGui::SameLine();
            ImGui::SetNextItemWidth(em * 9);
            if (ImGui::BeginCombo("##line-variant", k->variants[static_cast<size_t>(v)].c_str())) {
                for (size_t i = 0; i < k->variants.size(); ++i)
                    if (ImGui::Selectable(k->variants[i].c_str(), static_cast<int>(i) == v)) {
                        v = static_cast<int>(i);
                        refresh_code();
                    }
                ImGui::EndCombo();
            }
        }
        ImGui::SameLine();
    }
    // Counters measured at another N than the step's: said before the note (cut to one line),
    // on a line of its own where the combos leave no room for it.
    if (rec_lines_.point && s_.cols > 0 && rec_lines_.point->cols != s_.cols) {
        const std::string other = tr("counters of N = ") + std::to_string(rec_lines_.point->cols);
        if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(other.c_str()).x)
            ImGui::NewLine();
        ImGui::TextColored(pal.accent, "%s", other.c_str());
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", tr("The session has this file's per-line counters only at "
                                       "another N; hover the note beside for which run."));
        ImGui::SameLine();
    }
    // One line; the whole note on hover.
    ImGui::TextColored(rec_lines_.point ? pal.muted : pal.bad, "%s", line_note_.c_str());
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(em * 36);
        ImGui::TextUnformatted(line_note_.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

}  // namespace sml::viewer
