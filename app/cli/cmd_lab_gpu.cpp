// `softmaxlab-cli lab`, the part that needs the CUDA toolkit (NVRTC, the CUDA runtime, CUPTI),
// once cmd_lab.cpp has checked the arguments (CUDA builds only).
#include <cstdio>

#include "app/cli/cli_common.h"
#include "app/cli/gpu_commands.h"
#include "app/cli/lab_report.h"
#include "app/cli/per_line_record.h"
#include "core/lab/edit_store.h"
#include "core/lab/lab_run.h"
#include "core/lab/line_map.h"
#include "core/lab/sass_metrics.h"

namespace sml::cli {

int execute_lab_run(const lab::LabJob& job, const std::string& out) {
    const lab::LabResult r = lab::run_job(job);
    if (Status s = lab::save_result(out, r); !s) return fail(s.error(), kExitFailure);
    print_lab_result(r);
    return lab_exit_code(r);
}

int execute_lab_compile(const lab::LabJob& job, const LabArgs& a) {
    const lab::LabResult r = lab::compile_job(job, a.arch);
    if (!r.diagnostics.empty()) std::printf("%s", lab::format_diagnostics(r.diagnostics).c_str());
    std::printf("lab: %s: %s (%zu kernels, %.2f s)\n", r.status.c_str(), r.message.c_str(),
                r.kernels.size(), r.compile_seconds);
    if (!a.ptx.empty() && !r.ptx.empty())
        if (Status s = lab::write_file_atomically(a.ptx, r.ptx); !s)
            return fail(s.error(), kExitFailure);
    if (!a.out.empty() && !r.cubin.empty())
        if (Status s = lab::write_file_atomically(a.out, r.cubin); !s)
            return fail(s.error(), kExitFailure);
    return r.status == lab::status::kOk ? kExitOk : kExitFailure;
}

int execute_lab_check(const lab::Exercise& e, const std::string& source, double time_limit_s) {
    lab::ChildJobOptions o;
    o.time_limit_s = time_limit_s;
    const lab::ExerciseVerdict v = lab::check_exercise(e, source, o);
    print_verdict(e, v);
    return v.passed ? kExitOk : kExitFailure;
}

int execute_lab_sass_metrics(const std::string& out) {
    std::string chip;
    Result<std::vector<lab::SassMetricInfo>> all = lab::list_sass_metrics(0, &chip);
    if (!all) return fail(all.error(), kExitFailure);
    std::string text = "# SASS metrics of " + chip + " (" + std::to_string(all->size()) + ")\n";
    for (const lab::SassMetricInfo& m : *all) text += m.name + "\t" + m.description + "\n";
    std::printf("%s", text.c_str());
    if (!out.empty())
        if (Status s = lab::write_file_atomically(out, text); !s)
            return fail(s.error(), kExitFailure);
    return kExitOk;
}

int execute_lab_fold(const lab::LabResult& r) {
    Result<lab::LineMaps> maps = lab::map_record_lines(r.cubin, r.sass_records);
    if (!maps) return fail(maps.error(), kExitFailure);
    for (const LineCounters& l : lab::fold_per_line(r.sass_records, *maps)) {
        std::printf("%s:%d", l.file.c_str(), l.line);
        for (const auto& [k, v] : l.values) std::printf("  %s=%.0f", k.c_str(), v);
        std::printf("\n");
    }
    return kExitOk;
}

int execute_lab_lines(Session session, const std::vector<const KernelInfo*>& kernels,
                      const std::vector<int64_t>& cols, double time_limit_s,
                      const std::string& out) {
    PerLineOptions o;
    o.cols = cols;
    o.time_limit_s = time_limit_s;
    Result<PerLineSummary> summary = record_source_lines(&session, kernels, o);
    if (!summary) return fail(summary.error(), kExitFailure);
    if (summary->recorded == 0)
        return fail(Error{"no kernel got per-line counters; nothing was written",
                          "the lines above say why for each kernel"},
                    kExitFailure);
    if (Status s = save_session(out, session); !s) return fail(s.error(), kExitFailure);
    std::printf("%d kernel(s) with per-line counters; session written to %s\n", summary->recorded,
                out.c_str());
    return summary->problems.empty() ? kExitOk : kExitFailure;
}

}  // namespace sml::cli
