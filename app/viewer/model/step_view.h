// What entering a lesson step sets, as data: a step owns its state.
//
// Entering step K shows K's kernels and N in the table, K's chart, K's code at its first anchored
// region, the text from its top, and fills the Run form with K's experiment, whatever the
// previous step or a Set up left behind (step 7 no longer shows naive's exp_kernel because naive
// is the first of its kernels; the table never keeps step 5's smem-only filter). No ImGui.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/lessons/lesson_model.h"
#include "core/session/session.h"

namespace sml::viewer {

struct StepView {
    // Code: the kernel and region of the step's first region anchor (else its first kernel).
    std::string source_kernel;
    std::string source_region;
    // Table and chart: the step's kernels, then the contrast kernels (lessons.json "chart"
    // "contrast", by default the previous step's kernels), no repeats.
    std::vector<std::string> kernels;
    std::vector<std::string> own_kernels;  // the step's own (predict mode withholds these)
    std::string chart_kind = "pct";
    std::vector<int64_t> marks;  // the N the text talks about, marked on the chart
    // The N for the table and the per-N charts: the first mark the session has, else the
    // experiment's N when the session has it, else the session's N nearest to it (0: none).
    int64_t cols = 0;
    // The Run form: the experiment's kernels, M, N, dtype and variant.
    std::vector<std::string> run_kernels;
    int64_t run_rows = 0, run_cols = 0;
    std::string run_dtype = "fp32";
    std::string run_variant;
};

StepView step_view(const LessonBook& book, int index, const Session* session);

// The table's kernels after the learner clicks a chart point of `kernel` at `cols`: the kernel
// joins the filter when it is not in it, so the table never goes empty for a point on screen.
std::vector<std::string> compare_after_click(const std::vector<std::string>& compare,
                                             const std::string& kernel, int64_t cols,
                                             const Session& session);

}  // namespace sml::viewer
