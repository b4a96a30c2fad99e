#include "app/viewer/model/lab_editor.h"

#include <algorithm>
#include <cstdio>
#include <thread>

#include "app/viewer/model/recorded_lines.h"
#include "app/viewer/model/ui_text.h"
#include "core/lab/compile.h"
#include "core/lab/sass_roles.h"
#include "kernels/registry.h"

namespace sml::viewer {

namespace {

template <class T>
bool ready(std::future<T>& f) {
    return f.valid() && f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

}  // namespace

LabEditor::LabEditor() : LabEditor(Options{}) {}

LabEditor::LabEditor(Options options)
    : options_(std::move(options)),
      store_(options_.edits_dir.empty() ? lab::default_edits_dir() : options_.edits_dir) {}

LabEditor::~LabEditor() {
    wait_idle();
}

Status LabEditor::open(const std::string& key, const std::string& kernel,
                       const Result<std::string>& original) {
    if (busy_ != Busy::none) wait_idle();
    if (!original) return original.error();
    Result<std::optional<std::string>> saved = store_.load(key);
    if (!saved) return saved.error();
    const KernelInfo* k = find_kernel(kernel);
    key_ = key;
    kernel_ = kernel;
    source_name_ = k ? k->lesson_source() : kernel;
    original_ = *original;
    restored_ = saved->has_value();
    text_ = restored_ ? **saved : original_;
    saved_ = restored_ ? Saved::restored : Saved::none;
    saved_detail_ = restored_ ? store_.path_for(key) : "";
    diagnostics_.clear();
    compiled_ok_ = false;
    compiled_once_ = false;
    ptx_.clear();
    result_.reset();
    verdict_.reset();
    gutter_metric_.clear();
    compile_pending_ = options_.compile_as_you_type;
    last_edit_ = std::chrono::steady_clock::time_point{};  // compile at the next poll
    return ok_status();
}

Status LabEditor::open_kernel(const std::string& kernel) {
    const KernelInfo* k = lab::lab_kernel(kernel);
    if (!k)
        return Error{"'" + kernel + "' cannot be edited in the lab",
                     "open one of the lesson kernels: " + lab::lab_kernel_ids()};
    exercise_.reset();
    return open(kernel, kernel,
                lab::read_file_capped(std::string(SML_SOURCE_DIR) + "/" + k->lesson_source(),
                                      lab::EditStore::kMaxEditBytes));
}

Status LabEditor::open_exercise(const std::string& id) {
    Result<std::vector<lab::Exercise>> all = lab::load_exercises();
    if (!all) return all.error();
    const lab::Exercise* e = lab::find_exercise(*all, id);
    if (!e) return Error{"no exercise '" + id + "'", "see lessons/exercises/exercises.json"};
    exercise_ = *e;
    return open("ex-" + id, e->kernel, lab::exercise_text(*e));
}

Status LabEditor::set_text(const std::string& text) {
    if (!is_open()) return Error{"no edit is open", "open a kernel first"};
    if (text == text_) return ok_status();
    text_ = text;
    last_edit_ = std::chrono::steady_clock::now();
    compile_pending_ = options_.compile_as_you_type;
    Status s = store_.save(key_, text_);
    saved_ = s ? Saved::saved : Saved::not_saved;
    saved_detail_ = s ? store_.path_for(key_) : s.error().message;
    return s;
}

Status LabEditor::revert() {
    if (!is_open()) return ok_status();
    text_ = original_;
    restored_ = false;
    compile_pending_ = options_.compile_as_you_type;
    Status s = store_.remove(key_);
    saved_ = s ? Saved::reverted : Saved::failed;
    saved_detail_ = s ? "" : s.error().message;
    return s;
}

void LabEditor::start_compile() {
    busy_ = Busy::compiling;
    compile_pending_ = false;
    compiling_text_ = text_;
    lab::LabJob job = lab::make_job(kernel_, source_name_, text_);
    compile_future_ = std::async(std::launch::async, [job] { return lab::compile_job(job, ""); });
}

void LabEditor::compile_now() {
    if (!is_open() || busy_ != Busy::none) {
        compile_pending_ = true;
        return;
    }
    start_compile();
}

void LabEditor::finish_compile(lab::LabResult r) {
    diagnostics_ = r.diagnostics;
    compiled_ok_ = r.status == lab::status::kOk;
    compiled_once_ = true;
    if (!r.ptx.empty()) ptx_ = r.ptx;
    if (r.status == lab::status::kFailed && diagnostics_.empty())
        diagnostics_.push_back(lab::Diagnostic{"", 0, 0, "error", r.message + " (" + r.hint + ")"});
}

bool LabEditor::run(const LabRunSettings& s) {
    if (!is_open() || busy_ != Busy::none) return false;
    lab::LabJob job = lab::make_job(kernel_, source_name_, text_);
    job.rows = s.rows;
    job.cols = s.cols;
    job.dtype = s.dtype;
    job.metrics = s.metrics;
    job.per_line = s.per_line;
    job.label = key_;
    const lab::ChildJobOptions child = options_.child;
    busy_ = Busy::running;
    run_future_ =
        std::async(std::launch::async, [job, child] { return lab::run_job_in_child(job, child); });
    return true;
}

bool LabEditor::check_exercise() {
    if (!exercise_ || busy_ != Busy::none) return false;
    const lab::Exercise e = *exercise_;
    const std::string src = text_;
    const lab::ChildJobOptions child = options_.child;
    busy_ = Busy::running;
    check_future_ = std::async(std::launch::async,
                               [e, src, child] { return lab::check_exercise(e, src, child); });
    return true;
}

void LabEditor::poll() {
    if (busy_ == Busy::compiling && ready(compile_future_)) {
        finish_compile(compile_future_.get());
        busy_ = Busy::none;
        if (compiling_text_ != text_) compile_pending_ = options_.compile_as_you_type;
    }
    if (busy_ == Busy::running && ready(run_future_)) {
        result_ = run_future_.get();
        busy_ = Busy::none;
        if (result_->status == lab::status::kCompileError) {
            diagnostics_ = result_->diagnostics;
            compiled_ok_ = false;
        }
        const std::vector<std::string> metrics = gutter_metrics();
        if (std::find(metrics.begin(), metrics.end(), gutter_metric_) == metrics.end())
            gutter_metric_ = metrics.empty() ? "" : metrics.front();
    }
    if (busy_ == Busy::running && ready(check_future_)) {
        verdict_ = check_future_.get();
        busy_ = Busy::none;
        if (!verdict_->diagnostics.empty()) diagnostics_ = verdict_->diagnostics;
    }
    if (!can_compile()) compile_pending_ = false;  // nothing to compile with: no "1 error(s)"
    if (busy_ == Busy::none && compile_pending_ && is_open()) {
        const double idle =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - last_edit_).count();
        if (idle >= options_.compile_delay_s) start_compile();
    }
}

void LabEditor::wait_idle() {
    while (busy_ != Busy::none) {
        if (compile_future_.valid()) compile_future_.wait();
        if (run_future_.valid()) run_future_.wait();
        if (check_future_.valid()) check_future_.wait();
        const bool pending = compile_pending_;
        compile_pending_ = false;  // collect what finished; start nothing new here
        poll();
        compile_pending_ = compile_pending_ || pending;
    }
}

std::vector<lab::Diagnostic> LabEditor::diagnostics_on_line(int line) const {
    return lab::diagnostics_for_line(diagnostics_, source_name_, line);
}

const char kNoCompilerStatus[] =
    "This build has no CUDA toolkit: you can edit and save here, but not compile or run.";

bool LabEditor::can_compile() {
    return lab::compiler_available();
}

std::string LabEditor::save_status(const std::string& lang) const {
    switch (saved_) {
        case Saved::none:
            return "";
        case Saved::restored:
            return ui_format("restored your edit from {0}", lang, {saved_detail_});
        case Saved::saved:
            return ui_format("saved to {0}", lang, {saved_detail_});
        case Saved::not_saved:
            return ui_format("NOT SAVED: {0}", lang, {saved_detail_});
        case Saved::reverted:
            return ui_text("back to the original; your edit was removed", lang);
        case Saved::failed:
            return saved_detail_;
    }
    return "";
}

std::string LabEditor::status_line(const std::string& lang) const {
    if (!can_compile() && !result_ && !verdict_) return kNoCompilerStatus;
    if (busy_ == Busy::compiling) return ui_text("compiling...", lang);
    if (busy_ == Busy::running) return ui_text("running in a child process...", lang);
    const std::string sep = ui_text("; ", lang);
    std::string s;
    if (compiled_once_) {
        int errors = 0, warnings = 0;
        for (const lab::Diagnostic& d : diagnostics_)
            (d.severity == "warning" ? warnings : errors) += d.severity == "remark" ? 0 : 1;
        s = errors ? ui_format("{0} error(s)", lang, {std::to_string(errors)})
                   : std::string(ui_text("compiles", lang));
        if (warnings) s += ui_format(", {0} warning(s)", lang, {std::to_string(warnings)});
    }
    if (result_)
        s += (s.empty() ? "" : sep) +
             ui_format("run: {0} - {1}", lang,
                       {lab_status_text(result_->status, lang), lab_text(result_->message, lang)});
    if (verdict_)
        s += (s.empty() ? "" : sep) +
             ui_format("check: {0}", lang, {lab_text(verdict_->summary, lang)});
    return s;
}

std::vector<std::string> LabEditor::gutter_metrics() const {
    std::vector<std::string> out;
    if (!result_ || !result_->session || result_->session->points.empty()) return out;
    const PointRecord& p = result_->session->points.front();
    if (!p.source_lines || !p.source_lines->available) return out;
    // The counters this file's own lines have: the header's lines may carry others.
    return recorded_roles(*p.source_lines, source_name_);
}

bool LabEditor::set_gutter_metric(const std::string& role) {
    const std::vector<std::string> m = gutter_metrics();
    if (std::find(m.begin(), m.end(), role) == m.end()) return false;
    gutter_metric_ = role;
    return true;
}

std::optional<GutterCell> LabEditor::gutter(int line, const std::string& lang) const {
    if (gutter_metric_.empty() || !result_ || !result_->session) return std::nullopt;
    const PointRecord& p = result_->session->points.front();
    if (!p.source_lines) return std::nullopt;
    const lab::SassRole* role = lab::find_sass_role(gutter_metric_);
    double hottest = 0;
    const LineCounters* mine = nullptr;
    for (const LineCounters& l : p.source_lines->lines) {
        if (l.file != source_name_) continue;
        auto it = l.values.find(gutter_metric_);
        if (it == l.values.end()) continue;
        hottest = std::max(hottest, it->second);
        if (l.line == line) mine = &l;
    }
    if (!mine) return std::nullopt;
    GutterCell c;
    c.value = mine->values.at(gutter_metric_);
    // Coalescing is better when higher: the heat is the shortfall from 100%.
    const bool pct = role && std::string(role->unit) == "%";
    c.heat = pct ? float(std::clamp(1.0 - c.value / 100.0, 0.0, 1.0))
                 : float(hottest > 0 ? c.value / hottest : 0);
    c.tooltip = describe_counters(mine->values, lang);
    return c;
}

}  // namespace sml::viewer
