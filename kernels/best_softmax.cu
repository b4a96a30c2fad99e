// Step 8 -- best: one entry that picks the fastest kernel for each N and dtype.
//
// The idea
//   Steps 1-6 each teach one idea and pay for it somewhere. `best` keeps only what pays on an
//   H100 and chooses by row length, like OneFlow's and PyTorch's softmax do. Sizes are in 16-byte
//   packs (4 fp32 or 8 fp16/bf16 values), so every dtype takes the shape of an fp32 row of the
//   same bytes. fp32 numbers (choose() below has the exact rule):
//
//     N (fp32)        path                                               DRAM traffic
//     <= 256          group: 1..32 lanes per row, 2 rows per group,      read MN, write MN
//                     one warp per block
//     <= 32768        block per row, sized to the row in steps of a      read MN, write MN
//                     warp, 2, 4 or 8 packs a thread: whichever keeps
//                     the most rows resident on an SM
//     <= 131072       cluster of 2..8 blocks of <= 512 threads, 8 packs, read MN, write MN
//                     the size that keeps the most rows resident
//     <= 262144       cluster of 16 blocks of <= 512 threads             read MN, write MN
//     <= ~700000      stash: the same 16 x 512 threads x 8 packs, the    read MN, write MN
//                     rest of each slice in shared memory, while two
//                     blocks fit an SM (whole rows of 2 MB: the grid)
//     <= 1081344      grid: one block per SM, each holding a slice of    read MN, write MN
//                     every row; blocks meet through (max, sum) slots
//                     in global memory, 3-4 rows behind the row they
//                     reduce; a row's edge packs go to a warp of its own
//     longer          two-pass online over a cluster of up to 16 blocks, read 2MN (part of
//                     with L2 eviction policies on its two reads         the second from L2),
//                     (the row no longer fits on chip)                   write MN
//
// What changed since step 6 (online)
//   - The row is read from DRAM once whenever it fits on chip, and "on chip" now means the
//     registers of up to 16 SMs: on Hopper a thread-block *cluster* splits one row across
//     blocks that push their (max, sum) into each other's shared memory (DSMEM; st.async on an
//     mbarrier, with no memory fence), so a block's slice of the row never leaves its SM.
//   - One reduction round per row: each thread takes its max, then its sum relative to that max,
//     and the pairs merge with step 6's rule, so the block and the cluster synchronise once.
//   - Registers hold raw 16-byte packs and widen to fp32 only when used: an fp16 row keeps as
//     many bytes in flight as an fp32 row.
//   - One exp per element: after the max, each value in its register is replaced by its
//     exponential while the sum is taken, and the output is that times one factor per thread.
//     With two exps per element, fp16 and bf16 rows ran out of instruction issue first.
//   - Blocks are sized to the row in steps of one warp (2049 fp32 values take 160 threads, not
//     256), and one-block rows launch without a cluster: measured faster than a cluster of 1.
//   - Short rows use sub-warp groups: N = 32 fp32 is 8 lanes x one 16-byte load, and each group
//     handles two rows so every thread has two loads in flight; blocks are one warp (1 KB of rows
//     at N = 32-128 fp32), which measured faster than larger blocks on one H100.
//   - Every access is a 16-byte vector where possible. Rows need not be aligned: each row is
//     viewed in an "aligned frame" (its address rounded down to 16 bytes); packs wholly inside
//     the row move as vectors and only the two edge packs are masked and stored element by
//     element. On the grid path an extra warp a block holds them and the packs up to the row's
//     first 128-byte line, so the other warps run the code of aligned rows on whole lines.
//   - exp(x - m) is computed as exp2((x - m) * log2(e)): one FMUL plus the hardware EX2.
//     One reciprocal per row, then a multiply per element.
//   - Stores carry the streaming hint (st.global.cs): the output is never read again.
//
// Tried on the H100 and not kept (bench/results/*-tune-2.txt, -tune-3.txt, -tune-4.txt): a
//   persistent grid of clusters that overlaps the next row's loads with this row's stores (slower
//   at every N, twice: with the loads in registers, then copied into shared memory by cp.async);
//   slices held partly in shared memory with one block an SM (tune-2; with two blocks an SM and
//   the fence-free exchange it is the stash, kept: tune-9); a looping
//   grid for the group kernel (94-95%); a second pass that runs backwards over the slice (no
//   better than the L2 policies alone); the grid path for rows a 16-block cluster holds (2 MB
//   rows: 58-63% against 83%; it pays only where its per-row overhead is small next to the row's
//   bytes, and where nothing else keeps the row on chip); a warp per row with
//   5 or 8 packs a lane for N = 1025 halves (fp16 +1 point, bf16 -8); edge packs of interior rows
//   as one vector load (N = 2049 halves +3 points, N = 1025 halves -3, fp32 N = 100003 -2).
// Where it is weakest (bench/README-peers.md): rows of 2.6-2.8 MB that start off 16 bytes, on
//   the stash at 13-14 packs a thread (fp32 N ~ 680000, halves ~ 1400000): about 91% of copy
//   (tune-10).
//
// Valid N: any N >= 1, every dtype. Without clusters (compute capability < 9) one block of up
//   to 1024 threads holds 32768 fp32 values and the two-pass path runs one block per row beyond.
// Special values follow torch.softmax: a row of all -inf gives NaN; a NaN anywhere in a row
//   makes that row NaN.
#include <cooperative_groups.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kernels/best_softmax.h"
#include "kernels/element_io.cuh"
#include "kernels/kernel_api.h"
#include "kernels/best_launch.h"

namespace cg = cooperative_groups;

