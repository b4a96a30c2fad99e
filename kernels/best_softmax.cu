// Step 8 -- best: one entry that picks the fastest kernel for each N and dtype.
//
// The idea
//   Steps 1-6 each teach one idea and pay for it somewhere. `best` keeps only what pays on an
//   H100 and chooses by row length, like OneFlow's and PyTorch's softmax do. With `need` = N
//   (plus up to one pack when rows are not 16-byte aligned), fp32 numbers:
//
//     need            path                                          DRAM traffic
//     < 256           group: 1..32 lanes per row, 1-4 rows per group  read MN, write MN
//     <= 1024         block per row, 8 values a thread (32-128 thr.)  read MN, write MN
//     <= 8192         block per row, 16 values a thread (<= 512 thr.) read MN, write MN
//     <= 16384        block per row, 32 values x <= 512 threads        read MN, write MN
//     <= 131072       cluster of 1..8 blocks per row, 32 values a      read MN, write MN
//                     thread, max and sum reduced through DSMEM
//     <= 262144       cluster of 8 blocks of 1024 threads x 32 values read MN, write MN
//     longer          two-pass online over a cluster of up to 16       read 2MN, write MN
//                     blocks (the row no longer fits on chip)
//
// What changed since step 6 (online)
//   - The row is read from DRAM once whenever it fits on chip, and "on chip" now means the
//     registers of up to 8 SMs: on Hopper a thread-block *cluster* splits one row across
//     blocks and reduces max and sum through distributed shared memory (DSMEM), so a block's
//     slice of the row never leaves its SM.
//   - Blocks are sized to the row in steps of one warp (2049 fp32 values take 160 threads, not
//     256), and one-block rows launch without a cluster: measured faster than a cluster of 1.
//   - Short rows use sub-warp groups: N = 32 fp32 is 8 lanes x one 16-byte load, and each group
//     handles several rows so every thread has several loads in flight.
//   - Every access is a 16-byte vector where possible. Rows need not be aligned: each row is
//     viewed in an "aligned frame" (its address rounded down to 16 bytes); packs wholly inside
//     the row move as vectors and only the two edge packs go element by element.
//   - exp(x - m) is computed as exp2((x - m) * log2(e)): one FMUL plus the hardware EX2.
//     One reciprocal per row, then a multiply per element.
//   - Stores carry the streaming hint (st.global.cs): the output is never read again.
//   - fp16 and bf16 are loaded and stored as such (8 per 16-byte pack) and computed in fp32.
//
// Valid N: any N >= 1, every dtype. Without clusters (compute capability < 9) one block of up
//   to 1024 threads holds 32768 values and the two-pass path runs one block per row beyond.
// Special values follow torch.softmax: a row of all -inf gives NaN; a NaN anywhere in a row
//   makes that row NaN.
#include <cooperative_groups.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_pipeline.h>

#include <algorithm>
#include <cstdint>

#include "kernels/element_io.cuh"
#include "kernels/kernel_api.h"

namespace cg = cooperative_groups;

