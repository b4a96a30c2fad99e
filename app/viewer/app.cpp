// The viewer's window, frame loop and state changes. See app.h for the file map.
//
// [SECTION] Window and frame loop
// [SECTION] Layout, menu, banners, dialogs, shortcuts
// [SECTION] Lessons, source and selection: state changes that rebuild derived data
#include "app/viewer/app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>

#include "app/viewer/screenshot.h"
#include "core/chart/chart_build.h"
#include "core/lessons/annotated_source.h"
#include "core/lessons/lesson_claims.h"
#include "kernels/registry.h"

namespace sml::viewer {

namespace {
std::string g_glfw_error;
void on_glfw_error(int code, const char* what) {
    g_glfw_error =
        std::string(what ? what : "unknown") + " (GLFW error " + std::to_string(code) + ")";
}
}  // namespace

void AppState::set_banner(Banner b) {
    if (!b.key.empty()) clear_banner(b.key);
    banners.push_back(std::move(b));
}

void AppState::clear_banner(const std::string& key) {
    banners.erase(std::remove_if(banners.begin(), banners.end(),
                                 [&](const Banner& b) { return b.key == key; }),
                  banners.end());
}

// [SECTION] Window and frame loop ---------------------------------------------------------------
App::App(ViewerArgs args) {
    s_.args = std::move(args);
    const bool persist = !s_.args.no_settings && s_.args.screenshot.empty();
    const std::string dir = settings_dir();
    if (persist && !dir.empty()) {
        s_.settings_path = dir + "/settings.json";
        s_.ini_path = dir + "/imgui.ini";
        Result<Settings> loaded = load_settings(s_.settings_path);
        if (loaded)
            s_.settings = *loaded;
        else
            s_.set_banner({Banner::Level::warn, loaded.error().message, loaded.error().hint});
    }
    if (!s_.args.theme.empty()) s_.settings.theme = s_.args.theme;
    if (!s_.args.lang.empty()) s_.settings.lang = s_.args.lang;
    if (s_.args.lesson >= 0) s_.settings.lesson = s_.args.lesson;
    for (const KernelInfo& k : registry()) s_.run_kernels[k.id] = false;
    lab_request_ = s_.args.lab;
    show_lab_ = !lab_request_.empty();
}

App::~App() {
    worker_.cancel();
    if (window_) {
        save_settings_now();
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
        glfwDestroyWindow(window_);
        glfwTerminate();
    }
}

Status App::init_window() {
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit())
        return Error{
            "cannot open a window: " + (g_glfw_error.empty() ? "no display" : g_glfw_error),
            "set DISPLAY, or run under xvfb-run for screenshots"};
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GL_TRUE);
    const bool shot = !s_.args.screenshot.empty();
    if (shot) glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
    window_ = glfwCreateWindow(s_.args.width, s_.args.height, "softmaxlab", nullptr, nullptr);
    if (!window_)
        return Error{"cannot create a GL 3.3 window: " + g_glfw_error,
                     "the OpenGL driver must support 3.3 core (Mesa llvmpipe does)"};
    glfwMakeContextCurrent(window_);
    glfwSwapInterval(shot ? 0 : 1);  // 60 fps cap on screen; screenshots as fast as possible
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = s_.ini_path.empty() ? nullptr : s_.ini_path.c_str();
    // No keyboard navigation of widgets: Left/Right belong to the lesson steps.
    if (!ImGui_ImplGlfw_InitForOpenGL(window_, true) || !ImGui_ImplOpenGL3_Init("#version 330"))
        return Error{"cannot initialise ImGui's GLFW/OpenGL3 backends", ""};
    return ok_status();
}

