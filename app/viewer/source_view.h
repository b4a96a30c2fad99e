// The Source panel's widget: draws a SourceDoc with line numbers and syntax colours, shades the
// regions the current lesson step talks about, and shows a region's note on hover.
//
// Stateful (Tracy-style): it remembers which document it shows and where to scroll, so a lesson
// step can say "show warp-reduce" once and the view scrolls there on the next frame.
#pragma once

#include <imgui.h>

#include <set>
#include <string>
#include <vector>

#include "app/viewer/model/source_doc.h"
#include "app/viewer/theme.h"

namespace sml::viewer {

class SourceView {
  public:
    // Regions to shade, by name, and PTX lines to mark (display indices).
    void set_highlights(std::set<std::string> regions, std::vector<int> lines);
    // Scrolls so that `display_line` is near the top on the next draw.
    void scroll_to(int display_line) { pending_scroll_ = display_line; }
    // Scrolls to the first marked PTX line (no-op when there is none). Regions scroll by name,
    // through scroll_to(region.first), because only the document knows where they are.
    void scroll_to_first_highlight() {
        if (!lines_.empty()) pending_scroll_ = lines_.front();
    }
    // Draws `doc` filling the current child window.
    void draw(const SourceDoc& doc, const Fonts& fonts);

  private:
    std::set<std::string> regions_;
    std::vector<int> lines_;
    int pending_scroll_ = -1;
};

}  // namespace sml::viewer