namespace sml {
namespace best {

constexpr float kLog2e = 1.4426950408889634f;
constexpr float kNegInf = -__builtin_huge_valf();
constexpr unsigned kFullMask = 0xffffffffu;

// @region element-io: fp32 compute for every dtype; 16-byte packs of 4 floats or 8 halves
// to_float / from_float (the only dtype-specific code) come from kernels/element_io.cuh.
template <typename T>
struct Vec {
    static constexpr int kSize = 16 / sizeof(T);  // elements per 16-byte pack
};

// Elements between the 16-byte boundary below `p` and `p`: the row's offset in its aligned frame.
template <typename T>
__device__ __forceinline__ int frame_head(const T* p) {
    return static_cast<int>((reinterpret_cast<uintptr_t>(p) & 15u) / sizeof(T));
}

// kStream: read once. kKeepInL2: read again soon (the two-pass kernel's first pass).
enum class LoadHint { kStream, kKeepInL2 };

// Cache hints, measured on an H100 (bench/README-peers.md): plain loads beat ld.global.cs by
// 2-5% here; streaming stores (st.global.cs) beat plain ones by up to 8% for one-block-per-row
// rows, since the output then does not evict input that is still to be read.
template <LoadHint kHint>
__device__ __forceinline__ uint4 load16(const uint4* src) {
    return kHint == LoadHint::kKeepInL2 ? __ldcg(src) : *src;
}
__device__ __forceinline__ void store16(uint4* dst, uint4 v, bool stream = true) {
    if (stream)
        __stcs(dst, v);
    else
        *dst = v;
}

// Loads pack `q` of the aligned frame of a row that occupies frame slots [head, head + cols).
// Slots outside the row read as -inf, which leaves both the max and the sum unchanged.
template <typename T, LoadHint kHint = LoadHint::kStream>
__device__ __forceinline__ void load_pack(const T* frame, int64_t q, int head, int64_t cols,
                                          float (&x)[Vec<T>::kSize]) {
    constexpr int V = Vec<T>::kSize;
    const int64_t f0 = q * V;
    if (f0 >= head && f0 + V <= head + cols) {
        const uint4* src = reinterpret_cast<const uint4*>(frame + f0);
        alignas(16) T v[V];
        *reinterpret_cast<uint4*>(v) = load16<kHint>(src);
#pragma unroll
        for (int k = 0; k < V; ++k) x[k] = to_float(v[k]);
    } else {
#pragma unroll
        for (int k = 0; k < V; ++k) {
            const int64_t f = f0 + k;
            x[k] = (f >= head && f < head + cols) ? to_float(frame[f]) : kNegInf;
        }
    }
}

// Stores pack `q` of the input's aligned frame into the output row `out_row` (element 0).
// When the output row sits at the same offset in its own frame, interior packs are vectors.
template <typename T>
__device__ __forceinline__ void store_pack(T* out_row, bool same_frame, int64_t q, int head,
                                           int64_t cols, const float (&y)[Vec<T>::kSize],
                                           bool stream = true) {
    constexpr int V = Vec<T>::kSize;
    const int64_t f0 = q * V;
    if (same_frame && f0 >= head && f0 + V <= head + cols) {
        alignas(16) T v[V];
#pragma unroll
        for (int k = 0; k < V; ++k) v[k] = from_float<T>(y[k]);
        store16(reinterpret_cast<uint4*>(out_row + (f0 - head)), *reinterpret_cast<uint4*>(v),
                stream);
    } else {
#pragma unroll
        for (int k = 0; k < V; ++k) {
            const int64_t f = f0 + k;
            if (f >= head && f < head + cols) out_row[f - head] = from_float<T>(y[k]);
        }
    }
}
// @endregion element-io

// @region reductions: butterfly shuffles inside a group; warp partials through shared memory
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

// The block's result, valid in warp 0. `slots` holds one partial per warp (at most 32).
// blockDim.x is a multiple of 32 chosen at launch, so the block fits the row without waste.
template <class Op>
__device__ __forceinline__ float block_reduce(float v, float* slots, Op op) {
    const int kWarps = blockDim.x / 32;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = group_reduce<32>(v, op);
    if (lane == 0) slots[warp] = v;
    __syncthreads();
    if (warp == 0) v = group_reduce<32>(lane < kWarps ? slots[lane] : Op::kIdentity, op);
    return v;
}
// @endregion reductions

// @region cluster-glue: one place that knows about thread-block clusters (Hopper, sm_90+)
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
    __device__ static void arrive() {
        cg::this_cluster().barrier_arrive();
    }
    __device__ static void wait() {
        cg::this_cluster().barrier_wait();
    }
    // The same shared variable in block `r` of this cluster (distributed shared memory).
    __device__ static float* peer(float* p, unsigned r) {
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
    __device__ static float* peer(float* p, unsigned) {
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
    __device__ static float* peer(float* p, unsigned) { return p; }
};

// Combines one value per block of the cluster (each block's `mine`, already written) into
// `*result` of every block. Warp 0 reads the peers' shared memory, one lane per block.
template <bool kClustered, class Op>
__device__ __forceinline__ void cluster_combine(float* mine, float* result, Op op) {
    using RowCluster = RowCluster<kClustered>;
    RowCluster::sync();  // every block's `*mine` is written and visible cluster-wide
    if (threadIdx.x < 32) {
        const unsigned lane = threadIdx.x, n = RowCluster::size();
        float v = Op::kIdentity;
        for (unsigned r = lane; r < n; r += 32) v = op(v, *RowCluster::peer(mine, r));
        v = group_reduce<32>(v, op);
        if (lane == 0) *result = v;
    }
    __syncthreads();
}
// @endregion cluster-glue

// @region group-kernel: short rows -- WIDTH lanes per row, ROWS rows per group, in registers
// A warp holds 32 / WIDTH groups; the loop bound is the same for the whole warp, so every lane
// reaches the shuffles (a row past the end reads as -inf and is not stored).
template <typename T, int PACKS, int WIDTH, int ROWS>
__global__ void __launch_bounds__(512)
    best_group_kernel(const T* __restrict__ in, T* __restrict__ out, int64_t rows, int64_t cols,
                      int64_t in_stride, int64_t out_stride, bool stream_stores) {
    constexpr int V = Vec<T>::kSize;
    constexpr int kGroupsPerWarp = 32 / WIDTH;
    const int lane = threadIdx.x % WIDTH;
    const int group = (threadIdx.x % 32) / WIDTH;
    const int64_t warp = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    const int64_t warps = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
    const int64_t rows_per_warp = kGroupsPerWarp * ROWS;

    for (int64_t first = warp * rows_per_warp; first < rows; first += warps * rows_per_warp) {
        float x[ROWS][PACKS][V];
        int head[ROWS];
#pragma unroll
        for (int r = 0; r < ROWS; ++r) {
            // Row r of every group in the warp is adjacent: one load instruction covers them.
            const int64_t row = first + r * kGroupsPerWarp + group;
            const T* src = in + (row < rows ? row : 0) * in_stride;
            head[r] = frame_head(src);
            const int64_t valid = row < rows ? cols : 0;
#pragma unroll
            for (int p = 0; p < PACKS; ++p)
                load_pack(src - head[r], static_cast<int64_t>(p) * WIDTH + lane, head[r], valid,
                          x[r][p]);
        }
#pragma unroll
        for (int r = 0; r < ROWS; ++r) {
            const int64_t row = first + r * kGroupsPerWarp + group;
            float m = kNegInf;
#pragma unroll
            for (int p = 0; p < PACKS; ++p)
#pragma unroll
                for (int k = 0; k < V; ++k) m = fmaxf(m, x[r][p][k]);
            m = group_reduce<WIDTH>(m, MaxOp{});
            float s = 0.0f;
#pragma unroll
            for (int p = 0; p < PACKS; ++p)
#pragma unroll
                for (int k = 0; k < V; ++k) {
                    x[r][p][k] = exp2f((x[r][p][k] - m) * kLog2e);
                    s += x[r][p][k];
                }
            const float inv = 1.0f / group_reduce<WIDTH>(s, SumOp{});
            if (row >= rows) continue;
            T* dst = out + row * out_stride;
            const bool same_frame = frame_head(dst) == head[r];
#pragma unroll
            for (int p = 0; p < PACKS; ++p) {
#pragma unroll
                for (int k = 0; k < V; ++k) x[r][p][k] *= inv;
                store_pack(dst, same_frame, static_cast<int64_t>(p) * WIDTH + lane, head[r], cols,
                           x[r][p], stream_stores);
            }
        }
    }
}
// @endregion group-kernel

// @region cluster-kernel: a row per block or per cluster; each block keeps its slice in registers
// Block `rank` owns packs [rank * T * PACKS, (rank + 1) * T * PACKS) of the row's aligned frame,
// T = blockDim.x; adjacent threads own adjacent packs so every load is coalesced.
// Any block size up to 1024, so at most 64 registers a thread: blocks of 512 or fewer then fit
// two or more per SM, and one block's loads overlap another's stores.
template <typename T, int PACKS, bool kClustered>
__global__ void __launch_bounds__(1024)
    best_cluster_kernel(const T* __restrict__ in, T* __restrict__ out, int64_t cols,
                        int64_t in_stride, int64_t out_stride) {
    using RowCluster = RowCluster<kClustered>;
    constexpr int V = Vec<T>::kSize;
    __shared__ float max_slots[32], sum_slots[32];
    __shared__ float block_max, block_sum, row_max, row_sum;
    const unsigned rank = RowCluster::rank();
    const int64_t row = blockIdx.x / RowCluster::size();
    const T* src = in + row * in_stride;
    const int head = frame_head(src);
    const T* frame = src - head;
    const int threads = blockDim.x;
    const int64_t first_pack = static_cast<int64_t>(rank) * threads * PACKS + threadIdx.x;

    float x[PACKS][V];
#pragma unroll
    for (int p = 0; p < PACKS; ++p) load_pack(frame, first_pack + p * threads, head, cols, x[p]);

    // @region cluster-max: block max, then the max over the cluster's blocks through DSMEM
    float m = kNegInf;
#pragma unroll
    for (int p = 0; p < PACKS; ++p)
#pragma unroll
        for (int k = 0; k < V; ++k) m = fmaxf(m, x[p][k]);
    m = block_reduce(m, max_slots, MaxOp{});
    if (threadIdx.x == 0) block_max = m;
    cluster_combine<kClustered>(&block_max, &row_max, MaxOp{});
    m = row_max;
    // @endregion cluster-max

    float s = 0.0f;
#pragma unroll
    for (int p = 0; p < PACKS; ++p)
#pragma unroll
        for (int k = 0; k < V; ++k) {
            x[p][k] = exp2f((x[p][k] - m) * kLog2e);
            s += x[p][k];
        }
    s = block_reduce(s, sum_slots, SumOp{});
    if (threadIdx.x == 0) block_sum = s;
    cluster_combine<kClustered>(&block_sum, &row_sum, SumOp{});
    // This block has read its peers' shared memory for the last time. It must not exit before
    // they have read its own, but it can store while they catch up: arrive now, wait at the end.
    RowCluster::arrive();
    const float inv = 1.0f / row_sum;

    T* dst = out + row * out_stride;
    const bool same_frame = frame_head(dst) == head;
#pragma unroll
    for (int p = 0; p < PACKS; ++p) {
#pragma unroll
        for (int k = 0; k < V; ++k) x[p][k] *= inv;
        store_pack(dst, same_frame, first_pack + p * threads, head, cols, x[p]);
    }
    RowCluster::wait();
}
// @endregion cluster-kernel

// @region persistent-kernel: long rows -- a resident grid of clusters, loads of the next row
// overlapping the stores of this one; slices in registers plus (longest rows) shared memory
// Each cluster owns rows cluster_id, cluster_id + clusters, ... and each block of it one slice of
// every such row: packs [rank * S, (rank + 1) * S) of the row's aligned frame, S = T * (PACKS +
// SPACKS), T = blockDim.x. A thread keeps PACKS packs in registers and SPACKS packs in its own
// slots of shared memory (filled by cp.async, read back only by the same thread, so no block
// barrier guards them). Why persistent: a block of this size fills an SM, so launching one per
// row leaves the SM idle while the next block starts and loads; here, as soon as a pack of row i
// is stored, the same registers start loading row i + clusters, and the memory never waits.
template <typename T>
__device__ __forceinline__ void stash_pack(const T* frame, int64_t q, int head, int64_t cols,
                                           uint4* slot) {
    constexpr int V = Vec<T>::kSize;
    const int64_t f0 = q * V;
    if (f0 >= head && f0 + V <= head + cols) {
        __pipeline_memcpy_async(slot, frame + f0, 16);  // global -> shared, no registers
    } else {  // an edge pack: the slots outside the row hold -inf
        alignas(16) T v[V];
#pragma unroll
        for (int k = 0; k < V; ++k) {
            const int64_t f = f0 + k;
            v[k] = (f >= head && f < head + cols) ? frame[f] : from_float<T>(kNegInf);
        }
        *slot = *reinterpret_cast<uint4*>(v);
    }
}

template <typename T>
__device__ __forceinline__ void unstash(const uint4* slot, float (&x)[Vec<T>::kSize]) {
    constexpr int V = Vec<T>::kSize;
    alignas(16) T v[V];
    *reinterpret_cast<uint4*>(v) = *slot;
#pragma unroll
    for (int k = 0; k < V; ++k) x[k] = to_float(v[k]);
}

template <typename T, int PACKS, int SPACKS, bool kClustered>
__global__ void __launch_bounds__(1024)
    best_persistent_kernel(const T* __restrict__ in, T* __restrict__ out, int64_t rows,
                           int64_t cols, int64_t in_stride, int64_t out_stride) {
    using RowCluster = RowCluster<kClustered>;
    constexpr int V = Vec<T>::kSize;
    extern __shared__ uint4 stash[];  // [SPACKS][blockDim.x]: thread t owns column t
    __shared__ float max_slots[32], sum_slots[32];
    __shared__ float block_max, block_sum, row_max, row_sum;
    const unsigned rank = RowCluster::rank(), blocks = RowCluster::size();
    const int64_t clusters = gridDim.x / blocks;
    const int threads = blockDim.x;
    const int64_t first_pack = static_cast<int64_t>(rank) * threads * (PACKS + SPACKS) + threadIdx.x;
    auto pack_of = [&](int p) { return first_pack + static_cast<int64_t>(p) * threads; };
    auto slot_of = [&](int s) { return stash + s * threads + threadIdx.x; };

    // Every block of a cluster works on the same row, so the loop bound is the same for all.
    int64_t row = blockIdx.x / blocks;
    float x[PACKS][V];
    if (row < rows) {
        const T* src = in + row * in_stride;
        const int head = frame_head(src);
#pragma unroll
        for (int p = 0; p < PACKS; ++p) load_pack(src - head, pack_of(p), head, cols, x[p]);
#pragma unroll
        for (int s = 0; s < SPACKS; ++s)
            stash_pack(src - head, pack_of(PACKS + s), head, cols, slot_of(s));
        __pipeline_commit();
    }
    for (; row < rows; row += clusters) {
        const int head = frame_head(in + row * in_stride);
        __pipeline_wait_prior(0);  // this thread's stash slots hold row `row`

        float m = kNegInf;
#pragma unroll
        for (int p = 0; p < PACKS; ++p)
#pragma unroll
            for (int k = 0; k < V; ++k) m = fmaxf(m, x[p][k]);
#pragma unroll
        for (int s = 0; s < SPACKS; ++s) {
            float y[V];
            unstash<T>(slot_of(s), y);
#pragma unroll
            for (int k = 0; k < V; ++k) m = fmaxf(m, y[k]);
        }
        m = block_reduce(m, max_slots, MaxOp{});
        if (threadIdx.x == 0) block_max = m;
        cluster_combine<kClustered>(&block_max, &row_max, MaxOp{});
        m = row_max;

        float s = 0.0f;
#pragma unroll
        for (int p = 0; p < PACKS; ++p)
#pragma unroll
            for (int k = 0; k < V; ++k) {
                x[p][k] = exp2f((x[p][k] - m) * kLog2e);
                s += x[p][k];
            }
#pragma unroll
        for (int q = 0; q < SPACKS; ++q) {  // stashed values: exp now for the sum, again at the store
            float y[V];
            unstash<T>(slot_of(q), y);
#pragma unroll
            for (int k = 0; k < V; ++k) s += exp2f((y[k] - m) * kLog2e);
        }
        s = block_reduce(s, sum_slots, SumOp{});
        if (threadIdx.x == 0) block_sum = s;
        // The cluster barrier inside also keeps any block from rewriting block_max / block_sum
        // for the next row before every peer has read this row's.
        cluster_combine<kClustered>(&block_sum, &row_sum, SumOp{});
        const float inv = 1.0f / row_sum;

        // Store this row pack by pack; each pack's registers (or slot) at once load the next row.
        const int64_t next = row + clusters;
        const T* next_src = in + (next < rows ? next : row) * in_stride;
        const int next_head = frame_head(next_src);
        const int64_t next_cols = next < rows ? cols : 0;  // 0: loads nothing (reads as -inf)
        T* dst = out + row * out_stride;
        const bool same_frame = frame_head(dst) == head;
#pragma unroll
        for (int p = 0; p < PACKS; ++p) {
#pragma unroll
            for (int k = 0; k < V; ++k) x[p][k] *= inv;
            store_pack(dst, same_frame, pack_of(p), head, cols, x[p]);
            load_pack(next_src - next_head, pack_of(p), next_head, next_cols, x[p]);
        }
#pragma unroll
        for (int q = 0; q < SPACKS; ++q) {
            float y[V];
            unstash<T>(slot_of(q), y);
#pragma unroll
            for (int k = 0; k < V; ++k) y[k] = exp2f((y[k] - m) * kLog2e) * inv;
            store_pack(dst, same_frame, pack_of(PACKS + q), head, cols, y);
            if (next < rows) stash_pack(next_src - next_head, pack_of(PACKS + q), next_head, cols,
                                        slot_of(q));
        }
        __pipeline_commit();
    }
    // A block's shared block_sum may still be read by a slower peer: leave together.
    RowCluster::sync();
}
// @endregion persistent-kernel

// @region two-pass-kernel: rows too long for on-chip -- online (max, sum), then write
// Pass 1 keeps a running max m and sum s and rescales s by exp(m_old - m_new) when m grows
// (step 6's merge rule). Pass 2 reads the slice again -- recently read, so partly from L2.
struct MaxSum {
    float m, s;
};
__device__ __forceinline__ MaxSum merge(MaxSum a, MaxSum b) {
    if (b.m > a.m) {
        const MaxSum t = a;
        a = b;
        b = t;
    }
    if (a.m == kNegInf) return a;  // both empty so far; avoids (-inf) - (-inf)
    return MaxSum{a.m, a.s + b.s * exp2f((b.m - a.m) * kLog2e)};
}

// Up to 1024 threads, so 64 registers per thread: kUnroll is sized to fit.
template <typename T, bool kClustered>
__global__ void __launch_bounds__(1024)
    best_two_pass_kernel(const T* __restrict__ in, T* __restrict__ out, int64_t cols,
                         int64_t in_stride, int64_t out_stride) {
    using RowCluster = RowCluster<kClustered>;
    constexpr int V = Vec<T>::kSize;
    constexpr int kUnroll = 16 / V;  // 16 values in flight per thread (4 fp32 or 2 half packs)
    __shared__ float m_slots[32], s_slots[32];
    __shared__ float block_max, block_sum, row_max, row_sum;
    const unsigned rank = RowCluster::rank(), blocks = RowCluster::size();
    const int threads = blockDim.x;
    const int64_t row = blockIdx.x / blocks;
    const T* src = in + row * in_stride;
    const int head = frame_head(src);
    const T* frame = src - head;
    const int64_t packs = (head + cols + V - 1) / V;
    const int64_t per_block = (packs + blocks - 1) / blocks;
    const int64_t begin = rank * per_block, end = min(packs, begin + per_block);

    MaxSum acc{kNegInf, 0.0f};
    for (int64_t q0 = begin + threadIdx.x; q0 < end; q0 += threads * kUnroll) {
        float x[kUnroll][V];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const int64_t q = q0 + u * threads;
            load_pack<T, LoadHint::kKeepInL2>(frame, q, head, q < end ? cols : 0, x[u]);
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            float pm = kNegInf, ps = 0.0f;
#pragma unroll
            for (int k = 0; k < V; ++k) pm = fmaxf(pm, x[u][k]);
            if (pm == kNegInf) {  // only -inf (and NaN, which fmaxf skips): nothing to add...
#pragma unroll
                for (int k = 0; k < V; ++k)
                    if (isnan(x[u][k])) acc.s = x[u][k];  // ...but a NaN must reach the sum
                continue;
            }
#pragma unroll
            for (int k = 0; k < V; ++k) ps += exp2f((x[u][k] - pm) * kLog2e);
            acc = merge(acc, MaxSum{pm, ps});
        }
    }
    // Max first, then every thread rescales its sum to the row max: two plain reductions.
    float m = block_reduce(acc.m, m_slots, MaxOp{});
    if (threadIdx.x == 0) block_max = m;
    cluster_combine<kClustered>(&block_max, &row_max, MaxOp{});
    m = row_max;
    float s = acc.m == kNegInf ? 0.0f : acc.s * exp2f((acc.m - m) * kLog2e);
    s = block_reduce(s, s_slots, SumOp{});
    if (threadIdx.x == 0) block_sum = s;
    cluster_combine<kClustered>(&block_sum, &row_sum, SumOp{});
    RowCluster::arrive();
    const float inv = 1.0f / row_sum;

    T* dst = out + row * out_stride;
    const bool same_frame = frame_head(dst) == head;
    for (int64_t q0 = begin + threadIdx.x; q0 < end; q0 += threads * kUnroll) {
        float x[kUnroll][V];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const int64_t q = q0 + u * threads;
            load_pack(frame, q, head, q < end ? cols : 0, x[u]);
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const int64_t q = q0 + u * threads;
            if (q >= end) break;
#pragma unroll
            for (int k = 0; k < V; ++k) x[u][k] = exp2f((x[u][k] - m) * kLog2e) * inv;
            store_pack(dst, same_frame, q, head, cols, x[u]);
        }
    }
    RowCluster::wait();
}
// @endregion two-pass-kernel

}  // namespace best
}  // namespace sml

