// Panel layout. See panel_layout.h.
#include "app/viewer/model/panel_layout.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace sml::viewer {

Zoom zoom_from_name(const char* name) {
    if (!name) return Zoom::none;
    if (std::strcmp(name, "lessons") == 0) return Zoom::lessons;
    if (std::strcmp(name, "code") == 0) return Zoom::source;
    if (std::strcmp(name, "chart") == 0) return Zoom::charts;
    if (std::strcmp(name, "metrics") == 0) return Zoom::metrics;
    return Zoom::none;
}

PanelBoxes layout_panels(const LayoutInput& in) {
    PanelBoxes b;
    const Box all{0, 0, in.width, in.height};
    switch (in.zoom) {
        case Zoom::lessons:
            b.lessons = all;
            return b;
        case Zoom::source:
            b.source = all;
            return b;
        case Zoom::charts:
            b.charts = all;
            return b;
        case Zoom::metrics:
            b.metrics = all;
            return b;
        case Zoom::none:
            break;
    }
    const float gap = in.gap;
    // Lessons: a readable column, wider share on small windows where the text is large.
    const float lessons_w =
        std::floor(std::clamp(in.width * 0.3f, std::min(300.0f, in.width * 0.45f), 620.0f));
    const float right_x = lessons_w + gap;
    const float right_w = std::max(0.0f, in.width - right_x);
    b.lessons = {0, 0, lessons_w, in.height};

    const float two_rows = in.frame_line * 2 + in.padding * 2;
    const float run_h =
        std::floor(std::clamp(in.run_content > 0 ? in.run_content + in.padding * 2 : two_rows,
                              in.frame_line + in.padding * 2, in.height * 0.3f));
    b.run = {right_x, 0, right_w, run_h};

    // The chart's floor: 45% of the window (a third is the least a class can read from the back
    // of a room; the panel also holds its toolbar and notes), or what is left on a tiny window.
    const float window_h = in.window_height > 0 ? in.window_height : in.height;
    const float rest = std::max(0.0f, in.height - run_h - 2 * gap);
    const float middle_min = std::min(rest, std::ceil(window_h * 0.45f));
    const int rows = std::max(4, in.metric_rows) + 1;  // + the header
    float metrics_h = rows * in.text_line + in.frame_line * 1.4f + in.padding * 2 + 8;
    metrics_h = std::min(metrics_h, in.height * 0.34f);
    metrics_h = std::floor(std::max(0.0f, std::min(metrics_h, rest - middle_min)));
    const float middle_h = rest - metrics_h;

    // The chart takes the larger share: a legend and log2 ticks need width; code scrolls sideways.
    const float source_w = std::floor(right_w * 0.4f);
    const float y = run_h + gap;
    b.source = {right_x, y, source_w, middle_h};
    b.charts = {right_x + source_w + gap, y, right_w - source_w - gap, middle_h};
    b.metrics = {right_x, y + middle_h + gap, right_w, metrics_h};
    // A window short for its text (1280x720 with text at 1.2x or more) leaves the code a dozen
    // lines beside the chart: there it runs down beside the table too, which goes under the
    // chart alone (it scrolls sideways; its kernel and first numbers stay in view).
    if (metrics_h > 0 && middle_h < 14 * in.text_line) {
        b.source.h = middle_h + gap + metrics_h;
        b.metrics = {b.charts.x, y + middle_h + gap, b.charts.w, metrics_h};
    }
    return b;
}

}  // namespace sml::viewer
