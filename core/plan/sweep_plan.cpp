// Sweep plans. See sweep_plan.h.
#include "core/plan/sweep_plan.h"

#include <algorithm>
#include <stdexcept>

#include "core/common/parse_number.h"
#include "core/plan/sizes.h"
#include "kernels/registry.h"

namespace sml {

std::vector<int64_t> default_sweep_cols() {
    // Powers of two from 32 to 2^20, plus the neighbours where kernels change behaviour:
    // 1000/1025 (around the warp kernel's end), 3000 and 12288 (not powers of two: no padding
    // waste for tiled kernels, some for next_pow2 blocks), 8193 (just past 2^13: half of fused's
    // next_pow2 block is masked away, the power-of-two cliff), 16385 (past the end of the
    // register-held kernels) and 100003 (a large prime: no vector-width alignment).
    return {32,   128,   256,   512,   1000,  1024,  1025,   2048,   3000,   4096,   8192,
            8193, 12288, 16384, 16385, 32768, 65536, 100003, 131072, 262144, 524288, 1048576};
}


SweepPlan plan_sweep(const std::vector<const KernelInfo*>& kernels,
                     const std::vector<int64_t>& cols, int64_t elements, DType dtype,
                     const DeviceLimits& limits, bool all_variants) {
    std::vector<int64_t> sorted = cols;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    SweepPlan plan;
    for (const KernelInfo* k : kernels) {
        for (int64_t n : sorted) {
            const int64_t rows = n > 0 ? std::max<int64_t>(elements / n, 1) : 1;
            const SoftmaxProblem p = SoftmaxProblem::contiguous(rows, n, dtype);
            if (Status s = check_problem(*k, p, limits); !s)
                plan.skipped.push_back(SkippedItem{k->id, n, s.error().message});
            else {
                const int nvariants = all_variants ? std::max<int>(1, int(k->variants.size())) : 1;
                for (int v = 0; v < nvariants; ++v) plan.items.push_back(SweepItem{k, p, v});
            }
        }
    }
    return plan;
}


Result<SweepItem> parse_extra_point(const std::string& text, DType dtype,
                                    const DeviceLimits& limits) {
    const std::string form = "use <kernel>[/<variant>]:<rows>x<cols>, e.g. naive:4096x1024";
    const size_t colon = text.find(':');
    const size_t x = text.find('x', colon == std::string::npos ? 0 : colon);
    if (colon == std::string::npos || x == std::string::npos)
        return Error{"cannot read extra point '" + text + "'", form};
    std::string id = text.substr(0, colon), variant;
    if (const size_t slash = id.find('/'); slash != std::string::npos) {
        variant = id.substr(slash + 1);
        id = id.substr(0, slash);
    }
    const KernelInfo* k = find_kernel(id);
    if (!k)
        return Error{"unknown kernel '" + id + "' in extra point '" + text + "'",
                     "kernels: " + kernel_ids()};
    int v = 0;
    if (!variant.empty()) {
        auto it = std::find(k->variants.begin(), k->variants.end(), variant);
        if (it == k->variants.end()) {
            std::string names;
            for (const std::string& n : k->variants) names += (names.empty() ? "" : ", ") + n;
            return Error{id + " has no variant '" + variant + "'",
                         names.empty() ? id + " has only its default variant"
                                       : "variants of " + id + ": " + names};
        }
        v = int(it - k->variants.begin());
    }
    // Each side read whole (core/common/parse_number.h): " 12", "+5" and 2^64 are errors that
    // quote what was typed.
    const Result<int64_t> rows = parse_integer(text.substr(colon + 1, x - colon - 1),
                                               "rows in extra point '" + text + "'", 1);
    if (!rows) return Error{rows.error().message, form};
    const Result<int64_t> cols =
        parse_integer(text.substr(x + 1), "cols in extra point '" + text + "'", 1);
    if (!cols) return Error{cols.error().message, form};
    const SoftmaxProblem p = SoftmaxProblem::contiguous(*rows, *cols, dtype);
    if (Status s = check_problem(*k, p, limits); !s) return s.error();
    if (Result<size_t> bytes =
            matrix_bytes(*rows, *cols, size_t(dtype_size(dtype)), "extra point '" + text + "'");
        !bytes)
        return bytes.error();
    return SweepItem{k, p, v};
}

Status add_extra_point(SweepPlan* plan, const SweepItem& item, const std::string& text) {
    for (const SweepItem& i : plan->items)
        if (i.kernel == item.kernel && i.variant == item.variant &&
            i.problem.dtype == item.problem.dtype && i.problem.rows == item.problem.rows &&
            i.problem.cols == item.problem.cols)
            return Error{"extra point '" + text + "' is already in the sweep (" +
                             std::string(item.kernel->id) + ", " +
                             std::to_string(item.problem.rows) + " x " +
                             std::to_string(item.problem.cols) + ")",
                         "drop it: a session holds each kernel, variant, dtype and size once"};
    plan->items.push_back(item);
    return ok_status();
}

}  // namespace sml
