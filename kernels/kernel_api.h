// The contract between one softmax kernel file and the rest of softmaxlab.
//
// A kernel file (kernels/<id>_softmax.cu) does three things and nothing else:
//   1. defines its __global__ kernels (the code the learner reads in the viewer),
//   2. defines a `plan` function that turns a problem into an ordered list of LaunchSteps,
//   3. defines a `predict` function giving the DRAM traffic its algorithm should cause.
// kernels/registry.cpp lists every kernel exactly once; nothing else in the project keeps a list.
//
// Everything here is plain data plus CUDA runtime types, so the CLI, the viewer, the tests and the
// profiler can all use it without knowing how any kernel works.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace sml {

// ---------------------------------------------------------------------------------------------
// Element types. Compute is always fp32; fp16/bf16 only change what is loaded and stored.
enum class DType : uint8_t { f32 = 0, f16 = 1, bf16 = 2 };
constexpr uint32_t dtype_bit(DType t) {
    return 1u << static_cast<uint32_t>(t);
}
constexpr uint32_t kAllDTypes =
    dtype_bit(DType::f32) | dtype_bit(DType::f16) | dtype_bit(DType::bf16);
inline int dtype_size(DType t) {
    return t == DType::f32 ? 4 : 2;
}
inline const char* dtype_name(DType t) {
    return t == DType::f32 ? "fp32" : (t == DType::f16 ? "fp16" : "bf16");
}
bool parse_dtype(const std::string& s, DType* out);  // accepts fp32/float32/f32, fp16/half, bf16

// ---------------------------------------------------------------------------------------------
// The hardware limits a kernel's valid N range depends on. Filled from cudaDeviceProp on a real
// device; `h100_reference()` gives the H100 SXM values so ranges can be shown and tested on a
// machine with no GPU.
struct DeviceLimits {
    int sm_count = 0;
    int warp_size = 32;
    int regs_per_sm = 0;
    int regs_per_block = 0;
    int max_threads_per_sm = 0;
    int max_threads_per_block = 0;
    int smem_per_sm = 0;           // bytes
    int smem_per_block_optin = 0;  // bytes a block may use after cudaFuncSetAttribute
    int64_t l2_bytes = 0;
    int cc_major = 0, cc_minor = 0;
    bool from_device = false;  // false: these are the reference values, not a measurement

    static DeviceLimits h100_reference();
};
// Reads the limits of `device`; returns false (and leaves *out untouched) if there is no device.
bool query_device_limits(int device, DeviceLimits* out);

// ---------------------------------------------------------------------------------------------
// One softmax problem: row-major [rows, cols] in and out, with row strides in elements.
struct SoftmaxProblem {
    int64_t rows = 0;
    int64_t cols = 0;
    int64_t in_stride = 0;   // elements between row starts; >= cols
    int64_t out_stride = 0;  // elements between row starts; >= cols
    DType dtype = DType::f32;

    static SoftmaxProblem contiguous(int64_t rows, int64_t cols, DType t = DType::f32) {
        return SoftmaxProblem{rows, cols, cols, cols, t};
    }
    int64_t elements() const { return rows * cols; }
};

struct LaunchArgs {
    SoftmaxProblem problem;
    const void* in = nullptr;
    void* out = nullptr;
    void* workspace = nullptr;  // workspace_bytes(problem) bytes, or null when that is 0
    int variant = 0;            // index into KernelInfo::variants (0 = the default)
    DeviceLimits limits;        // of the device the launch goes to
};

// One kernel launch inside a kernel's algorithm. Naive has five; most kernels have one.
struct LaunchStep {
    std::string name;            // e.g. "row_max", shown in the naive per-launch breakdown
    const void* func = nullptr;  // the __global__ function, for cudaFuncGetAttributes / occupancy
    dim3 grid{1, 1, 1};
    dim3 block{1, 1, 1};
    size_t dynamic_smem = 0;  // bytes
    // Enqueues this launch, after any memset the kernel needs first (best's grid path poisons its
    // workspace so).
    std::function<cudaError_t(cudaStream_t)> launch;
};

// ---------------------------------------------------------------------------------------------
// Predicted traffic, from the algorithm alone (no cache effects). Bytes, not elements.
struct StepTraffic {
    std::string name;  // matches LaunchStep::name
    double dram_read_bytes = 0;
    double dram_write_bytes = 0;
};

struct Traffic {
    double dram_read_bytes = 0;      // each byte the algorithm must fetch from DRAM
    double dram_write_bytes = 0;     // each byte it must write back
    double global_load_bytes = 0;    // bytes requested by global loads (L1 view, re-reads count)
    double global_store_bytes = 0;   // bytes requested by global stores
    double smem_load_bytes = 0;      // shared-memory bytes read by the algorithm (0 if unused)
    double smem_store_bytes = 0;     // shared-memory bytes written (0 if unused)
    std::string read_formula;        // human form, e.g. "5MN + 2M elements"
    std::string write_formula;       // e.g. "3MN + 2M elements"
    std::vector<StepTraffic> steps;  // per-launch split (empty for single-launch kernels)
};

// ---------------------------------------------------------------------------------------------
// A registry entry. See kernels/registry.cpp.
constexpr int64_t kUnlimitedCols = std::numeric_limits<int64_t>::max();

struct KernelInfo {
    const char* id;       // stable name used on the command line, in sessions and lessons
    const char* title;    // "One warp per row"
    const char* source;   // path from the repo root, e.g. "kernels/warp_softmax.cu"
    int lesson_step;      // the lesson that introduces it (1..6; 8 for best)
    const char* summary;  // one sentence: what it teaches
    uint32_t dtypes;      // dtype_bit mask
    int64_t min_cols;
    // Largest N this kernel supports on a device with `limits`, and why it stops there.
    int64_t (*max_cols)(const DeviceLimits& limits, DType dtype);
    const char* limit_reason;  // e.g. "the row must fit in one warp's registers (32 lanes x 32)"
    std::vector<std::string> variants;  // e.g. smem: {"conflict-free", "bank-conflicted"}
    size_t (*workspace_bytes)(const SoftmaxProblem& p);  // may be null: no workspace
    // Builds the launches for `args`. May call cudaFuncSetAttribute (smem opt-in) and the
    // occupancy API; never launches. Returns the first CUDA error it hits.
    cudaError_t (*plan)(const LaunchArgs& args, std::vector<LaunchStep>* steps);
    Traffic (*predict)(const SoftmaxProblem& p);
};

}  // namespace sml
