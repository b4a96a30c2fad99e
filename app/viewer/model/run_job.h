// The jobs the Run panel hands to the worker: run a few kernels at one (M, N), or sweep N.
//
// They call the same runner as `softmaxlab-cli run` and `sweep` (core/runner/runner.h), so a
// viewer run and a CLI run of the same point measure the same way. No ImGui: a test or a
// window-less driver can run them through a Worker.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/viewer/model/worker.h"
#include "common/message.h"
#include "core/metrics/metric_set.h"
#include "kernels/kernel_api.h"

namespace sml::viewer {

struct RunRequest {
    std::vector<std::string> kernels;  // registry ids
    int64_t rows = 4096;
    int64_t cols = 4096;              // Run: this N
    std::vector<int64_t> sweep_cols;  // Sweep: these N (rows = elements / N)
    int64_t sweep_elements = 0;       // Sweep: M x N held about constant
    DType dtype = DType::f32;
    MetricSet metrics = MetricSet::standard;
    // Run only: the variant index per kernel id (KernelInfo::variants), e.g. smem's
    // "bank-conflicted" layout; kernels not listed run their default (0). Sweeps use defaults.
    std::map<std::string, int> variants;
    bool sweep = false;
};

// rows x cols as a count of elements, or an Error "M x N = R x C elements is too large" when the
// product does not fit in 64 bits: checked before multiplying, never wrapped around. Errors are
// in `lang` ("en" | "zh"), as the banner shows them.
Result<int64_t> matrix_elements(int64_t rows, int64_t cols, const std::string& lang = "en");

// Checks the request before anything starts: known kernels, sizes >= 1 whose product fits,
// at least one kernel. Its error in `lang`.
Status validate_request(const RunRequest& r, const std::string& lang = "en");

// The kernels of `ticked` (registry ids) that can run `p` on `limits`, in registry order: the
// ones the Run panel shows enabled, and the ones a Run sends (greyed ones stay ticked for the
// next N, but are not run). When none can, `why` (if given) gets the first ticked kernel's
// reason; unknown ids are left out.
std::vector<std::string> runnable_kernels(const std::vector<std::string>& ticked,
                                          const SoftmaxProblem& p, const DeviceLimits& limits,
                                          std::optional<MessageError>* why = nullptr);

// The worker job for `r`. It emits the device record first, then one point per finished
// (kernel, N), and checks the worker's cancel flag between points. In a build without the CUDA
// toolkit it fails at once with the reason (run_job_nogpu.cpp).
Worker::Job make_run_job(RunRequest r);

}  // namespace sml::viewer
