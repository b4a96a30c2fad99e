// Lesson Markdown on screen: md4c parses the text once into blocks of styled spans; draw()
// lays them out every frame with word wrap (per character for Chinese, which has no spaces).
//
// Supported: headings, paragraphs, emphasis, strong, inline code, code blocks, bullet and
// numbered lists (nested), block quotes, tables, rules and links. Links are reported to the
// caller, which is how lesson anchors ("anchor:warp:warp-reduce") jump the Source panel.
#pragma once

#include <imgui.h>

#include <functional>
#include <string>
#include <vector>

#include "app/viewer/theme.h"

namespace sml::viewer {

struct MdSpan {
    std::string text;
    bool strong = false, emph = false, code = false;
    std::string link;                // href, when inside a link
    bool line_break = false;         // a hard break before this span's text
    std::vector<std::string> words;  // `text` split where a line may break; set by set_text
};

struct MdBlock {
    enum class Kind { paragraph, heading, list_item, code, rule, table };
    Kind kind = Kind::paragraph;
    int level = 0;       // heading level 1..6
    int indent = 0;      // list nesting depth (0 = not in a list)
    int quote = 0;       // block-quote depth (a quoted paragraph, list, ... keeps its kind)
    std::string bullet;  // "•" or "3."
    std::vector<MdSpan> spans;
    std::string code;                                    // code block text
    std::vector<std::vector<std::vector<MdSpan>>> rows;  // table: rows -> cells -> spans
    bool header_row = false;                             // table: rows[0] is the header
};

class MarkdownView {
  public:
    // Parses `markdown`; returns false (and keeps the text as one paragraph) if md4c fails.
    bool set_text(const std::string& markdown);
    const std::vector<MdBlock>& blocks() const { return blocks_; }

    // Draws into the current window at the current wrap width. `on_link` is called with the
    // href when a link is clicked; `link_tooltip` (may be empty) gives a hover text for it.
    void draw(const Fonts& fonts, const std::function<void(const std::string&)>& on_link,
              const std::function<std::string(const std::string&)>& link_tooltip) const;

  private:
    void draw_spans(const std::vector<MdSpan>& spans, const Fonts& fonts, float left, float right,
                    ImFont* base, const std::function<void(const std::string&)>& on_link,
                    const std::function<std::string(const std::string&)>& link_tooltip) const;
    std::vector<MdBlock> blocks_;
};

}  // namespace sml::viewer