// =============================================================================================
// Host side: choosing a path, planning its launch, predicting its traffic.
// =============================================================================================
#include "kernels/best_softmax.h"

namespace sml {
namespace best {

static int vec_of(DType t) {
    return 16 / dtype_size(t);
}

std::string Config::describe() const {
    switch (path) {
        case Path::kGroup:
            return "group " + std::to_string(width) + " lanes x " + std::to_string(packs) +
                   " packs x " + std::to_string(rows_per_group) + " rows";
        case Path::kCluster:
            return "cluster " + std::to_string(cluster) + " x " + std::to_string(threads) +
                   " threads x " + std::to_string(values) + " values";
        case Path::kTwoPass:
            return "two-pass cluster " + std::to_string(cluster) + " x " + std::to_string(threads) +
                   " threads";
        case Path::kPersistent:
            return "persistent cluster " + std::to_string(cluster) + " x " +
                   std::to_string(threads) + " threads x " + std::to_string(values) + " values" +
                   (stash > 0 ? " + " + std::to_string(stash) + " in smem" : "");
    }
    return "?";
}

// @region choose-path: the dispatch by N -- smallest on-chip home for the row, else two passes
Config choose(int64_t cols, DType dtype, bool aligned, const DeviceLimits& limits,
              int block_values) {
    const int vec = vec_of(dtype);
    // A misaligned row can straddle one extra pack of its aligned frame.
    const int64_t need = cols + (aligned ? 0 : vec - 1);
    Config c;
    // Thresholds below were measured on an H100 (bench/peers.py --tune; bench/README-peers.md).
    if (need < 256) {  // group path: lanes first (shuffles are cheap), then packs per lane
        c.path = Config::Path::kGroup;
        c.packs = 1;
        for (c.width = 1; c.width < 32 && c.width * vec < need;) c.width *= 2;
        while (int64_t{32} * c.packs * vec < need) c.packs *= 2;
        c.rows_per_group = c.packs == 1 ? 4 : (c.packs == 2 ? 2 : 1);
        return c;
    }
    // One row per block (or per cluster), in registers, the block sized to the row in steps of
    // a warp. Few values per thread while the row is short (many small blocks per SM keep the
    // memory busy), more as it grows; at most 512 threads, so two blocks share an SM.
    const int64_t packs = (need + vec - 1) / vec;
    auto threads_for = [&](int cluster, int values) {
        const int64_t per_block = (packs + cluster - 1) / cluster;
        const int64_t per_thread = values / vec;
        return ((per_block + per_thread - 1) / per_thread + 31) / 32 * 32;
    };
    c.path = Config::Path::kCluster;
    c.values = need <= 1024 ? 8 : (need <= block_values ? 16 : 32);
    // Clusters of up to 8 blocks (portable). Blocks of at most 512 threads first, so two share
    // an SM; only when 8 x 512 x 32 values no longer hold the row, 8 x 1024 (H100, N = 262144:
    // 81.5% of copy, against 76.8% for the two-pass kernel). Beyond that, two passes.
    // Without clusters (before Hopper) one block of up to 1024 threads holds 32768 values.
    const int max_cluster = limits.cc_major >= 9 ? 8 : 1;
    for (int max_threads : {max_cluster > 1 ? 512 : 1024, 1024}) {
        for (int cl = 1; cl <= max_cluster; ++cl) {
            if (threads_for(cl, c.values) <= max_threads) {
                c.cluster = cl;
                c.threads = static_cast<int>(threads_for(cl, c.values));
                return c;
            }
        }
    }
    // Two passes over a cluster of up to 16 blocks, ~16K values per block: the second read of a
    // slice follows the first closely enough to come mostly from L2.
    c.path = Config::Path::kTwoPass;
    c.values = 0;
    const int64_t want = (need + 16383) / 16384;
    c.cluster = limits.cc_major >= 9 ? static_cast<int>(std::min<int64_t>(16, want)) : 1;
    c.threads = need / c.cluster > 32768 ? 1024 : 512;
    return c;
}
// @endregion choose-path

template <typename T>
static LaunchStep group_step(const LaunchArgs& a, const Config& c, cudaError_t* err);
template <typename T>
static LaunchStep cluster_step(const LaunchArgs& a, const Config& c, cudaError_t* err);
template <typename T>
static LaunchStep two_pass_step(const LaunchArgs& a, const Config& c, cudaError_t* err);

template <typename T, int P, int W>
static LaunchStep make_group_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    constexpr int kRows = P == 1 ? 4 : (P == 2 ? 2 : 1);
    auto* kernel = best_group_kernel<T, P, W, kRows>;
    const int threads = c.threads > 0 ? c.threads : 128;
    const bool stream_stores = !c.plain_stores;
    const SoftmaxProblem& p = a.problem;
    const int64_t rows_per_block = (threads / W) * kRows;
    int resident = 0;
    *err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kernel, threads, 0);
    if (c.blocks_per_sm > 0) resident = std::min(resident, c.blocks_per_sm);
    const int64_t fill =
        int64_t{std::max(1, a.limits.sm_count)} * std::max(1, resident) * std::max(1, c.waves);
    const int64_t blocks = std::min((p.rows + rows_per_block - 1) / rows_per_block, fill);
    LaunchStep s;
    s.name = "best_group";
    s.func = reinterpret_cast<const void*>(kernel);
    s.grid = dim3(static_cast<unsigned>(blocks));
    s.block = dim3(threads);
    const T* in = static_cast<const T*>(a.in);
    T* out = static_cast<T*>(a.out);
    const dim3 grid = s.grid;
    s.launch = [=](cudaStream_t st) {
        kernel<<<grid, threads, 0, st>>>(in, out, p.rows, p.cols, p.in_stride, p.out_stride,
                                          stream_stores);
        return cudaGetLastError();
    };
    return s;
}