void App::rebuild_fonts() {
    const bool zh = s_.settings.lang == "zh";
    std::string glyph_text;  // every character the Chinese lessons use
    if (zh)
        if (Result<LessonBook> book = sml::load_lessons(default_lessons_root(), "zh"))
            for (const LessonStep& st : book->steps)
                glyph_text += st.text.title + st.text.body + st.text.answer;
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    fonts_ = load_fonts(s_.settings.font_scale, zh, glyph_text);
    ImGui_ImplOpenGL3_CreateFontsTexture();
    apply_theme(s_.settings.theme, s_.settings.font_scale);
    if (!fonts_.warning.empty())
        s_.set_banner({Banner::Level::warn, fonts_.warning, "", true, "fonts"});
    else
        s_.clear_banner("fonts");
    // No CJK font: the Chinese text would be boxes, so say so and show English instead.
    const std::string lang = (zh && !fonts_.cjk) ? "en" : s_.settings.lang;
    if (lang != s_.lessons_lang || s_.nav.empty()) load_lessons(lang);
    fonts_dirty_ = false;
    chart_layout_generation_ = -1;  // text sizes changed: lay the chart out again
}

int App::run() {
    if (Status st = init_window(); !st) {
        std::fprintf(stderr, "error: %s%s%s\n", st.error().message.c_str(),
                     st.error().hint.empty() ? "" : "; ", st.error().hint.c_str());
        return 1;
    }
    detect_device();
    open_initial_session();
    const int first_step = s_.settings.lesson;  // loading the lessons resets the position
    rebuild_fonts();
    s_.nav.go(first_step);
    on_step_changed();
    if (s_.args.code_tab == "ptx" || s_.args.code_tab == "sass") {
        show_source(s_.source_kernel, s_.args.code_tab == "ptx" ? SourceTab::ptx : SourceTab::sass);
        source_view_.scroll_to_first_highlight();
    }

    const bool shot = !s_.args.screenshot.empty();
    int frames = 0;
    while (!glfwWindowShouldClose(window_)) {
        if (shot || s_.running)
            glfwPollEvents();
        else
            glfwWaitEventsTimeout(0.25);  // idle: redraw on input, and 4x a second for banners
        if (fonts_dirty_) {
            rebuild_fonts();
            // Theme, language and text size survive a crash, not only a clean exit. Not at
            // start-up: there the lessons are loaded at step 0 before the saved step is restored,
            // and saving then would overwrite the saved step with 0.
            save_settings_now();
        }
        poll_worker();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        // Screenshots must not depend on where the X server left the pointer (hover tooltips).
        if (shot)
            ImGui::GetIO().MousePos = s_.args.mouse_x >= 0
                                          ? ImVec2(static_cast<float>(s_.args.mouse_x),
                                                   static_cast<float>(s_.args.mouse_y))
                                          : ImVec2(-FLT_MAX, -FLT_MAX);
        ImGui::NewFrame();
        frame();
        ImGui::Render();
        int fb_w = 0, fb_h = 0;
        glfwGetFramebufferSize(window_, &fb_w, &fb_h);
        glViewport(0, 0, fb_w, fb_h);
        const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
        glClearColor(bg.x, bg.y, bg.z, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        if (shot && ++frames >= s_.args.frames) {
            // What the screen says in words, for scripts and tests that cannot look at it.
            for (const Banner& b : s_.banners)
                std::fprintf(stderr, "banner: %s%s%s\n", b.message.c_str(),
                             b.hint.empty() ? "" : " -- ", b.hint.c_str());
            Status saved = save_framebuffer_png(s_.args.screenshot, fb_w, fb_h);
            if (!saved) {
                std::fprintf(stderr, "error: %s%s%s\n", saved.error().message.c_str(),
                             saved.error().hint.empty() ? "" : "; ", saved.error().hint.c_str());
                return 1;
            }
            if (fb_w != s_.args.width || fb_h != s_.args.height) {
                std::fprintf(stderr,
                             "error: the framebuffer is %dx%d, not the requested %dx%d (is the "
                             "screen smaller than --size?)\n",
                             fb_w, fb_h, s_.args.width, s_.args.height);
                return 1;
            }
            std::printf("saved %s (%dx%d, %d frames)\n", s_.args.screenshot.c_str(), fb_w, fb_h,
                        frames);
            return 0;
        }
        glfwSwapBuffers(window_);
    }
    return 0;
}

void App::save_settings_now() {
    if (s_.settings_path.empty()) return;
    s_.settings.lesson = s_.nav.index();
    if (Status st = save_settings(s_.settings_path, s_.settings); !st)
        std::fprintf(stderr, "warning: %s%s%s\n", st.error().message.c_str(),
                     st.error().hint.empty() ? "" : "; ", st.error().hint.c_str());
}

void App::toggle_fullscreen() {
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    if (!fullscreen_) {
        glfwGetWindowPos(window_, &windowed_[0], &windowed_[1]);
        glfwGetWindowSize(window_, &windowed_[2], &windowed_[3]);
        const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
        if (!mode) return;
        glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    } else {
        glfwSetWindowMonitor(window_, nullptr, windowed_[0], windowed_[1], windowed_[2],
                             windowed_[3], 0);
    }
    fullscreen_ = !fullscreen_;
}

// [SECTION] Layout, menu, banners, dialogs, shortcuts -------------------------------------------
void App::frame() {
    handle_shortcuts();
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->WorkPos);
    ImGui::SetNextWindowSize(vp->WorkSize);
    const ImGuiWindowFlags root = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                  ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_MenuBar |
                                  ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(6, 6));
    ImGui::Begin("softmaxlab", nullptr, root);
    ImGui::PopStyleVar();
    ImGui::PushFont(fonts_.regular);
    draw_menu();
    draw_banners();
    layout_and_draw();
    draw_dialogs();
    ImGui::PopFont();
    ImGui::End();
    ImGui::PushFont(fonts_.regular);
    draw_lab_window();
    ImGui::PopFont();
}

