// Markdown to ImGui. See markdown_view.h.
//
// [SECTION] Parsing: md4c callbacks -> MdBlock list
// [SECTION] Layout: a small inline flow with wrapping, drawn with TextUnformatted pieces
#include "app/viewer/markdown_view.h"

#include <md4c.h>

#include <cstring>

namespace sml::viewer {

// [SECTION] Parsing ------------------------------------------------------------------------------
namespace {

struct Builder {
    std::vector<MdBlock> blocks;
    struct List {
        bool ordered;
        unsigned next;
    };
    std::vector<List> lists;
    int quote = 0;
    int strong = 0, emph = 0, code = 0;
    std::vector<std::string> links;
    bool in_table = false, in_cell = false;
    bool pending_break = false;
    bool li_open = false;  // the last list item has not received a paragraph yet

    MdBlock& open(MdBlock::Kind k) {
        MdBlock b;
        b.kind = k;
        b.indent = static_cast<int>(lists.size());
        b.quote = quote;
        blocks.push_back(std::move(b));
        return blocks.back();
    }

    std::vector<MdSpan>* target() {
        if (blocks.empty()) open(MdBlock::Kind::paragraph);
        MdBlock& b = blocks.back();
        if (b.kind == MdBlock::Kind::table) {
            if (b.rows.empty()) b.rows.emplace_back();
            if (b.rows.back().empty()) b.rows.back().emplace_back();
            return &b.rows.back().back();
        }
        return &b.spans;
    }

