// PLACEHOLDER so the tree links while the real kernel is written. Replaced by the kernels work.
#include "kernels/kernel_api.h"
namespace sml {
static int64_t max_cols_any(const DeviceLimits&, DType) { return kUnlimitedCols; }
static cudaError_t plan_todo(const LaunchArgs&, std::vector<LaunchStep>*) { return cudaErrorNotSupported; }
static Traffic predict_todo(const SoftmaxProblem&) { return Traffic{}; }
KernelInfo smem_kernel_info() {
    return KernelInfo{"smem", "smem", "kernels/smem_softmax.cu", 0, "placeholder",
                      dtype_bit(DType::f32), 1, max_cols_any, "placeholder", {}, nullptr,
                      plan_todo, predict_todo};
}
}  // namespace sml