// Fixed layout, sized from the viewport so it holds from a 1280x800 laptop to a projector:
//   +-----------+-----------------------------------------+
//   |           |  Run (a toolbar: sizes, kernels, go)     |
//   |  Lessons  +--------------------+--------------------+
//   |           |  Source            |  Charts            |
//   |           |                    |                    |
//   |           +--------------------+--------------------+
//   |           |  Metrics (one row per kernel, all columns)|
//   +-----------+-----------------------------------------+
// The metrics table is wide and short, so it gets the full width and exactly its rows' height.
void App::layout_and_draw() {
    const ImGuiStyle& st = ImGui::GetStyle();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float gap = st.ItemSpacing.x;
    const float line = ImGui::GetFrameHeightWithSpacing();
    const float lessons_w = std::floor(std::max(300.0f, avail.x * 0.25f));
    const float right_w = avail.x - lessons_w - gap;
    const float run_h = std::floor(line * 2 + st.WindowPadding.y * 2 + st.ItemSpacing.y);
    const int table_rows = static_cast<int>(std::max<size_t>(4, s_.metric_rows.size())) + 1;
    const float metrics_h =
        std::floor(std::min(avail.y * 0.34f, table_rows * ImGui::GetTextLineHeightWithSpacing() +
                                                 line * 1.4f + st.WindowPadding.y * 2 + 8));
    const float middle_h = avail.y - run_h - metrics_h - 2 * st.ItemSpacing.y;
    // Charts get the larger share: a legend and log2 ticks need width; code scrolls sideways.
    const float source_w = std::floor(right_w * 0.45f);
    const float charts_w = right_w - source_w - gap;

    if (ImGui::BeginChild("lessons", ImVec2(lessons_w, avail.y), true)) draw_lessons();
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginGroup();
    if (ImGui::BeginChild("run", ImVec2(right_w, run_h), true, ImGuiWindowFlags_NoScrollbar))
        draw_run();
    ImGui::EndChild();
    if (ImGui::BeginChild("source", ImVec2(source_w, middle_h), true)) draw_source();
    ImGui::EndChild();
    ImGui::SameLine();
    if (ImGui::BeginChild("charts", ImVec2(charts_w, middle_h), true,
                          ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse))
        draw_charts();
    ImGui::EndChild();
    if (ImGui::BeginChild("metrics", ImVec2(right_w, metrics_h), true)) draw_metrics();
    ImGui::EndChild();
    ImGui::EndGroup();
}

