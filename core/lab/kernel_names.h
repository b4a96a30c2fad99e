// From the name of a kernel the build holds to the name NVRTC needs to find the same kernel in
// an edited copy of its file.
//
// An edited kernel keeps its original's names (docs/lab.md). The original's plan picks a
// template instantiation, say warp_softmax_kernel<32, 8, 4>; the CUDA runtime names it by its
// mangled symbol (cudaFuncGetName), the C++ demangler turns that into
//   void sml::(anonymous namespace)::warp_softmax_kernel<32, 8, 4>(float const*, long, ...)
// and this file turns that into the NVRTC name expression
//   sml::warp_softmax_kernel<32, 8, 4>
// which makes NVRTC instantiate the template in the edit and tells us its lowered (mangled) name
// there (nvrtcGetLoweredName): the anonymous namespace mangles differently in every compile, so
// the name has to come back from NVRTC, not from the build.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"

namespace sml::lab {

// abi::__cxa_demangle; the input unchanged when it is not a mangled C++ name.
std::string demangle(const std::string& mangled);

// The name expression for a demangled kernel name: no return type, no parameter list, and no
// "(anonymous namespace)::" (an unnamed namespace's members are reachable from the enclosing
// one). An Error for text that is not a function name.
Result<std::string> name_expression(const std::string& demangled);

// The mangled names of the kernels (.entry) in a PTX text, in order.
std::vector<std::string> ptx_entry_names(const std::string& ptx);

// Every kernel the build holds for a lesson file, as name expressions: read from the PTX the
// build made of it with nvcc (build/ptx/<stem>.ptx, or $SML_PTX_DIR/<stem>.ptx). Without a GPU
// there is no plan to say which instantiation runs, so a compile-only check instantiates all of
// them: an edit that breaks any one of them shows its error.
std::string built_ptx_path(const std::string& lesson_source);  // "kernels/warp_softmax.cu"
Result<std::vector<std::string>> built_kernel_expressions(const std::string& lesson_source);

}  // namespace sml::lab
