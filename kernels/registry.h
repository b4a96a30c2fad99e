// The registry: the one and only list of softmax kernels in softmaxlab.
//
// The CLI, the viewer, the lessons, the charts and the tests all iterate over `registry()`.
// To add a kernel: write kernels/<id>_softmax.cu (see kernel_api.h) and add one entry in
// kernels/registry.cpp. Nothing else needs to change. No CUDA here; launching is in
// kernels/launch_checked.h.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/message.h"
#include "common/result.h"
#include "kernels/kernel_api.h"

namespace sml {

// All kernels, in lesson order (naive first, best last).
const std::vector<KernelInfo>& registry();

// nullptr when no kernel has this id.
const KernelInfo* find_kernel(std::string_view id);

// Ids joined with ", " (for error messages and --help).
std::string kernel_ids();

// Checks the GPU's compute capability, dtype, rows, cols and strides against the kernel's needs
// and range on `limits`. The error names the kernel, the GPU, the limit and why it exists, and
// which kernels can run this problem instead.
Status check_problem(const KernelInfo& k, const SoftmaxProblem& p, const DeviceLimits& limits);
// The same check as sentences (common/message.h), for a viewer that words them in another
// language; nullopt when the kernel can run the problem. check_problem is its English.
std::optional<MessageError> problem_error(const KernelInfo& k, const SoftmaxProblem& p,
                                          const DeviceLimits& limits);

// Kernels whose range contains p.cols for this dtype.
std::vector<const KernelInfo*> kernels_for(const SoftmaxProblem& p, const DeviceLimits& limits);

// "NVIDIA H100 80GB HBM3 (compute capability 9.0)", for messages.
std::string device_label(const DeviceLimits& limits);
Message device_label_message(const DeviceLimits& limits);

}  // namespace sml
