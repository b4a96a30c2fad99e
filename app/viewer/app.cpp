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
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <set>

#include "app/viewer/model/format.h"
#include "app/viewer/screenshot.h"
#include "core/chart/chart_build.h"
#include "core/chart/chart_export.h"
#include "core/chart/session_compare.h"
#include "core/common/safe_file.h"
#include "core/common/text_cap.h"
#include "core/lab/bytes.h"
#include "core/lab/exercises.h"
#include "core/lab/sass_roles.h"
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
    // Banners quote paths and file contents. ImGui aborts on one text of ~16000 glyphs, so cap
    // here too, whatever a message was built from.
    cap_text_in_place(b.message, 2000);
    cap_text_in_place(b.hint, 1000);
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
    // Screenshots leave the user's settings alone, unless --settings names a file for them.
    const bool named = !s_.args.settings_file.empty();
    const bool persist = !s_.args.no_settings && (s_.args.screenshot.empty() || named);
    const std::string dir = settings_dir();
    if (persist && (named || !dir.empty())) {
        s_.settings_path = named ? s_.args.settings_file : dir + "/settings.json";
        s_.ini_path = named ? "" : dir + "/imgui.ini";
        // A corrupt file is moved aside (never overwritten, never deleted) and the user told.
        SettingsFile file = open_settings(s_.settings_path);
        s_.settings = file.settings;
        if (!file.writable) s_.settings_path.clear();
        if (file.notice)
            s_.set_banner(
                {Banner::Level::warn, file.notice->message, file.notice->hint, true, "settings"});
    }
    if (!s_.args.theme.empty()) s_.settings.theme = s_.args.theme;
    if (!s_.args.lang.empty()) s_.settings.lang = s_.args.lang;
    if (s_.args.lesson >= 0) s_.settings.lesson = s_.args.lesson;
    if (s_.args.text_scale > 0) s_.settings.font_scale = s_.args.text_scale;
    if (!s_.args.predict.empty()) s_.settings.predict = s_.args.predict == "on";
    s_.predict.enabled = s_.settings.predict;
    s_.zoom = zoom_from_name(s_.args.zoom.c_str());
    for (const KernelInfo& k : registry()) s_.run_kernels[k.id] = false;
    lab_request_ = s_.args.lab;
    show_lab_ = !lab_request_.empty();
}

App::~App() {
    worker_.cancel();
    if (window_) {
        save_settings_now();
        save_layout_ini();
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
    // ImGui would fopen the ini itself (a FIFO there would hang it, a huge file fill memory):
    // read and write it through core/common/safe_file.h instead.
    io.IniFilename = nullptr;
    load_layout_ini();
    // No keyboard navigation of widgets: Left/Right belong to the lesson steps.
    if (!ImGui_ImplGlfw_InitForOpenGL(window_, true) || !ImGui_ImplOpenGL3_Init("#version 330"))
        return Error{"cannot initialise ImGui's GLFW/OpenGL3 backends", ""};
    return ok_status();
}

void App::rebuild_fonts() {
    const bool zh = s_.settings.lang == "zh";
    std::string glyph_text;  // every character the Chinese lessons and the UI use
    if (zh) {
        glyph_text = ui_text_all_chinese();
        for (const KeyBinding& k : key_bindings()) glyph_text += k.zh;
        if (Result<LessonBook> book = sml::load_lessons(default_lessons_root(), "zh"))
            for (const LessonStep& st : book->steps) {
                glyph_text += st.text.title + st.text.body + st.text.answer;
                for (const LessonQuestion& q : st.questions) glyph_text += q.question + q.explain;
            }
        if (Result<std::vector<lab::Exercise>> ex = lab::load_exercises())  // the lab bench's
            for (const lab::Exercise& e : *ex) {
                const lab::ExerciseWords w = e.words("zh");
                glyph_text += w.title + w.task;
                for (const std::string& h : w.hints) glyph_text += h;
            }
    }
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    fonts_ = load_fonts(s_.settings.font_scale, zh, glyph_text);
    ImGui_ImplOpenGL3_CreateFontsTexture();
    apply_theme(s_.settings.theme, s_.settings.font_scale);
    if (!fonts_.warning.empty())
        s_.set_banner({Banner::Level::warn, fonts_.warning, "", true, "fonts"});
    else
        s_.clear_banner("fonts");
    // Scroll positions survive the new text size: the lesson by the fraction read, the code by
    // its top line (both measured in the previous fonts by the panels). A language change
    // re-enters the step below, which opens it at the top instead.
    lesson_scroll_restore_ = 2;  // the new fonts' content height is known after one frame
    source_view_.scroll_to(code_top_line_ + 3);  // scroll_to keeps 3 lines above the target
    run_content_h_ = 0;
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
    const int first_step = s_.settings.lesson;  // loading the lessons resets the position
    rebuild_fonts();
    // The session and --compare after the fonts have set the language, so that a file that
    // cannot be opened, or a refused comparison, is reported in it.
    open_initial_session();
    if (!s_.args.compare_path.empty() && s_.has_session) open_compare(s_.args.compare_path);
    s_.nav.go(first_step);
    on_step_changed();
    // Screenshots of predict mode: a guess typed into the step's first question, the reveal.
    if (!s_.args.guess.empty()) {
        std::snprintf(s_.guess_buf, sizeof s_.guess_buf, "%s", s_.args.guess.c_str());
        submit_guess();
    }
    if (s_.args.reveal) reveal_step();
    if (s_.args.cols > 0 && !s_.all_cols.empty())  // the session's N nearest to the one asked for
        select_cols(nearest_cols(s_.all_cols, s_.args.cols));
    if (!s_.args.kernel.empty()) show_source(s_.args.kernel, s_.source_tab);
    if (s_.args.code_tab == "ptx" || s_.args.code_tab == "sass" || s_.args.code_tab == "triton") {
        s_.peer_listing = s_.args.code_tab == "triton";
        show_source(s_.source_kernel,
                    s_.args.code_tab == "sass" ? SourceTab::sass : SourceTab::ptx);
        listing_view_.scroll_to_first_highlight();
    }

    const bool shot = !s_.args.screenshot.empty();
    if (s_.args.dialog == "open") show_open_ = true;
    if (s_.args.dialog == "save" && s_.has_session) show_save_ = true;
    if (s_.args.dialog == "export") show_export_ = true;
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
        if (ImGui::GetIO().WantSaveIniSettings) save_layout_ini();
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
            if (!dialog_note_.empty()) std::fprintf(stderr, "dialog: %s\n", dialog_note_.c_str());
            if (!code_.hover_text().empty())  // what a hovered code line links to (--mouse)
                std::fprintf(stderr, "code hover: %s\n", code_.hover_text().c_str());
            if (!predict_report_.empty())
                std::fprintf(stderr, "predict card: %s\n", predict_report_.c_str());
            if (!line_note_.empty()) {
                // The code panel's counters: which one, how many lines and instructions show it.
                int lines = 0, instructions = 0;
                const bool cuda = s_.source_tab == SourceTab::cuda;
                for (double v : cuda ? line_values_ : code_.source_metric())
                    lines += std::isnan(v) ? 0 : 1;
                if (!cuda)
                    for (double v : code_.listing_metric()) instructions += std::isnan(v) ? 0 : 1;
                std::fprintf(stderr, "code counters: %s on %d lines, %d instructions -- %s\n",
                             line_metric_role().empty() ? "off" : line_metric_role().c_str(), lines,
                             instructions, line_note_.c_str());
            }
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
            // The picture shows the error banner; the exit code tells a script the session the
            // command line named was not what was drawn.
            if (initial_session_failed_) {
                std::fprintf(stderr, "error: --session %s could not be opened (see the banner)\n",
                             quote_short(s_.args.session_path).c_str());
                return 1;
            }
            return 0;
        }
        glfwSwapBuffers(window_);
    }
    return 0;
}