void App::draw_menu() {
    if (!ImGui::BeginMenuBar()) return;
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("Open session...", "Ctrl+O")) show_open_ = true;
        if (ImGui::MenuItem("Save session...", "Ctrl+S", false, s_.has_session)) show_save_ = true;
        ImGui::Separator();
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) glfwSetWindowShouldClose(window_, 1);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        if (ImGui::MenuItem("Dark theme", nullptr, s_.settings.theme == "dark")) {
            s_.settings.theme = "dark";
            fonts_dirty_ = true;
        }
        if (ImGui::MenuItem("Light theme", nullptr, s_.settings.theme == "light")) {
            s_.settings.theme = "light";
            fonts_dirty_ = true;
        }
        ImGui::Separator();
        if (ImGui::MenuItem("Larger text", "Ctrl +")) {
            s_.settings.step_font_scale(+1);
            fonts_dirty_ = true;
        }
        if (ImGui::MenuItem("Smaller text", "Ctrl -")) {
            s_.settings.step_font_scale(-1);
            fonts_dirty_ = true;
        }
        if (ImGui::MenuItem("Full screen", "F11", fullscreen_)) toggle_fullscreen();
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Language")) {
        if (ImGui::MenuItem("English", nullptr, s_.settings.lang == "en")) {
            s_.settings.lang = "en";
            fonts_dirty_ = true;
        }
        if (ImGui::MenuItem("\xE4\xB8\xAD\xE6\x96\x87 (Chinese)", nullptr,
                            s_.settings.lang == "zh")) {
            s_.settings.lang = "zh";
            fonts_dirty_ = true;
        }
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Lab")) {
        ImGui::MenuItem("Lab bench: edit and run a kernel", nullptr, &show_lab_);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
        if (ImGui::MenuItem("Keys and about")) show_about_ = true;
        ImGui::EndMenu();
    }
    // Right side: where the numbers come from, always visible.
    std::string where = s_.replay ? "replay: " : (s_.gpu_available ? "live: " : "");
    where += s_.has_session ? s_.session.device.name : "no session";
    const float w = ImGui::CalcTextSize(where.c_str()).x;
    ImGui::SameLine(ImGui::GetWindowWidth() - w - 20);
    ImGui::TextColored(palette().muted, "%s", where.c_str());
    ImGui::EndMenuBar();
}

void App::draw_banners() {
    const Palette& pal = palette();
    for (size_t i = 0; i < s_.banners.size(); ++i) {
        const Banner& b = s_.banners[i];
        const ImVec4 bg = b.level == Banner::Level::error  ? pal.banner_error
                          : b.level == Banner::Level::warn ? pal.banner_warn
                                                           : pal.banner_info;
        ImGui::PushStyleColor(ImGuiCol_ChildBg, bg);
        ImGui::PushStyleColor(ImGuiCol_Text, pal.banner_text);
        const std::string text =
            b.hint.empty() ? b.message : b.message + "  \xE2\x80\x94  " + b.hint;
        const float wrap = ImGui::GetContentRegionAvail().x - 90;
        const float h = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap).y +
                        ImGui::GetStyle().WindowPadding.y * 2;
        ImGui::BeginChild(("banner" + std::to_string(i)).c_str(), ImVec2(0, h), false,
                          ImGuiWindowFlags_NoScrollbar);
        ImGui::PushTextWrapPos(wrap);
        ImGui::TextUnformatted(text.c_str());
        ImGui::PopTextWrapPos();
        bool close = false;
        if (b.closable) {
            ImGui::SameLine(ImGui::GetWindowWidth() - 80);
            close = ImGui::SmallButton(("Dismiss##b" + std::to_string(i)).c_str());
        }
        ImGui::EndChild();
        ImGui::PopStyleColor(2);
        if (close) {
            s_.banners.erase(s_.banners.begin() + static_cast<long>(i));
            break;
        }
    }
}