namespace sml {
namespace best {

constexpr float kLog2e = 1.4426950408889634f;
constexpr float kNegInf = -__builtin_huge_valf();
constexpr unsigned kFullMask = 0xffffffffu;

// @region element-io: 16-byte packs held raw in registers; fp32 compute for every dtype
// A pack is 4 fp32 or 8 fp16/bf16 values as they sit in memory. Registers hold packs raw (a
// uint4), so a thread keeps as many *bytes* of an fp16 row in flight as of an fp32 one; values
// are widened to fp32 only when used. (Widened on load, fp16 rows would take twice the registers
// per byte, and a memory-bound kernel needs bytes in flight.) to_float / from_float, the only
// dtype-specific code, come from kernels/element_io.cuh.
template <typename T>
struct Vec {
    static constexpr int kSize = 16 / sizeof(T);  // elements per 16-byte pack
};

// Elements between the 16-byte boundary below `p` and `p`: the row's offset in its aligned frame.
template <typename T>
__device__ __forceinline__ int frame_head(const T* p) {
    return static_cast<int>((reinterpret_cast<uintptr_t>(p) & 15u) / sizeof(T));
}

// How a 16-byte pack is read. PlainLoad: the row is read once (the on-chip kernels). The two-pass
// kernel reads each slice twice and tells L2 so (LoadPolicy): its first read marks the lines
// evict_last, its second evict_first, so lines still to be re-read outlive the output streaming
// past them. Plain loads beat ld.global.cs by 2-5% on an H100 (bench/README-peers.md); streaming
// stores (st.global.cs) beat plain ones by up to 8% for one-block-per-row rows, since the output
// then does not evict input that is still to be read.
struct PlainLoad {
    __device__ uint4 operator()(const uint4* src) const { return *src; }
};
struct CacheGlobalLoad {  // ld.global.cg: L2 only (the two-pass kernel without L2 policies)
    __device__ uint4 operator()(const uint4* src) const { return __ldcg(src); }
};
enum class L2Evict { kLast, kFirst };
template <L2Evict kEvict>
struct LoadPolicy {
    uint64_t policy;
    __device__ LoadPolicy() {
        if (kEvict == L2Evict::kLast)
            asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
        else
            asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
    }
    __device__ uint4 operator()(const uint4* src) const {
        uint4 v;
        asm("ld.global.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
            : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
            : "l"(src), "l"(policy));
        return v;
    }
};
__device__ __forceinline__ void store16(uint4* dst, uint4 v) {
    __stcs(dst, v);
}

// 2^x on the special-function unit (MUFU.EX2), results below 2^-126 flushed to zero. exp2f keeps
// those denormals with a range check and two multiplies around every call; a softmax output that
// small is zero to any tolerance, and fp16/bf16 rows are short of instruction issue on an H100
// (the SASS of every dtype is in assets/sass/).
__device__ __forceinline__ float ex2(float x) {
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

template <typename T>
__device__ __forceinline__ void unpack(uint4 raw, float (&x)[Vec<T>::kSize]) {
    constexpr int V = Vec<T>::kSize;
    alignas(16) T v[V];
    *reinterpret_cast<uint4*>(v) = raw;
#pragma unroll
    for (int k = 0; k < V; ++k) x[k] = to_float(v[k]);
}

template <typename T>
__device__ __forceinline__ uint4 pack(const float (&x)[Vec<T>::kSize]) {
    constexpr int V = Vec<T>::kSize;
    alignas(16) T v[V];
#pragma unroll
    for (int k = 0; k < V; ++k) v[k] = from_float<T>(x[k]);
    return *reinterpret_cast<uint4*>(v);
}

// Pack `q` of the aligned frame of a row that occupies frame slots [head, head + cols).
// Slots outside the row read as -inf, which leaves both the max and the sum unchanged.
// I (the index type) is int where the row is known to be shorter than 2^31 values: half the
// registers of int64_t for every pack's index, which the unrolled kernels hold many of.
template <typename T, class Load = PlainLoad, typename I>
__device__ __forceinline__ uint4 load_raw(const T* frame, I q, int head, I cols,
                                          const Load& load = Load{}) {
    constexpr int V = Vec<T>::kSize;
    const I f0 = q * V;
    if (f0 >= head && f0 + V <= head + cols)
        return load(reinterpret_cast<const uint4*>(frame + f0));
    alignas(16) T v[V];  // an edge pack, element by element
#pragma unroll
    for (int k = 0; k < V; ++k) {
        const I f = f0 + k;
        v[k] = (f >= head && f < head + cols) ? frame[f] : from_float<T>(kNegInf);
    }
    return *reinterpret_cast<uint4*>(v);
}

// Which of a row's two edge packs (the 16-byte packs its first and last values share with bytes
// that are not the row's) may be read whole: those whose other bytes still lie inside the
// tensor, which spans rows of `stride` elements from the first row's start. Every edge pack but
// the tensor's very first and very last qualifies: the bytes are the next or previous row's, or
// a stride's gap.
struct ReadableEdges {
    bool before = false, after = false;
    template <typename T>
    __device__ static ReadableEdges of(int64_t row, int64_t rows, int64_t stride) {
        return {row * stride >= Vec<T>::kSize, (rows - 1 - row) * stride >= Vec<T>::kSize};
    }
};

// Pack `raw`, at frame slots [f0, f0 + V), with its slots outside [head, head + cols) set to -inf.
template <typename T>
__device__ __forceinline__ uint4 mask_outside(uint4 raw, int f0, int head, int cols) {
    constexpr int V = Vec<T>::kSize;
    alignas(16) T v[V];
    *reinterpret_cast<uint4*>(v) = raw;
#pragma unroll
    for (int k = 0; k < V; ++k)
        if (f0 + k < head || f0 + k >= head + cols) v[k] = from_float<T>(kNegInf);
    return *reinterpret_cast<uint4*>(v);
}

// Stores pack `q` of the input's aligned frame into the output row `out_row` (element 0).
// When the output row sits at the same offset in its own frame, interior packs are vectors.
template <typename T, typename I>
__device__ __forceinline__ void store_pack(T* out_row, bool same_frame, I q, int head, I cols,
                                           const float (&y)[Vec<T>::kSize]) {
    constexpr int V = Vec<T>::kSize;
    const I f0 = q * V;
    if (same_frame && f0 >= head && f0 + V <= head + cols) {
        store16(reinterpret_cast<uint4*>(out_row + (f0 - head)), pack<T>(y));
    } else {
#pragma unroll
        for (int k = 0; k < V; ++k) {
            const I f = f0 + k;
            if (f >= head && f < head + cols) out_row[f - head] = from_float<T>(y[k]);
        }
    }
}
// @endregion element-io

// @region one-exp: each value's exponential is computed once and kept where the value was
// The on-chip kernels hold the row, so they take the max first, then replace every value by
// exp(x - max) *in its register* while summing, and the output is that times one factor:
//     exp(x - row_max) / row_sum = exp(x - m) * [exp(m - row_max) / row_sum]
// for any m (here the thread's or the group's max). One MUFU.EX2 per element instead of two:
// an fp16 pack holds 8 values, and with two exps each an fp16 row ran out of instruction issue
// before it ran out of bandwidth. For fp16/bf16 the exps are stored rounded to the dtype, which
// the output is anyway (one more rounding: still within tolerance_for(dtype)), fp16's scaled to
// stay clear of its subnormals (exp_in_place).

// The max of a pack. fp16/bf16 compare in pairs (HMNMX2: a max is exact in any format), then
// widen two values instead of eight. NaN is skipped, as fmaxf does; the sum catches it.
template <typename T>
__device__ __forceinline__ float pack_max(float m, uint4 raw) {
    float x[Vec<T>::kSize];
    unpack<T>(raw, x);
#pragma unroll
    for (int k = 0; k < Vec<T>::kSize; ++k) m = fmaxf(m, x[k]);
    return m;
}
template <typename H2>
__device__ __forceinline__ float pair_max(float m, uint4 raw) {
    const H2* h = reinterpret_cast<const H2*>(&raw);
    const H2 p = __hmax2(__hmax2(h[0], h[1]), __hmax2(h[2], h[3]));
    return fmaxf(m, fmaxf(__low2float(p), __high2float(p)));
}
template <>
__device__ __forceinline__ float pack_max<__half>(float m, uint4 raw) {
    return pair_max<__half2>(m, raw);
}
template <>
__device__ __forceinline__ float pack_max<__nv_bfloat16>(float m, uint4 raw) {
    return pair_max<__nv_bfloat162>(m, raw);
}

// The shift for a thread's exps: its max, or 0 while every value it holds is -inf.
__device__ __forceinline__ float sum_shift(float m) {
    return m == kNegInf ? 0.0f : m;
}

// Replaces each value x of the pack by exp(x - shift) and returns s plus their sum.
// fp16 keeps its exps times 2^15: fp16 is normal only down to 2^-14, and an exp stored below
// that would lose relative precision that the sum (taken in fp32) does not. Scaled, exps stay
// normal down to e^-20, and the largest is 32768. The sum carries the same factor, and every
// kernel divides the exps by their own sum, so it cancels; it costs an FFMA for the FMUL. (Added
// while chasing an fp16 row-sum failure that turned out to be the test's, it moved no result
// measured -- a safeguard for rows with a wide spread a thread; tune-9.) bf16 has fp32's range.
template <typename T>
__device__ __forceinline__ float exp_in_place(uint4& raw, float shift, float s) {
    constexpr float kBias = std::is_same_v<T, __half> ? 15.0f : 0.0f;  // log2 of the scale
    float x[Vec<T>::kSize];
    unpack<T>(raw, x);
#pragma unroll
    for (int k = 0; k < Vec<T>::kSize; ++k) {
        if constexpr (kBias != 0.0f)
            x[k] = ex2(fmaf(x[k] - shift, kLog2e, kBias));
        else
            x[k] = ex2((x[k] - shift) * kLog2e);
        s += x[k];
    }
    raw = pack<T>(x);
    return s;
}

// An exp pack times the row's factor: the output values.
template <typename T>
__device__ __forceinline__ void scale_pack(uint4 raw, float factor, float (&y)[Vec<T>::kSize]) {
    unpack<T>(raw, y);
#pragma unroll
    for (int k = 0; k < Vec<T>::kSize; ++k) y[k] *= factor;
}

// A running (max, sum) per thread, updated as each pack arrives (the two-pass kernel), and the
// (max, sum) pairs the reductions merge. Step 6's merge rule: the exponentials are summed while
// later packs are still on their way from DRAM, so when the last pack lands only one reduction of
// (max, sum) pairs is left -- one round through the cluster instead of one for the max and another
// for the sum.
// Special values follow torch.softmax: an all -inf row has max -inf and sum 0, and its output
// exp(-inf - (-inf)) is NaN; a NaN anywhere reaches the sum and makes the row NaN.
struct MaxSum {
    float m, s;
};

// The factor that turns exp(x - m), m the thread's max, into the output exp(x - row.m) / row.s.
// A thread holding only -inf has shift 0 and exps of 0: factor 0, except in an all -inf row,
// where 1 / sum is inf and 0 * inf makes the row NaN, as torch.softmax does.
__device__ __forceinline__ float output_factor(float m, MaxSum row) {
    const float inv = 1.0f / row.s;
    return m == kNegInf ? 0.0f * inv : ex2((m - row.m) * kLog2e) * inv;
}

// A thread's max over the packs it holds (live(p)), then exp(x - max) in place of every value,
// and their sum.
template <typename T, int PACKS, class Live>
__device__ __forceinline__ MaxSum thread_exps(uint4 (&x)[PACKS], Live live) {
    float m = kNegInf;
#pragma unroll
    for (int p = 0; p < PACKS; ++p)
        if (live(p)) m = pack_max<T>(m, x[p]);
    const float shift = sum_shift(m);
    float s = 0.0f;
#pragma unroll
    for (int p = 0; p < PACKS; ++p)
        if (live(p)) s = exp_in_place<T>(x[p], shift, s);
    return MaxSum{m, s};
}
// @endregion one-exp

__device__ __forceinline__ void absorb(MaxSum& acc, const float* x, int n) {
    float pm = acc.m;
    for (int k = 0; k < n; ++k) pm = fmaxf(pm, x[k]);  // fmaxf skips NaN; the sum catches it
    if (pm > acc.m) {  // rescale what is summed so far to the new max (0 if it was empty)
        acc.s *= ex2((acc.m - pm) * kLog2e);
        acc.m = pm;
    }
    const float shift = sum_shift(acc.m);  // all -inf so far: avoid -inf - -inf
    for (int k = 0; k < n; ++k) acc.s += ex2((x[k] - shift) * kLog2e);
}

template <typename T>
__device__ __forceinline__ void absorb_pack(MaxSum& acc, uint4 raw) {
    float x[Vec<T>::kSize];
    unpack<T>(raw, x);
    absorb(acc, x, Vec<T>::kSize);
}

// The normalised pack from raw input (the two-pass kernel's second read):
// exp(x - m) / sum, as exp2((x - m) * log2(e)) times one reciprocal.
template <typename T>
__device__ __forceinline__ void normalise(uint4 raw, float m, float inv,
                                          float (&y)[Vec<T>::kSize]) {
    unpack<T>(raw, y);
#pragma unroll
    for (int k = 0; k < Vec<T>::kSize; ++k) y[k] = ex2((y[k] - m) * kLog2e) * inv;
}

__device__ __forceinline__ MaxSum merge(MaxSum a, MaxSum b) {
    const float m = fmaxf(a.m, b.m);
    const float sa = a.m == m ? a.s : a.s * ex2((a.m - m) * kLog2e);
    const float sb = b.m == m ? b.s : b.s * ex2((b.m - m) * kLog2e);
    return MaxSum{m, sa + sb};
}

// Reductions: butterfly shuffles inside a group; warp partials through shared memory.
struct MaxOp {
    __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
    static constexpr float kIdentity = kNegInf;
};
struct SumOp {
    __device__ float operator()(float a, float b) const { return a + b; }
    static constexpr float kIdentity = 0.0f;
};

// Every lane of each WIDTH-lane group ends with the group's result.
template <int WIDTH, class Op>
__device__ __forceinline__ float group_reduce(float v, Op op) {
#pragma unroll
    for (int mask = WIDTH / 2; mask > 0; mask /= 2)
        v = op(v, __shfl_xor_sync(kFullMask, v, mask, WIDTH));
    return v;
}

// The warp's (max, sum): the max first, then each lane's sum scaled to it once, then the sums.
// One exp a lane instead of two a level of pairwise merges (five levels): the same result up to
// rounding, and half the shuffles' dependent arithmetic.
__device__ __forceinline__ MaxSum warp_merge(MaxSum v) {
    float m = v.m;
#pragma unroll
    for (int mask = 16; mask > 0; mask /= 2) m = fmaxf(m, __shfl_xor_sync(kFullMask, m, mask));
    float s = v.m == m ? v.s : v.s * ex2((v.m - m) * kLog2e);  // an all -inf warp keeps s = 0
#pragma unroll
    for (int mask = 16; mask > 0; mask /= 2) s += __shfl_xor_sync(kFullMask, s, mask);
    return MaxSum{m, s};
}

// The block's (max, sum), valid in warp 0. `slots` holds one partial per warp (at most 32).
// blockDim.x is a multiple of 32 chosen at launch, so the block fits the row without waste.
__device__ __forceinline__ MaxSum block_merge(MaxSum v, MaxSum* slots) {
    const int kWarps = blockDim.x / 32;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_merge(v);
    if (lane == 0) slots[warp] = v;
    __syncthreads();
    if (warp == 0) v = warp_merge(lane < kWarps ? slots[lane] : MaxSum{kNegInf, 0.0f});
    return v;
}

// Cluster glue: one place that knows about thread-block clusters (Hopper, sm_90+).
// RowCluster<false> is one block per row: plain __syncthreads, no cluster launch (measured
// faster than a cluster of 1). Compiled for a GPU without clusters, RowCluster<true> is the same.
template <bool kClustered>
struct RowCluster {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    static_assert(kClustered, "the one-block form is the specialisation below");
    __device__ static unsigned rank() {
        return cg::this_cluster().block_rank();
    }
    __device__ static unsigned size() {
        return cg::this_cluster().num_blocks();
    }
    // Barrier over every thread of every block in the cluster; orders DSMEM writes and reads.
    __device__ static void sync() {
        cg::this_cluster().sync();
    }
    // Says this block has read its peers' shared memory for the last time: the reads have
    // returned (their values were merged), so the arrive orders nothing and is .relaxed.
    // cg's barrier_arrive() has release semantics, which ptxas makes a MEMBAR.ALL.GPU, a wait
    // on the memory system before every row's stores: without it, 2^17 fp16 97.5% -> 98.8% of
    // copy, 2^16 fp32 98.9% -> 99.5% (tune-7).
    __device__ static void arrive() {
        asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
    }
    __device__ static void wait() {
        cg::this_cluster().barrier_wait();
    }
    // The same shared variable in block `r` of this cluster (distributed shared memory).
    template <class V>
    __device__ static V* peer(V* p, unsigned r) {
        return cg::this_cluster().map_shared_rank(p, r);
    }
#else
    __device__ static unsigned rank() {
        return 0;
    }
    __device__ static unsigned size() {
        return 1;
    }
    __device__ static void sync() {
        __syncthreads();
    }
    __device__ static void arrive() {}
    __device__ static void wait() {}
    template <class V>
    __device__ static V* peer(V* p, unsigned) {
        return p;
    }
#endif
};
template <>
struct RowCluster<false> {
    __device__ static unsigned rank() { return 0; }
    __device__ static unsigned size() { return 1; }
    __device__ static void sync() { __syncthreads(); }
    __device__ static void arrive() {}
    __device__ static void wait() {}
    template <class V>
    __device__ static V* peer(V* p, unsigned) {
        return p;
    }
};

// Shared state of one block's row reduction: per-warp partials, then the block's and the row's.
struct RowStats {
    MaxSum slots[32];
    MaxSum block;  // read by the other blocks of the cluster (DSMEM)
    MaxSum row;
};

// @region cluster-reduce: the row's (max, sum) from every block's in one round -- read, or pushed
// row_stats (one block a row; the two-pass kernel's clusters): the row's (max, sum) in every
// thread; warp 0 reads the peers' `block` entries, a lane per block. Its cluster barrier also
// keeps a block from overwriting `block` for its next row before every peer has read it.
template <bool kClustered>
__device__ __forceinline__ MaxSum row_stats(MaxSum mine, RowStats& st) {
    using RowCluster = RowCluster<kClustered>;
    mine = block_merge(mine, st.slots);
    if (threadIdx.x == 0) st.block = mine;
    RowCluster::sync();  // every block's `block` is written and visible cluster-wide
    if (threadIdx.x < 32) {
        const unsigned lane = threadIdx.x, n = RowCluster::size();
        MaxSum v{kNegInf, 0.0f};
        for (unsigned r = lane; r < n; r += 32) v = merge(v, *RowCluster::peer(&st.block, r));
        v = warp_merge(v);
        if (lane == 0) st.row = v;
    }
    __syncthreads();
    return st.row;
}

// push_init and push_row_stats, the cluster kernel's exchange: each block pushes its (max, sum)
// to all.
// The cluster kernel holds one row per cluster and exchanges once, so it needs no barrier per
// row: every block writes its pair into each peer's `from[rank]` with st.async, which counts the
// 8 bytes on the peer's mbarrier, and each block waits on its own mbarrier for all of them. No
// block reads another's shared memory, so none has to wait for its peers before exiting. The one
// cluster barrier, at the start, only says every mbarrier is initialised; its arrive is issued
// with the loads in flight and its wait comes a whole memory latency later. (Before: a cluster
// sync, whose release ptxas makes a MEMBAR.ALL.GPU -- ncu: 15% of the warps' stalled cycles at
// fp16 N = 100003 -- then DSMEM reads, a __syncthreads, and a barrier before exit.)
struct PushedStats {
    MaxSum slots[32];            // block_merge's per-warp pairs
    MaxSum from[16];             // block r's pair, pushed by block r
    unsigned long long arrived;  // mbarrier: complete once every block's 8 bytes have landed
};

__device__ __forceinline__ unsigned smem_address(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// Before the exchange: thread 0 readies the mbarrier for `blocks` pushes of 8 bytes, and every
// thread arrives (relaxed) on the cluster barrier that push_row_stats waits on.
__device__ __forceinline__ void push_init(PushedStats& st, unsigned blocks) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if (threadIdx.x == 0) {
        const unsigned bar = smem_address(&st.arrived);
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
                     "r"(blocks * 8u)
                     : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
#endif
}

// The row's (max, sum) in every thread, from this thread's pair.
__device__ __forceinline__ MaxSum push_row_stats(MaxSum mine, PushedStats& st, unsigned rank,
                                                 unsigned blocks) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    mine = block_merge(mine, st.slots);                          // the block's pair, in warp 0
    asm volatile("barrier.cluster.wait.aligned;" ::: "memory");  // every mbarrier is ready
    if (threadIdx.x < blocks) {  // lane r of warp 0 pushes to block r
        unsigned slot, bar;
        asm("mapa.shared::cluster.u32 %0, %1, %2;"
            : "=r"(slot)
            : "r"(smem_address(&st.from[rank])), "r"(threadIdx.x));
        asm("mapa.shared::cluster.u32 %0, %1, %2;"
            : "=r"(bar)
            : "r"(smem_address(&st.arrived)), "r"(threadIdx.x));
        const unsigned long long pair =
            (static_cast<unsigned long long>(__float_as_uint(mine.s)) << 32) |
            __float_as_uint(mine.m);
        asm volatile(
            "st.async.shared::cluster.mbarrier::complete_tx::bytes.b64 [%0], %1, [%2];" ::"r"(slot),
            "l"(pair), "r"(bar)
            : "memory");
    }
    const unsigned bar = smem_address(&st.arrived);
    unsigned done = 0;
    while (!done) {
        asm volatile(
            "{ .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], 0;"
            " selp.u32 %0, 1, 0, p; }"
            : "=r"(done)
            : "r"(bar)
            : "memory");
    }
    const unsigned lane = threadIdx.x % 32;  // every warp merges the pairs itself
    return warp_merge(lane < blocks ? st.from[lane] : MaxSum{kNegInf, 0.0f});
#else
    return mine;  // not reached: clusters are launched on sm_90 and newer only
#endif
}
// @endregion cluster-reduce

// @region group-kernel: short rows -- WIDTH lanes per row, ROWS rows per group, in registers
// A warp holds 32 / WIDTH groups; the loop bound is the same for the whole warp, so every lane
// reaches the shuffles (a row past the end reads as -inf and is not stored). Launched with one
// group per ROWS rows and no grid-stride (measured: a resident, looping grid stays at 94-95% of
// copy here, a grid of all the rows reaches 100%).
template <typename T, int PACKS, int WIDTH, int ROWS>
__global__ void __launch_bounds__(512)
    best_group_kernel(const T* __restrict__ in, T* __restrict__ out, int64_t rows, int64_t cols,
                      int64_t in_stride, int64_t out_stride) {
    constexpr int V = Vec<T>::kSize;
    constexpr int kGroupsPerWarp = 32 / WIDTH;
    const int lane = threadIdx.x % WIDTH;
    const int group = (threadIdx.x % 32) / WIDTH;
    const int64_t warp = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    const int64_t warps = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
    const int64_t rows_per_warp = kGroupsPerWarp * ROWS;

    for (int64_t first = warp * rows_per_warp; first < rows; first += warps * rows_per_warp) {
        uint4 raw[ROWS][PACKS];
        int head[ROWS];
#pragma unroll
        for (int r = 0; r < ROWS; ++r) {
            // Row r of every group in the warp is adjacent: one load instruction covers them.
            const int64_t row = first + r * kGroupsPerWarp + group;
            const T* src = in + (row < rows ? row : 0) * in_stride;
            head[r] = frame_head(src);
            const int valid = row < rows ? static_cast<int>(cols) : 0;  // a short row
#pragma unroll
            for (int p = 0; p < PACKS; ++p)
                raw[r][p] = load_raw(src - head[r], p * WIDTH + lane, head[r], valid);
        }
#pragma unroll
        for (int r = 0; r < ROWS; ++r) {
            const int64_t row = first + r * kGroupsPerWarp + group;
            float m = kNegInf;
#pragma unroll
            for (int p = 0; p < PACKS; ++p) m = pack_max<T>(m, raw[r][p]);
            m = group_reduce<WIDTH>(m, MaxOp{});
            // Relative to the row's own max (an all -inf row: -inf - -inf = NaN, as torch).
            float s = 0.0f;
#pragma unroll
            for (int p = 0; p < PACKS; ++p) s = exp_in_place<T>(raw[r][p], m, s);
            const float inv = 1.0f / group_reduce<WIDTH>(s, SumOp{});
            if (row >= rows) continue;
            T* dst = out + row * out_stride;
            const bool same_frame = frame_head(dst) == head[r];
#pragma unroll
            for (int p = 0; p < PACKS; ++p) {
                float y[V];
                scale_pack<T>(raw[r][p], inv, y);
                store_pack(dst, same_frame, p * WIDTH + lane, head[r], static_cast<int>(cols), y);
            }
        }
    }
}
// @endregion group-kernel

// 16 bytes from global to shared memory without passing through registers (cp.async, sm_80+).
// Compiled for a GPU before Ampere (no cp.async), the copy is a plain load and store: correct,
// without the overlap.
__device__ __forceinline__ void copy_async16(uint4* dst, const void* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to), "l"(src) : "memory");
#else
    *dst = *static_cast<const uint4*>(src);
#endif
}
__device__ __forceinline__ void copy_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}
template <int kNewest>
__device__ __forceinline__ void copy_async_wait_all_but() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;" ::"n"(kNewest) : "memory");
#endif
}

