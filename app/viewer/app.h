// The viewer: one App class (Tracy's View), one file per panel.
//
//   app.cpp            window, frame loop, menu, banners, shortcuts, layout, state changes
//   app_session.cpp    opening, saving and replaying sessions; device detection
//   app_run.cpp        the worker jobs (Run, Sweep) and their streamed results
//   panel_lessons.cpp  lesson text, step navigation, experiment, check question
//   panel_source.cpp   CUDA | PTX | SASS with regions highlighted
//   panel_run.cpp      the run form, progress, cancel
//   panel_metrics.cpp  the per-kernel table at one N
//   panel_charts.cpp   the chart model drawn with ImDrawList (chart_draw_imgui.cpp), export
//   panel_lab.cpp      the lab bench window: edit, compile, run, per-line counters
#pragma once

#include <string>
#include <vector>

#include "app/viewer/app_state.h"
#include "app/viewer/markdown_view.h"
#include "app/viewer/model/lab_editor.h"
#include "app/viewer/model/worker.h"
#include "app/viewer/source_view.h"
#include "app/viewer/theme.h"
#include "core/chart/chart_layout.h"

struct GLFWwindow;

namespace sml::viewer {

class App {
  public:
    explicit App(ViewerArgs args);
    ~App();
    // Opens the window and runs until closed (or the screenshot is taken). Returns the exit code.
    int run();

  private:
    // [SECTION] Setup (app.cpp)
    Status init_window();
    void rebuild_fonts();
    void frame();
    void layout_and_draw();
    void draw_menu();
    void draw_banners();
    void draw_dialogs();
    void handle_shortcuts();
    void toggle_fullscreen();
    void save_settings_now();

    // [SECTION] Sessions and device (app_session.cpp)
    void detect_device();
    void open_initial_session();
    bool open_session(const std::string& path);  // false + error banner on failure
    void set_session(Session s, const std::string& origin, bool replay);
    void save_session_to(const std::string& path);
    void update_replay_banner();
    static std::vector<std::string> recorded_session_paths();  // assets/sessions/*.json, sorted

    // [SECTION] Derived state: rebuilt on change (app.cpp)
    void load_lessons(const std::string& lang);
    void on_step_changed();
    void refresh_lesson_text();
    void refresh_metrics();
    void refresh_chart();
    void select_cols(int64_t cols);
    void show_source(const std::string& kernel, SourceTab tab);
    void follow_anchor(const std::string& key);
    const SourceDoc* current_source();
    void apply_experiment();

    // [SECTION] Runs (app_run.cpp)
    void start_run(bool sweep);
    void poll_worker();
    std::string run_disabled_reason() const;

    // [SECTION] Panels (panel_*.cpp)
    void draw_lessons();
    void draw_source();
    void draw_run();
    void draw_metrics();
    void draw_charts();
    void draw_lab_window();  // its own window, over the layout (Lab > Lab bench)

    AppState s_;
    Worker worker_;
    Fonts fonts_;
    MarkdownView lesson_md_, answer_md_;
    SourceView source_view_;
    GLFWwindow* window_ = nullptr;
    bool fonts_dirty_ = true;
    bool fullscreen_ = false;
    int windowed_[4] = {0, 0, 1600, 1000};  // x, y, w, h before full screen
    bool show_open_ = false, show_save_ = false, show_about_ = false;
    char path_buf_[1024] = {};
    std::vector<std::string> recorded_;  // listed when the Open dialog opens, not every frame
    // The chart's pixel layout, recomputed only when the chart, the canvas size or the theme
    // changes (layout is geometry work, not drawing).
    chart::ChartLayout chart_layout_;
    int chart_generation_ = 0, chart_layout_generation_ = -1;
    float chart_layout_w_ = 0, chart_layout_h_ = 0;
    float chart_scale_ = 1.0f;  // screen px per layout px
    std::string chart_layout_theme_;
    // The lab bench (panel_lab.cpp; its logic is model/lab_editor.h).
    LabEditor lab_;
    bool show_lab_ = false;
    std::string lab_buffer_;  // the text box's copy of lab_.text()
    std::string lab_error_;
    int lab_choice_ = 0;
    std::string lab_request_;  // --lab: what to open when the window first draws
    LabRunSettings lab_settings_;
};

}  // namespace sml::viewer
