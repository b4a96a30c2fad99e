// The lab bench's editor, without a window: what the Source panel's edit mode shows and does.
//
// One edit at a time: a lesson kernel's file (key = the kernel id) or an exercise (key =
// "ex-<id>"). Every change is saved at once in the per-user edits folder (core/lab/edit_store.h)
// and the edit is restored from there on the next start. Compiles run as the learner pauses
// typing (NVRTC, no GPU needed), and their diagnostics are kept per line. Run sends the edit as
// a job to a child process (core/lab/lab_child.h), so nothing the kernel does can take the
// viewer down. A finished run's per-line counters fill a heat gutter for a chosen metric.
//
// Compiles and runs happen on background threads; poll() (once a frame) collects what finished.
// Nothing here draws; panel code reads the state.
#pragma once

#include <chrono>
#include <future>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "core/lab/edit_store.h"
#include "core/lab/exercises.h"
#include "core/lab/lab_child.h"
#include "core/lab/lab_job.h"

namespace sml::viewer {

struct LabRunSettings {
    int64_t rows = 4096;
    int64_t cols = 1024;
    std::string dtype = "fp32";
    std::string metrics = "default";
    bool per_line = true;
};

// One cell of the gutter beside a source line.
struct GutterCell {
    double value = 0;
    float heat = 0;       // 0..1 against the hottest line, for the bar's length and colour
    std::string tooltip;  // every counter of the line, with units
};

// The status line of a build that cannot compile (the viewer translates it).
extern const char kNoCompilerStatus[];

class LabEditor {
  public:
    struct Options {
        std::string edits_dir;         // "" = lab::default_edits_dir()
        lab::ChildJobOptions child;    // how runs are spawned
        double compile_delay_s = 0.6;  // pause in typing before a compile starts
        bool compile_as_you_type = true;
    };
    enum class Busy { none, compiling, running };

    LabEditor();
    explicit LabEditor(Options options);
    ~LabEditor();  // waits for a compile or run in flight (a run is bounded by its time limit)
    LabEditor(const LabEditor&) = delete;
    LabEditor& operator=(const LabEditor&) = delete;

    // Opens a lesson kernel's file, or an exercise, restoring its saved edit if there is one.
    Status open_kernel(const std::string& kernel);
    Status open_exercise(const std::string& id);
    bool is_open() const { return !key_.empty(); }
    const std::string& key() const { return key_; }
    const std::string& kernel() const { return kernel_; }
    const std::string& source_name() const { return source_name_; }
    const lab::Exercise* exercise() const { return exercise_ ? &*exercise_ : nullptr; }

    const std::string& text() const { return text_; }
    bool dirty() const { return text_ != original_; }  // differs from the file it came from
    bool restored() const { return restored_; }        // opened from an autosave
    // The learner's buffer after a change: saved at once (atomically); a compile follows once
    // typing pauses. An Error when the save failed (the buffer keeps the text either way).
    Status set_text(const std::string& text);
    // Back to the original file; the saved edit is removed.
    Status revert();
    // The saved-edit status line ("saved to ~/.local/share/softmaxlab/edits/warp.cu"), in `lang`.
    std::string save_status(const std::string& lang = "en") const;

    // Starts a compile now (no-op while one runs; the next poll() starts another if the text
    // changed meanwhile).
    void compile_now();
    // Starts a run of the current text as a child job; false while a compile or run is busy.
    bool run(const LabRunSettings& settings);
    // Starts the exercise's check (open_exercise first); false while busy.
    bool check_exercise();
    // Collects finished work, and starts the compile a typing pause asks for. Call once a frame.
    void poll();
    // Blocks until nothing is in flight (tests, shutdown), polling as it goes.
    void wait_idle();
    Busy busy() const { return busy_; }

    // The last finished compile.
    const std::vector<lab::Diagnostic>& diagnostics() const { return diagnostics_; }
    std::vector<lab::Diagnostic> diagnostics_on_line(int line) const;
    bool compiled_ok() const { return compiled_ok_; }
    const std::string& ptx() const { return ptx_; }
    // The last finished run (status, message, point, per-line counters), and exercise verdict.
    const std::optional<lab::LabResult>& result() const { return result_; }
    const std::optional<lab::ExerciseVerdict>& verdict() const { return verdict_; }
    // One line for the status bar: what is running, or how the last compile/run ended; in a
    // build without the CUDA toolkit, that it cannot compile (kNoCompilerStatus).
    // In `lang` ("en" | "zh"): what the compiler and the run said stays in their words.
    std::string status_line(const std::string& lang = "en") const;
    // Whether this build can compile and run edits (NVRTC; false without the CUDA toolkit).
    // Without it nothing is compiled on open or while typing, and compile_now() and run() say
    // why in diagnostics() and result() instead of starting work.
    static bool can_compile();

    // The gutter: the roles the last run has values for (in sass_roles() order), the chosen one,
    // and a cell for each line with a value.
    std::vector<std::string> gutter_metrics() const;
    const std::string& gutter_metric() const { return gutter_metric_; }
    bool set_gutter_metric(const std::string& role);
    std::optional<GutterCell> gutter(int line, const std::string& lang = "en") const;

  private:
    // Opens `original` (the lesson file, or an exercise made from it) under autosave key `key`.
    Status open(const std::string& key, const std::string& kernel,
                const Result<std::string>& original);
    void start_compile();
    void finish_compile(lab::LabResult r);

    Options options_;
    lab::EditStore store_;
    std::string key_, kernel_, source_name_, original_, text_;
    // The last save: what happened, and the path or the error.
    enum class Saved { none, restored, saved, not_saved, reverted, failed } saved_ = Saved::none;
    std::string saved_detail_;
    std::optional<lab::Exercise> exercise_;
    bool restored_ = false;
    Busy busy_ = Busy::none;
    std::string compiling_text_;
    bool compile_pending_ = false;
    std::chrono::steady_clock::time_point last_edit_{};
    std::future<lab::LabResult> compile_future_;
    std::future<lab::LabResult> run_future_;
    std::future<lab::ExerciseVerdict> check_future_;
    std::vector<lab::Diagnostic> diagnostics_;
    bool compiled_ok_ = false;
    bool compiled_once_ = false;
    std::string ptx_;
    std::optional<lab::LabResult> result_;
    std::optional<lab::ExerciseVerdict> verdict_;
    std::string gutter_metric_;
};

}  // namespace sml::viewer