// @region cluster-kernel: a row per block or per cluster; each block keeps its slice on chip
// The row's packs (of its aligned frame) are shared evenly between the blocks of the cluster, in
// slices of whole 128-byte lines: block `rank` owns [rank * S, (rank + 1) * S), S = ceil(packs /
// blocks) rounded up to 8 packs, and its thread t the packs t, t + T, t + 2T, ... (T = blockDim.x),
// so adjacent threads own adjacent packs and every load is coalesced. (Slices of T * PACKS, a
// block's whole capacity, left the last block of some clusters empty: N = 100003 fp16 on 8 x 224
// threads ran at 83% so, 86% with even slices.) Any block size up to 1024, so at most 64 regs a
// thread: blocks of 512 or fewer then fit two or more per SM, and one block's loads overlap
// another's stores. Slots past the slice's end are neither loaded nor computed.
// That slice, [begin, end) of the frame, with its loads, its exps and its stores. The grid kernel
// cuts its slices the same way (packs_of, size_of), once for all rows.
template <typename T>
struct RowSlice {
    static constexpr int V = Vec<T>::kSize;
    const T* frame;
    int head, begin, end, n;
    // Packs of the frame that hold row values: one of two counts, by where the row starts.
    __device__ static int packs_of(int head, int cols) { return (head + cols + V - 1) / V; }
    __device__ static int size_of(int row_packs, unsigned blocks) {
        return static_cast<int>(((row_packs + blocks - 1) / blocks + 7) / 8 * 8);
    }
    __device__ RowSlice(const T* row_start, int cols, unsigned blocks, unsigned rank) : n(cols) {
        head = frame_head(row_start);
        frame = row_start - head;
        const int row_packs = packs_of(head, n);
        const int size = size_of(row_packs, blocks);
        begin = static_cast<int>(rank) * size;
        end = min(row_packs, begin + size);  // <= begin + T * PACKS
    }
    __device__ int pack_of(int p) const {
        return begin + static_cast<int>(threadIdx.x) + p * static_cast<int>(blockDim.x);
    }
    __device__ bool live(int p) const { return pack_of(p) < end; }
    // The row starts on 16 bytes and ends on a pack's end: no edge packs.
    __device__ bool whole_packs() const { return head == 0 && n % V == 0; }
    // Every value of the pack belongs to the row (the two edge packs may not).
    __device__ bool interior(int p) const {
        const int f0 = pack_of(p) * V;
        return f0 >= head && f0 + V <= head + n;
    }
    // The pack may be read as one 16-byte vector: interior, or an edge pack whose other bytes
    // `edges` says lie inside the tensor.
    __device__ bool readable_whole(int p, ReadableEdges edges) const {
        const int f0 = pack_of(p) * V;
        return (f0 >= head || edges.before) && (f0 + V <= head + n || edges.after);
    }
    template <int PACKS>
    __device__ void load(uint4 (&x)[PACKS]) const {
#pragma unroll
        for (int p = 0; p < PACKS; ++p)
            if (live(p)) x[p] = load_raw(frame, pack_of(p), head, n);
    }
    // As load(), with every load issued before any value is used. An edge pack read element by
    // element waits for its loads, and a wait among the loads holds back the thread's later ones
    // by a whole memory latency; a cluster's reduction waits for its slowest warp, so fp16
    // N = 100003 ran at 90% of copy, N = 100008 (aligned rows) at 93% (tune-7; ncu: more
    // barrier stalls). Here edge packs are read whole where `edges` allows, with the other
    // loads, and masked after them; only the tensor's own two ends go element by element. (One
    // block a row keeps load(): it hides one warp's wait behind other rows, and this costs the
    // fp32 8-pack kernel 10 registers, a resident block fewer at 544 threads.)
    template <int PACKS>
    __device__ void load_edges_last(uint4 (&x)[PACKS], ReadableEdges edges) const {
#pragma unroll
        for (int p = 0; p < PACKS; ++p) {
            if (!live(p)) continue;
            if (readable_whole(p, edges))
                x[p] = PlainLoad{}(reinterpret_cast<const uint4*>(frame + pack_of(p) * V));
            else
                x[p] = load_raw(frame, pack_of(p), head, n);
        }
#pragma unroll
        for (int p = 0; p < PACKS; ++p)
            if (live(p) && !interior(p)) x[p] = mask_outside<T>(x[p], pack_of(p) * V, head, n);
    }
    // This thread's max, then exp(x - max) in place of every value, and their sum.
    template <int PACKS>
    __device__ MaxSum exps(uint4 (&x)[PACKS]) const {
        return thread_exps<T>(x, [&](int p) { return live(p); });
    }
    // The output: the exps times this thread's factor, into the row that starts at out_row.
    template <int PACKS>
    __device__ void store(T* out_row, const uint4 (&x)[PACKS], float factor) const {
        const bool same_frame = frame_head(out_row) == head;
#pragma unroll
        for (int p = 0; p < PACKS; ++p) {
            if (!live(p)) continue;
            float y[V];
            scale_pack<T>(x[p], factor, y);
            store_pack(out_row, same_frame, pack_of(p), head, n, y);
        }
    }
};

