// The viewer: one App class (Tracy's View), one file per panel.
//
//   app.cpp            window, frame loop, menu, banners, shortcuts, layout, state changes
//   app_session.cpp    opening, saving and replaying sessions; device detection
//   app_run.cpp        the worker jobs (Run, Sweep) and their streamed results
//   panel_lessons.cpp  lesson text, step navigation, experiment, check question
//   panel_source.cpp   CUDA | PTX | SASS: regions highlighted, source and instructions linked
//   panel_run.cpp      the run form, progress, cancel
//   panel_metrics.cpp  the per-kernel table at one N
//   panel_charts.cpp   the chart model drawn with ImDrawList (chart_draw_imgui.cpp), export
//   panel_lab.cpp      the lab bench window: edit, compile, run, per-line counters
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "app/viewer/app_state.h"
#include "app/viewer/markdown_view.h"
#include "app/viewer/model/code_view.h"
#include "app/viewer/model/key_bindings.h"
#include "app/viewer/model/lab_editor.h"
#include "app/viewer/model/recorded_lines.h"
#include "app/viewer/model/save_target.h"
#include "app/viewer/model/ui_text.h"
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
    // The path field and buttons of Save and Export: suggests a new file in exports_dir(), asks
    // before replacing an existing file, refuses the open session. `write` does the writing.
    void draw_write_form(const char* verb, const std::function<void(const std::string&)>& write);
    void open_write_dialog(const std::string& suggested);
    void handle_shortcuts();
    void do_action(Action a);  // every key and most buttons end here (model/key_bindings.h)
    void toggle_fullscreen();
    void save_settings_now();
    void load_layout_ini();  // imgui.ini through core/common/safe_file.h, not ImGui's own fopen
    void save_layout_ini();

    // [SECTION] Sessions and device (app_session.cpp)
    void detect_device();
    void set_device_profile(const std::string& id);  // "" = this GPU; see device_view.h
    void open_initial_session();
    bool open_session(const std::string& path);  // false + error banner on failure
    // Loads a second session to compare the open one with; false + error banner on failure.
    bool open_compare(const std::string& path);
    void stop_compare();
    void set_session(Session s, const std::string& origin, bool replay);
    bool save_session_to(const std::string& path);
    void update_replay_banner();
    static std::vector<std::string> recorded_session_paths();  // assets/sessions/*.json, sorted

    // [SECTION] Derived state: rebuilt on change (app.cpp)
    void load_lessons(const std::string& lang);
    void on_step_changed();
    void refresh_lesson_text();
    void refresh_metrics();
    void refresh_chart();
    void select_cols(int64_t cols);
    // `file`: one of the kernel's sources; "" keeps the one shown (the lesson file for a new
    // kernel).
    void show_source(const std::string& kernel, SourceTab tab, const std::string& file = "");
    void refresh_code();  // PTX / SASS views: after N, session or step changed
    // The heat gutter from the session's recorded per-line counters (model/recorded_lines.h)
    // for the file the code panel shows; refresh_code calls it.
    void refresh_line_metric(const std::string& file);
    void cycle_line_metric();              // key L: the next counter, then off
    std::string line_metric_role() const;  // the counter shown: line_role_ if recorded; "" off
    void draw_line_metric_row();  // panel_source.cpp: the counter picker and where it is from
    void follow_anchor(const std::string& key);
    const SourceDoc* current_source();
    void draw_listing();  // panel_source.cpp: PTX or SASS beside its source
    void apply_experiment();
    // [SECTION] Predict mode and the step's chart (app.cpp)
    void submit_guess();
    void reveal_step();
    void set_predict(bool on);
    void refresh_hidden_numbers();  // text, table and chart follow the predict state
    void cycle_chart_kind(int direction);
    void step_cols(int direction);
    void step_source_kernel(int direction);
    void toggle_legend_entry(const std::string& label);
    void set_zoom(Zoom z);
    // The viewer's words in the language on screen (model/ui_text.h).
    const char* tr(const char* en) const { return ui_text(en, s_.lessons_lang); }
    bool zh() const { return s_.lessons_lang == "zh"; }

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
    void draw_predict();  // panel_lessons.cpp: the predict card above the lesson text
    void draw_chart_marks(const ImVec2& origin);  // panel_charts.cpp: N marks, hidden entries
    void draw_lab_window();  // its own window, over the layout (Lab > Lab bench)

    AppState s_;
    Worker worker_;
    Fonts fonts_;
    MarkdownView lesson_md_, answer_md_;
    std::vector<MarkdownView> explain_md_;   // the predict card's explanations, per question
    std::vector<MarkdownView> question_md_;  // and its questions (Chinese wraps per character)
    std::vector<MarkdownView> score_md_;     // "your guess 90%: close (11 points off)"
    MarkdownView title_md_;                  // the step's title, wrapped like the text
    SourceView source_view_;   // the CUDA tab, and the source pane beside PTX / SASS
    SourceView listing_view_;  // PTX / SASS
    CodeModel code_;           // what the PTX and SASS views show (model/code_view.h)
    std::string code_shown_;   // which listing the panes were last scrolled for
    std::string line_role_ = "inst_executed";  // the gutter's counter (sass_roles.h); "" off
    std::string line_file_;                    // the file the gutter below is for
    RecordedLines rec_lines_;                  // the session's counters for it, if any
    std::vector<std::string> line_roles_;      // the counters they hold, for the picker
    LineMetric line_metric_;                   // line_role_ keyed by source line
    std::vector<double> line_values_;          // the CUDA tab, per display line (NaN: none)
    double line_max_ = 0;
    std::vector<std::string> line_details_;        // the CUDA tab's hover: every counter of a line
    std::vector<std::string> listing_src_details_;  // the same for the source beside PTX / SASS
    std::string line_note_;                        // where the counters come from, and their limits
    std::map<std::string, std::string> file_sha_;  // SHA-256 of a source file, read once
    GLFWwindow* window_ = nullptr;
    bool fonts_dirty_ = true;
    bool fullscreen_ = false;
    int windowed_[4] = {0, 0, 1600, 1000};  // x, y, w, h before full screen
    bool show_open_ = false, show_save_ = false, show_about_ = false, show_export_ = false;
    bool show_compare_ = false;
    char path_buf_[1024] = {};
    std::string export_format_ = "png";    // what Export was asked for: png | svg | pdf | csv
    WriteCheck write_check_;               // the Save / Export dialog's answer to the last click
    std::string dialog_note_;              // the open Save / Export dialog in words (screenshots)
    bool initial_session_failed_ = false;  // --session did not open (screenshots exit 1)
    std::vector<std::string> recorded_;  // listed when the Open dialog opens, not every frame
    // The chart's pixel layout, recomputed only when the chart, the canvas size or the theme
    // changes (layout is geometry work, not drawing).
    chart::ChartLayout chart_layout_;
    int chart_generation_ = 0, chart_layout_generation_ = -1;
    float chart_layout_w_ = 0, chart_layout_h_ = 0;
    float chart_scale_ = 1.0f;  // screen px per layout px
    std::vector<MarkLabel> chart_mark_labels_;  // where the N marks' labels go (layout px)
    std::string chart_layout_theme_;
    // Scroll positions kept across a text-size change (the fonts are rebuilt at the new size, so
    // pixel offsets would land elsewhere): the lesson text by fraction, the code by line.
    float lesson_scroll_frac_ = 0;
    int lesson_scroll_restore_ = 0;   // frames until the fraction is applied (content re-measured)
    bool lesson_scroll_top_ = false;  // a new step opens at its top
    int code_top_line_ = 0;
    float run_content_h_ = 0;  // the Run toolbar's height as last drawn (it wraps)
    bool focus_guess_ = false;
    // Frames left in which the predict card scrolls the lesson text so its Check and Reveal
    // buttons are in view (a projector's 720 px with large text puts them below the fold).
    int guess_into_view_ = 0;
    // The kernel whose Metrics row the step's first question asks about: the table scrolls it
    // into view once when the step opens (at 1280x720 the table shows two rows).
    std::string metrics_focus_;
    int metrics_focus_column_ = -1;  // its claim's column (column_for_quantity), or -1
    int metrics_focus_frames_ = 0;   // frames left to keep both in view
    std::string predict_report_;  // screenshot mode: whether Reveal was in view ("" no card)

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
