// Colours and fonts. Two themes (dark for screens, light for projectors and print), and a font
// scale for presenters: fonts are rebuilt at the new pixel size rather than stretched, so text
// stays sharp at 2x on a projector.
#pragma once

#include <imgui.h>

#include <string>

#include "core/chart/chart_model.h"

namespace sml::viewer {

// Syntax and annotation colours the Source panel and banners use, per theme.
struct Palette {
    bool dark = true;
    ImU32 plain, keyword, type, builtin, number, string, comment, preprocessor, register_name;
    ImU32 line_number, region_bg, region_edge, hover_bg;
    // Source <-> PTX/SASS links (Compiler Explorer style): a source line and the instructions it
    // became share a colour; `link` marks them in the gutter, `link_bg` fills them on hover.
    ImU32 link[6], link_bg[6];
    ImU32 heat;  // per-line metric bars (the lab bench's counters)
    ImVec4 banner_info, banner_warn, banner_error, banner_text;
    ImVec4 accent;  // headings, the current step
    ImVec4 muted;   // secondary text
    ImVec4 good, bad;
};

const Palette& palette();           // the active theme's palette
const chart::Theme& chart_theme();  // the active theme for charts (the exporters' colours)
// Applies "dark" or "light" to ImGui's style and the palettes, scaled for `font_scale`.
void apply_theme(const std::string& name, float font_scale);

struct Fonts {
    ImFont* regular = nullptr;
    ImFont* bold = nullptr;
    ImFont* mono = nullptr;
    ImFont* heading = nullptr;
    ImFont* italic = nullptr;  // emphasis: slanted body text, never coloured like a link
    bool cjk = false;     // Chinese glyphs were merged into the fonts
    std::string warning;  // non-empty when a font file was missing (shown in a banner)
};

// Builds the font atlas at `scale` (16 px body text at 1.0). With `chinese`, merges the Noto CJK
// font with the common simplified ideographs plus every character in `text` (the lessons); if
// the font is missing, `warning` says so and only Latin glyphs are loaded. Must be called
// outside a frame; the caller re-creates the GL font texture afterwards.
Fonts load_fonts(float scale, bool chinese, const std::string& text);

ImU32 to_u32(const chart::Rgb& c, float alpha = 1.0f);

}  // namespace sml::viewer
