// Which points a run or a sweep covers, and what each should cost: the host half of the runner
// (core/runner), with no CUDA, so that plans, ranges and predictions also work in a build
// without the toolkit and are tested on machines with no GPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "core/session/session.h"
#include "kernels/kernel_api.h"

namespace sml {

struct SweepItem {
    const KernelInfo* kernel = nullptr;
    SoftmaxProblem problem;
    int variant = 0;  // index into KernelInfo::variants
};
struct SkippedItem {
    std::string kernel;
    int64_t cols = 0;
    std::string reason;  // check_problem's message
};
struct SweepPlan {
    std::vector<SweepItem> items;      // kernel-major, in registry order, N ascending
    std::vector<SkippedItem> skipped;  // (kernel, N) outside the kernel's range on this device
};

// Every (kernel, N) inside the kernel's range; rows = elements / N, at least 1. With
// all_variants, kernels that have variants (smem's bank-conflicted layout) run each of them.
SweepPlan plan_sweep(const std::vector<const KernelInfo*>& kernels,
                     const std::vector<int64_t>& cols, int64_t elements, DType dtype,
                     const DeviceLimits& limits, bool all_variants = false);

// One explicitly sized point added to a sweep, e.g. the L2-resident naive run at 4096 x 1024.
// Text form: "<kernel>[/<variant>]:<rows>x<cols>", e.g. "naive:4096x1024",
// "smem/bank-conflicted:8192x32768".
Result<SweepItem> parse_extra_point(const std::string& text, DType dtype,
                                    const DeviceLimits& limits);

// Adds an extra point (parsed from `text`) to the plan. One the plan already holds, from the
// sweep itself or an earlier extra (same kernel, variant, dtype, rows and cols), is refused:
// the session would hold the point twice, and load_session refuses such a file.
Status add_extra_point(SweepPlan* plan, const SweepItem& item, const std::string& text);

// The default N values: 32 .. 1048576 with the cliffs a learner should see (powers of two and
// their neighbours such as 16385, non-powers such as 3000 and 12288).
std::vector<int64_t> default_sweep_cols();

// Predicted traffic from KernelInfo::predict, plus the L2-residency flag and its reason.
// `limits` are the device's (or its profile's); its L2 size sets the flag.
PredictedTraffic predict_point(const KernelInfo& kernel, const SoftmaxProblem& problem,
                               const DeviceLimits& limits);

}  // namespace sml
