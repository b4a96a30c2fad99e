// File formats, --size parsing and atomic file writes for chart export (see chart_export.h).
#include "core/chart/chart_export.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

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
    return Error{ext.empty() ? "'" + path + "' has no file extension, so the format is unknown"
                             : "unknown chart file extension '." + ext + "' in '" + path + "'",
                 "end --out with .png, .svg, .pdf or .csv"};
}

Result<RenderOptions> parse_size(const std::string& text, RenderOptions base) {
    int w = 0, h = 0;
    char x = 0, extra = 0;
    const int n = std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &extra);
    if (n != 3 || (x != 'x' && x != 'X'))
        return Error{"bad --size '" + text + "': expected WIDTHxHEIGHT",
                     "for example --size 1600x900 (slides) or --size 1200x800"};
    if (w < 200 || h < 200 || w > 8000 || h > 8000)
        return Error{"bad --size '" + text + "': each side must be 200..8000 pixels",
                     "for example --size 1600x900"};
    base.width = w;
    base.height = h;
    return base;
}

Status write_file_atomic(const std::string& path, const std::string& bytes) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            return Error{"cannot write '" + path + "': " + std::strerror(errno),
                         "check that the folder exists and is writable"};
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.close();
        if (!out) {
            const std::string why = std::strerror(errno);
            std::remove(tmp.c_str());
            return Error{"writing '" + path + "' failed: " + why,
                         "check free disk space and permissions"};
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        std::remove(tmp.c_str());
        return Error{"cannot replace '" + path + "': " + why,
                     "check that the path is not a folder and is writable"};
    }
    return ok_status();
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
