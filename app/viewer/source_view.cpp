// Source widget. See source_view.h.
#include "app/viewer/source_view.h"

#include <algorithm>
#include <cstdio>

namespace sml::viewer {

namespace {
ImU32 token_color(TokenKind k, const Palette& p) {
    switch (k) {
        case TokenKind::keyword:
            return p.keyword;
        case TokenKind::type:
            return p.type;
        case TokenKind::cuda_builtin:
            return p.builtin;
        case TokenKind::number:
            return p.number;
        case TokenKind::string:
            return p.string;
        case TokenKind::comment:
            return p.comment;
        case TokenKind::preprocessor:
            return p.preprocessor;
        case TokenKind::register_name:
            return p.register_name;
        case TokenKind::plain:
            break;
    }
    return p.plain;
}
}  // namespace

void SourceView::set_highlights(std::set<std::string> regions, std::vector<int> lines) {
    regions_ = std::move(regions);
    lines_ = std::move(lines);
    std::sort(lines_.begin(), lines_.end());
}

void SourceView::draw(const SourceDoc& doc, const Fonts& fonts) {
    const Palette& pal = palette();
    ImGui::PushFont(fonts.mono);
    const float line_h = ImGui::GetTextLineHeightWithSpacing();
    const int n = static_cast<int>(doc.lines().size());
    char num[16];
    std::snprintf(num, sizeof num, "%d", n > 0 ? doc.lines().back().file_line : 0);
    const float gutter = ImGui::CalcTextSize(num).x + ImGui::CalcTextSize("  ").x + 6.0f;
    const float char_w = ImGui::CalcTextSize("M").x;

    if (pending_scroll_ >= 0) {
        ImGui::SetScrollY(std::max(0.0f, (pending_scroll_ - 3) * line_h));
        pending_scroll_ = -1;
    }
    // The highlighted regions (a step names a few); each visible line checks them below.
    std::vector<const DisplayRegion*> shaded;
    for (const DisplayRegion& r : doc.regions())
        if (regions_.count(r.name)) shaded.push_back(&r);

    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 start = ImGui::GetCursorScreenPos();
    const float width = std::max(ImGui::GetContentRegionAvail().x, 200.0f);
    const DisplayRegion* hovered = nullptr;
    // Draw only the visible lines: kernels are short, but PTX runs to thousands of lines.
    const int first = std::max(0, static_cast<int>(ImGui::GetScrollY() / line_h) - 1);
    const int last = std::min(n, first + static_cast<int>(ImGui::GetWindowHeight() / line_h) + 3);
    {
        for (int i = first; i < last; ++i) {
            const SourceLine& line = doc.lines()[i];
            const ImVec2 p(start.x, start.y + i * line_h);
            const bool ptx_mark = std::binary_search(lines_.begin(), lines_.end(), i);
            const bool in_region =
                std::any_of(shaded.begin(), shaded.end(),
                            [i](const DisplayRegion* r) { return i >= r->first && i <= r->last; });
            if (in_region || ptx_mark) {
                dl->AddRectFilled(p, ImVec2(p.x + width, p.y + line_h), pal.region_bg);
                dl->AddRectFilled(p, ImVec2(p.x + 3, p.y + line_h), pal.region_edge);
            }
            const DisplayRegion* r = doc.region_at(i);
            if (r && ImGui::IsMouseHoveringRect(p, ImVec2(p.x + width, p.y + line_h)) &&
                ImGui::IsWindowHovered())
                hovered = r;
            std::snprintf(num, sizeof num, "%d", line.file_line);
            const float nw = ImGui::CalcTextSize(num).x;
            dl->AddText(ImVec2(p.x + gutter - nw - char_w, p.y), pal.line_number, num);
            // Tabs are drawn as 4 spaces; tokens are placed by character count (monospace).
            float x = p.x + gutter;
            for (const Token& t : line.tokens) {
                std::string piece = line.text.substr(t.begin, t.end - t.begin);
                size_t tab;
                while ((tab = piece.find('\t')) != std::string::npos) piece.replace(tab, 1, "    ");
                dl->AddText(ImVec2(x, p.y), token_color(t.kind, pal), piece.c_str());
                x += ImGui::CalcTextSize(piece.c_str()).x;
            }
        }
    }
    // Reserve the full height and the widest line so both scrollbars work.
    ImGui::SetCursorScreenPos(start);
    ImGui::Dummy(ImVec2(gutter + doc.max_columns() * char_w, n * line_h));
    ImGui::PopFont();
    if (hovered) {
        ImGui::BeginTooltip();
        ImGui::PushStyleColor(ImGuiCol_Text, pal.accent);
        ImGui::TextUnformatted(hovered->name.c_str());
        ImGui::PopStyleColor();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
        ImGui::TextUnformatted(hovered->note.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

}  // namespace sml::viewer