template <typename T, int PACKS, bool kClustered>
__global__ void __launch_bounds__(1024)
    best_cluster_kernel(const T* __restrict__ in, T* __restrict__ out, int64_t cols,
                        int64_t in_stride, int64_t out_stride) {
    using RowCluster = RowCluster<kClustered>;
    const unsigned blocks = RowCluster::size(), rank = RowCluster::rank();
    const int64_t row = blockIdx.x / blocks;
    // On-chip rows are far below 2^31 values.
    const RowSlice<T> g(in + row * in_stride, static_cast<int>(cols), blocks, rank);

    uint4 raw[PACKS];
    if constexpr (kClustered) {
        __shared__ PushedStats stats;
        if (g.whole_packs())  // a block-uniform branch: aligned rows skip the edge bookkeeping
            g.load(raw);
        else
            g.load_edges_last(raw, ReadableEdges::of<T>(row, gridDim.x / blocks, in_stride));
        push_init(stats, blocks);
        const MaxSum mine = g.exps(raw);
        const MaxSum whole_row = push_row_stats(mine, stats, rank, blocks);
        g.store(out + row * out_stride, raw, output_factor(mine.m, whole_row));
    } else {
        __shared__ RowStats stats;
        g.load(raw);
        const MaxSum mine = g.exps(raw);
        const MaxSum whole_row = row_stats<false>(mine, stats);
        g.store(out + row * out_stride, raw, output_factor(mine.m, whole_row));
    }
}

// The stash kernel: rows past a 16-block cluster's registers, the rest of each slice in shared
// memory, so that two blocks still share an SM.
// Past 16 x 512 threads x 8 packs (1 MB rows), a cluster kernel with larger blocks fits one block
// an SM: nothing overlaps one row's stores with the next row's loads, and seven 16-block
// clusters leave 20 of 132 SMs idle (fp32 N = 262145: 75% of copy, 300001: 80%; tune-8). Here a
// block stays at 512 threads and 8 packs a thread in registers (half an SM's registers), and a
// thread's further packs of the slice go to its own column of shared memory
// by cp.async, which needs no registers. Each thread reads back only what it copied itself, so
// no barrier guards the stash. Two blocks an SM hold up to 2 x ~110 KB there: rows of up to
// ~2.75 MB (fp32 N ~ 700000, fp16/bf16 N ~ 1.4M) keep their overlap.
template <typename T>
__global__ void __launch_bounds__(512, 2)
    best_stash_kernel(const T* __restrict__ in, T* __restrict__ out, int64_t cols,
                      int64_t in_stride, int64_t out_stride) {
    constexpr int PACKS = 8, V = Vec<T>::kSize;
    using RowCluster = RowCluster<true>;
    extern __shared__ uint4 stash[];  // [slots][blockDim.x]: thread t's packs in column t
    __shared__ PushedStats stats;
    const unsigned blocks = RowCluster::size(), rank = RowCluster::rank();
    const int64_t row = blockIdx.x / blocks;
    const RowSlice<T> g(in + row * in_stride, static_cast<int>(cols), blocks, rank);
    const int threads = blockDim.x;
    uint4* const column = stash + threadIdx.x;  // stash slot s of this thread: column[s * threads]
    const ReadableEdges edges = ReadableEdges::of<T>(row, gridDim.x / blocks, in_stride);

    // Stash slots that hold packs of this row: this thread's packs of the slice past its PACKS
    // in registers. The launch sized the stash for the longest frame a row of `cols` has, and
    // plan_with checks that the blocks hold it, so they fit.
    const int live = max(0, (g.end - g.pack_of(PACKS) + threads - 1) / threads);

    // The copies first (no registers, nothing to wait for), then the register packs.
    for (int s = 0; s < live; ++s) {
        if (g.readable_whole(PACKS + s, edges))
            copy_async16(&column[s * threads], g.frame + g.pack_of(PACKS + s) * V);
        else  // the tensor's own first or last pack, element by element
            column[s * threads] = load_raw(g.frame, g.pack_of(PACKS + s), g.head, g.n);
    }
    copy_async_commit();
    uint4 raw[PACKS];
    if (g.whole_packs())
        g.load(raw);
    else
        g.load_edges_last(raw, edges);
    push_init(stats, blocks);

    // This thread's max over registers and stash (edge packs masked as they are read back),
    // then exp(x - max) in place of every value, and the sum. The stash loops are unrolled by
    // 4, so several shared-memory reads are in flight at once.
    float m = kNegInf;
#pragma unroll
    for (int p = 0; p < PACKS; ++p)
        if (g.live(p)) m = pack_max<T>(m, raw[p]);
    copy_async_wait_all_but<0>();
    // The row's head pack, frame slot 0, is in registers; its last pack may be a thread's last
    // live stash slot.
    if (const int s = live - 1; s >= 0 && !g.interior(PACKS + s))
        column[s * threads] =
            mask_outside<T>(column[s * threads], g.pack_of(PACKS + s) * V, g.head, g.n);
#pragma unroll 4
    for (int s = 0; s < live; ++s) m = pack_max<T>(m, column[s * threads]);
    const float shift = sum_shift(m);
    float sum = 0.0f;
#pragma unroll
    for (int p = 0; p < PACKS; ++p)
        if (g.live(p)) sum = exp_in_place<T>(raw[p], shift, sum);
#pragma unroll 4
    for (int s = 0; s < live; ++s) {
        uint4 v = column[s * threads];
        sum = exp_in_place<T>(v, shift, sum);
        column[s * threads] = v;
    }
    const MaxSum whole_row = push_row_stats(MaxSum{m, sum}, stats, rank, blocks);
    const float factor = output_factor(m, whole_row);
    T* const out_row = out + row * out_stride;
    g.store(out_row, raw, factor);
    const bool same_frame = frame_head(out_row) == g.head;
#pragma unroll 4
    for (int s = 0; s < live; ++s) {
        float y[V];
        scale_pack<T>(column[s * threads], factor, y);
        store_pack(out_row, same_frame, g.pack_of(PACKS + s), g.head, g.n, y);
    }
}
// @endregion cluster-kernel

// @region two-pass-kernel: rows too long for on-chip -- online (max, sum), then write
// Pass 1 keeps a running (max, sum) per thread (step 6's merge rule, `absorb`). Pass 2 reads the
// slice again and writes it. The second read is cheap only if it comes from L2, and between the
// two reads of a line the whole GPU reads one slice per block in flight (8 rows of 4 MiB at
// N = 2^20 fp32: 32 MiB of a 50 MiB L2) while the output streams past. Two measured helps, as
// flags of kL2: kL2Policy marks the first read evict_last and the second evict_first (createpolicy,
// ld.global.L2::cache_hint); kL2Reverse runs pass 2 backwards over the slice, so the lines read
// last, the likeliest still in L2, are read again first.
// Up to 1024 threads, so 64 registers per thread: kUnroll is sized to fit.
constexpr int kL2Policy = Config::kL2Policy, kL2Reverse = Config::kL2Reverse;
template <typename T, bool kClustered, int kL2>
__global__ void __launch_bounds__(1024)
    best_two_pass_kernel(const T* __restrict__ in, T* __restrict__ out, int64_t cols,
                         int64_t in_stride, int64_t out_stride) {
    using RowCluster = RowCluster<kClustered>;
    using FirstLoad =
        std::conditional_t<(kL2 & kL2Policy) != 0, LoadPolicy<L2Evict::kLast>, CacheGlobalLoad>;
    using SecondLoad =
        std::conditional_t<(kL2 & kL2Policy) != 0, LoadPolicy<L2Evict::kFirst>, PlainLoad>;
    constexpr int V = Vec<T>::kSize;
    constexpr int kUnroll = 4;  // 4 packs (64 bytes) in flight per thread
    __shared__ RowStats stats;
    const unsigned rank = RowCluster::rank(), blocks = RowCluster::size();
    const int threads = blockDim.x;
    const int64_t row = blockIdx.x / blocks;
    const T* src = in + row * in_stride;
    const int head = frame_head(src);
    const T* frame = src - head;
    const int64_t packs = (head + cols + V - 1) / V;
    const int64_t per_block = (packs + blocks - 1) / blocks;
    const int64_t begin = rank * per_block, end = min(packs, begin + per_block);
    const int64_t step = int64_t{threads} * kUnroll;  // packs per iteration of the block
    const int64_t chunks = end > begin ? (end - begin + step - 1) / step : 0;

    const FirstLoad first_load;
    MaxSum acc{kNegInf, 0.0f};
    for (int64_t c = 0; c < chunks; ++c) {
        const int64_t q0 = begin + c * step + threadIdx.x;
        uint4 raw[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const int64_t q = q0 + u * threads;
            raw[u] = load_raw(frame, q, head, q < end ? cols : 0, first_load);
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) absorb_pack<T>(acc, raw[u]);
    }
    const MaxSum rs = row_stats<kClustered>(acc, stats);
    RowCluster::arrive();
    const float inv = 1.0f / rs.s;

    const SecondLoad second_load;
    T* dst = out + row * out_stride;
    const bool same_frame = frame_head(dst) == head;
    for (int64_t i = 0; i < chunks; ++i) {
        const int64_t c = (kL2 & kL2Reverse) != 0 ? chunks - 1 - i : i;
        const int64_t q0 = begin + c * step + threadIdx.x;
        uint4 raw[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const int64_t q = q0 + u * threads;
            raw[u] = load_raw(frame, q, head, q < end ? cols : 0, second_load);
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const int64_t q = q0 + u * threads;
            if (q >= end) break;
            float y[V];
            normalise<T>(raw[u], rs.m, inv, y);
            store_pack(dst, same_frame, q, head, cols, y);
        }
    }
    RowCluster::wait();
}
// @endregion two-pass-kernel

// @region grid-kernel: rows longer than a cluster holds -- every SM holds a slice of every row
// A cluster stops at 16 SMs, and on an H100 seven 16-SM clusters fit at once: 112 of 132 SMs
// (bench/cluster_occupancy.cu), so 2 MB rows run at 83% of copy. Here every block of the grid
// (all SMs) owns one slice of *every* row, and the blocks meet through global memory: each block
// stores its slice's (max, sum) into a slot of the workspace, one per row and block, and reads
// the row's K slots to finish it. The whole grid is resident (a cooperative launch guarantees
// it), so blocks can wait for each other.
// What cost earlier versions (bench/results tune-4 to tune-6: 25-91% of copy):
//   - A block published a row and then waited for that same row: a loaded L2 round trip, ~2 us,
//     every row. Here a block finishes a row LAG steps after reducing it, and the slots it merges
//     were read during the step before.
//   - The next rows' loads went into registers, and a warp waits on loads through a handful of
//     scoreboards that the compiler shares among them: waiting for row i also waited for the row
//     just issued, so every step paid a full DRAM latency whatever the prefetch distance. Here
//     they go to shared memory by cp.async, whose groups are waited for in order, oldest first
//     (cp.async.wait_group AHEAD: all but the AHEAD newest rows have landed).
//   - Two barriers a step, with warp 0 merging alone between them while the block waited. With 8
//     warps an SM, Nsight Compute found the schedulers idle 69% of the time, mostly on
//     dependent arithmetic (tune-6, 2 MB fp32 rows: 59%). Now each step has one barrier: warp 0
//     publishes after it, and every warp merges the few slot-warp results itself; with that,
//     4 MB rows went from 91% to 97%.
//   - One block per SM could not hide that latency with anything else. Now the grid may be two
//     *teams*, each a block per SM on every other row (2 MB rows: 94% against 67% with one team;
//     registers allow two teams up to 256 threads a block).
// In step i a block
//   1. starts the copies of row i + AHEAD into its shared-memory ring (AHEAD rows in flight),
//   2. reduces row i, whose copies have landed: each thread reads back only the packs it copied
//      itself, so no barrier is needed; the exps stay in a register ring of LAG + 1 rows. The
//      first K threads' slots of row f = i - LAG, read during the step before, are merged by
//      warp (a lane whose slot is still unwritten polls it),
//   3. passes the step's barrier; warp 0 merges the warps' (max, sum) of row i and publishes it,
//      every warp merges the slot warps' results of row f and stores its slice of row f,
//   4. reads row f + 1's slots (one per thread, for the first K threads) for the next step.
// A lag of 4 rows suits one team, 2 two teams (their registers hold no more; tune-6). Also
// measured and not kept (tune-5 calls 4-5): the slots copied by cp.async with the data (17-75%),
// and read half a step earlier (worse at every lag but 4).
// A slot is 8 bytes (max, sum) written in one store: it carries its own data, so no fence is
// needed (a fence waits for every load in flight). The workspace is poisoned before each launch
// with a pattern whose sum is negative, which no real sum is.
constexpr unsigned char kUnwrittenByte = 0xBF;  // a slot of these bytes has sum -1.49...

