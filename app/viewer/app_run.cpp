// Runs on the worker thread and the results streaming back. See app.h and model/run_job.h.
#include <algorithm>

#include "app/viewer/app.h"
#include "app/viewer/model/run_job.h"
#include "app/viewer/model/gpu_access.h"
#include "core/plan/sweep_plan.h"
#include "kernels/registry.h"

namespace sml::viewer {

std::string App::run_disabled_reason() const {
    if (!s_.gpu_available) return tr(s_.no_gpu_reason.c_str());
    if (s_.running) return "a run is in progress";
    return "";
}

void App::start_run(bool sweep) {
    if (!run_disabled_reason().empty()) return;
    RunRequest r;
    for (const auto& [id, on] : s_.run_kernels)
        if (on) r.kernels.push_back(id);
    // Registry order, so the table and the progress read in lesson order.
    std::vector<std::string> ordered;
    for (const KernelInfo& k : registry())
        if (std::find(r.kernels.begin(), r.kernels.end(), k.id) != r.kernels.end())
            ordered.push_back(k.id);
    r.kernels = ordered;
    r.rows = s_.run_rows;
    r.cols = s_.run_cols;
    r.dtype = s_.run_dtype == 1 ? DType::f16 : (s_.run_dtype == 2 ? DType::bf16 : DType::f32);
    r.metrics = s_.run_metric_set == 0
                    ? MetricSet::off
                    : (s_.run_metric_set == 2 ? MetricSet::deep : MetricSet::standard);
    r.sweep = sweep;
    if (!sweep) {
        // A Run sends the kernels the panel shows enabled; a sweep skips each kernel's out-of-
        // range N itself. None enabled: why the first ticked one cannot run, in the lesson's
        // language.
        std::optional<MessageError> why;
        std::vector<std::string> runnable = runnable_kernels(
            r.kernels, SoftmaxProblem::contiguous(r.rows, r.cols, r.dtype), s_.limits, &why);
        if (runnable.empty() && why) {
            const Error e = error_text(why->en(), why, s_.lessons_lang);
            s_.set_banner({Banner::Level::error, e.message, e.hint, true, "run"});
            return;
        }
        r.kernels = std::move(runnable);
    }
    if (!sweep)
        for (const std::string& id : r.kernels)
            if (auto v = s_.run_variants.find(id); v != s_.run_variants.end() && v->second > 0)
                r.variants[id] = v->second;
    if (sweep) {
        r.sweep_cols = default_sweep_cols();
        Result<int64_t> elements = matrix_elements(s_.run_rows, s_.run_cols, s_.lessons_lang);
        if (!elements) {
            s_.set_banner({Banner::Level::error, elements.error().message, elements.error().hint,
                           true, "run"});
            return;
        }
        r.sweep_elements = *elements;
    }
    if (Status v = validate_request(r, s_.lessons_lang); !v) {
        s_.set_banner({Banner::Level::error, v.error().message, v.error().hint, true, "run"});
        return;
    }
    s_.clear_banner("run");
    if (s_.replay || !s_.has_session) {
        // Live points never mix into a recorded session from another machine.
        Session live;
        live.device = s_.session.device;
        set_session(std::move(live), "live", false);
    }
    s_.table_kernels = r.kernels;
    // The chart shows what runs, even a kernel the step's preset does not name.
    for (const std::string& k : r.kernels)
        if (std::find(s_.step.kernels.begin(), s_.step.kernels.end(), k) == s_.step.kernels.end())
            s_.step.kernels.push_back(k);
    s_.running = worker_.start(make_run_job(std::move(r)));
    s_.run_done = 0;
    s_.run_total = 0;
    s_.run_label = "starting";
}

void App::poll_worker() {
    std::vector<WorkEvent> events = worker_.drain();
    if (events.empty()) return;
    bool points = false;
    for (WorkEvent& e : events) {
        switch (e.kind) {
            case WorkEvent::Kind::progress:
                s_.run_done = e.done;
                s_.run_total = e.total;
                s_.run_label = e.label;
                break;
            case WorkEvent::Kind::device:
                if (s_.session.created_utc.empty())
                    s_.session = new_live_session(e.device);
                s_.session.device = e.device;
                break;
            case WorkEvent::Kind::point: {
                // A re-run of the same point replaces the old one.
                auto& pts = s_.session.points;
                pts.erase(std::remove_if(pts.begin(), pts.end(),
                                         [&](const PointRecord& p) {
                                             return p.kernel == e.point.kernel &&
                                                    p.cols == e.point.cols &&
                                                    p.dtype == e.point.dtype &&
                                                    p.variant == e.point.variant;
                                         }),
                          pts.end());
                pts.push_back(std::move(e.point));
                points = true;
                break;
            }
            case WorkEvent::Kind::finished:
            case WorkEvent::Kind::cancelled:
                s_.running = false;
                if (e.kind == WorkEvent::Kind::cancelled)
                    s_.set_banner({Banner::Level::info,
                                   tr("Run cancelled; the finished points are kept."), "", true,
                                   "run"});
                break;
            case WorkEvent::Kind::failed: {
                s_.running = false;
                const Error why = error_text(e.error, e.error_message, s_.lessons_lang);
                s_.set_banner({Banner::Level::error,
                               ui_format("Run failed: {0}", s_.lessons_lang, {why.message}),
                               why.hint, true, "run"});
                break;
            }
        }
    }
    if (points) {
        s_.all_cols = session_cols(s_.session);
        const PointRecord& last = s_.session.points.back();
        if (s_.cols != last.cols && !s_.running) s_.cols = last.cols;
        if (s_.cols == 0) s_.cols = last.cols;
        s_.dtype = last.dtype;
        refresh_metrics();
        refresh_chart();
        refresh_lesson_text();
    }
}

}  // namespace sml::viewer
