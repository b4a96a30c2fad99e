// compile_source in a build without the CUDA toolkit: there is no NVRTC to call.
#include "core/lab/compile.h"
#include "core/lab/lab_job.h"

namespace sml::lab {

const char* const kLabPrelude = "";

std::string kernel_include_dir() {
    return SML_SOURCE_DIR;
}
std::string cuda_include_dir() {
    return "";
}
bool compiler_available() {
    return false;
}
std::string compiler_version() {
    return "none";
}

Result<CompileResult> compile_source(const CompileRequest&) {
    return Error{"this softmaxlab was built without the CUDA toolkit, so it cannot compile kernels",
                 "rebuild with the toolkit installed (NVRTC compiles without a GPU)"};
}

LabResult compile_job(const LabJob&, const std::string&) {
    LabResult r;
    r.status = status::kFailed;
    r.message = "this softmaxlab was built without the CUDA toolkit, so it cannot compile kernels";
    r.hint = "rebuild with the toolkit installed (NVRTC compiles without a GPU)";
    return r;
}

}  // namespace sml::lab
