// Where each panel goes, from the window size and the text size: the layout as data, so a test
// can check it holds on a projector (1280x720 with text at 1.5x) without opening a window.
//
//   +-----------+-----------------------------------------+
//   |           |  Run (a toolbar that wraps to its rows)   |
//   |  Lessons  +--------------------+--------------------+
//   |           |  Source            |  Charts            |
//   |           +--------------------+--------------------+
//   |           |  Metrics (one row per kernel)            |
//   +-----------+-----------------------------------------+
//
// The chart always keeps at least 45% of the window's height (so its plot, under its toolbar,
// stays over a third): the metrics table gives up rows (it scrolls) before the plot shrinks. On a
// window short for its text (a projector: 1280x720, text at 1.5x) the Source panel runs down to
// the bottom and Metrics sits under the chart alone, so the code shows twice the lines. A
// zoomed panel (keys 1-4) takes the whole area.
#pragma once

namespace sml::viewer {

enum class Zoom { none, lessons, source, charts, metrics };
// "lessons" | "code" | "chart" | "metrics" | "" (none).
Zoom zoom_from_name(const char* name);

struct Box {
    float x = 0, y = 0, w = 0, h = 0;
    bool visible() const { return w > 0 && h > 0; }
};

struct LayoutInput {
    float width = 0, height = 0;  // the area below the menu bar and banners
    float window_height = 0;      // the whole window (the chart's third is of this)
    float gap = 8;                // space between panels
    float frame_line = 28;        // one row of widgets, with its spacing
    float text_line = 20;         // one line of text, with its spacing
    float padding = 8;            // a panel's inner padding, each side
    float run_content = 0;        // the Run toolbar's height as last drawn (0: two rows)
    int metric_rows = 4;          // table rows to show (plus a header)
    Zoom zoom = Zoom::none;
};

struct PanelBoxes {
    Box lessons, run, source, charts, metrics;
};

PanelBoxes layout_panels(const LayoutInput& in);

}  // namespace sml::viewer
