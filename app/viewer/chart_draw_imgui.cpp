// ImDrawList renderer of the chart model. See chart_draw_imgui.h.
#include "app/viewer/chart_draw_imgui.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace sml::viewer {

namespace {

ImU32 col(const chart::Rgb& c, double alpha) {
    return to_u32(c, static_cast<float>(alpha));
}

float g_scale = 1.0f;  // set by draw_chart for the duration of one call

ImVec2 at(ImVec2 o, const chart::Vec2& p) {
    return ImVec2(o.x + static_cast<float>(p.x) * g_scale, o.y + static_cast<float>(p.y) * g_scale);
}

// A segment, solid or dashed with the op's on/off pattern.
void segment(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 c, float w,
             const std::vector<double>& dash) {
    // (dash lengths are in layout pixels; the caller's scale applies to them too)
    if (dash.empty()) {
        dl->AddLine(a, b, c, w);
        return;
    }
    const float dx = b.x - a.x, dy = b.y - a.y;
    const float len = std::sqrt(dx * dx + dy * dy);
    if (len <= 0) return;
    float t = 0;
    size_t i = 0;
    bool on = true;
    while (t < len) {
        const float step = std::max(1.0f, static_cast<float>(dash[i % dash.size()]) * g_scale);
        const float t2 = std::min(len, t + step);
        if (on)
            dl->AddLine(ImVec2(a.x + dx * t / len, a.y + dy * t / len),
                        ImVec2(a.x + dx * t2 / len, a.y + dy * t2 / len), c, w);
        t = t2;
        on = !on;
        ++i;
    }
}

// `width` is the outline's: a thin halo on a filled marker, the whole mark of a hollow one.
void marker(ImDrawList* dl, ImVec2 p, float r, chart::MarkerShape shape, ImU32 fill, ImU32 edge,
            float width) {
    using chart::MarkerShape;
    switch (shape) {
        case MarkerShape::circle:
            dl->AddCircleFilled(p, r, fill);
            dl->AddCircle(p, r, edge, 0, width);
            break;
        case MarkerShape::square:
            dl->AddRectFilled(ImVec2(p.x - r, p.y - r), ImVec2(p.x + r, p.y + r), fill);
            dl->AddRect(ImVec2(p.x - r, p.y - r), ImVec2(p.x + r, p.y + r), edge, 0, 0, width);
            break;
        case MarkerShape::triangle:
        case MarkerShape::triangle_down: {
            const float s = shape == MarkerShape::triangle ? 1.0f : -1.0f;
            ImVec2 a(p.x, p.y - s * r * 1.15f), b(p.x - r, p.y + s * r * 0.8f),
                c(p.x + r, p.y + s * r * 0.8f);
            dl->AddTriangleFilled(a, b, c, fill);
            dl->AddTriangle(a, b, c, edge, width);
            break;
        }
        case MarkerShape::diamond: {
            ImVec2 q[4] = {ImVec2(p.x, p.y - r * 1.2f), ImVec2(p.x + r, p.y),
                           ImVec2(p.x, p.y + r * 1.2f), ImVec2(p.x - r, p.y)};
            dl->AddConvexPolyFilled(q, 4, fill);
            dl->AddPolyline(q, 4, edge, ImDrawFlags_Closed, width);
            break;
        }
        case MarkerShape::pentagon: {  // the same points as the Cairo renderer's
            ImVec2 q[5];
            for (int i = 0; i < 5; ++i) {
                const float a = -1.5707963f + static_cast<float>(i) * 1.2566371f;
                q[i] = ImVec2(p.x + r * 1.15f * std::cos(a), p.y + r * 1.15f * std::sin(a));
            }
            dl->AddConvexPolyFilled(q, 5, fill);
            dl->AddPolyline(q, 5, edge, ImDrawFlags_Closed, width);
            break;
        }
        case MarkerShape::cross:
            dl->AddLine(ImVec2(p.x - r, p.y - r), ImVec2(p.x + r, p.y + r), fill, 2.0f);
            dl->AddLine(ImVec2(p.x - r, p.y + r), ImVec2(p.x + r, p.y - r), fill, 2.0f);
            break;
        case MarkerShape::none:
            break;
    }
}

// Text centred vertically on p, aligned by halign, rotated by angle_deg about p.
void text(ImDrawList* dl, const Fonts& fonts, const chart::DrawOp& op, ImVec2 p) {
    ImFont* font = op.bold ? fonts.bold : fonts.regular;
    const float px = static_cast<float>(op.font_px) * g_scale;
    const ImVec2 sz = font->CalcTextSizeA(px, FLT_MAX, 0, op.text.c_str());
    const ImVec2 top_left(p.x - sz.x * static_cast<float>(op.halign), p.y - sz.y * 0.5f);
    if (op.angle_deg == 0) {
        dl->AddText(font, px, top_left, col(op.color, op.alpha), op.text.c_str());
        return;
    }
    // AddText drops glyphs outside the clip rect before we rotate them, and an axis label laid
    // out horizontally around its anchor reaches past the panel's left edge: lift the clip for it.
    dl->PushClipRect(ImVec2(-1e5f, -1e5f), ImVec2(1e5f, 1e5f), false);
    const int first = dl->VtxBuffer.Size;
    dl->AddText(font, px, top_left, col(op.color, op.alpha), op.text.c_str());
    dl->PopClipRect();
    // ImDrawList has no rotated text: rotate the glyph quads just added around p.
    const float a = static_cast<float>(op.angle_deg * M_PI / 180.0);
    const float cs = std::cos(a), sn = std::sin(a);
    for (int i = first; i < dl->VtxBuffer.Size; ++i) {
        ImVec2& v = dl->VtxBuffer[i].pos;
        const float x = v.x - p.x, y = v.y - p.y;
        v = ImVec2(p.x + x * cs - y * sn, p.y + x * sn + y * cs);
    }
}

}  // namespace