template <typename T>
static LaunchStep group_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    constexpr bool kHalf = sizeof(T) == 2;  // 8 values per pack: at most 4 packs (32 registers)
    if (c.packs == 1) {
        switch (c.width) {
            case 1:
                return make_group_step<T, 1, 1>(a, c, err);
            case 2:
                return make_group_step<T, 1, 2>(a, c, err);
            case 4:
                return make_group_step<T, 1, 4>(a, c, err);
            case 8:
                return make_group_step<T, 1, 8>(a, c, err);
            case 16:
                return make_group_step<T, 1, 16>(a, c, err);
            case 32:
                return make_group_step<T, 1, 32>(a, c, err);
        }
    } else if (c.width == 32) {
        if (c.packs == 2) return make_group_step<T, 2, 32>(a, c, err);
        if (c.packs == 4) return make_group_step<T, 4, 32>(a, c, err);
        if constexpr (!kHalf)
            if (c.packs == 8) return make_group_step<T, 8, 32>(a, c, err);
    }
    *err = cudaErrorInvalidConfiguration;
    return {};
}

// Launches with a cluster of `cluster` blocks along x (cudaLaunchKernelEx). Clusters above 8
// blocks are "non-portable" and need an explicit opt-in per kernel.
template <typename T>
using RowKernel = void (*)(const T*, T*, int64_t, int64_t, int64_t);