void App::load_layout_ini() {
    if (s_.ini_path.empty() || !path_exists(s_.ini_path)) return;
    Result<std::string> ini = read_file_capped(s_.ini_path, kMaxSettingsFileBytes, "layout file");
    if (!ini) {
        s_.set_banner({Banner::Level::warn,
                       ini.error().message + "; the window layout will not "
                                             "be saved this time",
                       ini.error().hint, true, "layout"});
        s_.ini_path.clear();  // do not write over what is there
        return;
    }
    ImGui::LoadIniSettingsFromMemory(ini->data(), ini->size());
}

void App::save_layout_ini() {
    ImGuiIO& io = ImGui::GetIO();
    io.WantSaveIniSettings = false;
    if (s_.ini_path.empty()) return;
    size_t size = 0;
    const char* text = ImGui::SaveIniSettingsToMemory(&size);
    if (Status st = write_file_atomic(s_.ini_path, std::string_view(text, size), "layout file");
        !st)
        std::fprintf(stderr, "warning: %s\n", st.error().message.c_str());
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

// The layout is model/panel_layout.h's: sized from the window and the text size so it holds from a
// 1280x720 projector at 1.5x text to a large screen, with the chart never below a third of the
// window's height, and one panel given the whole window on keys 1-4.
void App::layout_and_draw() {
    const ImGuiStyle& st = ImGui::GetStyle();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 origin = ImGui::GetCursorPos();
    LayoutInput in;
    in.width = avail.x;
    in.height = avail.y;
    in.window_height = ImGui::GetMainViewport()->WorkSize.y;
    in.gap = st.ItemSpacing.x;
    in.frame_line = ImGui::GetFrameHeightWithSpacing();
    in.text_line = ImGui::GetTextLineHeightWithSpacing();
    in.padding = st.WindowPadding.y;
    in.run_content = run_content_h_;
    in.metric_rows = static_cast<int>(s_.metric_rows.size());
    in.zoom = s_.zoom;
    const PanelBoxes b = layout_panels(in);
    auto place = [&](const Box& box) {
        ImGui::SetCursorPos(ImVec2(origin.x + box.x, origin.y + box.y));
        return ImVec2(box.w, box.h);
    };
    if (b.lessons.visible()) {
        if (ImGui::BeginChild("lessons", place(b.lessons), true)) draw_lessons();
        ImGui::EndChild();
    }
    if (b.run.visible()) {
        if (ImGui::BeginChild("run", place(b.run), true, ImGuiWindowFlags_NoScrollbar)) draw_run();
        ImGui::EndChild();
    }
    if (b.source.visible()) {
        if (ImGui::BeginChild("source", place(b.source), true)) draw_source();
        ImGui::EndChild();
    }
    if (b.charts.visible()) {
        if (ImGui::BeginChild("charts", place(b.charts), true,
                              ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse))
            draw_charts();
        ImGui::EndChild();
    }
    if (b.metrics.visible()) {
        if (ImGui::BeginChild("metrics", place(b.metrics), true)) draw_metrics();
        ImGui::EndChild();
    }
}

void App::draw_menu() {
    if (!ImGui::BeginMenuBar()) return;
    auto keys = [](Action a) { return binding_of(a).keys; };
    if (ImGui::BeginMenu(tr("File"))) {
        if (ImGui::MenuItem(tr("Open session..."), keys(Action::open_session))) show_open_ = true;
        if (ImGui::MenuItem(tr("Save session..."), keys(Action::save_session), false,
                            s_.has_session))
            show_save_ = true;
        ImGui::Separator();
        if (ImGui::MenuItem(tr("Compare with session..."), nullptr, false, s_.has_session))
            show_compare_ = true;
        if (ImGui::MenuItem(tr("Stop comparing"), nullptr, false, s_.compared.has_value()))
            stop_compare();
        ImGui::Separator();
        if (ImGui::MenuItem(tr("Quit"), keys(Action::quit))) glfwSetWindowShouldClose(window_, 1);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(tr("View"))) {
        if (ImGui::MenuItem(tr("Predict mode"), keys(Action::toggle_predict), s_.predict.enabled))
            do_action(Action::toggle_predict);
        if (ImGui::MenuItem(tr("All kernels in the chart"), keys(Action::chart_all), s_.chart_all))
            do_action(Action::chart_all);
        if (ImGui::BeginMenu(tr("Give one panel the window"))) {
            const struct {
                const char* name;
                Zoom zoom;
                Action action;
            } zooms[] = {{"Lessons", Zoom::lessons, Action::zoom_lessons},
                         {"Code", Zoom::source, Action::zoom_code},
                         {"Chart", Zoom::charts, Action::zoom_chart},
                         {"Metrics", Zoom::metrics, Action::zoom_metrics},
                         {"All panels", Zoom::none, Action::zoom_off}};
            for (const auto& z : zooms)
                if (ImGui::MenuItem(tr(z.name), keys(z.action), s_.zoom == z.zoom))
                    set_zoom(z.zoom);
            ImGui::EndMenu();
        }
        ImGui::Separator();
        if (ImGui::MenuItem(tr("Dark theme"), nullptr, s_.settings.theme == "dark")) {
            s_.settings.theme = "dark";
            fonts_dirty_ = true;
        }
        if (ImGui::MenuItem(tr("Light theme"), nullptr, s_.settings.theme == "light")) {
            s_.settings.theme = "light";
            fonts_dirty_ = true;
        }
        ImGui::Separator();
        if (ImGui::MenuItem(tr("Larger text"), keys(Action::text_larger)))
            do_action(Action::text_larger);
        if (ImGui::MenuItem(tr("Smaller text"), keys(Action::text_smaller)))
            do_action(Action::text_smaller);
        if (ImGui::MenuItem(tr("Full screen"), keys(Action::full_screen), fullscreen_))
            toggle_fullscreen();
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(tr("Language"))) {
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
    if (ImGui::BeginMenu(tr("Lab"))) {
        ImGui::MenuItem(tr("Lab bench: edit and run a kernel"), nullptr, &show_lab_);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(tr("Help"))) {
        if (ImGui::MenuItem(tr("Keys and about"), keys(Action::help))) show_about_ = true;
        ImGui::EndMenu();
    }
    // Right side: where the numbers come from, always visible.
    std::string where = s_.replay ? std::string(tr("replay")) + ": "
                                  : (s_.gpu_available ? std::string(tr("live")) + ": " : "");
    // A device name is ~25 characters; one from a hand-edited session could be thousands.
    where += s_.has_session ? cap_text(s_.session.device.name, 80) : tr("no session");
    if (s_.compared)
        where += " vs " + (s_.compared->session.device.name.empty()
                               ? std::string("unnamed device")
                               : cap_text(s_.compared->session.device.name, 80));
    const float w = ImGui::CalcTextSize(where.c_str()).x;
    ImGui::SameLine(std::max(ImGui::GetCursorPosX() + 20, ImGui::GetWindowWidth() - w - 20));
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
        // Information (the replay notice) is one line, its hint on hover: on a projector at 1.5x
        // text a three-line banner took the chart's room. Warnings and errors show everything.
        const bool brief = b.level == Banner::Level::info && !b.hint.empty();
        const std::string text = b.hint.empty() || brief ? b.message + (brief ? "  (?)" : "")
                                                         : b.message + "  \xE2\x80\x94  " + b.hint;
        // The Dismiss button's own width at this text size (it used to be a fixed 80 px).
        const float button_w = ImGui::CalcTextSize(tr("Dismiss")).x +
                               ImGui::GetStyle().FramePadding.x * 2 + ImGui::GetFontSize();
        const float wrap = ImGui::GetContentRegionAvail().x - button_w - 10;
        const float h = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap).y +
                        ImGui::GetStyle().WindowPadding.y * 2;
        ImGui::BeginChild(("banner" + std::to_string(i)).c_str(), ImVec2(0, h), false,
                          ImGuiWindowFlags_NoScrollbar);
        ImGui::PushTextWrapPos(wrap);
        ImGui::TextUnformatted(text.c_str());
        ImGui::PopTextWrapPos();
        if (brief && ImGui::IsItemHovered()) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_Text]);
            ImGui::SetTooltip("%s", b.hint.c_str());
            ImGui::PopStyleColor();
        }
        bool close = false;
        if (b.closable) {
            ImGui::SameLine(ImGui::GetWindowWidth() - button_w);
            close = ImGui::SmallButton(
                (std::string(tr("Dismiss")) + "##b" + std::to_string(i)).c_str());
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
        ImGui::OpenPopup("###open-session");
        show_open_ = false;
        const std::string& last = s_.replay ? s_.session_origin : s_.settings.session_path;
        std::snprintf(path_buf_, sizeof path_buf_, "%s", last.c_str());
        recorded_ = recorded_session_paths();
    }
    if (show_compare_) {
        ImGui::OpenPopup("###compare-session");
        show_compare_ = false;
        const std::string last = s_.compared ? s_.compared->path : std::string();
        std::snprintf(path_buf_, sizeof path_buf_, "%s", last.c_str());
        recorded_ = recorded_session_paths();
    }
    if (show_save_) {
        ImGui::OpenPopup("###save-session");
        show_save_ = false;
        open_write_dialog(suggest_export_path("session", ".json"));
        dialog_note_ = "Save session: " + std::string(path_buf_);
    }
    if (show_export_) {
        show_export_ = false;
        if (s_.chart) {
            ImGui::OpenPopup("###export-chart");
            const chart::ChartKind* kind = chart::find_chart_kind(s_.chart_kind);
            std::string stem = "softmaxlab-" + s_.chart_kind;
            if (kind && kind->per_n) stem += "-N" + std::to_string(s_.cols);
            open_write_dialog(suggest_export_path(stem, "." + export_format_));
            dialog_note_ = "Export chart: " + std::string(path_buf_);
        }
    }
    if (show_about_) {
        ImGui::OpenPopup("###about");
        show_about_ = false;
    }
    const ImVec2 center = ImGui::GetMainViewport()->GetCenter();
    // Open and Compare pick a session file the same way; only what happens to it differs.
    // A dialog's title is in the UI's language; "###" keeps its id the same in every language.
    const auto titled = [&](const char* title, const char* id) {
        return std::string(tr(title)) + "###" + id;
    };
    const auto session_picker = [&](const char* title, const char* id, const char* prompt,
                                    const char* button) {
        ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
        if (!ImGui::BeginPopupModal(titled(title, id).c_str(), nullptr,
                                    ImGuiWindowFlags_AlwaysAutoResize))
            return false;
        ImGui::TextUnformatted(tr(prompt));
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 36);
        const bool enter = ImGui::InputText("##path", path_buf_, sizeof path_buf_,
                                            ImGuiInputTextFlags_EnterReturnsTrue);
        if (!recorded_.empty()) ImGui::TextColored(palette().muted, "%s", tr("Recorded sessions:"));
        for (const std::string& p : recorded_)
            if (ImGui::Selectable(p.c_str()))
                std::snprintf(path_buf_, sizeof path_buf_, "%s", p.c_str());
        const bool chosen = ImGui::Button(tr(button)) || enter;
        if (chosen) ImGui::CloseCurrentPopup();
        ImGui::SameLine();
        if (ImGui::Button(tr("Cancel")) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
            ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        return chosen;
    };
    // On failure the error is in a banner and the previous session stays open.
    if (session_picker("Open session", "open-session",
                       "Session JSON file (written by softmaxlab-cli sweep --out):", "Open"))
        open_session(path_buf_);
    if (session_picker("Compare with session", "compare-session",
                       "A second session to draw over the open one (dashed) and to add to the "
                       "Metrics table:",
                       "Compare"))
        open_compare(path_buf_);
    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::BeginPopupModal(titled("Save session", "save-session").c_str(), nullptr,
                               ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::TextUnformatted(tr("Save the open session (with every point run here) as:"));
        draw_write_form(tr("Save"), [this](const std::string& path) { save_session_to(path); });
        ImGui::EndPopup();
    }
    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::BeginPopupModal(titled("Export chart", "export-chart").c_str(), nullptr,
                               ImGuiWindowFlags_AlwaysAutoResize)) {
        std::string format = export_format_;
        for (char& c : format) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        ImGui::TextUnformatted(
            ui_format("Export this chart as {0} (the same file softmaxlab-cli chart writes):",
                      s_.lessons_lang, {format})
                .c_str());
        draw_write_form(tr("Export"), [this](const std::string& path) {
            if (!s_.chart) return;
            chart::RenderOptions ro;
            ro.theme = s_.settings.theme;
            const Status st = chart::export_chart(*s_.chart, path, ro);
            if (st)
                s_.set_banner({Banner::Level::info,
                               ui_format("Chart saved to {0}", s_.lessons_lang, {path}), "", true,
                               "export"});
            else
                s_.set_banner(
                    {Banner::Level::error, st.error().message, st.error().hint, true, "export"});
        });
        ImGui::EndPopup();
    }
    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    // The key table (model/key_bindings.h) is the list: every action has a key, shown here.
    const ImVec2 vp = ImGui::GetMainViewport()->WorkSize;
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(vp.x * 0.9f, vp.y * 0.9f));
    if (ImGui::BeginPopupModal(titled("About softmaxlab", "about").c_str(), nullptr,
                               ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::TextUnformatted(ui_format("softmaxlab {0}: softmax from slow to speed-of-light",
                                         s_.lessons_lang, {SML_VERSION})
                                   .c_str());
        ImGui::Separator();
        if (ImGui::BeginTable(
                "keys", 2,
                ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY,
                ImVec2(0, std::min(vp.y * 0.65f, ImGui::GetTextLineHeightWithSpacing() *
                                                     (key_bindings().size() + 1.5f))))) {
            for (const KeyBinding& k : key_bindings()) {
                ImGui::TableNextRow();
                ImGui::TableSetColumnIndex(0);
                ImGui::PushFont(fonts_.bold);
                ImGui::TextUnformatted(k.keys);
                ImGui::PopFont();
                ImGui::TableSetColumnIndex(1);
                ImGui::TextUnformatted(zh() ? k.zh : k.en);
            }
            ImGui::EndTable();
        }
        ImGui::TextColored(
            palette().muted, "%s",
            zh() ? "悬停在带底色的代码区域上查看说明；点击图表上的点选中它；点击图例隐藏一条线。"
                 : "Hover a shaded code region for its note; click a chart point to "
                   "select it; click a legend entry to hide its line.");
        if (ImGui::Button(tr("Close")) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
            ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
}

void App::open_write_dialog(const std::string& suggested) {
    std::snprintf(path_buf_, sizeof path_buf_, "%s", suggested.c_str());
    write_check_ = WriteCheck{};
}

void App::draw_write_form(const char* verb, const std::function<void(const std::string&)>& write) {
    const Palette& pal = palette();
    ImGui::TextColored(pal.muted, "%s",
                       ui_format("Suggested folder: {0} (a new file name; nothing is replaced)",
                                 s_.lessons_lang, {exports_dir()})
                           .c_str());
    // Wide enough to show the whole suggested path, file name included.
    const float em = ImGui::GetFontSize();
    ImGui::SetNextItemWidth(
        std::clamp(ImGui::CalcTextSize(path_buf_).x + 2 * em, 36 * em,
                   std::max(36 * em, ImGui::GetMainViewport()->WorkSize.x * 0.8f)));
    const bool enter = ImGui::InputText("##path", path_buf_, sizeof path_buf_,
                                        ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::IsItemEdited()) write_check_ = WriteCheck{};  // a new name: ask again
    const std::string path = path_buf_;
    auto do_write = [&] {
        if (const std::string why = prepare_folder_for(path); !why.empty())
            s_.set_banner({Banner::Level::error, why, "", true, "save"});
        else
            write(path);
        write_check_ = WriteCheck{};
        ImGui::CloseCurrentPopup();
    };
    if (write_check_.kind == WriteCheck::Kind::confirm_replace) {
        // The second, explicit click: the file there is replaced only now.
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36);
        ImGui::TextColored(pal.bad, "%s", write_check_.message.c_str());
        ImGui::PopTextWrapPos();
        if (ImGui::Button(tr("Replace"))) do_write();
        ImGui::SameLine();
        if (ImGui::Button(tr("Keep it"))) write_check_ = WriteCheck{};
        ImGui::SameLine();
        if (ImGui::Button(tr("Cancel"))) {
            write_check_ = WriteCheck{};
            ImGui::CloseCurrentPopup();
        }
        return;
    }
    if (write_check_.kind == WriteCheck::Kind::refuse) {
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36);
        ImGui::TextColored(pal.bad, "%s", write_check_.message.c_str());
        ImGui::PopTextWrapPos();
    }
    if (ImGui::Button(verb) || enter) {
        std::vector<std::string> inputs;
        if (s_.replay && !s_.session_origin.empty()) inputs.push_back(s_.session_origin);
        write_check_ = check_before_write(path, inputs);
        if (write_check_.kind == WriteCheck::Kind::write) do_write();
    }
    ImGui::SameLine();
    if (ImGui::Button(tr("Cancel"))) {
        write_check_ = WriteCheck{};
        ImGui::CloseCurrentPopup();
    }
}