__device__ __forceinline__ void publish(uint64_t* slot, MaxSum v) {
    const uint64_t bits = (uint64_t{__float_as_uint(v.s)} << 32) | __float_as_uint(v.m);
    asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" ::"l"(slot), "l"(bits) : "memory");
}
__device__ __forceinline__ uint64_t read_slot(const uint64_t* slot) {
    uint64_t bits;
    asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(bits) : "l"(slot) : "memory");
    return bits;
}
__device__ __forceinline__ MaxSum slot_value(uint64_t bits) {
    return MaxSum{__uint_as_float(static_cast<unsigned>(bits)),
                  __uint_as_float(static_cast<unsigned>(bits >> 32))};
}
__device__ __forceinline__ bool unwritten(MaxSum v) {
    return v.s < 0.0f;  // a real sum is >= 0 or NaN
}

// Threads a block of the grid kernel may have: 1024 up to 2 packs a thread, then fewer, so a
// thread may use more registers (65536 / threads) for its larger ring. The `wide` kernel has a
// warp more (below).
constexpr int grid_max_threads(int packs, bool wide = false) {
    return packs <= 2 ? 1024 : 2048 / packs + (wide ? 32 : 0);
}
// Packs of a row with edges that are not main packs (below): a 128-byte line's worth.
constexpr int kGridLinePacks = 128 / 16;
// A row's main packs on the grid: all of a `whole` row (whole packs, every row on 16 bytes), all
// but a line's worth of another. The kernel cuts its slices from this, and the launch sizes
// blocks by it.
template <typename I>  // int in the kernel, int64_t at launch
__host__ __device__ constexpr I grid_main_packs(I cols, int vec, bool whole) {
    return whole ? cols / vec : (cols / vec > kGridLinePacks ? cols / vec - kGridLinePacks : 0);
}

// Every block holds the same slots of every row: its slice [begin, begin + size) of the row's
// main packs, so a thread's slots begin + threadIdx.x + p * threads never move from row to row
// and are worked out once. (Slices worked out per row, three times a step, were a third of the
// kernel's instructions on 2 MB bf16 rows -- 880 a warp a step, 300 of them addresses and
// bounds -- and the kernel is short of issue slots there; tune-8.)
// A row that starts off 16 bytes, or ends inside a pack, has edge packs: its first and last
// packs hold other rows' bytes. The main packs are the ones that lie wholly inside a row wherever
// in its frame the row starts, from its first 128-byte line past slot 0, so the block's main
// threads run exactly the code of whole rows, with sector-aligned loads. The other slots -- the
// lead before them, and the few past them that may hold the row's last values -- go to one
// extra warp, the last of each block: in the last block it holds one a lane, in the others
// nothing, and passes the barrier. (Edge packs handled by the main threads, behind per-pack
// predicates, cost every warp 50% more instructions, 653 a warp a step against 441 on 3 MB fp32
// rows; unaligned rows ran at 83% of copy, aligned ones at 96%. tune-9.) An edge pack is copied
// whole with the others, except at the tensor's own first and last rows, where the bytes around
// the row may lie outside the tensor, and masked once it has landed; its outputs are stored one
// by one. So the output's rows must sit at the input's offsets in their frames (the launch
// checks it: otherwise two passes). kWhole (chosen at launch): every row starts on 16 bytes and
// ends on a pack's end, so there is no edge warp.
// The edge warp takes a place of the main threads' 512 at 4 packs a thread, which then hold 1920
// packs a block, not 2048. Rows of 1920 to 2048 a block [fp32 N ~ 1013800-1081300] take the
// kWide kernel, which has the warp on top: 17 warps, so ptxas gives each thread 96 registers,
// not 128 (a quarter of the SM's registers for 5 of them), and the ring of lag 4 spills. So kWide
// is built for lag 3 only (tune-10: built so for every length, lag 4 ran at 64-69% of copy).
template <typename T, int PACKS, int LAG, int AHEAD, bool kWhole, bool kWide = false>
__global__ void __launch_bounds__(grid_max_threads(PACKS, kWide))
    best_grid_kernel(const T* __restrict__ in, T* __restrict__ out, int rows, int64_t cols,
                     int64_t in_stride, int64_t out_stride, uint64_t* __restrict__ slots,
                     int teams) {
    static_assert(LAG >= 2, "row f's slots are read one step after f + LAG - 1");
    constexpr int kRing = LAG + 1;      // register ring: rows reduced and not yet finished
    constexpr int kStaged = AHEAD + 1;  // shared ring: rows in flight and the row reduced
    constexpr int V = Vec<T>::kSize;
    extern __shared__ uint4 staged[];      // [kStaged][PACKS][blockDim.x]
    __shared__ MaxSum warp_sums[2][32];    // row i: each warp's (max, sum), by row parity
    __shared__ MaxSum warp_slots[2][32];   // row f: each slot warp's merge of its 32 slots
    const int n = static_cast<int>(cols);  // a row of the grid path fits on chip: < 2^31 values
    const int64_t all_rows = rows;
    // The grid is `teams` independent teams of `blocks` blocks. Team t takes rows t, t + teams,
    // t + 2 * teams, ...: its own row pointers with `teams` times the stride, and the slots of its
    // rows, which sit at row * blocks + rank as with one team.
    const int blocks = static_cast<int>(gridDim.x) / teams;
    const int team = static_cast<int>(blockIdx.x) / blocks;
    const int rank = static_cast<int>(blockIdx.x) % blocks;
    rows = rows > team ? (rows - team + teams - 1) / teams : 0;
    in += team * in_stride;
    out += team * out_stride;
    in_stride *= teams;
    out_stride *= teams;
    slots += int64_t{team} * blocks;
    const int64_t slot_stride = int64_t{teams} * blocks;  // between one row's slots and the next
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    const int slot_warps = (blocks + 31) / 32;
    const bool slot_reader = static_cast<int>(threadIdx.x) < blocks;
    const bool edge_warp = !kWhole && warp == warps - 1;
    const int threads = static_cast<int>(blockDim.x) - (kWhole ? 0 : 32);  // the main threads
    // This main thread's slots, counted from the row's first main pack: q_p = lead + first_q +
    // p * threads, for p < slot_count. A whole row's main packs are all of it (lead 0). Another
    // row's are n / V - kLine packs from its first 128-byte line past slot 0 (lead 1 to kLine),
    // which lie wholly inside the row wherever it starts. (From slot 1 instead, the warps' loads
    // of rows 16 bytes off a 32-byte sector each touched one sector more, and cost 3-5 points:
    // fp32 N = 786436, whole packs on 16 bytes, 93.3% of copy, against 96-97% at N = 786432 and
    // 786440; tune-10.)
    constexpr int kLine = kGridLinePacks;  // packs in a 128-byte line
    const int main_packs = grid_main_packs(n, V, kWhole);
    const int size = RowSlice<T>::size_of(main_packs, blocks);
    const int first_q = rank * size + static_cast<int>(threadIdx.x);
    const int slice_end = min(main_packs, rank * size + size);
    const int slot_count =
        edge_warp ? 0 : min(PACKS, max(0, (slice_end - first_q + threads - 1) / threads));
    const int first = first_q * V, pack_step = threads * V;  // the same in elements
    // The edge warp of the last block holds the rest of the row's frame slots, one a lane: the
    // lead (slot 0, the row's first values, and up to 7 inner ones) and the slots from the main
    // packs' end to n / V + 1, the last that can hold a row value: kLine + 2 slots in all.
    const bool edge_lane = edge_warp && rank == blocks - 1 && lane < kLine + 2;
    // The edge warps of the other blocks hold nothing: each step they only pass the barrier, and
    // their blocks merge the main warps' (max, sum) alone.
    const bool idle = edge_warp && rank != blocks - 1;
    const int merged_warps = !kWhole && rank != blocks - 1 ? warps - 1 : warps;
    auto staged_pack = [&](int row, int p) {
        return &staged[((static_cast<unsigned>(row) % kStaged) * PACKS + p) * blockDim.x +
                       threadIdx.x];
    };
    // The row's frame: where it starts, the row less its offset from 16 bytes (the same offset
    // for the output row, as the launch checked), and its lead.
    struct Frame {
        int head, lead;
    };
    auto frame_of = [&](int row) {
        if (kWhole) return Frame{0, 0};
        const T* start = in + row * in_stride;
        const int head = frame_head(start);
        const auto line_slot =
            static_cast<int>((reinterpret_cast<uintptr_t>(start - head) / 16) % kLine);
        return Frame{head, kLine - line_slot};
    };
    // The edge lane's first frame slot, in elements; its pack holds row values when it starts
    // before the row's end (the last slots may lie wholly past it).
    auto edge_f0 = [&](Frame fr) { return (lane < fr.lead ? lane : lane + main_packs) * V; };
    auto edge_in_row = [&](Frame fr) { return edge_lane && edge_f0(fr) < fr.head + n; };

    uint4 ring[kRing][PACKS];  // exps of row r in stage r % kRing, from its reduction to its store
    float thread_max[kRing];
    uint64_t slot_bits = 0;  // row f's slot number threadIdx.x, read during the last step

    // One cp.async group per row, empty past the last row, so "all but the AHEAD newest" is
    // always "up to row i".
    auto start_copies = [&](int row) {
        const Frame fr = row < rows && (!edge_warp || edge_lane) ? frame_of(row) : Frame{0, 0};
        const T* frame = in + row * in_stride - fr.head;
        if (row < rows && !edge_warp) {
            const T* src = frame + fr.lead * V + first;
#pragma unroll
            for (int p = 0; p < PACKS; ++p)
                if (p < slot_count) copy_async16(staged_pack(row, p), src + p * pack_step);
        } else if (row < rows && edge_in_row(fr)) {
            const int f0 = edge_f0(fr);
            const int64_t global_row = team + int64_t{row} * teams;
            if (global_row == 0 || global_row == all_rows - 1) {   // the bytes around the row
                T* v = reinterpret_cast<T*>(staged_pack(row, 0));  // may lie past the tensor
#pragma unroll 1
                for (int k = 0; k < V; ++k) {
                    const int f = f0 + k;
                    v[k] = f < fr.head || f >= fr.head + n ? from_float<T>(kNegInf) : frame[f];
                }
            } else {
                copy_async16(staged_pack(row, 0), frame + f0);
            }
        }
        copy_async_commit();
    };
    // Row i: this thread's max, the exps in place, and the warp's (max, sum) into warp_sums.
    auto reduce = [&](int row, uint4(&x)[PACKS], float& m_out) {
        MaxSum mine;
        if (!edge_warp) {
#pragma unroll
            for (int p = 0; p < PACKS; ++p)
                if (p < slot_count) x[p] = *staged_pack(row, p);
            mine = thread_exps<T>(x, [&](int p) { return p < slot_count; });
        } else {
            const Frame fr = frame_of(row);
            const bool held = edge_in_row(fr);
            if (held) x[0] = mask_outside<T>(*staged_pack(row, 0), edge_f0(fr), fr.head, n);
            mine = thread_exps<T>(x, [&](int p) { return p == 0 && held; });
        }
        m_out = mine.m;
        const MaxSum w = warp_merge(mine);
        if (lane == 0) warp_sums[row & 1][warp] = w;
    };
    // Row f's output: its exps times this thread's factor; an edge pack's values one by one.
    auto store = [&](int row, const uint4(&x)[PACKS], float factor) {
        const Frame fr = frame_of(row);
        T* out_frame = out + row * out_stride - fr.head;
        if (!edge_warp) {
            T* dst = out_frame + fr.lead * V + first;
#pragma unroll
            for (int p = 0; p < PACKS; ++p) {
                if (p >= slot_count) continue;
                float y[V];
                scale_pack<T>(x[p], factor, y);
                store16(reinterpret_cast<uint4*>(dst + p * pack_step), pack<T>(y));
            }
        } else if (edge_in_row(fr)) {
            float y[V];
            scale_pack<T>(x[0], factor, y);
            const int f0 = edge_f0(fr);
#pragma unroll
            for (int k = 0; k < V; ++k) {
                const int f = f0 + k;
                if (f >= fr.head && f < fr.head + n) out_frame[f] = from_float<T>(y[k]);
            }
        }
    };

    for (int r = 0; r < AHEAD; ++r) start_copies(r);
    for (int base = 0; base < rows + LAG; base += kRing) {
#pragma unroll
        for (int j = 0; j < kRing; ++j) {
            const int i = base + j, f = i - LAG;  // reduce row i, finish row f
            if (i >= rows + LAG) break;
            // (An idle edge warp neither reduces nor finishes: it only passes the barrier.)
            const bool reducing = i < rows && !idle, finishing = f >= 0 && !idle;
            if (!idle) {
                start_copies(i + AHEAD);
                copy_async_wait_all_but<AHEAD>();  // row i has landed
            }
            if (reducing) reduce(i, ring[j], thread_max[j]);
            // Row f's slots, read during the last step: a slot still unwritten (its block is
            // behind) is polled by its own lane, so each slot warp merges 32 complete slots.
            if (finishing && warp < slot_warps) {
                MaxSum v{kNegInf, 0.0f};
                if (slot_reader) {
                    v = slot_value(slot_bits);
                    while (unwritten(v)) {
                        __nanosleep(64);
                        v = slot_value(read_slot(&slots[f * slot_stride + threadIdx.x]));
                    }
                }
                v = warp_merge(v);
                if (lane == 0) warp_slots[f & 1][warp] = v;
            }
            // The step's one barrier. warp_sums[i & 1] and warp_slots[f & 1] are next written
            // two steps on, after the next barrier, which no warp passes before it has read them.
            __syncthreads();
            if (reducing && warp == 0) {
                const MaxSum b = warp_merge(lane < merged_warps ? warp_sums[i & 1][lane]
                                                                : MaxSum{kNegInf, 0.0f});
                if (lane == 0) publish(&slots[i * slot_stride + rank], b);
            }
            if (finishing) {  // every warp merges the few slot-warp results itself
                const MaxSum row =
                    warp_merge(lane < slot_warps ? warp_slots[f & 1][lane] : MaxSum{kNegInf, 0.0f});
                const int s = (j + kRing - LAG) % kRing;  // = (j + 1) % kRing
                store(f, ring[s], output_factor(thread_max[s], row));
            }
            const int next = f + 1;  // the row the next step finishes
            if (slot_reader && next >= 0 && next < rows)
                slot_bits = read_slot(&slots[next * slot_stride + threadIdx.x]);
        }
    }
}

