// What entering a lesson step sets. See step_view.h.
#include "app/viewer/model/step_view.h"

#include <algorithm>
#include <cstdlib>

namespace sml::viewer {

namespace {

void add_unique(std::vector<std::string>* v, const std::string& s) {
    if (std::find(v->begin(), v->end(), s) == v->end()) v->push_back(s);
}

std::vector<int64_t> fp32_cols(const Session& s) {
    std::vector<int64_t> cols;
    for (const PointRecord& p : s.points)
        if (p.dtype == "fp32" && std::find(cols.begin(), cols.end(), p.cols) == cols.end())
            cols.push_back(p.cols);
    std::sort(cols.begin(), cols.end());
    return cols;
}

}  // namespace

StepView step_view(const LessonBook& book, int index, const Session* session) {
    StepView v;
    if (index < 0 || index >= static_cast<int>(book.steps.size())) return v;
    const LessonStep& step = book.steps[static_cast<size_t>(index)];

    for (const LessonAnchor& a : step.anchors)
        if (!a.is_ptx()) {
            v.source_kernel = a.kernel;
            v.source_region = a.region;
            break;
        }
    if (v.source_kernel.empty() && !step.kernels.empty()) v.source_kernel = step.kernels.front();

    for (const std::string& k : step.kernels) add_unique(&v.own_kernels, k);
    v.kernels = v.own_kernels;
    if (step.chart.contrast_given) {
        for (const std::string& k : step.chart.contrast) add_unique(&v.kernels, k);
    } else if (index > 0) {
        for (const std::string& k : book.steps[static_cast<size_t>(index - 1)].kernels)
            add_unique(&v.kernels, k);
    }
    v.chart_kind = step.chart.kind.empty() ? "pct" : step.chart.kind;
    v.marks = step.chart.marks;
    if (v.marks.empty() && step.experiment.cols > 0) v.marks.push_back(step.experiment.cols);

    if (session) {
        const std::vector<int64_t> cols = fp32_cols(*session);
        auto has = [&](int64_t c) { return std::find(cols.begin(), cols.end(), c) != cols.end(); };
        for (int64_t m : v.marks)
            if (has(m)) {
                v.cols = m;
                break;
            }
        if (v.cols == 0 && has(step.experiment.cols)) v.cols = step.experiment.cols;
        if (v.cols == 0 && step.experiment.cols > 0)  // the nearest N on a log scale
            v.cols = nearest_cols(cols, step.experiment.cols);
    }

    const LessonExperiment& e = step.experiment;
    v.run_kernels = e.kernels;
    v.run_rows = e.rows;
    v.run_cols = e.cols;
    v.run_dtype = e.dtype.empty() ? "fp32" : e.dtype;
    v.run_variant = e.variant;
    return v;
}

std::vector<std::string> compare_after_click(const std::vector<std::string>& compare,
                                             const std::string& kernel, int64_t cols,
                                             const Session& session) {
    if (compare.empty()) return compare;  // no filter: every kernel is in the table already
    std::vector<std::string> out = compare;
    if (!kernel.empty()) add_unique(&out, kernel);
    // Still nothing at this N (a click on a reference line's N): drop the filter.
    const bool any =
        std::any_of(session.points.begin(), session.points.end(), [&](const PointRecord& p) {
            return p.cols == cols && std::find(out.begin(), out.end(), p.kernel) != out.end();
        });
    if (!any) out.clear();
    return out;
}

}  // namespace sml::viewer
