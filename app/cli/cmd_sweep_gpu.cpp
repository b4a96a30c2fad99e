// `softmaxlab-cli sweep` on the GPU, once cmd_sweep.cpp has checked its arguments and planned
// the points (CUDA builds only).
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "app/cli/cli_common.h"
#include "app/cli/gpu_commands.h"
#include "app/cli/per_line_record.h"
#include "app/cli/report.h"
#include "core/runner/runner.h"

namespace sml::cli {

int execute_sweep(const SweepArgs& a, const SweepChecked& c) {
    RunOptions options;
    options.metrics = c.metrics;
    options.timing.samples = int(c.samples);
    options.seed = c.seed;
    ProgressDisplay progress;
    SweepCallbacks callbacks;
    callbacks.progress = [&progress](int done, int total, const std::string& label) {
        progress.update(done, total, label);
    };
    const auto t0 = std::chrono::steady_clock::now();
    Result<SweepResult> result = run_sweep(c.plan, options, command_line(), callbacks, nullptr);
    progress.finish();
    if (!result) return fail(result.error(), kExitFailure);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    Session& session = result->session;
    session.notes["sweep_seconds"] = fmt(seconds, 1);
    // The device machine gets a copy of the tree without .git, so the caller passes the commit.
    if (const char* commit = std::getenv("SML_GIT_COMMIT"); commit && *commit)
        session.software["softmaxlab_commit"] = commit;

    if (!c.per_line_cols.empty()) {
        std::printf("per-line counters at N=%s (each lesson kernel in a child process):\n",
                    a.per_line.c_str());
        PerLineOptions o;
        o.cols = c.per_line_cols;
        Result<PerLineSummary> lines = record_source_lines(&session, c.kernels, o);
        if (!lines) print_error("per-line counters: " + lines.error().message, lines.error().hint);
    }
    print_sweep_table(session);
    std::printf("\n%zu points in %.1f s (%zu skipped: outside their kernel's range)\n",
                session.points.size(), seconds, c.plan.skipped.size());
    if (!session.device.counters_available)
        std::printf("counters unavailable: %s\n", session.device.counters_reason.c_str());
    int status = kExitOk;
    if (!a.out.empty()) {
        if (Status s = save_session(a.out, session); !s) return fail(s.error(), kExitFailure);
        std::printf("session written to %s\n", a.out.c_str());
    }
    if (a.out.empty())
        std::printf("no --out given: the session was not saved (add --out session.json)\n");
    if (!a.csv.empty()) {
        if (Status s = write_points_csv(a.csv, session); !s) return fail(s.error(), kExitFailure);
        std::printf("CSV written to %s\n", a.csv.c_str());
    }
    for (const PointFailure& f : result->failures) {
        print_error(f.kernel + " N=" + std::to_string(f.cols) + ": " + f.error.message,
                    f.error.hint);
        status = kExitFailure;
    }
    for (const PointRecord& p : session.points) {
        if (p.within_tolerance) continue;
        print_error(p.kernel + " N=" + std::to_string(p.cols) +
                        " is outside tolerance: max rel "
                        "error " +
                        fmt_sci(p.max_rel_error) + ", row-sum error " +
                        fmt_sci(p.max_rowsum_error) + " (tolerance " + fmt_sci(p.tolerance) + ")",
                    "the point is recorded but flagged (marked ! in the table)");
        status = kExitFailure;
    }
    return status;
}

}  // namespace sml::cli
