// `softmaxlab-cli run` on the GPU, once cmd_run.cpp has checked its arguments (CUDA builds only).
#include <cstdio>
#include <memory>

#include "app/cli/cli_common.h"
#include "app/cli/gpu_commands.h"
#include "app/cli/lab_report.h"
#include "app/cli/report.h"
#include "core/lab/lab_child.h"
#include "core/runner/runner.h"

namespace sml::cli {

namespace {
// --source: the edit runs as a lab job in a child process; whatever it does, this one reports.
int run_edit(const RunArgs& a, const RunChecked& c) {
    lab::LabJob job = lab::make_job(c.kernel->id, c.kernel->lesson_source(), c.source_text);
    job.label = a.label;
    job.rows = c.problem.rows;
    job.cols = c.problem.cols;
    job.dtype = a.dtype;
    job.variant = c.variant;
    job.metrics = a.metrics;
    job.per_line = !a.no_per_line;
    job.samples = int(c.samples);
    job.warmup = int(c.warmup);
    job.seed = c.seed;
    lab::ChildJobOptions o;
    o.time_limit_s = c.time_limit_s;
    const lab::LabResult r = lab::run_job_in_child(job, o);
    print_lab_result(r);
    if (!a.result_out.empty())
        if (Status st = lab::save_result(a.result_out, r); !st)
            return fail(st.error(), kExitFailure);
    if (!a.json_out.empty() && r.session) {
        Session s = *r.session;
        s.command = command_line();
        if (Status st = save_session(a.json_out, s); !st) return fail(st.error(), kExitFailure);
        std::printf("\nsession written to %s\n", a.json_out.c_str());
    }
    return lab_exit_code(r);
}
}  // namespace

int execute_run(const RunArgs& a, const RunChecked& c) {
    if (!a.source.empty()) return run_edit(a, c);

    RunOptions options;
    options.metrics = c.metrics;
    options.timing.samples = int(c.samples);
    options.timing.warmup = int(c.warmup);
    options.variant = c.variant;
    options.seed = c.seed;
    Result<std::unique_ptr<RunContext>> ctx = RunContext::create(options);
    if (!ctx) return fail(ctx.error(), kExitFailure);
    Result<PointRecord> point = run_point(*c.kernel, c.problem, options, **ctx);
    if (!point) return fail(point.error(), kExitFailure);

    Session session = new_session((*ctx)->device(), command_line());
    session.device.copy_gbps = point->copy_gbps;
    session.device.counters_available = point->metrics.available;
    session.device.counters_reason = point->metrics.available ? "" : point->metrics.reason;
    session.points.push_back(*point);
    print_point(*point, session.device);
    if (!a.json_out.empty()) {
        if (Status s = save_session(a.json_out, session); !s) return fail(s.error(), kExitFailure);
        std::printf("\nsession written to %s\n", a.json_out.c_str());
    }
    if (!point->within_tolerance)
        return fail(
            Error{std::string(point->kernel) + " is wrong at N = " + std::to_string(point->cols) +
                      ": max relative error " + fmt_sci(point->max_rel_error) + ", row-sum error " +
                      fmt_sci(point->max_rowsum_error) + " (tolerance " +
                      fmt_sci(point->tolerance) + ")",
                  "the result is recorded but flagged; compare with another kernel "
                  "(softmaxlab-cli run --kernel online ...) to isolate the bug"},
            kExitFailure);
    return kExitOk;
}

}  // namespace sml::cli
