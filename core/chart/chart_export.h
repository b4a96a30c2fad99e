// Writing a chart to a file: CSV (always), PNG/SVG/PDF (through Cairo when built with it).
//
// The format follows from the file extension. Every failure is an Error naming the path and
// the problem (unknown extension, unwritable folder, built without Cairo) with a hint.
#pragma once

#include <string>

#include "core/chart/chart_model.h"
#include "common/result.h"

namespace sml::chart {

enum class ChartFormat { png, svg, pdf, csv };
const char* chart_format_name(ChartFormat f);  // "png" | "svg" | "pdf" | "csv"

// From the extension of `path` (case-insensitive): .png .svg .pdf .csv.
Result<ChartFormat> format_from_path(const std::string& path);

struct RenderOptions {
    int width = 1600, height = 900;  // pixels (PNG) or points (SVG/PDF)
    std::string theme = "light";     // "light" | "dark"
};

// "1600x900" -> {1600, 900}. Each side must be 200..8000.
Result<RenderOptions> parse_size(const std::string& text, RenderOptions base = {});

// The chart as CSV (csv_export.cpp): one row per series point, columns named with units.
std::string chart_to_csv(const Chart& chart);

// True when this build can draw PNG/SVG/PDF (Cairo was found at build time).
bool chart_renderer_available();

// The file's bytes for a drawn format (png/svg/pdf). render_cairo.cpp, or render_nocairo.cpp
// which returns the "built without Cairo" error.
Result<std::string> render_chart(const Chart& chart, ChartFormat format,
                                 const RenderOptions& options);

// Renders or exports `chart` to `path` in the format its extension names. Writes a temporary
// file next to it and renames it, so a failed export never leaves half a file behind.
Status export_chart(const Chart& chart, const std::string& path, const RenderOptions& options);

// Writes `bytes` to `path` atomically (temp + rename). Errors name the path and the OS reason.
Status write_file_atomic(const std::string& path, const std::string& bytes);

}  // namespace sml::chart