void App::handle_shortcuts() {
    ImGuiIO& io = ImGui::GetIO();
    auto pressed = [](int glfw_key) { return ImGui::IsKeyPressed(glfw_key, false); };
    // Typing into M, N or a guess must not flip lesson pages: only Escape leaves the field.
    if (io.WantTextInput) return;
    if (io.KeyCtrl) {
        if (pressed(GLFW_KEY_EQUAL) || pressed(GLFW_KEY_KP_ADD)) do_action(Action::text_larger);
        if (pressed(GLFW_KEY_MINUS) || pressed(GLFW_KEY_KP_SUBTRACT))
            do_action(Action::text_smaller);
        if (pressed(GLFW_KEY_O)) do_action(Action::open_session);
        if (pressed(GLFW_KEY_S)) do_action(Action::save_session);
        if (pressed(GLFW_KEY_Q)) do_action(Action::quit);
        return;
    }
    if (pressed(GLFW_KEY_F11)) do_action(Action::full_screen);
    if (ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId)) return;
    const bool shift = io.KeyShift;
    if (ImGui::IsKeyPressed(GLFW_KEY_RIGHT)) do_action(Action::next_step);
    if (ImGui::IsKeyPressed(GLFW_KEY_LEFT)) do_action(Action::prev_step);
    const struct {
        int key;
        bool shift;
        Action action;
    } keys[] = {
        {GLFW_KEY_G, false, Action::focus_guess},
        {GLFW_KEY_R, false, Action::reveal},
        {GLFW_KEY_P, false, Action::toggle_predict},
        {GLFW_KEY_Q, false, Action::show_answer},
        {GLFW_KEY_U, false, Action::set_up},
        {GLFW_KEY_C, false, Action::chart_next_kind},
        {GLFW_KEY_C, true, Action::chart_prev_kind},
        {GLFW_KEY_A, false, Action::chart_all},
        {GLFW_KEY_E, false, Action::export_png},
        {GLFW_KEY_T, false, Action::code_next_tab},
        {GLFW_KEY_K, false, Action::kernel_next},
        {GLFW_KEY_K, true, Action::kernel_prev},
        {GLFW_KEY_N, false, Action::cols_next},
        {GLFW_KEY_N, true, Action::cols_prev},
        {GLFW_KEY_1, false, Action::zoom_lessons},
        {GLFW_KEY_2, false, Action::zoom_code},
        {GLFW_KEY_3, false, Action::zoom_chart},
        {GLFW_KEY_4, false, Action::zoom_metrics},
        {GLFW_KEY_0, false, Action::zoom_off},
        {GLFW_KEY_ESCAPE, false, Action::zoom_off},
        {GLFW_KEY_F1, false, Action::help},
        {GLFW_KEY_H, false, Action::help},
        {GLFW_KEY_L, false, Action::line_metric_next},
    };
    for (const auto& k : keys)
        if (k.shift == shift && pressed(k.key)) do_action(k.action);
}