// `single` (one block per row, launched plainly) runs when cluster == 1.
template <typename T>
static LaunchStep make_cluster_launch(const char* name, RowKernel<T> clustered, RowKernel<T> single,
                                      int threads, const LaunchArgs& a, int cluster,
                                      cudaError_t* err) {
    const SoftmaxProblem& p = a.problem;
    const bool clusters = cluster > 1;
    RowKernel<T> kernel = clusters ? clustered : single;
    if (clusters && a.limits.cc_major < 9) {
        *err = cudaErrorNotSupported;
        return {};
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
    LaunchStep s;
    s.name = name;
    s.func = reinterpret_cast<const void*>(kernel);
    s.grid = dim3(static_cast<unsigned>(blocks));
    s.block = dim3(threads);
    const T* in = static_cast<const T*>(a.in);
    T* out = static_cast<T*>(a.out);
    const dim3 grid = s.grid, block = s.block;
    s.launch = [=](cudaStream_t st) {
        cudaLaunchConfig_t cfg{};
        cfg.gridDim = grid;
        cfg.blockDim = block;
        cfg.dynamicSmemBytes = 0;
        cfg.stream = st;
        cudaLaunchAttribute attr[1];
        attr[0].id = cudaLaunchAttributeClusterDimension;
        attr[0].val.clusterDim.x = cluster;
        attr[0].val.clusterDim.y = 1;
        attr[0].val.clusterDim.z = 1;
        cfg.attrs = attr;
        cfg.numAttrs = clusters ? 1 : 0;
        return cudaLaunchKernelEx(&cfg, kernel, in, out, p.cols, p.in_stride, p.out_stride);
    };
    *err = cudaSuccess;
    return s;
}

template <typename T, int P>
static LaunchStep make_cluster_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    return make_cluster_launch<T>("best_cluster", best_cluster_kernel<T, P, true>,
                                  best_cluster_kernel<T, P, false>, c.threads, a, c.cluster, err);
}