void App::draw_dialogs() {
    if (show_open_) {
        ImGui::OpenPopup("Open session");
        show_open_ = false;
        const std::string& last = s_.replay ? s_.session_origin : s_.settings.session_path;
        std::snprintf(path_buf_, sizeof path_buf_, "%s", last.c_str());
        recorded_ = recorded_session_paths();
    }
    if (show_save_) {
        ImGui::OpenPopup("Save session");
        show_save_ = false;
        std::snprintf(path_buf_, sizeof path_buf_, "session.json");
    }
    if (show_about_) {
        ImGui::OpenPopup("About softmaxlab");
        show_about_ = false;
    }
    const ImVec2 center = ImGui::GetMainViewport()->GetCenter();
    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::BeginPopupModal("Open session", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::TextUnformatted("Session JSON file (written by softmaxlab-cli sweep --out):");
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 36);
        const bool enter = ImGui::InputText("##path", path_buf_, sizeof path_buf_,
                                            ImGuiInputTextFlags_EnterReturnsTrue);
        if (!recorded_.empty()) ImGui::TextColored(palette().muted, "Recorded sessions:");
        for (const std::string& p : recorded_)
            if (ImGui::Selectable(p.c_str()))
                std::snprintf(path_buf_, sizeof path_buf_, "%s", p.c_str());
        if (ImGui::Button("Open") || enter) {
            // On failure the error is in a banner and the previous session stays open.
            open_session(path_buf_);
            ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
            ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::BeginPopupModal("Save session", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::TextUnformatted("Save the open session (with every point run here) as:");
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 36);
        const bool enter = ImGui::InputText("##path", path_buf_, sizeof path_buf_,
                                            ImGuiInputTextFlags_EnterReturnsTrue);
        if (ImGui::Button("Save") || enter) {
            save_session_to(path_buf_);
            ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::BeginPopupModal("About softmaxlab", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::Text("softmaxlab %s: softmax from slow to speed-of-light", SML_VERSION);
        ImGui::Separator();
        ImGui::TextUnformatted(
            "Left / Right     previous / next lesson step\n"
            "Ctrl + / Ctrl -  larger / smaller text (presenter mode)\n"
            "F11              full screen\n"
            "Ctrl+O, Ctrl+S   open / save a session\n"
            "Hover a shaded code region for its note; click a chart point to select it.");
        if (ImGui::Button("Close")) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
}

void App::handle_shortcuts() {
    ImGuiIO& io = ImGui::GetIO();
    if (io.WantTextInput) return;  // typing into M or N must not flip lesson pages
    auto pressed = [](int glfw_key) { return ImGui::IsKeyPressed(glfw_key, false); };
    if (io.KeyCtrl) {
        if (pressed(GLFW_KEY_EQUAL) || pressed(GLFW_KEY_KP_ADD)) {
            s_.settings.step_font_scale(+1);
            fonts_dirty_ = true;
        }
        if (pressed(GLFW_KEY_MINUS) || pressed(GLFW_KEY_KP_SUBTRACT)) {
            s_.settings.step_font_scale(-1);
            fonts_dirty_ = true;
        }
        if (pressed(GLFW_KEY_O)) show_open_ = true;
        if (pressed(GLFW_KEY_S) && s_.has_session) show_save_ = true;
        if (pressed(GLFW_KEY_Q)) glfwSetWindowShouldClose(window_, 1);
        return;
    }
    if (pressed(GLFW_KEY_F11)) toggle_fullscreen();
    if (ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId)) return;
    if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT) && s_.nav.next()) on_step_changed();
    if (ImGui::IsKeyPressed(GLFW_KEY_LEFT) && s_.nav.prev()) on_step_changed();
}