chart::TextMeasure imgui_text_measure(const Fonts& fonts) {
    return [&fonts](const std::string& s, double px, bool bold) {
        ImFont* f = bold ? fonts.bold : fonts.regular;
        const ImVec2 sz = f->CalcTextSizeA(static_cast<float>(px), FLT_MAX, 0, s.c_str());
        return chart::TextSize{sz.x, sz.y};
    };
}

void draw_chart(const chart::ChartLayout& layout, ImVec2 o, float scale, const Fonts& fonts) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    g_scale = scale;
    using chart::OpKind;
    for (const chart::DrawOp& op : layout.ops) {
        const ImVec2 r0 = at(o, chart::Vec2{op.rect.x, op.rect.y});
        const ImVec2 r1(r0.x + static_cast<float>(op.rect.w) * scale,
                        r0.y + static_cast<float>(op.rect.h) * scale);
        const float w = static_cast<float>(op.width) * scale;
        switch (op.kind) {
            case OpKind::fill_rect:
                dl->AddRectFilled(r0, r1, col(op.color, op.alpha));
                break;
            case OpKind::stroke_rect:
                dl->AddRect(r0, r1, col(op.color, op.alpha), 0, 0, w);
                break;
            case OpKind::hatch_rect: {
                dl->PushClipRect(r0, r1, true);
                const float step = std::max(3.0f, static_cast<float>(op.radius) * scale);
                const float h = r1.y - r0.y;
                for (float x = r0.x - h; x < r1.x; x += step)
                    dl->AddLine(ImVec2(x, r1.y), ImVec2(x + h, r0.y), col(op.color, op.alpha), w);
                dl->PopClipRect();
                break;
            }
            case OpKind::line:
                if (op.pts.size() >= 2)
                    segment(dl, at(o, op.pts[0]), at(o, op.pts[1]), col(op.color, op.alpha), w,
                            op.dash);
                break;
            case OpKind::polyline:
                for (size_t i = 1; i < op.pts.size(); ++i)
                    segment(dl, at(o, op.pts[i - 1]), at(o, op.pts[i]), col(op.color, op.alpha), w,
                            op.dash);
                break;
            case OpKind::marker:
                if (!op.pts.empty())
                    marker(dl, at(o, op.pts[0]), static_cast<float>(op.radius) * scale, op.shape,
                           col(op.color, op.alpha), col(op.outline, op.alpha), w);
                break;
            case OpKind::ring:
                if (!op.pts.empty())
                    dl->AddCircle(at(o, op.pts[0]), static_cast<float>(op.radius) * scale,
                                  col(op.color, op.alpha), 0, w);
                break;
            case OpKind::text:
                if (!op.pts.empty()) text(dl, fonts, op, at(o, op.pts[0]));
                break;
            case OpKind::clip_begin:
                dl->PushClipRect(r0, r1, true);
                break;
            case OpKind::clip_end:
                dl->PopClipRect();
                break;
        }
    }
}

}  // namespace sml::viewer