    void add_text(const std::string& t, bool as_code) {
        if (blocks.empty()) open(MdBlock::Kind::paragraph);
        if (blocks.back().kind == MdBlock::Kind::code) {
            blocks.back().code += t;
            return;
        }
        std::vector<MdSpan>* spans = target();
        const bool c = as_code || code > 0;
        const std::string link = links.empty() ? "" : links.back();
        if (!spans->empty() && !pending_break) {
            MdSpan& last = spans->back();
            if (last.strong == (strong > 0) && last.emph == (emph > 0) && last.code == c &&
                last.link == link) {
                last.text += t;
                return;
            }
        }
        MdSpan s;
        s.text = t;
        s.strong = strong > 0;
        s.emph = emph > 0;
        s.code = c;
        s.link = link;
        s.line_break = pending_break;
        pending_break = false;
        spans->push_back(std::move(s));
    }
};

int enter_block(MD_BLOCKTYPE type, void* detail, void* user) {
    auto* b = static_cast<Builder*>(user);
    switch (type) {
        case MD_BLOCK_H:
            b->open(MdBlock::Kind::heading).level =
                static_cast<int>(static_cast<MD_BLOCK_H_DETAIL*>(detail)->level);
            break;
        case MD_BLOCK_P:
            if (b->in_table) break;
            // The first paragraph of a loose list item belongs to the item's bullet line.
            if (b->li_open)
                b->li_open = false;
            else
                b->open(MdBlock::Kind::paragraph);
            break;
        case MD_BLOCK_UL:
            b->lists.push_back({false, 0});
            break;
        case MD_BLOCK_OL:
            b->lists.push_back({true, static_cast<MD_BLOCK_OL_DETAIL*>(detail)->start});
            break;
        case MD_BLOCK_LI: {
            MdBlock& li = b->open(MdBlock::Kind::list_item);
            Builder::List& l = b->lists.back();
            li.bullet = l.ordered ? std::to_string(l.next++) + "." : "\xE2\x80\xA2";  // •
            b->li_open = true;
            break;
        }
        case MD_BLOCK_CODE:
            b->open(MdBlock::Kind::code);
            break;
        case MD_BLOCK_QUOTE:
            ++b->quote;
            break;
        case MD_BLOCK_HR:
            b->open(MdBlock::Kind::rule);
            break;
        case MD_BLOCK_TABLE:
            b->open(MdBlock::Kind::table);
            b->in_table = true;
            break;
        case MD_BLOCK_THEAD:
            b->blocks.back().header_row = true;
            break;
        case MD_BLOCK_TR:
            b->blocks.back().rows.emplace_back();
            break;
        case MD_BLOCK_TH:
        case MD_BLOCK_TD:
            b->blocks.back().rows.back().emplace_back();
            b->in_cell = true;
            break;
        default:
            break;
    }
    return 0;
}

int leave_block(MD_BLOCKTYPE type, void*, void* user) {
    auto* b = static_cast<Builder*>(user);
    switch (type) {
        case MD_BLOCK_UL:
        case MD_BLOCK_OL:
            b->lists.pop_back();
            break;
        case MD_BLOCK_LI:
            b->li_open = false;
            break;
        case MD_BLOCK_QUOTE:
            --b->quote;
            break;
        case MD_BLOCK_TABLE:
            b->in_table = false;
            break;
        case MD_BLOCK_TH:
        case MD_BLOCK_TD:
            b->in_cell = false;
            break;
        case MD_BLOCK_P:
        case MD_BLOCK_H:
            b->pending_break = false;
            break;
        default:
            break;
    }
    return 0;
}

int enter_span(MD_SPANTYPE type, void* detail, void* user) {
    auto* b = static_cast<Builder*>(user);
    switch (type) {
        case MD_SPAN_STRONG:
            ++b->strong;
            break;
        case MD_SPAN_EM:
            ++b->emph;
            break;
        case MD_SPAN_CODE:
            ++b->code;
            break;
        case MD_SPAN_A: {
            const MD_ATTRIBUTE& href = static_cast<MD_SPAN_A_DETAIL*>(detail)->href;
            b->links.emplace_back(href.text, href.size);
            break;
        }
        default:
            break;
    }
    return 0;
}

int leave_span(MD_SPANTYPE type, void*, void* user) {
    auto* b = static_cast<Builder*>(user);
    switch (type) {
        case MD_SPAN_STRONG:
            --b->strong;
            break;
        case MD_SPAN_EM:
            --b->emph;
            break;
        case MD_SPAN_CODE:
            --b->code;
            break;
        case MD_SPAN_A:
            if (!b->links.empty()) b->links.pop_back();
            break;
        default:
            break;
    }
    return 0;
}

std::string entity(const std::string& e) {
    if (e == "&amp;") return "&";
    if (e == "&lt;") return "<";
    if (e == "&gt;") return ">";
    if (e == "&quot;") return "\"";
    if (e == "&nbsp;") return " ";
    if (e == "&times;") return "\xC3\x97";
    return e;
}

int text_cb(MD_TEXTTYPE type, const MD_CHAR* text, MD_SIZE size, void* user) {
    auto* b = static_cast<Builder*>(user);
    std::string t(text, size);
    switch (type) {
        case MD_TEXT_NULLCHAR:
            break;
        case MD_TEXT_BR:
            if (!b->blocks.empty() && b->blocks.back().kind == MdBlock::Kind::code)
                b->add_text("\n", false);
            else
                b->pending_break = true;
            break;
        case MD_TEXT_SOFTBR:
            b->add_text(" ", false);
            break;
        case MD_TEXT_ENTITY:
            b->add_text(entity(t), false);
            break;
        case MD_TEXT_HTML:
            break;  // lessons don't rely on raw HTML
        case MD_TEXT_CODE:
            b->add_text(t, true);
            break;
        default:
            b->add_text(t, false);
            break;
    }
    return 0;
}

}  // namespace

namespace {
std::vector<std::string> pieces(const std::string& s);

// Splits every span once here, so draw() does not re-split the text every frame.
void split_words(std::vector<MdBlock>* blocks) {
    auto split = [](std::vector<MdSpan>& spans) {
        for (MdSpan& span : spans) span.words = pieces(span.text);
    };
    for (MdBlock& b : *blocks) {
        split(b.spans);
        for (auto& row : b.rows)
            for (auto& cell : row) split(cell);
    }
}
}  // namespace

bool MarkdownView::set_text(const std::string& markdown) {
    Builder b;
    MD_PARSER parser{};
    parser.abi_version = 0;
    parser.flags =
        MD_FLAG_TABLES | MD_FLAG_STRIKETHROUGH | MD_FLAG_PERMISSIVEAUTOLINKS | MD_FLAG_NOHTML;
    parser.enter_block = enter_block;
    parser.leave_block = leave_block;
    parser.enter_span = enter_span;
    parser.leave_span = leave_span;
    parser.text = text_cb;
    const int rc = md_parse(markdown.data(), static_cast<MD_SIZE>(markdown.size()), &parser, &b);
    if (rc != 0) {
        MdBlock p;
        p.spans.push_back(MdSpan{markdown});
        blocks_ = {p};
        split_words(&blocks_);
        return false;
    }
    blocks_ = std::move(b.blocks);
    split_words(&blocks_);
    return true;
}

// [SECTION] Layout -------------------------------------------------------------------------------
namespace {

// Length of the UTF-8 sequence starting with byte c.
int utf8_len(unsigned char c) {
    if (c < 0x80) return 1;
    if ((c >> 5) == 0x6) return 2;
    if ((c >> 4) == 0xE) return 3;
    return 4;
}

bool is_closing_punct(const std::string& ch) {
    static const char* const closing[] = {
        "\xEF\xBC\x8C", "\xE3\x80\x82", "\xE3\x80\x81", "\xEF\xBC\x9B",
        "\xEF\xBC\x9A", "\xEF\xBC\x81", "\xEF\xBC\x9F", "\xEF\xBC\x89",
        "\xE3\x80\x8D", "\xE3\x80\x8F", "\xE3\x80\x8B"};  // ，。、；：！？）」』》
    for (const char* c : closing)
        if (ch == c) return true;
    return false;
}

// Splits text into pieces that may not be broken: a word with its trailing spaces, or one wide
// (CJK) character, since Chinese breaks between any two characters.
std::vector<std::string> pieces(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        const int n = std::min<int>(utf8_len(c), static_cast<int>(s.size() - i));
        const bool wide = n >= 3;  // U+0800 and up: CJK, fullwidth punctuation
        const std::string ch = s.substr(i, n);
        if (wide && is_closing_punct(ch) && (!cur.empty() || !out.empty())) {
            // Chinese typesetting never starts a line with a comma or full stop: keep it with
            // the character before it.
            if (!cur.empty())
                cur += ch;
            else
                out.back() += ch;
        } else if (wide) {
            if (!cur.empty()) out.push_back(std::move(cur)), cur.clear();
            out.push_back(ch);
        } else if (c == ' ') {
            cur += ' ';
            out.push_back(std::move(cur));
            cur.clear();
        } else {
            cur.append(s, i, n);
        }
        i += n;
    }
    if (!cur.empty()) out.push_back(std::move(cur));
    return out;
}

}  // namespace

