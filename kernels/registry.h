// The registry: the one and only list of softmax kernels in softmaxlab.
//
// The CLI, the viewer, the lessons, the charts and the tests all iterate over `registry()`.
// To add a kernel: write kernels/<id>_softmax.cu (see kernel_api.h) and add one entry in
// kernels/registry.cpp. Nothing else needs to change.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/common/result.h"
#include "kernels/kernel_api.h"

namespace sml {

// All kernels, in lesson order (naive first, best last).
const std::vector<KernelInfo>& registry();

// nullptr when no kernel has this id.
const KernelInfo* find_kernel(std::string_view id);

// Ids joined with ", " (for error messages and --help).
std::string kernel_ids();

// Checks dtype, rows, cols and strides against the kernel's range on `limits`. The error names
// the kernel, its limit, why the limit exists, and which kernels can run this N instead.
Status check_problem(const KernelInfo& k, const SoftmaxProblem& p, const DeviceLimits& limits);

// Kernels whose range contains p.cols for this dtype.
std::vector<const KernelInfo*> kernels_for(const SoftmaxProblem& p, const DeviceLimits& limits);

// Plans and enqueues every step of `k` on `stream` (no synchronisation).
cudaError_t launch_all(const KernelInfo& k, const LaunchArgs& args, cudaStream_t stream);

// check_problem, then launch_all: a problem outside the kernel's range returns check_problem's
// Error and launches nothing; a CUDA failure comes back as an Error naming the kernel.
Status launch_checked(const KernelInfo& k, const LaunchArgs& args, cudaStream_t stream);

}  // namespace sml
