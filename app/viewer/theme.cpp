// Themes and fonts. See theme.h.
#include "app/viewer/theme.h"

#include <filesystem>

namespace sml::viewer {

namespace {

Palette g_palette;

// Six hues that stay apart for the common colour-vision deficiencies (Okabe-Ito, without black
// and yellow, which the region shading and the text use): gutter marks opaque, hover fills faint.
void set_links(Palette* p, int fill_alpha) {
    const int rgb[6][3] = {{0, 114, 178}, {0, 158, 115},  {204, 121, 167},
                           {213, 94, 0},  {86, 180, 233}, {150, 120, 220}};
    for (int i = 0; i < 6; ++i) {
        p->link[i] = IM_COL32(rgb[i][0], rgb[i][1], rgb[i][2], 255);
        p->link_bg[i] = IM_COL32(rgb[i][0], rgb[i][1], rgb[i][2], fill_alpha);
    }
}
chart::Theme g_chart_theme = chart::dark_theme();

Palette make_dark() {
    Palette p;
    p.dark = true;
    p.plain = IM_COL32(220, 223, 228, 255);
    p.keyword = IM_COL32(198, 120, 221, 255);
    p.type = IM_COL32(97, 175, 239, 255);
    p.builtin = IM_COL32(229, 192, 123, 255);
    p.number = IM_COL32(209, 154, 102, 255);
    p.string = IM_COL32(152, 195, 121, 255);
    p.comment = IM_COL32(127, 140, 152, 255);
    p.preprocessor = IM_COL32(86, 182, 194, 255);
    p.register_name = IM_COL32(171, 178, 191, 255);
    p.line_number = IM_COL32(100, 108, 120, 255);
    p.region_bg = IM_COL32(230, 159, 0, 46);  // Okabe-Ito orange, faint: code stays readable
    p.region_edge = IM_COL32(230, 159, 0, 255);
    p.hover_bg = IM_COL32(255, 255, 255, 18);
    set_links(&p, 90);
    p.heat = IM_COL32(230, 120, 60, 200);
    p.banner_info = ImVec4(0.13f, 0.30f, 0.45f, 1);
    p.banner_warn = ImVec4(0.45f, 0.33f, 0.05f, 1);
    p.banner_error = ImVec4(0.55f, 0.12f, 0.12f, 1);
    p.banner_text = ImVec4(1, 1, 1, 1);
    p.accent = ImVec4(0.90f, 0.62f, 0.0f, 1);
    p.muted = ImVec4(0.62f, 0.65f, 0.70f, 1);
    p.good = ImVec4(0.35f, 0.78f, 0.45f, 1);
    p.bad = ImVec4(0.95f, 0.45f, 0.40f, 1);
    return p;
}

Palette make_light() {
    Palette p;
    p.dark = false;
    p.plain = IM_COL32(36, 41, 47, 255);
    p.keyword = IM_COL32(137, 33, 170, 255);
    p.type = IM_COL32(0, 92, 197, 255);
    p.builtin = IM_COL32(154, 92, 0, 255);
    p.number = IM_COL32(178, 60, 0, 255);
    p.string = IM_COL32(3, 120, 50, 255);
    p.comment = IM_COL32(100, 110, 120, 255);
    p.preprocessor = IM_COL32(0, 120, 140, 255);
    p.register_name = IM_COL32(70, 70, 90, 255);
    p.line_number = IM_COL32(150, 155, 165, 255);
    p.region_bg = IM_COL32(230, 159, 0, 56);
    p.region_edge = IM_COL32(200, 130, 0, 255);
    p.hover_bg = IM_COL32(0, 0, 0, 16);
    set_links(&p, 70);
    p.heat = IM_COL32(210, 80, 20, 190);
    p.banner_info = ImVec4(0.82f, 0.90f, 0.98f, 1);
    p.banner_warn = ImVec4(1.0f, 0.92f, 0.70f, 1);
    p.banner_error = ImVec4(1.0f, 0.82f, 0.80f, 1);
    p.banner_text = ImVec4(0.10f, 0.10f, 0.12f, 1);
    p.accent = ImVec4(0.72f, 0.40f, 0.0f, 1);
    p.muted = ImVec4(0.38f, 0.40f, 0.45f, 1);
    p.good = ImVec4(0.05f, 0.50f, 0.20f, 1);
    p.bad = ImVec4(0.75f, 0.15f, 0.10f, 1);
    return p;
}

ImFont* add_font(const char* path, float px, const ImWchar* ranges, bool* missing) {
    if (!std::filesystem::exists(path)) {
        *missing = true;
        return nullptr;
    }
    ImFontConfig cfg;
    cfg.OversampleH = 2;
    return ImGui::GetIO().Fonts->AddFontFromFileTTF(path, px, &cfg, ranges);
}

// Noto Sans CJK is a collection; face 2 is the Simplified Chinese one (SC).
void merge_cjk(const char* path, float px, const ImWchar* ranges) {
    ImFontConfig cfg;
    cfg.MergeMode = true;
    cfg.FontNo = 2;
    cfg.OversampleH = 1;  // the atlas holds ~2500 ideographs per face; keep it small
    // Ideographs drawn at the Latin pixel size look a size smaller than the Latin text.
    cfg.GlyphOffset.y = px * 0.04f;
    ImGui::GetIO().Fonts->AddFontFromFileTTF(path, px * 1.12f, &cfg, ranges);
}

}  // namespace

const Palette& palette() {
    return g_palette;
}
const chart::Theme& chart_theme() {
    return g_chart_theme;
}

ImU32 to_u32(const chart::Rgb& c, float alpha) {
    return ImGui::ColorConvertFloat4ToU32(
        ImVec4(static_cast<float>(c.r), static_cast<float>(c.g), static_cast<float>(c.b), alpha));
}

void apply_theme(const std::string& name, float font_scale) {
    ImGuiStyle& style = ImGui::GetStyle();
    style = ImGuiStyle();
    const bool dark = name != "light";
    if (dark)
        ImGui::StyleColorsDark(&style);
    else
        ImGui::StyleColorsLight(&style);
    g_palette = dark ? make_dark() : make_light();
    g_chart_theme = dark ? chart::dark_theme() : chart::light_theme();
    style.WindowRounding = 0;
    style.ChildRounding = 3;
    style.FrameRounding = 3;
    style.GrabRounding = 3;
    style.TabRounding = 3;
    style.WindowPadding = ImVec2(10, 8);
    style.ItemSpacing = ImVec2(8, 6);
    style.ScrollbarSize = 12;
    ImVec4* c = style.Colors;
    // Tooltips and popups are read over code and charts: fully opaque, never see-through.
    c[ImGuiCol_PopupBg].w = 1.0f;
    if (dark) {
        c[ImGuiCol_WindowBg] = ImVec4(0.11f, 0.12f, 0.14f, 1);
        c[ImGuiCol_ChildBg] = ImVec4(0.13f, 0.14f, 0.16f, 1);
        c[ImGuiCol_Border] = ImVec4(0.26f, 0.28f, 0.32f, 1);
        c[ImGuiCol_TableHeaderBg] = ImVec4(0.18f, 0.20f, 0.24f, 1);
        c[ImGuiCol_Text] = ImVec4(0.88f, 0.89f, 0.91f, 1);
        c[ImGuiCol_TextDisabled] = ImVec4(0.55f, 0.57f, 0.61f, 1);
    } else {
        c[ImGuiCol_WindowBg] = ImVec4(0.95f, 0.95f, 0.96f, 1);
        c[ImGuiCol_ChildBg] = ImVec4(1, 1, 1, 1);
        c[ImGuiCol_Border] = ImVec4(0.78f, 0.79f, 0.82f, 1);
        c[ImGuiCol_Text] = ImVec4(0.10f, 0.11f, 0.13f, 1);
        c[ImGuiCol_TextDisabled] = ImVec4(0.45f, 0.47f, 0.50f, 1);
        // Inputs and checkboxes sit on white panels: give them a visible fill and edge.
        c[ImGuiCol_FrameBg] = ImVec4(0.88f, 0.89f, 0.91f, 1);
        c[ImGuiCol_FrameBgHovered] = ImVec4(0.80f, 0.86f, 0.95f, 1);
        c[ImGuiCol_FrameBgActive] = ImVec4(0.72f, 0.82f, 0.95f, 1);
        c[ImGuiCol_TableHeaderBg] = ImVec4(0.86f, 0.88f, 0.92f, 1);
        style.FrameBorderSize = 1.0f;
    }
    style.ScaleAllSizes(font_scale);
}

Fonts load_fonts(float scale, bool chinese, const std::string& text) {
    ImGuiIO& io = ImGui::GetIO();
    // The ~2500 common ideographs miss some that the lessons use: add every character of the
    // text itself. The ranges must outlive the atlas build, hence static.
    static ImVector<ImWchar> cjk_ranges;
    if (chinese) {
        ImFontGlyphRangesBuilder builder;
        builder.AddRanges(io.Fonts->GetGlyphRangesChineseSimplifiedCommon());
        builder.AddText(text.c_str());
        cjk_ranges.clear();
        builder.BuildRanges(&cjk_ranges);
    }
    io.Fonts->Clear();
    Fonts f;
    const char* dejavu = "/usr/share/fonts/truetype/dejavu/";
    const std::string sans = std::string(dejavu) + "DejaVuSans.ttf";
    const std::string bold = std::string(dejavu) + "DejaVuSans-Bold.ttf";
    const std::string mono = std::string(dejavu) + "DejaVuSansMono.ttf";
    const std::string oblique = std::string(dejavu) + "DejaVuSans-Oblique.ttf";
    const char* cjk = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";
    const bool have_cjk = std::filesystem::exists(cjk);
    if (chinese && !have_cjk)
        f.warning = std::string("Chinese font not found (") + cjk +
                    "): showing English. Install fonts-noto-cjk for the Chinese lessons.";
    const bool merge = chinese && have_cjk;
    // Latin-1 + general punctuation + arrows and math symbols used in the lessons (x, ->, <=).
    static const ImWchar latin[] = {0x0020, 0x00FF, 0x0370, 0x03FF, 0x2000, 0x22FF, 0};
    bool missing = false;
    const float body = 16.0f * scale, code = 15.0f * scale, head = 20.0f * scale;
    struct Want {
        ImFont** slot;
        const std::string* path;
        float px;
    } wants[] = {{&f.regular, &sans, body},
                 {&f.bold, &bold, body},
                 {&f.mono, &mono, code},
                 {&f.heading, &bold, head},
                 {&f.italic, &oblique, body}};
    for (const Want& w : wants) {
        // The oblique face is optional: without it emphasis uses the regular face.
        bool optional_missing = false;
        *w.slot = add_font(w.path->c_str(), w.px, latin,
                           w.slot == &f.italic ? &optional_missing : &missing);
        if (*w.slot && merge) merge_cjk(cjk, w.px, cjk_ranges.Data);
    }
    if (missing || !f.regular) {
        // Keep the app usable without the DejaVu fonts: ImGui's built-in font for everything.
        io.Fonts->Clear();
        ImFontConfig cfg;
        cfg.SizePixels = 13.0f * scale;
        ImFont* def = io.Fonts->AddFontDefault(&cfg);
        f = Fonts{def,
                  def,
                  def,
                  def,
                  def,
                  false,
                  "DejaVu fonts not found in /usr/share/fonts/truetype/dejavu: using ImGui's "
                  "built-in font (install fonts-dejavu-core)"};
        return f;
    }
    f.cjk = merge;
    if (!f.bold) f.bold = f.regular;
    if (!f.mono) f.mono = f.regular;
    if (!f.heading) f.heading = f.bold;
    if (!f.italic) f.italic = f.regular;
    return f;
}

}  // namespace sml::viewer
