// The code widget: draws a SourceDoc with line numbers and syntax colours, shades the regions the
// current lesson step talks about, shows a region's (or a line's) note on hover, and draws the
// decorations the PTX and SASS views add: link colours shared with the source pane, the lines a
// hover lights, and a per-line metric as a heat bar with its value (app/viewer/model/code_view.h).
//
// Stateful (Tracy-style): it remembers where to scroll, so a lesson step can say "show
// warp-reduce" once and the view scrolls there on the next frame. Two instances draw the source
// and listing panes side by side.
#pragma once

#include <imgui.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "app/viewer/model/source_doc.h"
#include "app/viewer/theme.h"
#include "core/code/line_metrics.h"

namespace sml::viewer {

// Per-display-line decorations; every pointer may be null.
struct LineDecor {
    const std::vector<int>* slots = nullptr;      // link colour (Palette::link), -1 none
    const std::vector<char>* lit = nullptr;       // lit by a hover in either pane
    const std::vector<double>* metric = nullptr;  // NaN: no value
    double metric_max = 0;                        // a full bar
    const LineMetric* metric_info = nullptr;      // label, unit, description (tooltip)
    const std::vector<std::string>* metric_detail = nullptr;  // per line: every counter, or ""
    bool line_numbers = true;
    bool region_notes = true;  // a region's note on hover (off beside a listing: it would hide it)
};

class SourceView {
  public:
    // Regions to shade, by name, and lines to mark (display indices, e.g. PTX anchors).
    void set_highlights(std::set<std::string> regions, std::vector<int> lines);
    // A note per display line, shown when the line is hovered (listing anchors).
    void set_line_notes(std::map<int, std::string> notes) { notes_ = std::move(notes); }
    // Scrolls so that `display_line` is near the top on the next draw.
    void scroll_to(int display_line) { pending_scroll_ = display_line; }
    // Scrolls to the first marked line (no-op when there is none). Regions scroll by name,
    // through scroll_to(region.first), because only the document knows where they are.
    void scroll_to_first_highlight() {
        if (!lines_.empty()) pending_scroll_ = lines_.front();
    }
    // Draws `doc` filling the current child window. Returns the display line under the mouse,
    // or -1; clicked() is the line clicked in this frame, or -1.
    int draw(const SourceDoc& doc, const Fonts& fonts, const LineDecor& decor = {});
    int clicked() const { return clicked_; }
    // Lines visible in the last frame: [first_visible, last_visible).
    int first_visible() const { return first_visible_; }
    int last_visible() const { return last_visible_; }

  private:
    std::set<std::string> regions_;
    std::vector<int> lines_;
    std::map<int, std::string> notes_;
    int pending_scroll_ = -1;
    int clicked_ = -1;
    int first_visible_ = 0, last_visible_ = 0;
};

}  // namespace sml::viewer