void App::do_action(Action a) {
    const LessonStep* step = s_.nav.current();
    auto zoom_toggle = [&](Zoom z) { set_zoom(s_.zoom == z ? Zoom::none : z); };
    switch (a) {
        case Action::prev_step:
            if (s_.nav.prev()) on_step_changed();
            break;
        case Action::next_step:
            if (s_.nav.next()) on_step_changed();
            break;
        case Action::focus_guess:
            if (s_.zoom != Zoom::none && s_.zoom != Zoom::lessons) set_zoom(Zoom::none);
            focus_guess_ = true;
            guess_into_view_ = 3;
            break;
        case Action::reveal:
            reveal_step();
            break;
        case Action::toggle_predict:
            set_predict(!s_.predict.enabled);
            break;
        case Action::show_answer:
            s_.nav.reveal_answer(!s_.nav.answer_revealed());
            break;
        case Action::set_up:
            apply_experiment();
            break;
        case Action::chart_next_kind:
            cycle_chart_kind(+1);
            break;
        case Action::chart_prev_kind:
            cycle_chart_kind(-1);
            break;
        case Action::chart_all:
            s_.chart_all = !s_.chart_all;
            refresh_chart();
            break;
        case Action::export_png:
            if (s_.chart && chart::chart_renderer_available()) {
                export_format_ = "png";
                show_export_ = true;
            }
            break;
        case Action::code_next_tab:
            show_source(s_.source_kernel, s_.source_tab == SourceTab::cuda  ? SourceTab::ptx
                                          : s_.source_tab == SourceTab::ptx ? SourceTab::sass
                                                                            : SourceTab::cuda);
            break;
        case Action::line_metric_next:
            cycle_line_metric();
            break;
        case Action::kernel_next:
            step_source_kernel(+1);
            break;
        case Action::kernel_prev:
            step_source_kernel(-1);
            break;
        case Action::cols_next:
            step_cols(+1);
            break;
        case Action::cols_prev:
            step_cols(-1);
            break;
        case Action::zoom_lessons:
            zoom_toggle(Zoom::lessons);
            break;
        case Action::zoom_code:
            zoom_toggle(Zoom::source);
            break;
        case Action::zoom_chart:
            zoom_toggle(Zoom::charts);
            break;
        case Action::zoom_metrics:
            zoom_toggle(Zoom::metrics);
            break;
        case Action::zoom_off:
            set_zoom(Zoom::none);
            break;
        case Action::text_larger:
        case Action::text_smaller:
            s_.settings.step_font_scale(a == Action::text_larger ? +1 : -1);
            fonts_dirty_ = true;
            break;
        case Action::full_screen:
            toggle_fullscreen();
            break;
        case Action::open_session:
            show_open_ = true;
            break;
        case Action::save_session:
            if (s_.has_session) show_save_ = true;
            break;
        case Action::help:
            show_about_ = true;
            break;
        case Action::quit:
            glfwSetWindowShouldClose(window_, 1);
            break;
        case Action::count_:
            break;
    }
    (void)step;
}