// Shared memory of the grid kernel: its ring, AHEAD + 1 rows of `packs` packs a thread.
constexpr size_t grid_staged_bytes(int threads, int packs, int ahead) {
    return static_cast<size_t>(ahead + 1) * packs * threads * 16;
}
// @endregion grid-kernel

}  // namespace best
}  // namespace sml

// =============================================================================================
// Host side: choosing a path, planning its launch, predicting its traffic.
// =============================================================================================
namespace sml {
namespace best {

static int vec_of(DType t) {
    return 16 / dtype_size(t);
}

std::string Config::describe() const {
    const std::string t = std::to_string(threads), n = std::to_string(cluster);
    switch (path) {
        case Path::kGroup:
            return "group " + std::to_string(width) + " lanes x " + std::to_string(packs) +
                   " packs x " + std::to_string(rows_per_group()) + " rows, " +
                   std::to_string(group_threads()) + " threads";
        case Path::kCluster:
            return "cluster " + n + " x " + t + " threads x " + std::to_string(packs) + " packs" +
                   (stash > 0 ? " + " + std::to_string(stash) + " in shared memory" : "");
        case Path::kTwoPass:
            return "two-pass cluster " + n + " x " + t + " threads" +
                   ((l2 & kL2Policy) != 0 ? ", L2 evict_last/first" : "") +
                   ((l2 & kL2Reverse) != 0 ? ", pass 2 backwards" : "");
        case Path::kGrid:
            return "grid " + n + " blocks x " + t + " threads x " + std::to_string(packs) +
                   " packs, lag " + std::to_string(lag) + ", " + std::to_string(grid_ahead()) +
                   " rows ahead" +
                   (grid_teams() > 1 ? ", " + std::to_string(grid_teams()) + " teams" : "");
    }
    return "?";
}

// Two passes over a cluster of one block per 8192 packs, up to 16 (measured: 2^19 fp16 79%
// with 8 blocks, 56% with 16; 2^20 fp32 77% with 16, 67-71% with 8), the first read marked
// evict_last in L2 and the second evict_first (2^20 fp32: 77% against 69% without).
static Config two_pass_for(int64_t packs, const DeviceLimits& limits) {
    Config c;
    c.path = Config::Path::kTwoPass;
    c.cluster =
        static_cast<int>(std::min<int64_t>(limits.has_clusters() ? 16 : 1, (packs + 8191) / 8192));
    c.threads = 1024;
    c.l2 = Config::kL2Policy;
    return c;
}

// Packs of each block's slice of a row whose aligned frame has `packs` packs, as the cluster and
// grid kernels cut it (RowSlice::size_of): whole 128-byte lines.
static int64_t slice_packs(int64_t packs, int blocks) {
    return ((packs + blocks - 1) / blocks + 7) / 8 * 8;
}

// The grid path's shape for a row of `cols` values, `vec` a pack: one block per SM and team, 4
// packs a thread, 2 rows of loads ahead. The block's main threads hold the row's main packs
// (all of a `whole` row: whole packs, every row on 16 bytes); other rows add the edge warp. Blocks
// of up to 256 threads (fp32 N <= 540672 on 132 SMs) run two teams, as many as the registers hold
// (2 x 256 threads x 128); longer rows one team (tune-6: 2 MB rows 94% with two teams against 67%
// with one). The lag is 4 rows, except on the kWide kernel (over 512 threads), where it is 3.
// (Before rows with edges had the edge warp, their kernel spilled at lag 4 and ran lag 3: fp32
// N = 786433 83% of copy, against 92.5% with the edge warp at lag 4; tune-10.)
// Over grid_max_threads: no fit.
static Config grid_for(int64_t cols, int vec, bool whole, const DeviceLimits& limits) {
    Config c;
    c.path = Config::Path::kGrid;
    c.cluster = std::max(1, limits.sm_count);
    c.packs = 4;
    const int64_t slice = slice_packs(grid_main_packs(cols, vec, whole), c.cluster);
    const int64_t main_threads = ((slice + 3) / 4 + 31) / 32 * 32;
    const int64_t slot_readers = (c.cluster + 31) / 32 * 32;  // a thread per block of a team
    const int64_t threads = std::max(main_threads, slot_readers) + (whole ? 0 : 32);
    c.threads = static_cast<int>(std::min<int64_t>(threads, 1 << 20));
    c.teams = c.threads <= 256 ? 2 : 1;
    c.lag = c.threads <= grid_max_threads(c.packs) ? 4 : 3;
    c.ahead = 2;
    return c;
}

// @region choose-path: the dispatch by N -- smallest on-chip home for the row, else two passes
// Everything is in 16-byte packs, so fp16 and bf16 rows take the shape of an fp32 row of the
// same bytes. Thresholds were measured on an H100 (bench/peers.py --tune, bench/README-peers.md);
// the fp32 N each corresponds to is in brackets.
Config choose(int64_t cols, DType dtype, bool aligned, const DeviceLimits& limits,
              const ResidentBlocks& resident) {
    const int vec = vec_of(dtype);
    // A misaligned row can straddle one extra pack of its aligned frame.
    const int64_t packs = (cols + (aligned ? 0 : vec - 1) + vec - 1) / vec;
    Config c;
    // [N <= 256] group path: lanes first (shuffles are cheap), then packs; 2 rows per group and
    // one warp per block, so a block covers at most 2 KB of rows (1 KB up to N = 128 fp32). On one
    // H100 of the device pool, blocks covering 8-16 KB (128-512 threads, 4 rows per group) ran at
    // 97-98% of copy at N = 32-256 and these at 100-101%; on others every shape was within 0.3%
    // of copy (tune-3, tune-4 calls 10-11).
    if (packs <= 64) {
        c.path = Config::Path::kGroup;
        c.packs = 1;
        for (c.width = 1; c.width < 32 && c.width < packs;) c.width *= 2;
        while (int64_t{32} * c.packs < packs) c.packs *= 2;
        c.threads = c.group_threads();  // the default, one warp, named in describe()
        return c;
    }
    auto threads_for = [&](int cluster, int per_thread) {
        const int64_t per_block = (packs + cluster - 1) / cluster;
        return static_cast<int>(((per_block + per_thread - 1) / per_thread + 31) / 32 * 32);
    };
    // One block per row [fp32 N <= 32768], sized to the row in steps of a warp, with 2, 4 or 8
    // packs a thread: the one that keeps the most rows resident on an SM (the occupancy
    // calculator's blocks per SM; ties to fewer packs a thread). Every row's loads are issued
    // at once, so resident rows are bytes in flight, and a shape's registers and dead slots
    // decide how many rows fit: fp16 N = 1025 (129 packs) keeps 21 rows with 64 threads x 4 packs
    // and 32 with 32 x 8, measured 74% against 94%. fp32 rows, with half the arithmetic per
    // byte, take 2 packs a thread wherever the block fits: 0.5-1% faster from N = 1000 to 8192.
    // Without a GPU to ask: 4 packs, else 8.
    c.path = Config::Path::kCluster;
    auto one_block = [&](int per_thread) {
        Config b = c;
        b.packs = per_thread;
        b.threads = threads_for(1, per_thread);
        return b;
    };
    const bool fp32 = dtype_size(dtype) == 4;
    int most_rows = 0;
    for (int per_thread : {2, 4, 8}) {
        const Config b = one_block(per_thread);
        if (b.threads > 1024) continue;
        if (fp32 && per_thread == 2 && resident) return b;
        const int rows = resident ? resident(b) : (per_thread == 4 ? 2 : 1);
        if (rows > most_rows) {
            most_rows = rows;
            c = b;
        }
    }
    if (most_rows > 0) return c;
    // Longer rows split over a cluster whose blocks reduce through DSMEM: 2..8 blocks of at most
    // 512 threads (two share an SM) [N <= 131072], then 16 (a "non-portable" size) of at most
    // 512 [N <= 262144], then of 1024 [N < 524288], 8 packs a thread. Clusters are Hopper and
    // newer. (8 blocks of 1024 hold what 16 of 512 do, and measured slower: 98.7% against 99.9%
    // of copy at fp32 N = 262144, tune-7.)
    // (Slices held partly in shared memory through cp.async measured no better: 32-64% against
    // the two-pass kernel's 68-78% for fp32 rows of 2^20, where one block fills an SM and nothing
    // overlaps its load and store phases.)
    const int per_thread = 8;
    c.packs = per_thread;
    const int portable = limits.has_clusters() ? 8 : 1;
    const int largest = limits.has_clusters() ? 16 : 1;
    // Of the sizes whose blocks fit in 512 threads, the one that keeps the most rows in flight:
    // resident blocks per SM (the occupancy calculator's) times SMs, over blocks per cluster. As
    // for one block a row, resident rows are bytes in flight; ties go to fewer blocks. On an
    // H100 (tune-7) it picked the fastest size, or one within 0.2% of it, at each N measured:
    // fp32 N = 90000 6 x 480 threads, 95.5% of copy (fewest dead slots, 8 x 352, 87%), fp16 N =
    // 100003 5 x 320, 90% (the first size that fits, 4 x 416, 86%). Without a GPU to ask, 64
    // registers a thread: the clustered kernel's launch bounds (1024) cap it there, and it uses
    // 60-62 (ptxas -v), so an SM holds 1024 of its threads.
    int best_blocks = 0;
    for (int cl = 2; cl <= portable; ++cl) {
        Config b = c;
        b.cluster = cl;
        b.threads = threads_for(cl, per_thread);
        if (b.threads > 512) continue;
        const int blocks = resident ? resident(b) : 1024 / b.threads;  // per SM
        // blocks / cl > best_blocks / c.cluster, without the division
        if (best_blocks == 0 || int64_t{blocks} * c.cluster > int64_t{best_blocks} * cl) {
            best_blocks = blocks;
            c = b;
        }
    }
    if (best_blocks > 0) return c;
    if (largest > portable && threads_for(largest, per_thread) <= 512) {
        c.cluster = largest;
        c.threads = threads_for(largest, per_thread);
        return c;
    }
    // Past 16 blocks of 512 threads x 8 packs [fp32 N > 262144]: the same blocks, with each
    // thread's packs past 8 in shared memory (best_stash_kernel), wherever two blocks still fit
    // an SM -- so one block's stores overlap the other's loads [up to fp32 N ~ 700000]. Without a
    // GPU to ask, a block takes its stash plus 2 KB (the reservation and its own statics).
    // Measured (tune-9): fp32 N = 262145 98.5% of copy (16 x 544 threads: 75%), 300001 97.5%
    // (80%), 600001 94% (the grid: 65%), bf16 N = 1000003 96% (83%). Rows of whole packs on 16
    // bytes take the grid instead where it runs two teams of 256 threads a block [fp32 N >
    // 516096, 2 MB rows], with no edges to handle: fp32 N = 524288 97.8% against 97.2%, bf16
    // N = 2^20 97.0% against 94.7%. At fp32 N = 393216 (192 threads) the stash wins, 98.2%
    // against 96.8%, and so it does against one team (fp32 N = 524288: 87%).
    const bool whole = aligned && cols % vec == 0;
    const Config grid = grid_for(cols, vec, whole, limits);
    const bool grid_fits =
        limits.has_clusters() && grid.threads <= grid_max_threads(grid.packs, /*wide=*/!whole);
    const bool grid_wins = whole && grid_fits && grid.teams == 2 && grid.threads >= 256;
    if (largest > portable && !grid_wins) {
        Config s = c;
        s.cluster = largest;
        s.threads = 512;
        s.stash = static_cast<int>((slice_packs(packs, largest) + s.threads - 1) / s.threads) -
                  per_thread;
        const int64_t block_smem = int64_t{s.stash} * s.threads * 16 + 2048;
        const int blocks = resident ? resident(s) : (2 * block_smem <= limits.smem_per_sm ? 2 : 1);
        // The stash's last size, 14 packs a thread, lost to the grid in fp32 (N = 700001: 90.6%
        // of copy against 92.9%) and won in bf16 (N = 1400001: 91.5% against 86.6%; at 12, both
        // won: fp32 N = 650001 93.1% against 89.9%; tune-10 call 13).
        const bool grid_beats_stash = fp32 && s.stash >= 14 && grid_fits;
        if (blocks >= 2 && !grid_beats_stash) return s;
    }
    // Where no stash fits two blocks an SM (or whole rows take the grid, above): 16 blocks of
    // over 512 threads, which fit one an SM, unless the grid below runs two teams of at least
    // 192 threads a block [fp32 N >= 393216, 1.5 MB rows]. Seven 16-block clusters leave 20 of
    // 132 SMs idle (tune-6: 2 MB fp32 grid 94% against 83%; tune-8: 1.5 MB bf16 96% against 87%).
    // With one team, as on a GPU of fewer SMs, it measured 58-67% at 2 MB; with blocks of 160
    // threads, 59-80% at 1 MB (tune-8).
    for (int cl : {portable, largest}) {
        if (cl == largest && grid_fits && grid.teams == 2 && grid.threads >= 192) break;
        if (threads_for(cl, per_thread) <= 1024) {
            c.cluster = cl;
            c.threads = threads_for(cl, per_thread);
            return c;
        }
    }
    // Rows past a 16-block cluster, up to 2048 packs a block [fp32 N <= 1081344 on 132 SMs]: the
    // grid, one block per SM and team holding a slice of every row, 4 packs a thread (measured
    // at 2^20 fp32: 97% of copy, against 77% for two passes; tune-6). Hopper only, where it was
    // measured.
    if (grid_fits) return grid;
    return two_pass_for(packs, limits);
}
// @endregion choose-path

template <typename T>
static LaunchStep group_step(const LaunchArgs& a, const Config& c, cudaError_t* err);
template <typename T>
static LaunchStep cluster_step(const LaunchArgs& a, const Config& c, cudaError_t* err);
template <typename T>
static LaunchStep two_pass_step(const LaunchArgs& a, const Config& c, cudaError_t* err);

template <typename T, int P, int W, int kRows>
static LaunchStep make_group_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    auto* kernel = best_group_kernel<T, P, W, kRows>;
    const int threads = c.group_threads();
    const SoftmaxProblem& p = a.problem;
    const int64_t rows_per_block = (threads / W) * kRows;
    // A group for every ROWS rows (the kernel loops only past 2^31 - 1 blocks).
    const int64_t blocks =
        std::min<int64_t>((p.rows + rows_per_block - 1) / rows_per_block, 0x7fffffff);
    LaunchStep s;
    s.name = "best_group";
    s.func = reinterpret_cast<const void*>(kernel);
    s.grid = dim3(static_cast<unsigned>(blocks));
    s.block = dim3(threads);
    const T* in = static_cast<const T*>(a.in);
    T* out = static_cast<T*>(a.out);
    const dim3 grid = s.grid;
    s.launch = [=](cudaStream_t st) {
        kernel<<<grid, threads, 0, st>>>(in, out, p.rows, p.cols, p.in_stride, p.out_stride);
        return cudaGetLastError();
    };
    *err = cudaSuccess;
    return s;
}

// One pack a lane: 2, 4 or 8 rows per group.
template <typename T, int W>
static LaunchStep group_rows_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    switch (c.rows_per_group()) {
        case 2:
            return make_group_step<T, 1, W, 2>(a, c, err);
        case 4:
            return make_group_step<T, 1, W, 4>(a, c, err);
        case 8:
            return make_group_step<T, 1, W, 8>(a, c, err);
    }
    *err = cudaErrorInvalidConfiguration;
    return {};
}

