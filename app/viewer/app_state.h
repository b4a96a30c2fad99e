// Everything the viewer knows, as plain data: the open session, the lesson position, the
// selections, the run form and the derived tables. Panels read it while drawing; only App's
// event handlers (app.cpp) change it, and they rebuild the derived parts right away, so no panel
// computes anything while drawing.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/viewer/model/compare_view.h"
#include "app/viewer/model/chart_view.h"
#include "app/viewer/model/lesson_nav.h"
#include "app/viewer/model/metric_rows.h"
#include "app/viewer/model/panel_layout.h"
#include "app/viewer/model/predict.h"
#include "app/viewer/model/settings.h"
#include "app/viewer/model/source_doc.h"
#include "app/viewer/model/step_view.h"
#include "app/viewer/model/viewer_args.h"
#include "core/chart/chart_layout.h"
#include "core/chart/chart_model.h"
#include "core/session/session.h"
#include "kernels/kernel_api.h"

namespace sml::viewer {

struct Banner {
    enum class Level { info, warn, error };
    Level level = Level::info;
    std::string message;
    std::string hint;
    bool closable = true;
    std::string key;  // banners with the same key replace each other
};

enum class SourceTab { cuda, ptx, sass };

struct AppState {
    ViewerArgs args;
    Settings settings;
    std::string settings_path;  // "" = do not persist
    std::string ini_path;

    // [SECTION] Device and session
    bool gpu_available = false;
    std::string no_gpu_reason;  // why Run is disabled
    std::string no_gpu_hint;    // what to do about it
    DeviceLimits limits;        // what ranges and dispatch follow: real_limits under device_profile
    DeviceLimits real_limits;   // the device's, or the H100 reference values in replay
    std::string device_profile;  // "" = this GPU (or the H100 reference); see device_view.h
    bool has_session = false;
    bool replay = false;  // the session was loaded from a file, not measured here
    Session session;
    std::string session_origin;  // file path, or "live"
    // A second session drawn over the open one on the charts that compare and added to the
    // Metrics table (File > Compare with session..., --compare); kept while the open session
    // changes, and shown wherever the two can be compared (compare_note says where not).
    std::optional<ComparedSession> compared;

    // [SECTION] Lessons
    LessonNav nav;
    std::string lessons_lang = "en";
    std::string lesson_markdown;  // current step's filled-in body (what MarkdownView shows)
    std::string answer_markdown;
    StepView step;                               // what entering the current step set (step_view.h)
    PredictState predict;                        // predict mode: guesses, reveals, on/off
    std::vector<PredictAnswer> predict_answers;  // per question of the step, for the card
    char guess_buf[64] = {};
    std::string guess_error;  // why the last guess was not taken
    bool hides_numbers() const {
        const LessonStep* st = nav.current();
        return st && predict.hides_numbers(*st);
    }

    // [SECTION] Selection (shared by metrics, charts and source)
    std::string dtype = "fp32";
    int64_t cols = 0;               // N the metrics table and per-N charts show
    std::vector<int64_t> all_cols;  // every N in the session
    std::string source_kernel;      // whose code the Source panel shows
    std::string source_file;        // which of its KernelInfo::sources (best has several)
    SourceTab source_tab = SourceTab::cuda;
    bool peer_listing = false;  // the PTX tab shows the peer listing (the Triton tutorial's PTX)
    bool code_beside = true;    // PTX and SASS: the source they came from beside them
    std::vector<std::string> table_kernels;  // kernels the table shows (empty = all at this N)

    // [SECTION] Run form
    int64_t run_rows = 4096, run_cols = 4096;
    int run_dtype = 0;  // index into {fp32, fp16, bf16}
    std::map<std::string, bool> run_kernels;
    std::map<std::string, int> run_variants;  // kernel id -> index into KernelInfo::variants
    int run_metric_set = 1;                   // 0 off, 1 default, 2 deep
    bool running = false;
    int run_done = 0, run_total = 0;
    std::string run_label;

    // [SECTION] Derived (rebuilt by App::refresh_* on change, never while drawing)
    std::vector<MetricRow> metric_rows;
    std::string counters_note;  // one line when counters are missing for the rows shown
    std::string compare_note;   // one line while comparing (compare_view.h)
    std::string chart_kind;     // a ChartKind id (chart_kinds.h); "" until refresh_chart picks one
    std::string chart_note;  // while comparing, on a chart that shows one session only
    std::optional<chart::Chart> chart;
    std::string chart_error;
    bool chart_all = false;              // every kernel, not the step's preset (key A)
    std::set<std::string> chart_hidden;  // series hidden by a legend click
    ChartView chart_view;                // the preset's marks, moved N+1 points, notes

    // [SECTION] Layout
    Zoom zoom = Zoom::none;  // one panel given the whole window (keys 1-4)
    std::map<std::string, std::unique_ptr<Result<SourceDoc>>> sources;  // CUDA tab: "<kernel>/<file>"

    std::vector<Banner> banners;
    void set_banner(Banner b);
    void clear_banner(const std::string& key);
};

}  // namespace sml::viewer