static bool valid_threads(int t) {
    return t >= 32 && t <= 1024 && t % 32 == 0;
}

template <typename T>
static LaunchStep cluster_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    constexpr int V = Vec<T>::kSize;
    // Values per thread = packs x (4 fp32 or 8 halves): 8, 16 or 32 (and 4 for fp32).
    if (valid_threads(c.threads)) {
        if constexpr (V == 4)
            if (c.values == 4) return make_cluster_step<T, 1>(a, c, err);
        if (c.values == 8) return make_cluster_step<T, 8 / V>(a, c, err);
        if (c.values == 16) return make_cluster_step<T, 16 / V>(a, c, err);
        if (c.values == 32) return make_cluster_step<T, 32 / V>(a, c, err);
    }
    *err = cudaErrorInvalidConfiguration;
    return {};
}

// The persistent kernel: as many clusters as fit at once (cudaOccupancyMaxActiveClusters), each
// looping over rows. Shared memory beyond 48 KB needs an opt-in per kernel.
template <typename T, int P, int S>
static LaunchStep make_persistent_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    const SoftmaxProblem& p = a.problem;
    const int cluster = c.cluster;
    const bool clusters = cluster > 1;
    auto* kernel = clusters ? best_persistent_kernel<T, P, S, true>
                            : best_persistent_kernel<T, P, S, false>;
    if (clusters && a.limits.cc_major < 9) {
        *err = cudaErrorNotSupported;
        return {};
    }
    const size_t smem = size_t{16} * S * c.threads;
    if (smem > 48 * 1024) {
        *err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                    static_cast<int>(smem));
        if (*err != cudaSuccess) return {};
    }
    if (cluster > 8) {
        *err = cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
        if (*err != cudaSuccess) return {};
    }
    cudaLaunchConfig_t cfg{};
    cfg.blockDim = dim3(c.threads);
    cfg.dynamicSmemBytes = smem;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = cluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = clusters ? 1 : 0;
    int64_t resident = 0;  // clusters (or blocks) that run at once
    if (clusters) {
        cfg.gridDim = dim3(cluster * 1024);  // any multiple of the cluster size
        int n = 0;
        *err = cudaOccupancyMaxActiveClusters(&n, kernel, &cfg);
        resident = n;
    } else {
        int n = 0;
        *err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, c.threads, smem);
        resident = int64_t{n} * std::max(1, a.limits.sm_count);
    }
    if (*err != cudaSuccess) return {};
    if (resident < 1) {  // e.g. no GPC holds a cluster this large (MIG slices, other GPUs)
        *err = cudaErrorInvalidClusterSize;
        return {};
    }
    const int64_t blocks = std::min(p.rows, resident) * cluster;
    LaunchStep s;
    s.name = "best_persistent";
    s.func = reinterpret_cast<const void*>(kernel);
    s.grid = dim3(static_cast<unsigned>(blocks));
    s.block = cfg.blockDim;
    s.dynamic_smem = smem;
    cfg.gridDim = s.grid;
    const T* in = static_cast<const T*>(a.in);
    T* out = static_cast<T*>(a.out);
    s.launch = [=](cudaStream_t st) mutable {
        cfg.stream = st;
        cfg.attrs = attr;
        return cudaLaunchKernelEx(&cfg, kernel, in, out, p.rows, p.cols, p.in_stride,
                                  p.out_stride);
    };
    *err = cudaSuccess;
    return s;
}