template <typename T>
static LaunchStep group_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    if (c.packs == 1) {
        switch (c.width) {
            case 1:
                return group_rows_step<T, 1>(a, c, err);
            case 2:
                return group_rows_step<T, 2>(a, c, err);
            case 4:
                return group_rows_step<T, 4>(a, c, err);
            case 8:
                return group_rows_step<T, 8>(a, c, err);
            case 16:
                return group_rows_step<T, 16>(a, c, err);
            case 32:
                return group_rows_step<T, 32>(a, c, err);
        }
    } else if (c.width == 32) {  // 2 or 4 packs a lane: only their default rows are compiled
        if (c.packs == 2 && c.rows_per_group() == 2) return make_group_step<T, 2, 32, 2>(a, c, err);
        if (c.packs == 4 && c.rows_per_group() == 1) return make_group_step<T, 4, 32, 1>(a, c, err);
    }
    *err = cudaErrorInvalidConfiguration;
    return {};
}

// A LaunchStep's description of a cudaLaunchKernelEx launch (its `launch` is set by the caller).
static LaunchStep step_for(const char* name, const void* func, const cudaLaunchConfig_t& cfg) {
    LaunchStep s;
    s.name = name;
    s.func = func;
    s.grid = cfg.gridDim;
    s.block = cfg.blockDim;
    s.dynamic_smem = cfg.dynamicSmemBytes;
    return s;
}

// Launches with a cluster of `cluster` blocks along x (cudaLaunchKernelEx). Clusters above 8
// blocks are "non-portable": they need an opt-in per kernel, and a GPU (or a MIG slice) may have
// no GPC that holds one -- then this returns cudaErrorInvalidClusterSize and `plan` falls back.
template <typename T>
using RowKernel = void (*)(const T*, T*, int64_t, int64_t, int64_t);

// `single` (one block per row, launched plainly) runs when cluster == 1.
template <typename T>
static LaunchStep make_cluster_launch(const char* name, RowKernel<T> clustered, RowKernel<T> single,
                                      int threads, size_t smem, const LaunchArgs& a, int cluster,
                                      cudaError_t* err) {
    const SoftmaxProblem& p = a.problem;
    const bool clusters = cluster > 1;
    RowKernel<T> kernel = clusters ? clustered : single;
    if (clusters && !a.limits.has_clusters()) {
        *err = cudaErrorNotSupported;
        return {};
    }
    if (smem > 48 * 1024) {
        *err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(smem));
        if (*err != cudaSuccess) return {};
    }
    if (cluster > 8) {
        *err = cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
        if (*err != cudaSuccess) return {};
    }
    const int64_t blocks = p.rows * cluster;
    if (blocks > 0x7fffffff) {
        *err = cudaErrorInvalidConfiguration;
        return {};
    }
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(static_cast<unsigned>(blocks));
    cfg.blockDim = dim3(threads);
    cfg.dynamicSmemBytes = smem;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = cluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = clusters ? 1 : 0;
    if (cluster > 8) {
        int fits = 0;
        *err = cudaOccupancyMaxActiveClusters(&fits, kernel, &cfg);
        if (*err != cudaSuccess) return {};
        if (fits < 1) {
            *err = cudaErrorInvalidClusterSize;
            return {};
        }
    }
    LaunchStep s = step_for(name, reinterpret_cast<const void*>(kernel), cfg);
    const T* in = static_cast<const T*>(a.in);
    T* out = static_cast<T*>(a.out);
    s.launch = [=](cudaStream_t st) mutable {
        cfg.stream = st;
        cfg.attrs = attr;  // the copy's own attribute array
        return cudaLaunchKernelEx(&cfg, kernel, in, out, p.cols, p.in_stride, p.out_stride);
    };
    *err = cudaSuccess;
    return s;
}

template <typename T, int P>
static LaunchStep make_cluster_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    return make_cluster_launch<T>("best_cluster", best_cluster_kernel<T, P, true>,
                                  best_cluster_kernel<T, P, false>, c.threads, 0, a, c.cluster,
                                  err);
}

static bool valid_threads(int t, int max_threads = 1024) {
    return t >= 32 && t <= max_threads && t % 32 == 0;
}

// Bytes of shared memory a stash configuration's blocks take for their stash.
static size_t stash_bytes(const Config& c) {
    return static_cast<size_t>(c.stash) * static_cast<size_t>(c.threads) * sizeof(uint4);
}

template <typename T>
static LaunchStep cluster_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    if (c.stash > 0) {  // 8 packs in registers and the rest in shared memory, 2+ blocks a row
        if (c.packs == 8 && c.cluster > 1 && valid_threads(c.threads, 512))
            return make_cluster_launch<T>("best_stash", best_stash_kernel<T>, best_stash_kernel<T>,
                                          c.threads, stash_bytes(c), a, c.cluster, err);
        *err = cudaErrorInvalidConfiguration;
        return {};
    }
    // 1, 2, 4 or 8 packs a thread, in registers.
    if (valid_threads(c.threads)) {
        if (c.packs == 1) return make_cluster_step<T, 1>(a, c, err);
        if (c.packs == 2) return make_cluster_step<T, 2>(a, c, err);
        if (c.packs == 4) return make_cluster_step<T, 4>(a, c, err);
        if (c.packs == 8) return make_cluster_step<T, 8>(a, c, err);
    }
    *err = cudaErrorInvalidConfiguration;
    return {};
}

template <typename T, int L2>
static LaunchStep make_two_pass_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    return make_cluster_launch<T>("best_two_pass", best_two_pass_kernel<T, true, L2>,
                                  best_two_pass_kernel<T, false, L2>, c.threads, 0, a, c.cluster,
                                  err);
}

template <typename T>
static LaunchStep two_pass_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    if (valid_threads(c.threads)) {
        switch (c.l2) {
            case 0:
                return make_two_pass_step<T, 0>(a, c, err);
            case kL2Policy:
                return make_two_pass_step<T, kL2Policy>(a, c, err);
            case kL2Reverse:
                return make_two_pass_step<T, kL2Reverse>(a, c, err);
            case kL2Policy | kL2Reverse:
                return make_two_pass_step<T, kL2Policy | kL2Reverse>(a, c, err);
        }
    }
    *err = cudaErrorInvalidConfiguration;
    return {};
}

static bool rows_aligned(const LaunchArgs& a);
static bool same_frames(const LaunchArgs& a);

