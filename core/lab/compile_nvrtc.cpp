// compile_source on NVRTC. See compile.h.
#include <nvrtc.h>

#include <chrono>
#include <cstdlib>

#include "core/lab/compile.h"

namespace sml::lab {

const char* const kLabPrelude =
    R"(// softmaxlab lab prelude: what NVRTC lacks that the kernel files use.
#pragma once
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef long long intptr_t;
typedef unsigned long long uintptr_t;
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif
)";

namespace {

// <type_traits> as far as the kernels use it; NVRTC has no standard headers.
const char* const kTypeTraits = R"(#pragma once
namespace std {
template <bool B, class T, class F> struct conditional { using type = T; };
template <class T, class F> struct conditional<false, T, F> { using type = F; };
template <bool B, class T, class F> using conditional_t = typename conditional<B, T, F>::type;
template <class A, class B> struct is_same { static constexpr bool value = false; };
template <class A> struct is_same<A, A> { static constexpr bool value = true; };
template <class A, class B> inline constexpr bool is_same_v = is_same<A, B>::value;
template <bool B, class T = void> struct enable_if {};
template <class T> struct enable_if<true, T> { using type = T; };
template <bool B, class T = void> using enable_if_t = typename enable_if<B, T>::type;
}
)";
// Standard headers a learner may include out of habit: the prelude already has their contents
// (integers), or NVRTC has them built in (math functions).
const char* const kEmpty = "#pragma once\n";

std::string env_or(const char* name, const std::string& fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::string(v) : fallback;
}

std::string program_log(nvrtcProgram p) {
    size_t n = 0;
    if (nvrtcGetProgramLogSize(p, &n) != NVRTC_SUCCESS || n == 0) return "";
    std::string log(n, '\0');
    if (nvrtcGetProgramLog(p, log.data()) != NVRTC_SUCCESS) return "";
    while (!log.empty() && log.back() == '\0') log.pop_back();
    return log;
}

Error nvrtc_error(nvrtcResult r, const std::string& call) {
    return Error{call + " failed: " + nvrtcGetErrorString(r),
                 "check the CUDA toolkit's NVRTC (libnvrtc) and its version"};
}

// NVRTC looks name expressions up in a pseudo-file "__nv_name_map"; its errors there mean the
// edit lacks a kernel the plan launches. Say that, once, in the learner's terms.
std::vector<Diagnostic> explain_name_lookups(std::vector<Diagnostic> diags,
                                             const CompileRequest& request) {
    std::vector<Diagnostic> out;
    bool explained = false;
    for (Diagnostic& d : diags) {
        if (d.file != "__nv_name_map") {
            out.push_back(std::move(d));
            continue;
        }
        if (explained) continue;
        explained = true;
        std::string names;
        for (const std::string& e : request.name_expressions)
            names += (names.empty() ? "" : ", ") + e;
        out.push_back(Diagnostic{request.source_name, 0, 0, "error",
                                 "the edit lacks a kernel its plan launches (one of: " + names +
                                     "): keep the original kernels' names and template parameters, "
                                     "since the lab launches the edit with its original's plan"});
    }
    return out;
}

}  // namespace

std::string kernel_include_dir() {
    return env_or("SML_LAB_INCLUDE_DIR", SML_SOURCE_DIR);
}
std::string cuda_include_dir() {
    return env_or("SML_CUDA_INCLUDE_DIR", SML_CUDA_INCLUDE_DIR);
}

bool compiler_available() {
    return true;
}

std::string compiler_version() {
    int major = 0, minor = 0;
    if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "unknown";
    return std::to_string(major) + "." + std::to_string(minor);
}

Result<CompileResult> compile_source(const CompileRequest& request) {
    const auto t0 = std::chrono::steady_clock::now();
    CompileResult out;
    out.arch = request.arch.empty() ? "sm_90" : request.arch;
    const bool want_cubin = out.arch.rfind("sm_", 0) == 0;
    if (!want_cubin && out.arch.rfind("compute_", 0) != 0)
        return Error{"'" + out.arch + "' is not a GPU architecture",
                     "use sm_XX for a cubin (e.g. sm_90 on an H100) or compute_XX for PTX only"};

    const char* headers[] = {kLabPrelude, kTypeTraits, kEmpty, kEmpty, kEmpty, kEmpty};
    const char* names[] = {"sml_lab_prelude.h", "type_traits", "cstdint",
                           "stdint.h",          "cmath",       "math.h"};
    nvrtcProgram prog = nullptr;
    if (nvrtcResult r = nvrtcCreateProgram(&prog, request.source.c_str(),
                                           request.source_name.c_str(), 6, headers, names);
        r != NVRTC_SUCCESS)
        return nvrtc_error(r, "nvrtcCreateProgram");
    struct Destroy {
        nvrtcProgram* p;
        ~Destroy() { nvrtcDestroyProgram(p); }
    } destroy{&prog};

    for (const std::string& e : request.name_expressions)
        if (nvrtcResult r = nvrtcAddNameExpression(prog, e.c_str()); r != NVRTC_SUCCESS)
            return nvrtc_error(r, "nvrtcAddNameExpression(" + e + ")");

    out.options = {"--gpu-architecture=" + out.arch, "-std=c++17",
                   "--pre-include=sml_lab_prelude.h", "-I" + kernel_include_dir(),
                   "-I" + cuda_include_dir()};
    if (request.line_info) out.options.push_back("--generate-line-info");
    std::vector<const char*> opts;
    for (const std::string& o : out.options) opts.push_back(o.c_str());
    const nvrtcResult compiled = nvrtcCompileProgram(prog, int(opts.size()), opts.data());
    out.log = program_log(prog);
    out.diagnostics = explain_name_lookups(parse_nvrtc_log(out.log), request);
    if (compiled == NVRTC_ERROR_INVALID_OPTION)
        return Error{"NVRTC rejected its options: " + out.log,
                     "this NVRTC may be older than the toolkit softmaxlab was built with"};
    if (compiled != NVRTC_SUCCESS) {
        if (out.diagnostics.empty())
            out.diagnostics.push_back(Diagnostic{
                "", 0, 0, "error", std::string("NVRTC: ") + nvrtcGetErrorString(compiled)});
        out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return out;
    }

    size_t n = 0;
    if (nvrtcResult r = nvrtcGetPTXSize(prog, &n); r != NVRTC_SUCCESS)
        return nvrtc_error(r, "nvrtcGetPTXSize");
    out.ptx.resize(n);
    if (nvrtcResult r = nvrtcGetPTX(prog, out.ptx.data()); r != NVRTC_SUCCESS)
        return nvrtc_error(r, "nvrtcGetPTX");
    while (!out.ptx.empty() && out.ptx.back() == '\0') out.ptx.pop_back();
    if (want_cubin) {
        if (nvrtcResult r = nvrtcGetCUBINSize(prog, &n); r != NVRTC_SUCCESS)
            return nvrtc_error(r, "nvrtcGetCUBINSize");
        out.cubin.resize(n);
        if (nvrtcResult r = nvrtcGetCUBIN(prog, out.cubin.data()); r != NVRTC_SUCCESS)
            return nvrtc_error(r, "nvrtcGetCUBIN");
    }
    for (const std::string& e : request.name_expressions) {
        const char* lowered = nullptr;
        if (nvrtcResult r = nvrtcGetLoweredName(prog, e.c_str(), &lowered); r != NVRTC_SUCCESS)
            return nvrtc_error(r, "nvrtcGetLoweredName(" + e + ")");
        out.kernels.push_back(CompiledKernel{e, lowered ? lowered : ""});
    }
    out.ok = true;
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

}  // namespace sml::lab