void MarkdownView::draw_spans(
    const std::vector<MdSpan>& spans, const Fonts& fonts, float left, float right, ImFont* base,
    const std::function<void(const std::string&)>& on_link,
    const std::function<std::string(const std::string&)>& link_tooltip) const {
    const Palette& pal = palette();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    float x = left;
    float y = origin.y;
    float line_h = ImGui::GetTextLineHeight();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float win_x = ImGui::GetWindowPos().x;
    auto newline = [&] {
        x = left;
        y += line_h + 2.0f;
    };
    for (const MdSpan& span : spans) {
        if (span.line_break) newline();
        // Emphasis is slanted body text in the body colour: colour and underline mean "link".
        ImFont* font = span.code                                            ? fonts.mono
                       : span.strong                                        ? fonts.bold
                       : span.emph && base == fonts.regular && fonts.italic ? fonts.italic
                                                                            : base;
        ImGui::PushFont(font);
        line_h = std::max(line_h, ImGui::GetTextLineHeight());
        ImU32 col = ImGui::GetColorU32(ImGuiCol_Text);
        if (span.code)
            col = pal.builtin;
        else if (!span.link.empty())
            col = ImGui::GetColorU32(pal.accent);
        for (const std::string& piece : span.words) {
            ImVec2 sz = ImGui::CalcTextSize(piece.c_str());
            // Punctuation glued to the previous span (`max`, ...) stays on its line.
            const bool glued =
                std::strchr(",.;:)!?", piece[0]) != nullptr || is_closing_punct(piece.substr(0, 3));
            if (x + sz.x > right && x > left && !glued) {
                newline();
                if (piece == " ") continue;
            }
            const ImVec2 p(win_x + x, y);
            if (span.code) {
                dl->AddRectFilled(ImVec2(p.x - 1, p.y), ImVec2(p.x + sz.x + 1, p.y + sz.y),
                                  pal.hover_bg, 2.0f);
            }
            dl->AddText(p, col, piece.c_str());
            if (!span.link.empty()) {
                // Links are hit-tested by hand: the whole flow is one item, pieces are not.
                const ImVec2 q(p.x + sz.x, p.y + sz.y);
                dl->AddLine(ImVec2(p.x, q.y), q, col);
                if (ImGui::IsMouseHoveringRect(p, q) && ImGui::IsWindowHovered()) {
                    ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
                    if (link_tooltip) {
                        std::string tip = link_tooltip(span.link);
                        if (!tip.empty()) ImGui::SetTooltip("%s", tip.c_str());
                    }
                    if (ImGui::IsMouseClicked(0) && on_link) on_link(span.link);
                }
            }
            x += sz.x;
        }
        ImGui::PopFont();
    }
    // Reserve the space we drew into so scrolling and the next block follow it.
    ImGui::SetCursorScreenPos(ImVec2(origin.x, y));
    ImGui::Dummy(ImVec2(std::max(1.0f, right - (origin.x - win_x)), line_h));
}