// The grid path: a cooperative launch, so every block is resident at once (or the launch fails
// rather than deadlock), after a memset that poisons the slots.
template <typename T, int P, int LAG, int AHEAD>
static LaunchStep make_grid_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    const SoftmaxProblem& p = a.problem;
    const int vec = vec_of(p.dtype);
    const bool whole = rows_aligned(a) && p.cols % vec == 0;
    // Rows with edges on more threads than grid_max_threads(P): the kWide kernel, lag 3 only.
    const bool wide = !whole && c.threads > grid_max_threads(P);
    auto* kernel = whole ? best_grid_kernel<T, P, LAG, AHEAD, true>
                         : best_grid_kernel<T, P, LAG, AHEAD, false>;
    if (wide) {
        kernel = nullptr;
        if constexpr (P == 4 && LAG == 3 && AHEAD == 2)
            kernel = best_grid_kernel<T, P, LAG, AHEAD, false, true>;
        if (kernel == nullptr) {
            *err = cudaErrorInvalidConfiguration;
            return {};
        }
    }
    const int blocks = c.cluster, teams = c.grid_teams();
    const size_t bytes = workspace_bytes(p, c);
    // The kernel's slices, as best_grid_kernel cuts them: the row's main packs (all of them for
    // whole rows), which a block's main threads x P packs must hold; the slot readers are main
    // threads. Rows with edges need their output rows at the input rows' offsets from 16 bytes.
    const int main_threads = c.threads - (whole ? 0 : 32);
    const int64_t slice = blocks < 1 ? 0 : slice_packs(grid_main_packs(p.cols, vec, whole), blocks);
    if (a.workspace == nullptr || blocks < 1 || blocks > main_threads || teams > 64 ||
        p.rows > 0x7fffffff || !valid_threads(c.threads, grid_max_threads(P, wide)) ||
        slice > int64_t{main_threads} * P || (!whole && !same_frames(a))) {
        *err = cudaErrorInvalidValue;
        return {};
    }
    const size_t smem = grid_staged_bytes(c.threads, P, AHEAD);
    *err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                static_cast<int>(smem));
    if (*err != cudaSuccess) return {};
    int per_sm = 0;
    *err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, c.threads, smem);
    if (*err != cudaSuccess) return {};
    if (int64_t{per_sm} * a.limits.sm_count < int64_t{blocks} * teams) {
        *err = cudaErrorCooperativeLaunchTooLarge;
        return {};
    }
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(static_cast<unsigned>(blocks * teams));
    cfg.blockDim = dim3(c.threads);
    cfg.dynamicSmemBytes = smem;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    LaunchStep s = step_for("best_grid", reinterpret_cast<const void*>(kernel), cfg);
    const T* in = static_cast<const T*>(a.in);
    T* out = static_cast<T*>(a.out);
    auto* slots = static_cast<uint64_t*>(a.workspace);
    s.launch = [=](cudaStream_t st) mutable {
        if (cudaError_t e = cudaMemsetAsync(slots, kUnwrittenByte, bytes, st); e != cudaSuccess)
            return e;
        cfg.stream = st;
        cfg.attrs = attr;  // the copy's own attribute array
        return cudaLaunchKernelEx(&cfg, kernel, in, out, static_cast<int>(p.rows), p.cols,
                                  p.in_stride, p.out_stride, slots, teams);
    };
    *err = cudaSuccess;
    return s;
}

template <typename T, int P>
static LaunchStep grid_lag_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    const int ahead = c.grid_ahead();
    if (c.lag == 2 && ahead == 2) return make_grid_step<T, P, 2, 2>(a, c, err);
    if (c.lag == 2 && ahead == 4) return make_grid_step<T, P, 2, 4>(a, c, err);
    if (c.lag == 4 && ahead == 2) return make_grid_step<T, P, 4, 2>(a, c, err);
    if constexpr (P == 4)  // the kWide kernel's (lag 4 spills there)
        if (c.lag == 3 && ahead == 2) return make_grid_step<T, P, 3, 2>(a, c, err);
    if (c.lag == 4 && ahead == 4) return make_grid_step<T, P, 4, 4>(a, c, err);
    *err = cudaErrorInvalidConfiguration;
    return {};
}

template <typename T>
static LaunchStep grid_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    if (c.packs == 1) return grid_lag_step<T, 1>(a, c, err);
    if (c.packs == 2) return grid_lag_step<T, 2>(a, c, err);
    if (c.packs == 4) return grid_lag_step<T, 4>(a, c, err);
    if (c.packs == 8) return grid_lag_step<T, 8>(a, c, err);
    *err = cudaErrorInvalidConfiguration;
    return {};
}

template <typename T>
static cudaError_t plan_typed(const LaunchArgs& a, const Config& c, std::vector<LaunchStep>* out) {
    cudaError_t err = cudaSuccess;
    LaunchStep s;
    switch (c.path) {
        case Config::Path::kGroup:
            s = group_step<T>(a, c, &err);
            break;
        case Config::Path::kCluster:
            s = cluster_step<T>(a, c, &err);
            break;
        case Config::Path::kTwoPass:
            s = two_pass_step<T>(a, c, &err);
            break;
        case Config::Path::kGrid:
            s = grid_step<T>(a, c, &err);
            break;
    }
    if (err != cudaSuccess) return err;
    out->push_back(std::move(s));
    return cudaSuccess;
}

// Values a configuration holds on chip per row; the two-pass path has no limit.
static int64_t capacity(const Config& c, DType t) {
    const int64_t vec = vec_of(t);
    switch (c.path) {
        case Config::Path::kGroup:
            return c.width * c.packs * vec;
        case Config::Path::kCluster:
            return int64_t{c.cluster} * c.threads * (c.packs + c.stash) * vec;
        case Config::Path::kGrid:
            return int64_t{c.cluster} * c.threads * c.packs * vec;
        case Config::Path::kTwoPass:
            return kUnlimitedCols;
    }
    return 0;
}

cudaError_t plan_with(const LaunchArgs& args, const Config& config,
                      std::vector<LaunchStep>* steps) {
    // A forced configuration too small for the row would leave elements unwritten: refuse it.
    const int64_t slack = rows_aligned(args) ? 0 : vec_of(args.problem.dtype) - 1;
    if (capacity(config, args.problem.dtype) < args.problem.cols + slack)
        return cudaErrorInvalidValue;
    switch (args.problem.dtype) {
        case DType::f32:
            return plan_typed<float>(args, config, steps);
        case DType::f16:
            return plan_typed<__half>(args, config, steps);
        case DType::bf16:
            return plan_typed<__nv_bfloat16>(args, config, steps);
    }
    return cudaErrorInvalidValue;
}

size_t workspace_bytes(const SoftmaxProblem& problem, const Config& config) {
    if (config.path != Config::Path::kGrid) return 0;
    return static_cast<size_t>(problem.rows) * static_cast<size_t>(config.cluster) *
           sizeof(uint64_t);
}

// True when every row of in and out starts on a 16-byte boundary (vector loads need no slack).
static bool rows_aligned(const LaunchArgs& a) {
    const int vec = vec_of(a.problem.dtype);
    return reinterpret_cast<uintptr_t>(a.in) % 16 == 0 &&
           reinterpret_cast<uintptr_t>(a.out) % 16 == 0 && a.problem.in_stride % vec == 0 &&
           a.problem.out_stride % vec == 0;
}

// True when every output row sits at its input row's offset from 16 bytes, so the two share
// their packs' boundaries.
static bool same_frames(const LaunchArgs& a) {
    const int vec = vec_of(a.problem.dtype);
    const uintptr_t size = dtype_size(a.problem.dtype);
    return (reinterpret_cast<uintptr_t>(a.in) & 15u) / size ==
               (reinterpret_cast<uintptr_t>(a.out) & 15u) / size &&
           (a.problem.out_stride - a.problem.in_stride) % vec == 0;
}

template <typename T, bool kClustered>
static const void* cluster_kernel(int packs) {
    switch (packs) {
        case 2:
            return reinterpret_cast<const void*>(best_cluster_kernel<T, 2, kClustered>);
        case 4:
            return reinterpret_cast<const void*>(best_cluster_kernel<T, 4, kClustered>);
        case 8:
            return reinterpret_cast<const void*>(best_cluster_kernel<T, 8, kClustered>);
    }
    return nullptr;
}

template <typename T>
static const void* cluster_kernel(const Config& c) {
    if (c.stash > 0) return reinterpret_cast<const void*>(best_stash_kernel<T>);
    return c.cluster > 1 ? cluster_kernel<T, true>(c.packs) : cluster_kernel<T, false>(c.packs);
}

// Resident blocks per SM of a cluster-path configuration (one block a row, or a cluster's
// blocks, which run the kernel that exchanges through DSMEM), from the occupancy calculator.
static ResidentBlocks occupancy_of(const LaunchArgs& args) {
    return [dtype = args.problem.dtype](const Config& c) {
        const void* kernel = nullptr;
        switch (dtype) {
            case DType::f32:
                kernel = cluster_kernel<float>(c);
                break;
            case DType::f16:
                kernel = cluster_kernel<__half>(c);
                break;
            case DType::bf16:
                kernel = cluster_kernel<__nv_bfloat16>(c);
                break;
        }
        int blocks = 0;
        const size_t smem = stash_bytes(c);
        // A stash over 48 KB needs the opt-in before the calculator counts it.
        if (kernel != nullptr && smem > 48 * 1024 &&
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(smem)) != cudaSuccess) {
            (void)cudaGetLastError();
            return 0;  // this GPU cannot give a block that much
        }
        if (kernel == nullptr || cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                                     &blocks, kernel, c.threads, smem) != cudaSuccess) {
            (void)cudaGetLastError();
            return std::max(1, 2048 / c.threads);  // unknown: as if threads were the only limit
        }
        return blocks;
    };
}

// choose() with this GPU's occupancy, planned; where the GPU cannot schedule the chosen cluster
// (16 blocks need a GPC with 16 free SMs; a MIG slice may have none), two passes over 8 blocks,
// and where it cannot keep the grid path's blocks resident at once, two passes.
// *chosen receives the configuration the steps run.
static cudaError_t plan_chosen(const LaunchArgs& args, Config* chosen,
                               std::vector<LaunchStep>* steps) {
    Config c = choose(args.problem.cols, args.problem.dtype, rows_aligned(args), args.limits,
                      occupancy_of(args));
    // In place of the grid: two passes, sized for the longest frame a row can have.
    const int vec = vec_of(args.problem.dtype);
    const Config two_passes = two_pass_for((args.problem.cols + vec - 1) / vec + 1, args.limits);
    // Output rows at other offsets from 16 bytes than the input's (a rare layout): the grid
    // stores whole packs where the input had them, so two passes.
    if (c.path == Config::Path::kGrid && !same_frames(args)) c = two_passes;
    cudaError_t err = plan_with(args, c, steps);
    if (err == cudaErrorCooperativeLaunchTooLarge && c.path == Config::Path::kGrid) {
        // Fewer blocks fit at once than the GPU has SMs (MPS, a MIG slice, another kernel's
        // reservation): two passes, which need no resident grid.
        (void)cudaGetLastError();
        steps->clear();
        c = two_passes;
        err = plan_with(args, c, steps);
    }
    if (err == cudaErrorInvalidClusterSize && c.path == Config::Path::kCluster) {
        (void)cudaGetLastError();
        steps->clear();
        c = Config{};
        c.path = Config::Path::kTwoPass;
        c.cluster = 8;
        c.threads = 1024;
        c.l2 = Config::kL2Policy;
        err = plan_with(args, c, steps);
    }
    *chosen = c;
    return err;
}

Config plan_config(const LaunchArgs& args) {
    Config c;
    std::vector<LaunchStep> unused;
    if (plan_chosen(args, &c, &unused) != cudaSuccess) (void)cudaGetLastError();
    return c;
}

int plan(const LaunchArgs& args, std::vector<LaunchStep>* steps) {
    Config c;
    return plan_chosen(args, &c, steps);
}

// The configuration `plan` takes for p on a device with `limits` (cudaMalloc-aligned buffers):
// the exact plan, with the GPU's occupancy and cluster limits, where the limits come from one.
static Config config_for(const SoftmaxProblem& p, const DeviceLimits& limits) {
    const int vec = vec_of(p.dtype);
    const bool aligned = p.in_stride % vec == 0 && p.out_stride % vec == 0;
    if (!limits.from_device) return choose(p.cols, p.dtype, aligned, limits);
    LaunchArgs a;
    a.problem = p;
    a.limits = limits;
    return plan_config(a);
}

size_t registry_workspace_bytes(const SoftmaxProblem& p, const DeviceLimits& limits) {
    return workspace_bytes(p, config_for(p, limits));
}

bool reads_twice(const SoftmaxProblem& p, const DeviceLimits& limits) {
    return config_for(p, limits).path == Config::Path::kTwoPass;
}

}  // namespace best
}  // namespace sml
