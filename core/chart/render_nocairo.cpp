// Stand-in for render_cairo.cpp in builds without Cairo (e.g. the GPU machine): drawn formats
// fail with a clear reason, while CSV export (csv_export.cpp) keeps working.
#include "core/chart/chart_export.h"

namespace sml::chart {

bool chart_renderer_available() {
    return false;
}

Result<std::string> render_chart(const Chart& /*chart*/, ChartFormat format,
                                 const RenderOptions& /*options*/) {
    return Error{std::string("cannot write .") + chart_format_name(format) +
                     ": built without Cairo: install libcairo2-dev and rebuild; CSV export "
                     "still works",
                 "or write the chart with --out chart.csv"};
}

}  // namespace sml::chart
