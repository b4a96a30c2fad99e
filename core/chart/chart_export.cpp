// File formats, --size parsing and file writes for chart export (see chart_export.h). Files are
// written through core/common/safe_file.h: a fresh side file, fsynced and renamed into place.
#include "core/chart/chart_export.h"

#include <algorithm>
#include <cctype>

#include "core/common/parse_number.h"
#include "core/common/safe_file.h"
#include "core/common/text_cap.h"

namespace sml::chart {

const char* chart_format_name(ChartFormat f) {
    switch (f) {
        case ChartFormat::png:
            return "png";
        case ChartFormat::svg:
            return "svg";
        case ChartFormat::pdf:
            return "pdf";
        case ChartFormat::csv:
            return "csv";
    }
    return "?";
}

Result<ChartFormat> format_from_path(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    const size_t dot = path.find_last_of('.');
    std::string ext;
    if (dot != std::string::npos && (slash == std::string::npos || dot > slash))
        ext = path.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (ChartFormat f : {ChartFormat::png, ChartFormat::svg, ChartFormat::pdf, ChartFormat::csv})
        if (ext == chart_format_name(f)) return f;
    return Error{ext.empty()
                     ? "'" + quote_short(path) + "' has no file extension, so the format is unknown"
                     : "unknown chart file extension '." + quote_short(ext) + "' in '" +
                           quote_short(path) + "'",
                 "end --out with .png, .svg, .pdf or .csv"};
}

Result<RenderOptions> parse_size(const std::string& text, RenderOptions base) {
    const std::string shown = quote_short(text);
    const size_t x = text.find_first_of("xX");
    if (x == std::string::npos)
        return Error{"bad --size '" + shown + "': expected WIDTHxHEIGHT",
                     "for example --size 1600x900 (slides) or --size 1200x800"};
    // Each side read whole: sscanf("%d") took 4294967496 as 200 (it wrapped around 2^32).
    int sides[2] = {0, 0};
    const std::string parts[2] = {text.substr(0, x), text.substr(x + 1)};
    const char* names[2] = {"width", "height"};
    for (int i = 0; i < 2; ++i) {
        const Result<int64_t> v = parse_integer(parts[i], names[i], 200, 8000);
        if (!v)
            return Error{"bad --size '" + shown + "': " + v.error().message,
                         "each side must be 200..8000 pixels, for example --size 1600x900"};
        sides[i] = static_cast<int>(*v);
    }
    base.width = sides[0];
    base.height = sides[1];
    return base;
}

Status write_file_atomic(const std::string& path, const std::string& bytes) {
    return sml::write_file_atomic(path, bytes, "chart");
}

Status export_chart(const Chart& chart, const std::string& path, const RenderOptions& options) {
    const Result<ChartFormat> format = format_from_path(path);
    if (!format) return format.error();
    if (*format == ChartFormat::csv) return write_file_atomic(path, chart_to_csv(chart));
    const Result<std::string> bytes = render_chart(chart, *format, options);
    if (!bytes) return bytes.error();
    return write_file_atomic(path, *bytes);
}

}  // namespace sml::chart
