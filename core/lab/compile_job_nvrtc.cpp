// compile_job: the compile-only path (see lab_job.h). Built with the toolkit's NVRTC; a build
// without the toolkit has compile_nocuda.cpp's instead.
#include "core/lab/compile.h"
#include "core/lab/kernel_names.h"
#include "core/lab/lab_job.h"
#include "kernels/registry.h"

namespace sml::lab {

LabResult compile_job(const LabJob& job, const std::string& arch) {
    LabResult r;
    const KernelInfo* k = lab_kernel(job.kernel, &r);
    if (!k) return r;
    const std::string name = job.source_name.empty() ? k->lesson_source() : job.source_name;
    parse_launch_overrides(job.source, name, &r.diagnostics);
    Result<std::vector<std::string>> exprs = built_kernel_expressions(k->lesson_source());
    if (!exprs) {
        r.status = status::kFailed;
        r.message = exprs.error().message;
        r.hint = exprs.error().hint;
        return r;
    }
    CompileRequest req;
    req.source = job.source;
    req.source_name = name;
    req.arch = !arch.empty() ? arch : (!job.arch.empty() ? job.arch : "sm_90");
    req.name_expressions = *exprs;
    Result<CompileResult> c = compile_source(req);
    if (!c) {
        r.status = status::kFailed;
        r.message = c.error().message;
        r.hint = c.error().hint;
        return r;
    }
    r.arch = c->arch;
    r.compile_seconds = c->seconds;
    r.diagnostics.insert(r.diagnostics.end(), c->diagnostics.begin(), c->diagnostics.end());
    r.compile_log = c->log;
    r.ptx = c->ptx;
    r.cubin = c->cubin;
    r.kernels = c->kernels;
    if (c->ok && !has_errors(r.diagnostics)) {
        r.status = status::kOk;
        r.message = "compiled for " + c->arch;
    } else {
        r.status = status::kCompileError;
        r.message = "the edit does not compile";
        r.hint = "fix the errors shown at their lines";
    }
    return r;
}

}  // namespace sml::lab