// [SECTION] Lessons, source and selection -------------------------------------------------------
void App::load_lessons(const std::string& lang) {
    Result<LessonBook> book = sml::load_lessons(default_lessons_root(), lang);
    if (!book) {
        s_.set_banner({Banner::Level::error, "lessons: " + book.error().message, book.error().hint,
                       true, "lessons"});
        s_.nav = LessonNav();
        s_.lessons_lang = lang;
        on_step_changed();
        return;
    }
    s_.clear_banner("lessons");
    s_.nav.replace_book(std::move(*book));
    s_.lessons_lang = lang;
    on_step_changed();
}

void App::on_step_changed() {
    s_.settings.lesson = s_.nav.index();
    const LessonStep* step = s_.nav.current();
    if (step && !step->kernels.empty()) {
        // Show the step's first kernel and jump to its first anchored region.
        show_source(step->kernels.front(), SourceTab::cuda);
        for (const LessonAnchor& a : step->anchors)
            if (!a.is_ptx() && a.kernel == s_.source_kernel) {
                if (const SourceDoc* doc = current_source())
                    if (const DisplayRegion* r = doc->find_region(a.region))
                        source_view_.scroll_to(r->first);
                break;
            }
        if (step->experiment.cols > 0 && s_.has_session &&
            std::find(s_.all_cols.begin(), s_.all_cols.end(), step->experiment.cols) !=
                s_.all_cols.end())
            select_cols(step->experiment.cols);
    } else if (s_.source_kernel.empty() && !registry().empty()) {
        show_source(registry().front().id, SourceTab::cuda);
    }
    refresh_lesson_text();
}

void App::refresh_lesson_text() {
    const LessonStep* step = s_.nav.current();
    if (!step) {
        lesson_md_.set_text("");
        answer_md_.set_text("");
        return;
    }
    // Anchors become links the Markdown view reports back to follow_anchor().
    auto anchor_link = [](const LessonAnchor& a) {
        const std::string shown =
            a.is_ptx() ? a.kernel + " PTX " + a.ptx : a.kernel + ": " + a.region;
        return "[`" + shown + "`](anchor:" + a.key() + ")";
    };
    const Session* session = s_.has_session ? &s_.session : nullptr;
    s_.lesson_markdown = fill_lesson_text(step->text.body, *step, session, anchor_link);
    s_.answer_markdown = fill_lesson_text(step->text.answer, *step, session, anchor_link);
    lesson_md_.set_text(s_.lesson_markdown);
    answer_md_.set_text(s_.answer_markdown);
}

void App::follow_anchor(const std::string& key) {
    Result<LessonAnchor> a = parse_anchor_key(key);
    if (!a) return;
    if (a->is_ptx()) {
        show_source(a->kernel, SourceTab::ptx);
        std::vector<int> lines = find_ptx_lines(s_.ptx_text, a->ptx);
        if (!lines.empty()) source_view_.scroll_to(lines.front() - 1);
        return;
    }
    show_source(a->kernel, SourceTab::cuda);
    if (const SourceDoc* doc = current_source())
        if (const DisplayRegion* r = doc->find_region(a->region)) source_view_.scroll_to(r->first);
}

const SourceDoc* App::current_source() {
    const std::string key =
        s_.source_kernel + "/" + std::to_string(static_cast<int>(s_.source_tab));
    auto it = s_.sources.find(key);
    if (it == s_.sources.end()) return nullptr;
    return it->second->ok() ? &it->second->value() : nullptr;
}

namespace {
std::string sass_path_for(const std::string& source) {
    // SASS is only produced where cuobjdump exists (the GPU machine) and is recorded next to
    // the session; it is optional.
    std::string stem = std::filesystem::path(source).stem().string();
    for (const std::string& dir :
         {std::string(SML_BUILD_DIR) + "/sass", std::string(SML_SOURCE_DIR) + "/assets/sass"}) {
        const std::string p = dir + "/" + stem + ".sass";
        if (std::filesystem::exists(p)) return p;
    }
    return "";
}
}  // namespace