void MarkdownView::draw(const Fonts& fonts, const std::function<void(const std::string&)>& on_link,
                        const std::function<std::string(const std::string&)>& link_tooltip) const {
    const Palette& pal = palette();
    const float win_x = ImGui::GetWindowPos().x;
    const float base_left = ImGui::GetCursorScreenPos().x - win_x;
    const float right = ImGui::GetWindowContentRegionMax().x - 4.0f;
    const float indent_w = ImGui::GetFontSize() * 1.4f;
    for (size_t i = 0; i < blocks_.size(); ++i) {
        const MdBlock& b = blocks_[i];
        float left = base_left + b.quote * indent_w;
        if (b.quote > 0) {
            ImVec2 p = ImGui::GetCursorScreenPos();
            ImGui::GetWindowDrawList()->AddRectFilled(
                ImVec2(win_x + base_left, p.y),
                ImVec2(win_x + base_left + 3, p.y + ImGui::GetTextLineHeight()), pal.region_edge);
        }
        switch (b.kind) {
            case MdBlock::Kind::heading: {
                if (i > 0) ImGui::Dummy(ImVec2(0, ImGui::GetFontSize() * 0.4f));
                ImGui::PushStyleColor(ImGuiCol_Text, pal.accent);
                draw_spans(b.spans, fonts, left, right, b.level <= 2 ? fonts.heading : fonts.bold,
                           on_link, link_tooltip);
                ImGui::PopStyleColor();
                break;
            }
            case MdBlock::Kind::paragraph:
                draw_spans(b.spans, fonts, left + b.indent * indent_w, right, fonts.regular,
                           on_link, link_tooltip);
                break;
            case MdBlock::Kind::list_item: {
                const float l = left + (b.indent - 1) * indent_w;
                ImVec2 p = ImGui::GetCursorScreenPos();
                ImGui::GetWindowDrawList()->AddText(ImVec2(win_x + l + indent_w * 0.3f, p.y),
                                                    ImGui::GetColorU32(pal.accent),
                                                    b.bullet.c_str());
                draw_spans(b.spans, fonts, l + indent_w, right, fonts.regular, on_link,
                           link_tooltip);
                break;
            }
            case MdBlock::Kind::code: {
                ImGui::PushFont(fonts.mono);
                std::string code = b.code;
                if (!code.empty() && code.back() == '\n') code.pop_back();
                ImVec2 p = ImGui::GetCursorScreenPos();
                p.x = win_x + left + b.indent * indent_w;
                // Long formulas wrap inside the box rather than run out of the panel.
                const float wrap_w = std::max(40.0f, win_x + right - p.x - 12);
                const ImVec2 sz = ImGui::CalcTextSize(code.c_str(), nullptr, false, wrap_w);
                ImGui::GetWindowDrawList()->AddRectFilled(
                    ImVec2(p.x, p.y), ImVec2(win_x + right, p.y + sz.y + 8), pal.hover_bg, 3.0f);
                ImGui::SetCursorScreenPos(ImVec2(p.x + 6, p.y + 4));
                ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(pal.plain));
                ImGui::PushTextWrapPos(win_x + right - 6 - ImGui::GetWindowPos().x +
                                       ImGui::GetScrollX());
                ImGui::TextUnformatted(code.c_str());
                ImGui::PopTextWrapPos();
                ImGui::PopStyleColor();
                ImGui::PopFont();
                ImGui::Dummy(ImVec2(0, 2));
                break;
            }
            case MdBlock::Kind::rule:
                ImGui::Separator();
                break;
            case MdBlock::Kind::table: {
                if (b.rows.empty()) break;
                const int cols = static_cast<int>(b.rows.front().size());
                if (cols <= 0 || cols > 64) break;
                const std::string id = "##mdtable" + std::to_string(i);
                if (ImGui::BeginTable(id.c_str(), cols,
                                      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                          ImGuiTableFlags_SizingStretchProp)) {
                    for (size_t r = 0; r < b.rows.size(); ++r) {
                        ImGui::TableNextRow(r == 0 && b.header_row ? ImGuiTableRowFlags_Headers
                                                                   : 0);
                        for (int c = 0; c < cols && c < static_cast<int>(b.rows[r].size()); ++c) {
                            ImGui::TableSetColumnIndex(c);
                            const float cl =
                                ImGui::GetCursorScreenPos().x - ImGui::GetWindowPos().x;
                            const float cr = cl + ImGui::GetColumnWidth();
                            draw_spans(b.rows[r][c], fonts, cl, cr,
                                       (r == 0 && b.header_row) ? fonts.bold : fonts.regular,
                                       on_link, link_tooltip);
                        }
                    }
                    ImGui::EndTable();
                }
                break;
            }
        }
        ImGui::Dummy(ImVec2(0, ImGui::GetFontSize() * 0.25f));
    }
}

}  // namespace sml::viewer
