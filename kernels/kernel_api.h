// The contract between the kernels and the rest of softmaxlab. No CUDA in this header: the
// viewer and the CLI also build without the CUDA toolkit, to replay recorded sessions, and they
// still list the kernels, their N ranges and their traffic models.
//
// A kernel is two things:
//   - kernels/<id>_softmax.cu, the lesson: its __global__ kernels and a `plan` function that
//     turns a problem into launches (kernels/launch.h, CUDA only);
//   - one entry in kernels/registry.cpp: its id, title, sources, N range, dtypes, what it needs
//     from the GPU, its predicted traffic and its plan. That file is the only list of kernels.
// Launch shapes that both halves depend on (threads per block, the longest row) are in
// kernels/kernel_shapes.h, so they are written once.
#pragma once

#include <cstddef>
#include <cstdint>
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

// A DRAM's peak bandwidth, GB/s, from its clock (kHz) and bus width (bits): the memory moves
// bus_bits / 8 bytes an edge, twice a clock (double data rate).
inline double peak_dram_gbps(int memory_clock_khz, int memory_bus_bits) {
    return 2.0 * memory_clock_khz * 1e3 * (memory_bus_bits / 8.0) / 1e9;
}

// ---------------------------------------------------------------------------------------------
// What a GPU offers, as far as the kernels' ranges and paths depend on it. Filled from the
// device (kernels/device_query.cu), from a named profile of another class of GPU
// (kernels/device_profiles.cpp), or from `h100_reference()` to show ranges with no GPU.
struct DeviceLimits {
    std::string name;  // "NVIDIA H100 80GB HBM3", or a profile's name
    int sm_count = 0;
    int warp_size = 32;
    int regs_per_sm = 0;
    int regs_per_block = 0;
    int max_threads_per_sm = 0;
    int max_threads_per_block = 0;
    int smem_per_sm = 0;           // bytes
    int smem_per_block_optin = 0;  // bytes a block may use after cudaFuncSetAttribute
    int64_t l2_bytes = 0;
    // The DRAM's peak bandwidth, GB/s, from its clock and bus width (a datasheet ceiling; copy
    // runs ~90% of it); 0 = unknown, taken as an H100's where a rule needs it.
    double peak_dram_gbps = 0;
    int cc_major = 0, cc_minor = 0;
    // The architecture the loaded kernel code was compiled for (ptxVersion, e.g. 90 for sm_90
    // code, 80 when an sm_80 build's PTX is compiled for a newer GPU at load time); 0 = unknown,
    // taken to match the device; kNoCode = this build holds no code the GPU can run. Hopper
    // features exist only where both the device and the code have them.
    static constexpr int kNoCode = -1;
    int code_arch = 0;
    bool from_device = false;  // false: reference or profile values, not a measurement
    std::string profile;       // the profile these limits emulate ("a100"); empty on a real GPU

    int cc() const { return cc_major * 10 + cc_minor; }
    int arch_of_code() const { return code_arch > 0 ? code_arch : cc(); }
    // Thread-block clusters and distributed shared memory: compute capability 9.0 and code built
    // for it.
    bool has_clusters() const { return cc_major >= 9 && arch_of_code() >= 90; }

    static DeviceLimits h100_reference();
};

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
// What a kernel needs from the GPU before it can run at all. Finer limits (shared memory for a
// given N, clusters for one of best's paths) are in the kernel's max_cols and plan.
struct KernelNeeds {
    int min_cc = 75;  // compute capability x 10; 75 (Turing) is the oldest CUDA 13 builds for
    const char* why = "";  // shown when a GPU is older than min_cc
};

// Launch planning lives in kernels/launch.h (it needs the CUDA runtime); here it is only named.
struct LaunchArgs;
struct LaunchStep;
// Builds the launches for `args` into *steps; returns a cudaError_t value (0 is success). May
// call cudaFuncSetAttribute (shared-memory opt-in) and the occupancy API; never launches.
using PlanFn = int (*)(const LaunchArgs& args, std::vector<LaunchStep>* steps);

// ---------------------------------------------------------------------------------------------
// A registry entry (kernels/registry.cpp), filled by named fields.
constexpr int64_t kUnlimitedCols = std::numeric_limits<int64_t>::max();

struct KernelInfo {
    const char* id = "";     // stable name used on the command line, in sessions and lessons
    const char* title = "";  // "One warp per row"
    // Files from the repo root; the first is the lesson a learner reads, the rest hold the
    // machinery it uses (best's paths). Lesson anchors resolve against all of them.
    std::vector<const char*> sources;
    const char* summary = "";  // one sentence: what it teaches
    uint32_t dtypes = dtype_bit(DType::f32);
    int64_t min_cols = 1;
    // Largest N this kernel supports on a device with `limits`, and why it stops there.
    int64_t (*max_cols)(const DeviceLimits& limits, DType dtype) = nullptr;
    const char* limit_reason = "";
    std::vector<std::string> variants;  // e.g. smem: {"conflict-free", "bank-conflicted"}
    KernelNeeds needs;
    // The DRAM (and shared-memory) traffic the algorithm should cause on a device with `limits`.
    Traffic (*predict)(const SoftmaxProblem& p, const DeviceLimits& limits) = nullptr;
    // Device memory the kernel needs besides input and output; null: none.
    size_t (*workspace_bytes)(const SoftmaxProblem& p, const DeviceLimits& limits) = nullptr;
    PlanFn plan = nullptr;  // null in a build without the CUDA toolkit
    // The lab bench (core/lab, docs/lab.md) can edit it: its lesson file compiles alone with
    // NVRTC (host side in #ifndef __CUDACC_RTC__) and every step of its plan is a make_step.
    bool lab_editable = false;

    const char* lesson_source() const { return sources.empty() ? "" : sources.front(); }
};

}  // namespace sml