void App::set_zoom(Zoom z) {
    s_.zoom = z;
    chart_layout_generation_ = -1;  // the chart's canvas changes size
}

// [SECTION] Lessons, source and selection -------------------------------------------------------
void App::load_lessons(const std::string& lang) {
    Result<LessonBook> book = sml::load_lessons(default_lessons_root(), lang);
    if (!book) {
        s_.set_banner({Banner::Level::error,
                       ui_format("lessons: {0}", lang, {book.error().message}), book.error().hint,
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
    update_replay_banner();  // in the language now on screen
}

// Entering a step sets everything the step owns (model/step_view.h): its code at its first
// anchored region, its kernels and N in the table and the chart, its chart preset, its experiment
// in the Run form, and its text from the top. Nothing carries over from the step before.
void App::on_step_changed() {
    s_.settings.lesson = s_.nav.index();
    s_.step = step_view(s_.nav.book(), s_.nav.index(), s_.has_session ? &s_.session : nullptr);
    const StepView& v = s_.step;
    if (!v.source_kernel.empty()) {
        // The file of the kernel's sources that holds the step's region (best's are several).
        const KernelInfo* k = find_kernel(v.source_kernel);
        const std::string file =
            k && !v.source_region.empty()
                ? kernel_source_with_region(*k, v.source_region, SML_SOURCE_DIR)
                : std::string();
        show_source(v.source_kernel, SourceTab::cuda, file.empty() && k ? k->lesson_source() : file);
        if (const SourceDoc* doc = current_source())
            if (const DisplayRegion* r = doc->find_region(v.source_region))
                source_view_.scroll_to(r->first);
    } else if (s_.source_kernel.empty() && !registry().empty()) {
        show_source(registry().front().id, SourceTab::cuda);
    }
    // The Run form: the step's experiment, as Set up would fill it, without running anything.
    for (auto& [id, on] : s_.run_kernels)
        on = std::find(v.run_kernels.begin(), v.run_kernels.end(), id) != v.run_kernels.end();
    if (v.run_rows > 0) s_.run_rows = v.run_rows;
    if (v.run_cols > 0) s_.run_cols = v.run_cols;
    s_.run_dtype = v.run_dtype == "fp16" ? 1 : (v.run_dtype == "bf16" ? 2 : 0);
    for (const std::string& k : v.run_kernels)
        if (const KernelInfo* ki = find_kernel(k)) {
            int index = 0;
            for (size_t i = 0; i < ki->variants.size(); ++i)
                if (ki->variants[i] == v.run_variant) index = static_cast<int>(i);
            s_.run_variants[k] = index;
        }
    s_.table_kernels = v.kernels;
    s_.chart_all = false;
    s_.chart_hidden.clear();
    // The step's chart kind, when the chart-kind table has it (refresh_chart falls back else).
    s_.chart_kind = chart::find_chart_kind(v.chart_kind) ? v.chart_kind : std::string();
    s_.guess_buf[0] = '\0';
    s_.guess_error.clear();
    lesson_scroll_top_ = true;
    lesson_scroll_restore_ = 0;
    guess_into_view_ = 3;  // once the new step's text has been laid out
    metrics_focus_.clear();
    metrics_focus_column_ = -1;
    if (const LessonStep* step = s_.nav.current())
        for (const LessonQuestion& q : step->questions)
            if (const LessonClaim* c = step->find_claim(q.claim); c && !c->kernel.empty()) {
                metrics_focus_ = c->kernel;
                metrics_focus_frames_ = 3;
                if (const MetricColumn col = column_for_quantity(c->quantity);
                    col != MetricColumn::count_)
                    metrics_focus_column_ = static_cast<int>(col);
                break;
            }
    if (v.cols > 0) s_.cols = v.cols;
    refresh_lesson_text();
    refresh_metrics();
    refresh_chart();
    refresh_code();  // the step's N and variant: the code panel's counters follow
}

void App::refresh_lesson_text() {
    const LessonStep* step = s_.nav.current();
    if (!step) {
        lesson_md_.set_text("");
        answer_md_.set_text("");
        return;
    }
    // Anchors become links the Markdown view reports back to follow_anchor().
    LessonFill fill;
    fill.anchor_text = [](const LessonAnchor& a) {
        const std::string shown =
            a.is_ptx() ? a.kernel + " PTX " + a.ptx : a.kernel + ": " + a.region;
        return "[`" + shown + "`](anchor:" + a.key() + ")";
    };
    fill.session = s_.has_session ? &s_.session : nullptr;
    fill.lang = s_.lessons_lang;
    fill.hide_claims = s_.hides_numbers();  // predict mode: the numbers wait for the guess
    s_.lesson_markdown = fill_lesson_text(step->text.body, *step, fill);
    s_.answer_markdown = fill_lesson_text(step->text.answer, *step, fill);
    lesson_md_.set_text(s_.lesson_markdown);
    answer_md_.set_text(s_.answer_markdown);
    // The predict card: each question's measured value, score and explanation, computed here
    // (not while drawing) from the session on screen.
    s_.predict_answers.clear();
    explain_md_.clear();
    question_md_.clear();
    score_md_.clear();
    title_md_.set_text("## " + step->text.title);
    for (int q = 0; q < static_cast<int>(step->questions.size()); ++q) {
        s_.predict_answers.push_back(
            predict_answer(*step, q, s_.predict.question(*step, q), fill.session, s_.lessons_lang));
        explain_md_.emplace_back();
        explain_md_.back().set_text(s_.predict_answers.back().explain);
        question_md_.emplace_back();
        question_md_.back().set_text(step->questions[static_cast<size_t>(q)].question);
        const PredictAnswer& a = s_.predict_answers.back();
        score_md_.emplace_back();
        score_md_.back().set_text(a.guess.empty()
                                      ? std::string()
                                      : std::string(tr("your guess")) + " **" + a.guess + "**" +
                                            (a.score.empty() ? "" : " \xE2\x80\x94 " + a.score));
    }
}

void App::follow_anchor(const std::string& key) {
    Result<LessonAnchor> a = parse_anchor_key(key);
    if (!a) return;
    const KernelInfo* k = find_kernel(a->kernel);
    if (!k) return;
    if (a->is_ptx()) {
        s_.peer_listing = false;
        show_source(a->kernel, SourceTab::ptx);
        // The first entry point that holds the instruction, scrolled to its first match.
        if (code_.select_holding(a->ptx)) refresh_code();
        if (const AsmListing* l = code_.listing()) {
            std::vector<int> lines = l->lines_matching(a->ptx);
            if (!lines.empty()) listing_view_.scroll_to(lines.front());
        }
        return;
    }
    show_source(a->kernel, SourceTab::cuda,
                kernel_source_with_region(*k, a->region, SML_SOURCE_DIR));
    if (const SourceDoc* doc = current_source())
        if (const DisplayRegion* r = doc->find_region(a->region)) source_view_.scroll_to(r->first);
}

const SourceDoc* App::current_source() {
    if (s_.source_tab != SourceTab::cuda) return code_.source_doc();
    auto it = s_.sources.find(s_.source_kernel + "/" + s_.source_file);
    if (it == s_.sources.end()) return nullptr;
    return it->second->ok() ? &it->second->value() : nullptr;
}

void App::show_source(const std::string& kernel, SourceTab tab, const std::string& file) {
    const KernelInfo* k = find_kernel(kernel);
    if (!k) return;
    const bool kernel_changed = kernel != s_.source_kernel;
    // Which of the kernel's files the CUDA tab shows: the one asked for, else the one shown, else
    // (a new kernel) its lesson file.
    const std::string shown =
        !file.empty() ? file : (kernel_changed ? k->lesson_source() : s_.source_file);
    s_.source_kernel = kernel;
    s_.source_file = shown;
    s_.source_tab = tab;
    const std::string key = kernel + "/" + shown;
    if (!s_.sources.count(key))
        s_.sources[key] = std::make_unique<Result<SourceDoc>>(
            SourceDoc::load(std::string(SML_SOURCE_DIR) + "/" + shown, SourceLang::cuda));
    // Highlights: the current step's anchors into this kernel.
    std::set<std::string> regions;
    if (const LessonStep* step = s_.nav.current())
        for (const LessonAnchor& a : step->anchors)
            if (a.kernel == kernel && !a.is_ptx()) regions.insert(a.region);
    source_view_.set_highlights(std::move(regions), {});
    refresh_code();
}

void App::refresh_code() {
    if (s_.source_tab == SourceTab::cuda || s_.source_kernel.empty()) {
        refresh_line_metric(s_.source_file);
        return;
    }
    CodeContext ctx;
    ctx.repo_root = SML_SOURCE_DIR;
    ctx.build_dir = SML_BUILD_DIR;
    ctx.kernel = s_.source_kernel;
    ctx.session = s_.has_session ? &s_.session : nullptr;
    ctx.cols = s_.cols;
    ctx.dtype = s_.dtype;
    ctx.lang = s_.lessons_lang;
    if (const LessonStep* step = s_.nav.current())
        for (const LessonAnchor& a : step->anchors)
            if (a.kernel == s_.source_kernel && a.is_ptx()) ctx.ptx_anchors.push_back(a.ptx);
    const CodeListing which = s_.source_tab == SourceTab::sass ? CodeListing::sass
                              : s_.peer_listing                ? CodeListing::peer
                                                               : CodeListing::ptx;
    code_.set(ctx, which);
    s_.peer_listing = code_.which() == CodeListing::peer;
    // The recorded counters: per instruction where the measured build's SASS is this one, and
    // per line of the source beside it always.
    refresh_line_metric(code_.source_path().empty() ? s_.source_file : code_.source_path());
    std::vector<LineMetric> metrics;
    if (rec_lines_.point && !line_metric_.values.empty()) {
        if (code_.listing() && code_.listing()->kind == AsmKind::sass) {
            std::string why;
            if (std::optional<LineMetric> m =
                    instruction_metric(*rec_lines_.point->source_lines, *code_.listing(),
                                       line_file_, line_metric_role(), &why, s_.lessons_lang))
                metrics.push_back(std::move(*m));
            else if (!why.empty())
                line_note_ +=
                    ui_format("; per instruction: not shown, {0}", s_.lessons_lang, {why});
        }
        metrics.push_back(line_metric_);
    }
    code_.set_metrics(std::move(metrics));
    // Every recorded counter of a source-pane line, for its hover: once here, not every frame.
    listing_src_details_.clear();
    if (rec_lines_.point && code_.metric() && code_.source_doc())
        listing_src_details_ = per_display_line_details(*rec_lines_.point->source_lines, line_file_,
                                                        *code_.source_doc(), s_.lessons_lang);
    // The listing's anchors: marked, and their notes on hover.
    std::map<int, std::string> notes;
    for (const ListingAnchor& a : code_.anchors())
        for (int line : a.lines)
            if (!a.note.empty()) notes[line] = a.label + "\n" + a.note;
    listing_view_.set_highlights({}, code_.anchor_lines());
    listing_view_.set_line_notes(std::move(notes));
    // A new listing opens where to read it: at its first anchor (or instruction), beside the
    // source line that became it.
    const std::string shown = code_.listing() ? std::to_string(static_cast<int>(which)) + "/" +
                                                    code_.listing()->entry.key
                                              : "";
    if (shown != code_shown_) {
        code_shown_ = shown;
        if (code_.start_listing_line() >= 0) listing_view_.scroll_to(code_.start_listing_line());
        if (code_.start_source_line() >= 0) source_view_.scroll_to(code_.start_source_line());
    }
}

void App::refresh_line_metric(const std::string& file) {
    line_file_ = file;
    rec_lines_ = {};
    line_roles_.clear();
    line_metric_ = {};
    line_values_.clear();
    line_details_.clear();
    line_max_ = 0;
    line_note_.clear();
    const KernelInfo* k = find_kernel(s_.source_kernel);
    if (!s_.has_session || !k || file.empty()) return;
    std::string variant;  // the Run form's choice (step 5 sets it); index 0 is the default form
    if (auto v = s_.run_variants.find(k->id); v != s_.run_variants.end() && v->second > 0 &&
                                              v->second < static_cast<int>(k->variants.size()))
        variant = k->variants[static_cast<size_t>(v->second)];
    auto sha = file_sha_.find(file);
    if (sha == file_sha_.end()) {
        Result<std::string> bytes =
            read_file_capped(std::string(SML_SOURCE_DIR) + "/" + file, 16 << 20, "source file");
        sha = file_sha_.emplace(file, bytes ? lab::sha256_hex(*bytes) : std::string()).first;
    }
    rec_lines_ = find_recorded_lines(s_.session, k->id, variant, file, s_.cols, sha->second,
                                     s_.lessons_lang);
    if (!rec_lines_.point) {
        line_note_ = rec_lines_.problem;
        return;
    }
    const SourceLinesRecord& rec = *rec_lines_.point->source_lines;
    line_roles_ = recorded_roles(rec, file);
    line_note_ = rec_lines_.note;
    const std::string role = line_metric_role();
    if (role.empty()) return;
    line_metric_ = source_line_metric(rec, file, role, s_.lessons_lang);
    // Measured global traffic next to the lesson's prediction for the whole kernel, when every
    // launch was measured (naive's were not: the note says which).
    const PredictedTraffic& pred = rec_lines_.point->predicted;
    const double predicted = pred.global_load_bytes + pred.global_store_bytes;
    const double measured = recorded_global_bytes(rec);
    if ((role == lab::role::kGlobalSectors || role == lab::role::kGlobalIdealSectors) &&
        predicted > 0 && measured > 0 && rec_lines_.every_launch)
        line_note_ += ui_format(
            "; global traffic {0} measured, {1} predicted ({2})", s_.lessons_lang,
            {format_bytes(measured), format_bytes(predicted), format_ratio(measured / predicted)});
    auto it = s_.sources.find(s_.source_kernel + "/" + file);
    if (it != s_.sources.end() && *it->second) {
        line_values_ = per_display_line(line_metric_, **it->second);
        line_details_ = per_display_line_details(rec, file, **it->second, s_.lessons_lang);
        line_max_ = metric_max(line_values_);
    }
}

std::string App::line_metric_role() const {
    if (line_role_.empty() || line_roles_.empty()) return "";
    for (const std::string& r : line_roles_)
        if (r == line_role_) return r;
    return line_roles_.front();  // the chosen counter is not in this record: the first one is
}

void App::cycle_line_metric() {
    if (line_roles_.empty()) return;
    const std::string now = line_metric_role();
    auto it = std::find(line_roles_.begin(), line_roles_.end(), now);
    if (now.empty())
        line_role_ = line_roles_.front();
    else if (it == line_roles_.end() || it + 1 == line_roles_.end())
        line_role_.clear();
    else
        line_role_ = *(it + 1);
    refresh_code();
}

void App::select_cols(int64_t cols) {
    s_.cols = cols;
    refresh_metrics();
    refresh_chart();
    refresh_code();  // which instantiation runs at this N
}

void App::refresh_metrics() {
    s_.metric_rows.clear();
    s_.counters_note.clear();
    s_.compare_note.clear();
    if (!s_.has_session) return;
    const ComparedSession* compared = s_.compared ? &*s_.compared : nullptr;
    s_.compare_note = compare_note(s_.session, compared, s_.dtype, s_.cols, s_.lessons_lang);
    if (compared && chart::check_comparable(s_.session, compared->session, s_.dtype)) {
        const chart::SessionLabels names = chart::compare_labels(s_.session, compared->session);
        s_.metric_rows =
            build_compare_metric_rows(s_.session, compared->session, names.first, names.second,
                                      s_.cols, s_.dtype, s_.table_kernels, s_.lessons_lang);
    } else {
        s_.metric_rows =
            build_metric_rows(s_.session, s_.cols, s_.dtype, s_.table_kernels, s_.lessons_lang);
    }
    for (const MetricRow& r : s_.metric_rows)
        if (!r.counters_available) {
            s_.counters_note =
                std::string(tr("Hardware counters unavailable")) +
                (r.counters_reason.empty() ? std::string(".") : ": " + r.counters_reason);
            break;
        }
    if (s_.hides_numbers()) hide_measured_cells(&s_.metric_rows);
}

void App::refresh_chart() {
    ++chart_generation_;
    s_.chart.reset();
    s_.chart_error.clear();
    s_.chart_note.clear();
    s_.chart_view = ChartView{};
    if (!s_.has_session || s_.session.points.empty()) {
        s_.chart_error = tr("No points yet: open a session, or Run / Sweep.");
        return;
    }
    // The panel's chart kind until one is picked (the table may also hold kinds, like peers,
    // that are not drawn from a session).
    const chart::ChartKind* kind = chart::find_chart_kind(s_.chart_kind);
    if (!kind || kind->source != chart::ChartSource::session) kind = viewer_chart_kinds().front();
    s_.chart_kind = kind->id;
    const ComparedSession* compared = s_.compared ? &*s_.compared : nullptr;
    s_.chart_note = chart_compare_note(*kind, compared, s_.lessons_lang);
    // The step's preset (its kernels, the previous step's, copy; its N marked), or every kernel.
    ChartPreset preset;
    preset.kind = kind->id;
    preset.cols = s_.cols;
    preset.dtype = s_.dtype;
    preset.lang = s_.lessons_lang;
    preset.hidden = s_.chart_hidden;
    if (!s_.chart_all) {
        preset.kernels = s_.step.kernels;
        preset.marks = s_.step.marks;
    }
    // Predict mode withholds the lines of the kernels the step's questions ask about.
    if (const LessonStep* step = s_.nav.current(); step && s_.hides_numbers())
        for (const LessonQuestion& q : step->questions)
            if (const LessonClaim* c = step->find_claim(q.claim)) {
                if (!c->kernel.empty()) preset.withheld.insert(c->kernel);
                if (!c->other.empty()) preset.withheld.insert(c->other);
            }
    // A compared session is drawn on the kinds that compare (and only where it can be).
    const chart::ChartInput input = chart_input(*kind, s_.session, compared, s_.dtype);
    Result<ChartView> v = build_chart_view(s_.session, input.compare, preset);
    if (!v && !preset.kernels.empty()) {
        // The preset's kernels have nothing for this chart (a per-N chart at an N they lack):
        // show every kernel rather than nothing.
        preset.kernels.clear();
        v = build_chart_view(s_.session, input.compare, preset);
    }
    if (v) {
        s_.chart = v->chart;
        s_.chart_view = std::move(*v);
    } else {
        s_.chart_error =
            v.error().message + (v.error().hint.empty() ? "" : " (" + v.error().hint + ")");
    }
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
    s_.table_kernels = e.kernels;
    if (e.cols > 0 &&
        std::find(s_.all_cols.begin(), s_.all_cols.end(), e.cols) != s_.all_cols.end())
        select_cols(e.cols);
    else
        refresh_metrics();
}

// [SECTION] Predict mode and the step's chart
// ------------------------------------------------------
void App::submit_guess() {
    const LessonStep* step = s_.nav.current();
    if (!step) return;
    const int q = s_.predict.next_question(*step);
    if (q < 0) return;
    if (Status st = s_.predict.guess(*step, q, s_.guess_buf); !st) {
        s_.guess_error = tr("Not a number. Type e.g. 4, 80%, 1.5x or 2e6.");
        return;
    }
    s_.guess_error.clear();
    s_.guess_buf[0] = '\0';
    guess_into_view_ = 3;  // the next question's field
    refresh_hidden_numbers();
}

void App::reveal_step() {
    const LessonStep* step = s_.nav.current();
    if (!step) return;
    s_.predict.reveal(*step);
    s_.guess_error.clear();
    refresh_hidden_numbers();
}

void App::set_predict(bool on) {
    s_.predict.enabled = on;
    s_.settings.predict = on;
    refresh_hidden_numbers();
}

void App::refresh_hidden_numbers() {
    refresh_lesson_text();
    refresh_metrics();
    refresh_chart();
}

void App::cycle_chart_kind(int direction) {
    const std::vector<const chart::ChartKind*> kinds = viewer_chart_kinds();
    const int n = static_cast<int>(kinds.size());
    int i = 0;
    while (i < n && kinds[static_cast<size_t>(i)]->id != s_.chart_kind) ++i;
    s_.chart_kind = kinds[static_cast<size_t>(((i + direction) % n + n) % n)]->id;
    refresh_chart();
}

void App::step_cols(int direction) {
    if (s_.all_cols.empty()) return;
    auto it = std::lower_bound(s_.all_cols.begin(), s_.all_cols.end(), s_.cols);
    long i = it - s_.all_cols.begin();
    if (it == s_.all_cols.end() || *it != s_.cols) i = direction > 0 ? i - 1 : i;
    i = std::clamp<long>(i + direction, 0, static_cast<long>(s_.all_cols.size()) - 1);
    select_cols(s_.all_cols[static_cast<size_t>(i)]);
}

void App::step_source_kernel(int direction) {
    const auto& reg = registry();
    if (reg.empty()) return;
    long i = 0;
    for (size_t k = 0; k < reg.size(); ++k)
        if (s_.source_kernel == reg[k].id) i = static_cast<long>(k);
    const long n = static_cast<long>(reg.size());
    show_source(reg[static_cast<size_t>(((i + direction) % n + n) % n)].id, s_.source_tab);
}

void App::toggle_legend_entry(const std::string& label) {
    const std::string key = s_.chart_view.key_of_label(label);
    if (key.empty()) return;
    s_.chart_hidden = toggle_hidden(s_.chart_hidden, key);
    refresh_chart();
}

}  // namespace sml::viewer
