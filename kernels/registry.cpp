// The registry: the one list of kernels. See registry.h.
#include "kernels/registry.h"

#include <algorithm>
#include <sstream>

namespace sml {

// Each kernel file defines one of these. Keep them in lesson order; a new kernel adds one
// declaration here and one line in registry() below.
KernelInfo naive_kernel_info();
KernelInfo fused_kernel_info();
KernelInfo warp_kernel_info();
KernelInfo block_kernel_info();
KernelInfo smem_kernel_info();
KernelInfo online_kernel_info();
KernelInfo online_tiled_kernel_info();
KernelInfo best_kernel_info();

const std::vector<KernelInfo>& registry() {
    static const std::vector<KernelInfo> kernels = {
        naive_kernel_info(),         // lesson 1: five launches
        fused_kernel_info(),         // lesson 2: the Triton tutorial
        warp_kernel_info(),          // lesson 3: one warp per row
        block_kernel_info(),         // lesson 4: one block per row
        smem_kernel_info(),          // lesson 5: row cached in shared memory
        online_kernel_info(),        // lesson 6: running max and rescaled sum
        online_tiled_kernel_info(),  // lesson 6: the 2-D tiled form
        best_kernel_info(),          // lesson 8: the fastest path for each N
    };
    return kernels;
}

const KernelInfo* find_kernel(std::string_view id) {
    for (const KernelInfo& k : registry())
        if (id == k.id) return &k;
    return nullptr;
}

std::string kernel_ids() {
    std::string s;
    for (const KernelInfo& k : registry()) {
        if (!s.empty()) s += ", ";
        s += k.id;
    }
    return s;
}

static bool in_range(const KernelInfo& k, const SoftmaxProblem& p, const DeviceLimits& limits) {
    return (k.dtypes & dtype_bit(p.dtype)) && p.cols >= k.min_cols &&
           p.cols <= k.max_cols(limits, p.dtype);
}

std::vector<const KernelInfo*> kernels_for(const SoftmaxProblem& p, const DeviceLimits& limits) {
    std::vector<const KernelInfo*> out;
    for (const KernelInfo& k : registry())
        if (in_range(k, p, limits)) out.push_back(&k);
    return out;
}

static std::string alternatives(const SoftmaxProblem& p, const DeviceLimits& limits) {
    std::string s;
    for (const KernelInfo* k : kernels_for(p, limits)) {
        if (!s.empty()) s += ", ";
        s += k->id;
    }
    return s.empty() ? std::string("none") : s;
}

Status check_problem(const KernelInfo& k, const SoftmaxProblem& p, const DeviceLimits& limits) {
    std::ostringstream msg, hint;
    if (p.rows < 1 || p.cols < 1) {
        msg << "invalid size " << p.rows << " x " << p.cols << ": rows and cols must be >= 1";
        return Error{msg.str(), "pass positive --rows and --cols"};
    }
    if (p.in_stride < p.cols || p.out_stride < p.cols) {
        msg << "row stride (" << p.in_stride << " in, " << p.out_stride
            << " out) is smaller than cols = " << p.cols;
        return Error{msg.str(), "strides are in elements and must be >= cols"};
    }
    if (!(k.dtypes & dtype_bit(p.dtype))) {
        msg << k.id << " does not support " << dtype_name(p.dtype);
        hint << "kernels that do: " << alternatives(p, limits);
        return Error{msg.str(), hint.str()};
    }
    const int64_t hi = k.max_cols(limits, p.dtype);
    if (p.cols < k.min_cols || p.cols > hi) {
        msg << "N = " << p.cols << " is outside " << k.id << "'s range " << k.min_cols << ".."
            << (hi == kUnlimitedCols ? std::string("any") : std::to_string(hi)) << " ("
            << k.limit_reason << ")";
        hint << "kernels that can run N = " << p.cols << ": " << alternatives(p, limits);
        return Error{msg.str(), hint.str()};
    }
    return ok_status();
}

cudaError_t launch_all(const KernelInfo& k, const LaunchArgs& args, cudaStream_t stream) {
    std::vector<LaunchStep> steps;
    if (cudaError_t e = k.plan(args, &steps); e != cudaSuccess) return e;
    for (LaunchStep& s : steps) {
        if (cudaError_t e = s.launch(stream); e != cudaSuccess) return e;
        if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

Status launch_checked(const KernelInfo& k, const LaunchArgs& args, cudaStream_t stream) {
    LaunchArgs a = args;
    if (a.limits.sm_count <= 0) {  // limits not filled in: ranges must come from the real device
        int dev = 0;
        if (cudaGetDevice(&dev) != cudaSuccess || !query_device_limits(dev, &a.limits)) {
            (void)cudaGetLastError();
            return Error{std::string("no CUDA device to run ") + k.id + " on",
                         "run on a machine with an NVIDIA GPU, or replay a session in the viewer"};
        }
    }
    if (Status st = check_problem(k, a.problem, a.limits); !st) return st;
    if (k.workspace_bytes && k.workspace_bytes(a.problem) > 0 && a.workspace == nullptr)
        return Error{std::string(k.id) + " needs a workspace but none was given",
                     "allocate workspace_bytes(problem) bytes and pass it in LaunchArgs"};
    if (cudaError_t e = launch_all(k, a, stream); e != cudaSuccess)
        return Error{std::string(k.id) + " failed to launch: " + cudaGetErrorString(e),
                     "check the device with `softmaxlab-cli device`"};
    return ok_status();
}

bool parse_dtype(const std::string& s, DType* out) {
    if (s == "fp32" || s == "f32" || s == "float32" || s == "float")
        *out = DType::f32;
    else if (s == "fp16" || s == "f16" || s == "float16" || s == "half")
        *out = DType::f16;
    else if (s == "bf16" || s == "bfloat16")
        *out = DType::bf16;
    else
        return false;
    return true;
}

}  // namespace sml
