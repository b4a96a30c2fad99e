// Cairo renderer: draws a chart's DrawOps (chart_layout.h) to PNG, SVG or PDF bytes.
//
// Built only when Cairo is found (the *_cairo.cpp naming rule in core/CMakeLists.txt);
// render_nocairo.cpp stands in otherwise. All geometry comes from layout_chart(): this file only
// knows how to paint a rect, a line, a marker and a string, so the viewer's ImDrawList renderer
// draws the same picture.
//
// Fonts: "DejaVu Sans" through Cairo's toy text API (Debian fonts-dejavu-core), measured with the
// same Cairo context that draws, so the layout's text widths are the drawn widths.
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "core/chart/chart_export.h"
#include "core/chart/chart_layout.h"

namespace sml::chart {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr const char* kFontFamily = "DejaVu Sans";

struct SurfaceDeleter {
    void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
struct ContextDeleter {
    void operator()(cairo_t* c) const { cairo_destroy(c); }
};
using SurfacePtr = std::unique_ptr<cairo_surface_t, SurfaceDeleter>;
using ContextPtr = std::unique_ptr<cairo_t, ContextDeleter>;

cairo_status_t append_to_string(void* closure, const unsigned char* data, unsigned int length) {
    static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
    return CAIRO_STATUS_SUCCESS;
}

// U+FFFD in UTF-8: what stands in for a character that cannot be drawn or written.
constexpr char kReplacement[] = "\xEF\xBF\xBD";

// Length of the Unicode noncharacter (U+FDD0..U+FDEF, U+nFFFE, U+nFFFF) that starts at s[i]
// in UTF-8, else 0. Cairo refuses a string holding one ("input string not valid UTF-8", the
// whole chart lost) and XML 1.0 forbids U+FFFE and U+FFFF.
size_t noncharacter_at(const std::string& s, size_t i) {
    auto b = [&](size_t k) { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u; };
    if (b(i) == 0xEF && b(i + 1) == 0xB7 && b(i + 2) >= 0x90 && b(i + 2) <= 0xAF) return 3;
    if (b(i) == 0xEF && b(i + 1) == 0xBF && (b(i + 2) & 0xFE) == 0xBE) return 3;
    if (b(i) >= 0xF0 && b(i) <= 0xF4 && (b(i + 1) & 0xCF) == 0x8F && b(i + 2) == 0xBF &&
        (b(i + 3) & 0xFE) == 0xBE)
        return 4;
    return 0;
}

// `text` as Cairo will take it: noncharacters replaced by U+FFFD.
std::string drawable(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        if (const size_t n = noncharacter_at(text, i)) {
            out += kReplacement;
            i += n - 1;
        } else {
            out += text[i];
        }
    }
    return out;
}

void set_font(cairo_t* cr, double px, bool bold) {
    cairo_select_font_face(cr, kFontFamily, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, px);
}

TextSize measure_text(cairo_t* cr, const std::string& text, double px, bool bold) {
    set_font(cr, px, bold);
    cairo_text_extents_t te;
    cairo_font_extents_t fe;
    cairo_text_extents(cr, drawable(text).c_str(), &te);
    cairo_font_extents(cr, &fe);
    return TextSize{te.x_advance, fe.ascent + fe.descent};
}

void set_color(cairo_t* cr, const Rgb& c, double alpha = 1.0) {
    cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

void marker_path(cairo_t* cr, MarkerShape shape, Vec2 p, double r) {
    switch (shape) {
        case MarkerShape::circle:
            cairo_new_sub_path(cr);
            cairo_arc(cr, p.x, p.y, r, 0, 2 * kPi);
            break;
        case MarkerShape::square:
            cairo_rectangle(cr, p.x - r * 0.88, p.y - r * 0.88, r * 1.76, r * 1.76);
            break;
        case MarkerShape::triangle:
        case MarkerShape::triangle_down: {
            const double s = shape == MarkerShape::triangle ? 1 : -1;
            cairo_move_to(cr, p.x, p.y - s * r * 1.15);
            cairo_line_to(cr, p.x + r * 1.1, p.y + s * r * 0.75);
            cairo_line_to(cr, p.x - r * 1.1, p.y + s * r * 0.75);
            cairo_close_path(cr);
            break;
        }
        case MarkerShape::diamond:
            cairo_move_to(cr, p.x, p.y - r * 1.25);
            cairo_line_to(cr, p.x + r * 1.05, p.y);
            cairo_line_to(cr, p.x, p.y + r * 1.25);
            cairo_line_to(cr, p.x - r * 1.05, p.y);
            cairo_close_path(cr);
            break;
        case MarkerShape::pentagon:
            for (int i = 0; i < 5; ++i) {
                const double a = -kPi / 2 + i * 2 * kPi / 5;
                const double x = p.x + r * 1.15 * std::cos(a), y = p.y + r * 1.15 * std::sin(a);
                if (i == 0)
                    cairo_move_to(cr, x, y);
                else
                    cairo_line_to(cr, x, y);
            }
            cairo_close_path(cr);
            break;
        case MarkerShape::cross:
            cairo_move_to(cr, p.x - r, p.y - r);
            cairo_line_to(cr, p.x + r, p.y + r);
            cairo_move_to(cr, p.x + r, p.y - r);
            cairo_line_to(cr, p.x - r, p.y + r);
            break;
        case MarkerShape::none:
            break;
    }
}

void stroke_with(cairo_t* cr, const DrawOp& op) {
    cairo_set_line_width(cr, op.width);
    cairo_set_dash(cr, op.dash.empty() ? nullptr : op.dash.data(), static_cast<int>(op.dash.size()),
                   0);
    set_color(cr, op.color, op.alpha);
    cairo_stroke(cr);
    cairo_set_dash(cr, nullptr, 0, 0);
}

void draw_op(cairo_t* cr, const DrawOp& op) {
    switch (op.kind) {
        case OpKind::fill_rect:
            cairo_rectangle(cr, op.rect.x, op.rect.y, op.rect.w, op.rect.h);
            set_color(cr, op.color, op.alpha);
            cairo_fill(cr);
            break;
        case OpKind::stroke_rect:
            cairo_rectangle(cr, op.rect.x, op.rect.y, op.rect.w, op.rect.h);
            stroke_with(cr, op);
            break;
        case OpKind::hatch_rect: {
            cairo_save(cr);
            cairo_rectangle(cr, op.rect.x, op.rect.y, op.rect.w, op.rect.h);
            cairo_clip(cr);
            const double step = op.radius > 0 ? op.radius : 6;
            for (double d = -op.rect.h; d < op.rect.w; d += step) {
                cairo_move_to(cr, op.rect.x + d, op.rect.bottom());
                cairo_line_to(cr, op.rect.x + d + op.rect.h, op.rect.y);
            }
            stroke_with(cr, op);
            cairo_restore(cr);
            break;
        }
        case OpKind::line:
        case OpKind::polyline:
            if (op.pts.size() < 2) break;
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
            cairo_set_line_cap(
                cr, op.kind == OpKind::line ? CAIRO_LINE_CAP_BUTT : CAIRO_LINE_CAP_ROUND);
            cairo_move_to(cr, op.pts[0].x, op.pts[0].y);
            for (size_t i = 1; i < op.pts.size(); ++i) cairo_line_to(cr, op.pts[i].x, op.pts[i].y);
            stroke_with(cr, op);
            break;
        case OpKind::marker:
            if (op.pts.empty() || op.shape == MarkerShape::none) break;
            marker_path(cr, op.shape, op.pts[0], op.radius);
            if (op.shape == MarkerShape::cross) {  // an X has no inside: draw it bold instead
                cairo_set_line_width(cr, std::max(op.width, op.radius * 0.55));
                set_color(cr, op.color);
                cairo_stroke(cr);
                break;
            }
            set_color(cr, op.color);
            cairo_fill_preserve(cr);
            cairo_set_line_width(cr, op.width);
            set_color(cr, op.outline);  // a thin halo separates overlapping markers
            cairo_stroke(cr);
            break;
        case OpKind::ring:
            if (op.pts.empty()) break;
            cairo_new_sub_path(cr);
            cairo_arc(cr, op.pts[0].x, op.pts[0].y, op.radius, 0, 2 * kPi);
            stroke_with(cr, op);
            break;
        case OpKind::text: {
            if (op.pts.empty() || op.text.empty()) break;
            set_font(cr, op.font_px, op.bold);
            const std::string text = drawable(op.text);
            cairo_text_extents_t te;
            cairo_font_extents_t fe;
            cairo_text_extents(cr, text.c_str(), &te);
            cairo_font_extents(cr, &fe);
            cairo_save(cr);
            cairo_translate(cr, op.pts[0].x, op.pts[0].y);
            cairo_rotate(cr, op.angle_deg * kPi / 180);
            // Vertically centred on the anchor: half-way between ascent and descent.
            cairo_move_to(cr, -op.halign * te.x_advance, (fe.ascent - fe.descent) / 2);
            set_color(cr, op.color, op.alpha);
            cairo_show_text(cr, text.c_str());
            cairo_new_path(cr);
            cairo_restore(cr);
            break;
        }
        case OpKind::clip_begin:
            cairo_save(cr);
            cairo_rectangle(cr, op.rect.x, op.rect.y, op.rect.w, op.rect.h);
            cairo_clip(cr);
            break;
        case OpKind::clip_end:
            cairo_restore(cr);
            break;
    }
}

// The text of an SVG element: markup escaped, and what XML 1.0 forbids (control characters other
// than tab, newline and carriage return; U+FFFE and U+FFFF, with the other noncharacters, as in
// the drawing) replaced by U+FFFD, so a title or a session's device name with a stray \x01 still
// gives a file every XML parser reads.
std::string xml_escape(const std::string& text) {
    const std::string s = drawable(text);
    std::string out;
    for (char c : s) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (u < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            out += kReplacement;
            continue;
        }
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

// Cairo writes SVG text as glyph outlines, which no search, screen reader or test can read.
// An SVG <title> and <desc> (the spec's accessible name and description) carry the chart's
// title and every legend label as real text.
std::string with_svg_description(std::string svg, const Chart& chart) {
    const size_t open = svg.find("<svg");
    const size_t end = open == std::string::npos ? open : svg.find('>', open);
    if (end == std::string::npos) return svg;
    std::string desc = chart.subtitle;
    for (const LegendEntry& e : legend_entries(chart)) desc += "\n" + e.label;
    for (const Panel& p : chart.panels)
        for (const Series& s : p.series)
            if (!s.in_legend || chart.legend == LegendPlacement::hidden) desc += "\n" + s.label;
    svg.insert(end + 1, "\n<title>" + xml_escape(chart.title) + "</title>\n<desc>" +
                            xml_escape(desc) + "</desc>");
    return svg;
}

}  // namespace

bool chart_renderer_available() {
    return true;
}

Result<std::string> render_chart(const Chart& chart, ChartFormat format,
                                 const RenderOptions& options) {
    const std::optional<Theme> theme = theme_by_name(options.theme);
    if (!theme)
        return Error{"unknown theme '" + options.theme + "'", "use --theme light or --theme dark"};
    if (chart.panels.empty())
        return Error{"the chart '" + chart.kind + "' has nothing to draw", "pick another chart"};
    const double w = options.width, h = options.height;
    std::string bytes;
    SurfacePtr surface;
    switch (format) {
        case ChartFormat::png:
            surface.reset(
                cairo_image_surface_create(CAIRO_FORMAT_ARGB32, options.width, options.height));
            break;
        case ChartFormat::svg:
            surface.reset(cairo_svg_surface_create_for_stream(append_to_string, &bytes, w, h));
            // Pixels, not Cairo's default points, so a 1600x900 SVG opens at the PNG's size.
            cairo_svg_surface_set_document_unit(surface.get(), CAIRO_SVG_UNIT_PX);
            break;
        case ChartFormat::pdf:
            surface.reset(cairo_pdf_surface_create_for_stream(append_to_string, &bytes, w, h));
            break;
        case ChartFormat::csv:
            return Error{"CSV is not a drawn format", "use export_chart() for .csv"};
    }
    if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS)
        return Error{std::string("Cairo could not create the surface: ") +
                         cairo_status_to_string(cairo_surface_status(surface.get())),
                     "try a smaller --size"};
    ContextPtr cr(cairo_create(surface.get()));
    const TextMeasure measure = [&](const std::string& t, double px, bool bold) {
        return measure_text(cr.get(), t, px, bold);
    };
    const ChartLayout layout = layout_chart(chart, *theme, w, h, measure);
    for (const DrawOp& op : layout.ops) draw_op(cr.get(), op);
    if (cairo_status(cr.get()) != CAIRO_STATUS_SUCCESS)
        return Error{
            std::string("drawing failed: ") + cairo_status_to_string(cairo_status(cr.get())),
            "report this with the session file attached"};
    cr.reset();
    if (format == ChartFormat::png) {
        const cairo_status_t st =
            cairo_surface_write_to_png_stream(surface.get(), append_to_string, &bytes);
        if (st != CAIRO_STATUS_SUCCESS)
            return Error{std::string("PNG encoding failed: ") + cairo_status_to_string(st), ""};
    }
    cairo_surface_finish(surface.get());  // SVG and PDF write their trailers here
    if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS)
        return Error{std::string("Cairo could not finish the file: ") +
                         cairo_status_to_string(cairo_surface_status(surface.get())),
                     ""};
    surface.reset();
    if (format == ChartFormat::svg) bytes = with_svg_description(std::move(bytes), chart);
    return bytes;
}

}  // namespace sml::chart