void App::show_source(const std::string& kernel, SourceTab tab) {
    const KernelInfo* k = find_kernel(kernel);
    if (!k) return;
    const bool kernel_changed = kernel != s_.source_kernel;
    s_.source_kernel = kernel;
    s_.source_tab = tab;
    const std::string key = kernel + "/" + std::to_string(static_cast<int>(tab));
    if (!s_.sources.count(key)) {
        std::string path;
        SourceLang lang = SourceLang::cuda;
        if (tab == SourceTab::cuda) path = std::string(SML_SOURCE_DIR) + "/" + k->lesson_source();
        if (tab == SourceTab::ptx) {
            path = ptx_path_for_source(k->lesson_source(), SML_BUILD_DIR);
            lang = SourceLang::ptx;
        }
        if (tab == SourceTab::sass) {
            path = sass_path_for(k->lesson_source());
            lang = SourceLang::sass;
        }
        s_.sources[key] = std::make_unique<Result<SourceDoc>>(SourceDoc::load(path, lang));
    }
    if (kernel_changed || tab == SourceTab::ptx) {
        Result<std::string> ptx = read_text_file(ptx_path_for_source(k->lesson_source(), SML_BUILD_DIR));
        s_.ptx_text = ptx ? *ptx : "";
    }
    // Highlights: the current step's anchors into this kernel.
    std::set<std::string> regions;
    std::vector<int> lines;
    if (const LessonStep* step = s_.nav.current())
        for (const LessonAnchor& a : step->anchors) {
            if (a.kernel != kernel) continue;
            if (!a.is_ptx())
                regions.insert(a.region);
            else if (tab == SourceTab::ptx)
                for (int l : find_ptx_lines(s_.ptx_text, a.ptx)) lines.push_back(l - 1);
        }
    source_view_.set_highlights(std::move(regions), std::move(lines));
}

void App::select_cols(int64_t cols) {
    s_.cols = cols;
    refresh_metrics();
    refresh_chart();
}

void App::refresh_metrics() {
    s_.metric_rows.clear();
    s_.counters_note.clear();
    if (!s_.has_session) return;
    s_.metric_rows = build_metric_rows(s_.session, s_.cols, s_.dtype, s_.compare);
    for (const MetricRow& r : s_.metric_rows)
        if (!r.counters_available) {
            s_.counters_note =
                "Hardware counters unavailable" +
                (r.counters_reason.empty() ? std::string(".") : ": " + r.counters_reason);
            break;
        }
}

void App::refresh_chart() {
    ++chart_generation_;
    s_.chart.reset();
    s_.chart_error.clear();
    if (!s_.has_session || s_.session.points.empty()) {
        s_.chart_error = "No points yet: open a session, or Run / Sweep.";
        return;
    }
    chart::ChartOptions opt;
    opt.kind = chart::chart_kinds()[static_cast<size_t>(s_.chart_kind)];
    opt.cols = s_.cols;
    opt.dtype = s_.dtype;
    Result<chart::Chart> c = chart::build_chart(s_.session, opt);
    if (c)
        s_.chart = std::move(*c);
    else
        s_.chart_error =
            c.error().message + (c.error().hint.empty() ? "" : " (" + c.error().hint + ")");
}

void App::apply_experiment() {
    const LessonStep* step = s_.nav.current();
    if (!step) return;
    const LessonExperiment& e = step->experiment;
    for (auto& [id, on] : s_.run_kernels)
        on = std::find(e.kernels.begin(), e.kernels.end(), id) != e.kernels.end();
    if (e.rows > 0) s_.run_rows = e.rows;
    if (e.cols > 0) s_.run_cols = e.cols;
    s_.run_dtype = e.dtype == "fp16" ? 1 : (e.dtype == "bf16" ? 2 : 0);
    s_.compare = e.kernels;
    if (e.cols > 0)
        select_cols(e.cols);
    else
        refresh_metrics();
}

}  // namespace sml::viewer
