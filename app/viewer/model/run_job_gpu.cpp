// The Run and Sweep jobs, on the GPU. See run_job.h. Built with the CUDA toolkit.
#include "app/viewer/model/run_job.h"
#include "core/runner/runner.h"
#include "kernels/registry.h"

namespace sml::viewer {

Worker::Job make_run_job(RunRequest r) {
    return [r](JobContext& ctx) -> Status {
        if (Status v = validate_request(r); !v) return v;
        RunOptions opt;
        opt.metrics = r.metrics;
        // The RunContext must be created on this thread: CUDA's current device is per thread.
        Result<std::unique_ptr<RunContext>> rc = RunContext::create(opt);
        if (!rc) return rc.error();
        RunContext& context = **rc;
        ctx.emit_device(context.device());
        std::vector<const KernelInfo*> kernels;
        for (const std::string& id : r.kernels) kernels.push_back(find_kernel(id));

        if (r.sweep) {
            SweepPlan plan =
                plan_sweep(kernels, r.sweep_cols, r.sweep_elements, r.dtype, context.limits());
            SweepCallbacks cb;
            cb.progress = [&ctx](int done, int total, const std::string& label) {
                ctx.progress(done, total, label);
            };
            cb.point_done = [&ctx](const PointRecord& p) { ctx.emit(p); };
            // Reuses this thread's context: one CUPTI setup and one set of buffers per job.
            SweepResult res =
                run_sweep(plan, opt, "softmaxlab (viewer sweep)", cb, ctx.cancel_flag(), context);
            if (!res.failures.empty() && res.session.points.empty())
                return res.failures.front().error;
            return ok_status();
        }

        const SoftmaxProblem problem = SoftmaxProblem::contiguous(r.rows, r.cols, r.dtype);
        const int total = static_cast<int>(kernels.size());
        int done = 0;
        for (int i = 0; i < total; ++i, ++done) {
            if (ctx.cancelled()) break;
            ctx.progress(i, total, std::string(kernels[i]->id) + "  N = " + std::to_string(r.cols));
            if (std::optional<MessageError> unfit =
                    problem_error(*kernels[i], problem, context.limits()))
                return ctx.fail(std::move(*unfit));
            RunOptions point_opt = opt;
            if (auto v = r.variants.find(kernels[i]->id); v != r.variants.end())
                point_opt.variant = v->second;
            Result<PointRecord> p = run_point(*kernels[i], problem, point_opt, context);
            if (!p) return p.error();
            ctx.emit(std::move(*p));
        }
        ctx.progress(done, total, done == total ? "done" : "cancelled");
        return ok_status();
    };
}

}  // namespace sml::viewer
