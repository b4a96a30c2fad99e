// Compiling an edited kernel file at run time with NVRTC: no GPU needed, so a machine without
// one still shows compile errors at their lines, and the PTX.
//
// NVRTC compiles device code only and has no host standard library. The kernel files put their
// host side (includes, the launch plan) in #ifndef __CUDACC_RTC__ blocks; what the device code
// still needs from the host headers (fixed-width integers, INFINITY, std::conditional_t) comes
// from a small header NVRTC pre-includes from memory (kLabPrelude below), and the kernels'
// own headers (kernels/softmax_device.cuh, ...) from the source tree.
//
// compile_nvrtc.cpp implements this with the CUDA toolkit; compile_nocuda.cpp says that a build
// without the toolkit cannot compile.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "core/lab/diagnostics.h"

namespace sml::lab {

struct CompileRequest {
    std::string source;                   // the whole edited file
    std::string source_name = "edit.cu";  // what diagnostics and line info call it
    // "sm_90": a cubin (and its PTX) for that GPU; "compute_90": PTX only. Empty: sm_90.
    std::string arch;
    // Kernels to instantiate and find: NVRTC name expressions (core/lab/kernel_names.h).
    std::vector<std::string> name_expressions;
    bool line_info = true;  // --generate-line-info, for errors at run time and per-line counters
};

struct CompiledKernel {
    std::string expression;  // as requested
    std::string lowered;     // its mangled name in this compile's cubin
};

struct CompileResult {
    bool ok = false;  // NVRTC succeeded: no errors, code below filled
    std::string arch;
    std::vector<Diagnostic> diagnostics;  // errors and warnings, at their lines
    std::string log;                      // NVRTC's log as it came
    std::string ptx;
    std::string cubin;  // bytes; empty for a compute_XX target
    std::vector<CompiledKernel> kernels;
    std::vector<std::string> options;  // as passed to NVRTC
    double seconds = 0;
};

// Compiles. Errors in the source are data (ok = false, diagnostics); an Error means NVRTC could
// not run at all (no toolkit in this build, an option it rejects, out of memory).
Result<CompileResult> compile_source(const CompileRequest& request);

// Whether this build can compile (it has NVRTC), and NVRTC's version ("13.0").
bool compiler_available();
std::string compiler_version();

// The pre-included header, for tests and docs: what NVRTC lacks that the kernels use.
extern const char* const kLabPrelude;

// Where #include "kernels/..." resolves: $SML_LAB_INCLUDE_DIR, else the source tree this build
// came from. Where <cuda_fp16.h> resolves: $SML_CUDA_INCLUDE_DIR, else the toolkit's.
std::string kernel_include_dir();
std::string cuda_include_dir();

}  // namespace sml::lab
