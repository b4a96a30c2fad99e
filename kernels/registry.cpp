// The registry: the one list of kernels. See registry.h and kernel_api.h.
//
// Each entry says what its kernel file promises in its header: the N range and why it ends, the
// dtypes, what the GPU must offer, and the traffic the algorithm should cause. The CLI, the
// viewer, the lessons, the charts and the tests read these; none keeps a list of its own.
// This file has no CUDA in it, so a build without the toolkit still knows every kernel.
#include "kernels/registry.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "kernels/best_softmax.h"
#include "kernels/kernel_shapes.h"

namespace sml {

// Each kernel file's plan (kernels/<id>_softmax.cu). Without the CUDA toolkit they are not built,
// and the entries carry no plan.
int naive_plan(const LaunchArgs&, std::vector<LaunchStep>*);
int fused_plan(const LaunchArgs&, std::vector<LaunchStep>*);
int warp_plan(const LaunchArgs&, std::vector<LaunchStep>*);
int block_plan(const LaunchArgs&, std::vector<LaunchStep>*);
int smem_plan(const LaunchArgs&, std::vector<LaunchStep>*);
int online_plan(const LaunchArgs&, std::vector<LaunchStep>*);
int online_tiled_plan(const LaunchArgs&, std::vector<LaunchStep>*);
#if SML_HAVE_CUDA
#define SML_PLAN(fn) (fn)
#else
#define SML_PLAN(fn) nullptr
#endif

namespace {

// ---------------------------------------------------------------------------------------------
// Traffic models shared by several entries.

// Shared-memory bytes that one block_allreduce of `threads` threads moves: each warp stores its
// partial, warp 0 loads them and stores the result, every thread loads the result.
double block_reduce_smem_load_bytes(int threads) {
    return 4.0 * (threads / 32 + threads);
}
double block_reduce_smem_store_bytes(int threads) {
    return 4.0 * (threads / 32 + 1);
}

// Adds the shared-memory traffic of the two block_allreduce calls each row makes (its max and its
// sum; online's single reduction of 8-byte (max, sum) pairs moves the same bytes).
void add_row_reductions(Traffic* t, int64_t rows, int threads) {
    t->smem_load_bytes += 2.0 * rows * block_reduce_smem_load_bytes(threads);
    t->smem_store_bytes += 2.0 * rows * block_reduce_smem_store_bytes(threads);
}

// Traffic of a kernel that reads each element `reads` times from DRAM and writes it once.
Traffic single_pass_traffic(const SoftmaxProblem& p, double reads,
                            const std::string& read_formula) {
    const double mn = static_cast<double>(p.rows) * static_cast<double>(p.cols);
    const double bytes = dtype_size(p.dtype);
    Traffic t;
    t.dram_read_bytes = reads * mn * bytes;
    t.dram_write_bytes = mn * bytes;
    t.global_load_bytes = t.dram_read_bytes;
    t.global_store_bytes = t.dram_write_bytes;
    t.read_formula = read_formula;
    t.write_formula = "MN elements";
    return t;
}

template <int64_t N>
int64_t fixed_max_cols(const DeviceLimits&, DType) {
    return N;
}

// ---------------------------------------------------------------------------------------------
// Per-kernel models.

Traffic naive_traffic(const SoftmaxProblem& p, const DeviceLimits&) {
    const double mn = double(p.rows) * double(p.cols), m = double(p.rows);
    const double b = dtype_size(p.dtype);
    Traffic t;
    t.steps = {
        {"row_max", mn * b, m * b}, {"subtract", (mn + m) * b, mn * b}, {"exp", mn * b, mn * b},
        {"row_sum", mn * b, m * b}, {"divide", (mn + m) * b, mn * b},
    };
    for (const StepTraffic& s : t.steps) {
        t.dram_read_bytes += s.dram_read_bytes;
        t.dram_write_bytes += s.dram_write_bytes;
    }
    // What the loads request: subtract and divide fetch the row's max/sum once per element
    // (those hit L1/L2, so DRAM sees them once per row).
    t.global_load_bytes = (5 * mn + 2 * mn) * b;
    t.global_store_bytes = t.dram_write_bytes;
    add_row_reductions(&t, p.rows, shapes::kNaiveThreads);  // row_max and row_sum
    t.read_formula = "5MN + 2M elements";
    t.write_formula = "3MN + 2M elements";
    return t;
}

// The [M, N] intermediate and the two per-row vectors.
size_t naive_workspace(const SoftmaxProblem& p, const DeviceLimits&) {
    return static_cast<size_t>(p.rows * p.cols + 2 * p.rows) * sizeof(float);
}

Traffic fused_traffic(const SoftmaxProblem& p, const DeviceLimits&) {
    Traffic t = single_pass_traffic(p, 1, "MN elements");
    add_row_reductions(&t, p.rows, shapes::kFusedThreads);
    return t;
}

Traffic warp_traffic(const SoftmaxProblem& p, const DeviceLimits&) {
    return single_pass_traffic(p, 1, "MN elements");  // no shared memory at all
}

Traffic block_traffic(const SoftmaxProblem& p, const DeviceLimits&) {
    Traffic t = single_pass_traffic(p, 1, "MN elements");
    add_row_reductions(&t, p.rows, shapes::kBlockThreads);
    return t;
}

int64_t smem_max_cols(const DeviceLimits& lim, DType) {
    return shapes::smem_max_cols(lim.smem_per_block_optin);
}

Traffic smem_traffic(const SoftmaxProblem& p, const DeviceLimits&) {
    Traffic t = single_pass_traffic(p, 1, "MN elements");
    const double mn = double(p.rows) * double(p.cols);
    t.smem_store_bytes = 2 * mn * 4;  // each element stored twice (the row, then exp(x - max))
    t.smem_load_bytes = 2 * mn * 4;
    add_row_reductions(&t, p.rows, shapes::kSmemThreads);
    return t;
}

Traffic online_traffic(const SoftmaxProblem& p, const DeviceLimits&) {
    Traffic t = single_pass_traffic(p, 2, "2MN elements");
    const int vec = p.cols % (16 / dtype_size(p.dtype)) == 0 ? 16 / dtype_size(p.dtype) : 1;
    // Assumes aligned rows when N allows it. block_merge moves (m, s) pairs: 8 bytes where a
    // scalar reduction moves 4, in one reduction instead of two.
    add_row_reductions(&t, p.rows, shapes::online_threads(p.cols, vec));
    return t;
}

Traffic online_tiled_traffic(const SoftmaxProblem& p, const DeviceLimits&) {
    using shapes::kTile;
    Traffic t = single_pass_traffic(p, 2, "2MN elements");
    // Per row and column tile: TILE leaf stores, then TILE-1 merges that each load 2 pairs and
    // store 1, then thread 0 loads the tile result. A pair is 8 bytes.
    const double tiles = double(p.rows) * double(shapes::ceil_div(p.cols, kTile));
    t.smem_store_bytes = tiles * 8.0 * (kTile + (kTile - 1));
    t.smem_load_bytes = tiles * 8.0 * (2 * (kTile - 1) + 1);
    return t;
}

Traffic best_traffic(const SoftmaxProblem& p, const DeviceLimits& limits) {
    const double reads = best::reads_per_value(p, limits);
    if (reads == 1) return single_pass_traffic(p, 1, "MN elements");
    if (reads == 2)
        return single_pass_traffic(p, 2, "2MN elements (row too long for on-chip: read twice)");
    // The streamed held grid: the part of each row past what its one team holds is read twice.
    char formula[128];
    std::snprintf(formula, sizeof formula,
                  "MN + %.3g%% of MN elements (the part of each row past what one team holds on "
                  "chip, read twice)",
                  (reads - 1) * 100);
    return single_pass_traffic(p, reads, formula);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The list, in lesson order. Which lesson step shows which kernel is in lessons/lessons.json.
const std::vector<KernelInfo>& registry() {
    static const std::vector<KernelInfo> kernels = {
        {
            .id = "naive",
            .title = "Five launches, like PyTorch eager",
            .sources = {"kernels/naive_softmax.cu"},
            .summary = "max, subtract, exp, sum and divide as five kernels, each round-tripping "
                       "through DRAM",
            .max_cols = fixed_max_cols<kUnlimitedCols>,
            .limit_reason = "no limit: every launch streams the row from global memory",
            .predict = naive_traffic,
            .workspace_bytes = naive_workspace,
            .plan = SML_PLAN(naive_plan),
            .lab_editable = true,
        },
        {
            .id = "fused",
            .title = "Fused, the Triton tutorial in CUDA",
            .sources = {"kernels/fused_softmax.cu"},
            .summary = "one launch, the row held on-chip as a next_pow2(N) block, a persistent "
                       "grid sized by occupancy",
            .max_cols = fixed_max_cols<shapes::kFusedMaxBlock>,
            .limit_reason = "BLOCK = next_pow2(N) floats live in the registers of 256 threads; "
                            "16384 is 64 per thread; 32768 would take more registers than a "
                            "thread may have and leave one program per SM (the Triton tutorial "
                            "also stops at 16384 floats)",
            .predict = fused_traffic,
            .plan = SML_PLAN(fused_plan),
            .lab_editable = true,
        },
        {
            .id = "warp",
            .title = "One warp per row",
            .sources = {"kernels/warp_softmax.cu"},
            .summary = "a warp (or a smaller lane group) owns a row in registers and reduces it "
                       "with shuffles",
            .max_cols = fixed_max_cols<shapes::kWarpMaxCols>,
            .limit_reason = "the row must fit in one warp's registers: 32 lanes x 32 floats",
            .predict = warp_traffic,
            .plan = SML_PLAN(warp_plan),
            .lab_editable = true,
        },
        {
            .id = "block",
            .title = "One block per row",
            .sources = {"kernels/block_softmax.cu"},
            .summary = "512 threads own a row in registers; warp shuffles, then per-warp partials "
                       "in shared memory",
            .max_cols = fixed_max_cols<shapes::kBlockMaxCols>,
            .limit_reason = "the row must fit in one 512-thread block's registers: 512 threads x "
                            "32 floats (at most 128 registers per thread at this block size)",
            .predict = block_traffic,
            .plan = SML_PLAN(block_plan),
            .lab_editable = true,
        },
        {
            .id = "smem",
            .title = "Row cached in shared memory",
            .sources = {"kernels/smem_softmax.cu"},
            .summary = "the row is read once into dynamic shared memory, laid out so a warp never "
                       "hits a bank twice",
            .max_cols = smem_max_cols,
            .limit_reason = "the whole row must fit in one block's opt-in shared memory, minus "
                            "the reduction scratch",
            .variants = {"conflict-free", "bank-conflicted"},
            .predict = smem_traffic,
            .plan = SML_PLAN(smem_plan),
            .lab_editable = true,
        },
        {
            .id = "online",
            .title = "Online softmax (running max and rescaled sum)",
            .sources = {"kernels/online_softmax.cu"},
            .summary = "one pass keeps a running max and a rescaled sum, a second pass writes; any "
                       "N, fp32, fp16 and bf16",
            .dtypes = kAllDTypes,
            .max_cols = fixed_max_cols<kUnlimitedCols>,
            .limit_reason = "no limit: the row is streamed twice and never held on chip",
            .predict = online_traffic,
            .plan = SML_PLAN(online_plan),
            .lab_editable = true,
        },
        {
            .id = "online_tiled",
            .title = "Online softmax, 2-D tiles (FlashAttention form)",
            .sources = {"kernels/online_tiled_softmax.cu"},
            .summary = "TILE x TILE blocks reduce each column tile to (max, sum) in one tree and "
                       "merge it into a running pair",
            .max_cols = fixed_max_cols<kUnlimitedCols>,
            .limit_reason = "no limit: the row is streamed tile by tile and never held on chip",
            .predict = online_tiled_traffic,
            .plan = SML_PLAN(online_tiled_plan),
            .lab_editable = true,
        },
        {
            .id = "best",
            .title = "Best path: dispatch by N",
            // The lesson first, then its machinery, in the order best_softmax.cu's header lists it.
            .sources = {"kernels/best_softmax.cu", "kernels/best/packs.cuh", "kernels/best/exp.cuh",
                        "kernels/best/reduce.cuh", "kernels/best/row_slice.cuh",
                        "kernels/best/group.cu", "kernels/best/tile.cu", "kernels/best/cluster.cu",
                        "kernels/best/two_pass.cu", "kernels/best/slots.cuh", "kernels/best/grid.cu",
                        "kernels/best/hold.cu",
                        "kernels/best/launch.cu", "kernels/best/launch.cuh",
                        "kernels/best/shapes.h"},
            .summary = "picks a sub-warp, block, cluster (DSMEM), grid, held-grid or two-pass "
                       "kernel by the row's bytes and the GPU, with 16-byte I/O and fp16/bf16",
            .dtypes = kAllDTypes,
            .max_cols = fixed_max_cols<kUnlimitedCols>,
            .limit_reason = "no limit: rows too long for the whole GPU's registers and shared "
                            "memory take the two-pass path",
            .variants = {"auto"},
            .predict = best_traffic,
            .workspace_bytes = best::registry_workspace_bytes,
            .plan = SML_PLAN(best::plan),
        },
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
    return limits.cc() >= k.needs.min_cc && (k.dtypes & dtype_bit(p.dtype)) &&
           p.cols >= k.min_cols && p.cols <= k.max_cols(limits, p.dtype);
}

std::vector<const KernelInfo*> kernels_for(const SoftmaxProblem& p, const DeviceLimits& limits) {
    std::vector<const KernelInfo*> out;
    for (const KernelInfo& k : registry())
        if (in_range(k, p, limits)) out.push_back(&k);
    return out;
}

// The kernels that can run `p`, as a part of a sentence: their ids, or "none".
static Message alternatives(const SoftmaxProblem& p, const DeviceLimits& limits) {
    std::string s;
    for (const KernelInfo* k : kernels_for(p, limits)) {
        if (!s.empty()) s += ", ";
        s += k->id;
    }
    return s.empty() ? Message::phrase_of("none") : Message(s);
}

Message device_label_message(const DeviceLimits& limits) {
    return Message(Msg::device_label,
                   {limits.name.empty() ? Message::phrase_of("this GPU") : Message(limits.name),
                    std::to_string(limits.cc_major), std::to_string(limits.cc_minor)});
}

std::string device_label(const DeviceLimits& limits) {
    return message_en(device_label_message(limits));
}

std::optional<MessageError> problem_error(const KernelInfo& k, const SoftmaxProblem& p,
                                          const DeviceLimits& limits) {
    using std::to_string;
    if (p.rows < 1 || p.cols < 1)
        return MessageError{{Msg::problem_bad_size, {to_string(p.rows), to_string(p.cols)}},
                            Msg::problem_bad_size_hint};
    if (p.in_stride < p.cols || p.out_stride < p.cols)
        return MessageError{{Msg::problem_bad_stride,
                             {to_string(p.in_stride), to_string(p.out_stride), to_string(p.cols)}},
                            Msg::problem_bad_stride_hint};
    if (limits.code_arch == DeviceLimits::kNoCode)
        return MessageError{{Msg::problem_no_code, {device_label_message(limits)}},
                            {Msg::problem_no_code_hint, {to_string(limits.cc())}}};
    if (limits.cc() < k.needs.min_cc) {
        std::vector<Message> parts = {k.id, to_string(k.needs.min_cc / 10),
                                      to_string(k.needs.min_cc % 10), device_label_message(limits)};
        const bool why = k.needs.why[0] != '\0';
        if (why) parts.push_back(Message::phrase_of(k.needs.why));
        return MessageError{{why ? Msg::problem_old_gpu_why : Msg::problem_old_gpu, parts},
                            {Msg::problem_old_gpu_hint, {alternatives(p, limits)}}};
    }
    if (!(k.dtypes & dtype_bit(p.dtype)))
        return MessageError{{Msg::problem_dtype, {k.id, dtype_name(p.dtype)}},
                            {Msg::problem_dtype_hint, {alternatives(p, limits)}}};
    const int64_t hi = k.max_cols(limits, p.dtype);
    if (p.cols < k.min_cols || p.cols > hi)
        return MessageError{
            {Msg::problem_range,
             {to_string(p.cols), k.id, to_string(k.min_cols),
              hi == kUnlimitedCols ? Message::phrase_of("any") : Message(to_string(hi)),
              device_label_message(limits), Message::phrase_of(k.limit_reason)}},
            {Msg::problem_range_hint, {to_string(p.cols), alternatives(p, limits)}}};
    return std::nullopt;
}

Status check_problem(const KernelInfo& k, const SoftmaxProblem& p, const DeviceLimits& limits) {
    if (std::optional<MessageError> e = problem_error(k, p, limits)) return e->en();
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
