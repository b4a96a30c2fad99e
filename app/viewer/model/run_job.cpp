// Run and Sweep jobs. See run_job.h.
#include "app/viewer/model/run_job.h"

#include <algorithm>

#include "app/viewer/model/ui_text.h"
#include "kernels/registry.h"

namespace sml::viewer {

Result<int64_t> matrix_elements(int64_t rows, int64_t cols, const std::string& lang) {
    int64_t n = 0;
    if (__builtin_mul_overflow(rows, cols, &n))
        return Error{ui_format("M x N = {0} x {1} elements is too large", lang,
                               {std::to_string(rows), std::to_string(cols)}),
                     ui_text("lower M or N", lang)};
    return n;
}

Status validate_request(const RunRequest& r, const std::string& lang) {
    if (r.kernels.empty())
        return Error{ui_text("no kernel chosen", lang),
                     ui_text("tick at least one kernel in the Run panel", lang)};
    for (const std::string& id : r.kernels)
        if (!find_kernel(id))
            return Error{ui_format("unknown kernel '{0}'", lang, {id}),
                         ui_format("known kernels: {0}", lang, {kernel_ids()})};
    if (!r.sweep && (r.rows < 1 || r.cols < 1))
        return Error{ui_format("M and N must be >= 1 (got {0} x {1})", lang,
                               {std::to_string(r.rows), std::to_string(r.cols)}),
                     ""};
    if (!r.sweep)
        if (Result<int64_t> n = matrix_elements(r.rows, r.cols, lang); !n) return n.error();
    for (const auto& [id, v] : r.variants) {
        const KernelInfo* k = find_kernel(id);
        if (!k || v < 0 || (v > 0 && v >= static_cast<int>(k->variants.size())))
            return Error{
                ui_format("kernel '{0}' has no variant #{1}", lang, {id, std::to_string(v)}),
                ui_text("pick one of the variants the registry lists for it", lang)};
    }
    if (r.sweep && (r.sweep_cols.empty() || r.sweep_elements < 1))
        return Error{ui_text("the sweep has no N values or no size", lang),
                     ui_text("set M x N to the size to keep", lang)};
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