template <typename T>
static LaunchStep persistent_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    constexpr int V = Vec<T>::kSize;
    // Registers: 16 or 32 values a thread; shared memory: 0, 16 or 32 more.
    if (valid_threads(c.threads)) {
        const int s = c.stash;
        if (c.values == 16) {
            if (s == 0) return make_persistent_step<T, 16 / V, 0>(a, c, err);
            if (s == 16) return make_persistent_step<T, 16 / V, 16 / V>(a, c, err);
            if (s == 32) return make_persistent_step<T, 16 / V, 32 / V>(a, c, err);
        } else if (c.values == 32) {
            if (s == 0) return make_persistent_step<T, 32 / V, 0>(a, c, err);
            if (s == 16) return make_persistent_step<T, 32 / V, 16 / V>(a, c, err);
            if (s == 32) return make_persistent_step<T, 32 / V, 32 / V>(a, c, err);
        }
    }
    *err = cudaErrorInvalidConfiguration;
    return {};
}

template <typename T>
static LaunchStep two_pass_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    if (valid_threads(c.threads))
        return make_cluster_launch<T>("best_two_pass", best_two_pass_kernel<T, true>,
                                      best_two_pass_kernel<T, false>, c.threads, a, c.cluster, err);
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
        case Config::Path::kPersistent:
            s = persistent_step<T>(a, c, &err);
            break;
    }
    if (err != cudaSuccess) return err;
    out->push_back(std::move(s));
    return cudaSuccess;
}

