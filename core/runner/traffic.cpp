// Predicted traffic for a point, and the L2-residency note that explains when measured DRAM
// bytes must fall below the formula.
#include <string>

#include "core/measure/device_buffer.h"
#include "core/runner/runner.h"

namespace sml {

// Below half the L2, the working set survives in L2 between a kernel's passes (the other half
// leaves room for the replacement policy and other lines), so re-reads and intermediates never
// reach DRAM.
constexpr double kL2ResidentFraction = 0.5;

PredictedTraffic predict_point(const KernelInfo& kernel, const SoftmaxProblem& problem,
                               int64_t l2_bytes) {
    PredictedTraffic out;
    const Traffic t = kernel.predict(problem);
    out.dram_read_bytes = t.dram_read_bytes;
    out.dram_write_bytes = t.dram_write_bytes;
    out.global_load_bytes = t.global_load_bytes;
    out.global_store_bytes = t.global_store_bytes;
    out.smem_load_bytes = t.smem_load_bytes;
    out.smem_store_bytes = t.smem_store_bytes;
    out.read_formula = t.read_formula;
    out.write_formula = t.write_formula;
    for (const StepTraffic& s : t.steps)
        out.per_launch[s.name] = {s.dram_read_bytes, s.dram_write_bytes};

    const double esize = dtype_size(problem.dtype);
    const double io_bytes = double(problem.rows) *
                            double(problem.in_stride + problem.out_stride) * esize;
    const double workspace =
        kernel.workspace_bytes ? double(kernel.workspace_bytes(problem)) : 0.0;
    const double working_set = io_bytes + workspace;
    const std::string ws = format_bytes(working_set), l2 = format_bytes(double(l2_bytes));
    if (l2_bytes > 0 && working_set < kL2ResidentFraction * double(l2_bytes)) {
        out.l2_resident = true;
        out.l2_reason = "the " + ws + " working set fits in the " + l2 +
                        " L2, so intermediates and re-reads never reach DRAM: measured DRAM "
                        "bytes fall below the formula";
    } else {
        out.l2_resident = false;
        out.l2_reason = "the " + ws + " working set does not fit in half of the " + l2 +
                        " L2, so every pass goes to DRAM: measured DRAM bytes should match the "
                        "formula";
    }
    return out;
}

}  // namespace sml
