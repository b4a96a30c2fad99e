// Run and Sweep jobs. See run_job.h.
#include "app/viewer/model/run_job.h"

#include <algorithm>

#include "kernels/registry.h"

namespace sml::viewer {

Result<int64_t> matrix_elements(int64_t rows, int64_t cols) {
    int64_t n = 0;
    if (__builtin_mul_overflow(rows, cols, &n))
        return Error{"M x N = " + std::to_string(rows) + " x " + std::to_string(cols) +
                         " elements is too large",
                     "lower M or N"};
    return n;
}

Status validate_request(const RunRequest& r) {
    if (r.kernels.empty())
        return Error{"no kernel chosen", "tick at least one kernel in the Run panel"};
    for (const std::string& id : r.kernels)
        if (!find_kernel(id))
            return Error{"unknown kernel '" + id + "'", "known kernels: " + kernel_ids()};
    if (!r.sweep && (r.rows < 1 || r.cols < 1))
        return Error{"M and N must be >= 1 (got " + std::to_string(r.rows) + " x " +
                         std::to_string(r.cols) + ")",
                     ""};
    if (!r.sweep)
        if (Result<int64_t> n = matrix_elements(r.rows, r.cols); !n) return n.error();
    for (const auto& [id, v] : r.variants) {
        const KernelInfo* k = find_kernel(id);
        if (!k || v < 0 || (v > 0 && v >= static_cast<int>(k->variants.size())))
            return Error{"kernel '" + id + "' has no variant #" + std::to_string(v),
                         "pick one of the variants the registry lists for it"};
    }
    if (r.sweep && (r.sweep_cols.empty() || r.sweep_elements < 1))
        return Error{"the sweep has no N values or no size", "set M x N to the size to keep"};
    return ok_status();
}

std::vector<std::string> runnable_kernels(const std::vector<std::string>& ticked,
                                          const SoftmaxProblem& p, const DeviceLimits& limits,
                                          std::optional<MessageError>* why) {
    std::vector<std::string> out;
    std::optional<MessageError> first;
    for (const KernelInfo& k : registry()) {
        if (std::find(ticked.begin(), ticked.end(), k.id) == ticked.end()) continue;
        if (std::optional<MessageError> unfit = problem_error(k, p, limits)) {
            if (!first) first = std::move(unfit);
        } else {
            out.push_back(k.id);
        }
    }
    if (why) *why = out.empty() ? std::move(first) : std::nullopt;
    return out;
}

}  // namespace sml::viewer
