// Source widget. See source_view.h.
#include "app/viewer/source_view.h"

#include <algorithm>
#include <cmath>
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

// 1234 -> "1234", 12345 -> "12.3k", 1.2e7 -> "12.0M": the metric column is 6 characters wide.
void compact(double v, char* out, size_t n) {
    const double a = std::fabs(v);
    if (a >= 1e9)
        std::snprintf(out, n, "%.1fG", v / 1e9);
    else if (a >= 1e6)
        std::snprintf(out, n, "%.1fM", v / 1e6);
    else if (a >= 1e4)
        std::snprintf(out, n, "%.1fk", v / 1e3);
    else if (a >= 100 || v == std::floor(v))
        std::snprintf(out, n, "%.0f", v);
    else
        std::snprintf(out, n, "%.2g", v);
}
}  // namespace

void SourceView::set_highlights(std::set<std::string> regions, std::vector<int> lines) {
    regions_ = std::move(regions);
    lines_ = std::move(lines);
    std::sort(lines_.begin(), lines_.end());
}

int SourceView::draw(const SourceDoc& doc, const Fonts& fonts, const LineDecor& decor) {
    const Palette& pal = palette();
    ImGui::PushFont(fonts.mono);
    const float line_h = ImGui::GetTextLineHeightWithSpacing();
    const int n = static_cast<int>(doc.lines().size());
    const float char_w = ImGui::CalcTextSize("M").x;
    char num[32];
    std::snprintf(num, sizeof num, "%d", n > 0 ? doc.lines().back().file_line : 0);
    // Gutter: [metric bar + value] [link mark] [line number]
    const bool has_metric = decor.metric && decor.metric_max > 0;
    const float metric_w = has_metric ? char_w * 7 : 0.0f;
    const float numbers_w =
        decor.line_numbers ? ImGui::CalcTextSize(num).x + ImGui::CalcTextSize("  ").x : 0.0f;
    const float mark_w = 6.0f;
    const float gutter = metric_w + numbers_w + mark_w;

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
    const float full_w = std::max(width, gutter + doc.max_columns() * char_w);
    const DisplayRegion* hovered_region = nullptr;
    int hovered = -1;
    bool hovered_metric = false;
    clicked_ = -1;
    const bool window_hovered = ImGui::IsWindowHovered();
    // Draw only the visible lines: PTX and SASS entries run to thousands of lines.
    const int first = std::max(0, static_cast<int>(ImGui::GetScrollY() / line_h) - 1);
    const int last = std::min(n, first + static_cast<int>(ImGui::GetWindowHeight() / line_h) + 3);
    first_visible_ = first;
    last_visible_ = last;
    auto at = [](const auto* v, int i) { return v && i < static_cast<int>(v->size()); };
    for (int i = first; i < last; ++i) {
        const SourceLine& line = doc.lines()[i];
        const ImVec2 p(start.x, start.y + i * line_h);
        const ImVec2 row_end(p.x + full_w, p.y + line_h);
        const bool mark = std::binary_search(lines_.begin(), lines_.end(), i);
        const bool in_region =
            std::any_of(shaded.begin(), shaded.end(),
                        [i](const DisplayRegion* r) { return i >= r->first && i <= r->last; });
        const int slot = at(decor.slots, i) ? (*decor.slots)[i] : -1;
        const bool lit = at(decor.lit, i) && (*decor.lit)[i];
        if (in_region || mark) {
            dl->AddRectFilled(ImVec2(p.x + gutter, p.y), row_end, pal.region_bg);
            dl->AddRectFilled(ImVec2(p.x + gutter - 3, p.y), ImVec2(p.x + gutter, p.y + line_h),
                              pal.region_edge);
        }
        if (lit) {
            const ImU32 fill = slot >= 0 ? pal.link_bg[slot % 6] : pal.hover_bg;
            dl->AddRectFilled(ImVec2(p.x + gutter, p.y), row_end, fill);
        }
        if (slot >= 0)
            dl->AddRectFilled(
                ImVec2(p.x + metric_w + numbers_w, p.y + 1),
                ImVec2(p.x + metric_w + numbers_w + (lit ? 5.0f : 3.0f), p.y + line_h - 1),
                pal.link[slot % 6]);
        if (has_metric && at(decor.metric, i) && !std::isnan((*decor.metric)[i])) {
            const double v = (*decor.metric)[i];
            const float frac = static_cast<float>(std::clamp(v / decor.metric_max, 0.0, 1.0));
            dl->AddRectFilled(ImVec2(p.x, p.y + 2),
                              ImVec2(p.x + (metric_w - char_w) * frac, p.y + line_h - 2), pal.heat);
            char val[32];
            compact(v, val, sizeof val);
            const float vw = ImGui::CalcTextSize(val).x;
            dl->AddText(ImVec2(p.x + metric_w - char_w - vw, p.y), pal.plain, val);
        }
        const bool row_hovered =
            window_hovered && ImGui::IsMouseHoveringRect(p, ImVec2(p.x + width, p.y + line_h));
        if (row_hovered) {
            hovered = i;
            hovered_metric = has_metric && ImGui::GetMousePos().x < p.x + metric_w;
            if (const DisplayRegion* r = doc.region_at(i)) hovered_region = r;
            if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) clicked_ = i;
        }
        if (decor.line_numbers) {
            std::snprintf(num, sizeof num, "%d", line.file_line);
            const float nw = ImGui::CalcTextSize(num).x;
            dl->AddText(ImVec2(p.x + metric_w + numbers_w - nw - char_w, p.y), pal.line_number,
                        num);
        }
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
    // Reserve the full height and the widest line so both scrollbars work.
    ImGui::SetCursorScreenPos(start);
    ImGui::Dummy(ImVec2(gutter + doc.max_columns() * char_w, n * line_h));
    ImGui::PopFont();
    // Tooltips: the metric's exact value, else a line's note, else its region's note.
    auto tooltip = [&pal](const std::string& title, const std::string& body) {
        ImGui::BeginTooltip();
        ImGui::PushStyleColor(ImGuiCol_Text, pal.accent);
        ImGui::TextUnformatted(title.c_str());
        ImGui::PopStyleColor();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
        ImGui::TextUnformatted(body.c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    };
    if (hovered >= 0 && hovered_metric && decor.metric_info && at(decor.metric, hovered) &&
        !std::isnan((*decor.metric)[hovered])) {
        char val[64];
        std::snprintf(val, sizeof val, "%.6g", (*decor.metric)[hovered]);
        const LineMetric& m = *decor.metric_info;
        const std::string detail = at(decor.metric_detail, hovered)
                                       ? (*decor.metric_detail)[hovered] + "\n\n"
                                       : std::string();
        tooltip(m.label + ": " + val + (m.unit.empty() ? "" : " " + m.unit),
                detail + m.id + "\n" + m.description);
    } else if (hovered >= 0 && notes_.count(hovered)) {
        const std::string& note = notes_.at(hovered);
        const size_t nl = note.find('\n');
        tooltip(note.substr(0, nl), nl == std::string::npos ? "" : note.substr(nl + 1));
    } else if (hovered_region && decor.region_notes) {
        tooltip(hovered_region->name, hovered_region->note);
    }
    return hovered;
}

}  // namespace sml::viewer
