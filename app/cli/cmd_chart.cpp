// TEMPORARY placeholder so the CLI links; replaced by the chart exporter work (issue 4).
#include "app/cli/commands.h"
namespace sml::cli {
CommandFn add_chart_command(CLI::App& app) {
    app.add_subcommand("chart", "Export a chart from a session (not built yet)");
    return [] {
        print_error("chart export is not built yet");
        return 1;
    };
}
}  // namespace sml::cli