static bool rows_aligned(const LaunchArgs& a);

// Values a configuration holds on chip per row; the two-pass path has no limit.
static int64_t capacity(const Config& c, DType t) {
    switch (c.path) {
        case Config::Path::kGroup:
            return int64_t{c.width} * c.packs * vec_of(t);
        case Config::Path::kCluster:
            return int64_t{c.cluster} * c.threads * c.values;
        case Config::Path::kTwoPass:
            return kUnlimitedCols;
        case Config::Path::kPersistent:
            return int64_t{c.cluster} * c.threads * (c.values + c.stash);
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

// True when every row of in and out starts on a 16-byte boundary (vector loads need no slack).
static bool rows_aligned(const LaunchArgs& a) {
    const int vec = vec_of(a.problem.dtype);
    return reinterpret_cast<uintptr_t>(a.in) % 16 == 0 &&
           reinterpret_cast<uintptr_t>(a.out) % 16 == 0 && a.problem.in_stride % vec == 0 &&
           a.problem.out_stride % vec == 0;
}

static cudaError_t plan(const LaunchArgs& args, std::vector<LaunchStep>* steps) {
    const Config c = choose(args.problem.cols, args.problem.dtype, rows_aligned(args), args.limits);
    return plan_with(args, c, steps);
}

// The traffic of the path `plan` takes on the current device (H100 values when there is none),
// assuming cudaMalloc-aligned buffers.
static Traffic predict(const SoftmaxProblem& p) {
    DeviceLimits limits = DeviceLimits::h100_reference();
    int device = 0;
    if (cudaGetDevice(&device) == cudaSuccess)
        query_device_limits(device, &limits);
    else
        (void)cudaGetLastError();
    const int vec = vec_of(p.dtype);
    const bool aligned = p.in_stride % vec == 0 && p.out_stride % vec == 0;
    const Config c = choose(p.cols, p.dtype, aligned, limits);
    const double bytes = static_cast<double>(p.rows) * p.cols * dtype_size(p.dtype);
    const int reads = c.path == Config::Path::kTwoPass ? 2 : 1;
    Traffic t;
    t.dram_read_bytes = reads * bytes;
    t.dram_write_bytes = bytes;
    t.global_load_bytes = reads * bytes;
    t.global_store_bytes = bytes;
    t.read_formula =
        reads == 2 ? "2MN elements (row too long for on-chip: read twice)" : "MN elements";
    t.write_formula = "MN elements";
    return t;
}

}  // namespace best

static int64_t best_max_cols(const DeviceLimits&, DType) {
    return kUnlimitedCols;
}

KernelInfo best_kernel_info() {
    return KernelInfo{
        "best",
        "Best path: dispatch by N",
        "kernels/best_softmax.cu",
        8,
        "Picks a sub-warp, cluster (DSMEM) or two-pass kernel by N, with 16-byte I/O and fp16/bf16",
        kAllDTypes,
        1,
        best_max_cols,
        "no limit: rows too long for a cluster's registers take the two-pass path",
        {"auto"},
        nullptr,
        best::plan,
        best::predict,
    };
}

}  // namespace sml
