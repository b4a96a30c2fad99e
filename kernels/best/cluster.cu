// best's on-chip paths for rows of 65 packs up to what 16 blocks hold (fp32 N <= ~700000 on an
// H100): one block a row, or a thread-block cluster a row whose blocks exchange (max, sum) once,
// with the slice in registers or, past 8 packs a thread, partly in shared memory (the stash).
// Their launches, and their kernels for the occupancy calculator.
#include "kernels/best/launch.cuh"
#include "kernels/best/reduce.cuh"
#include "kernels/best/row_slice.cuh"

namespace sml {
namespace best {

// @region cluster-kernel: a row per block or per cluster; each block keeps its slice on chip
// Each block holds its slice of the row (RowSlice) in registers, PACKS packs a thread. Any block
// size up to 1024, so at most 64 registers a thread: blocks of 512 or fewer then fit two or more
// per SM, and one block's loads overlap another's stores. One block a row of 4 packs or fewer
// asks for two blocks of 1024 an SM, so 32 registers: its warps' merge after the barrier
// (row_stats) would take 36-40, and 16-bit rows lost resident blocks to it. (Given that count of
// one block, the clusters' 16-bit kernels of 8 packs take 56 registers, not 60-62: more blocks
// an SM, measured faster. docs/best-tuning.md.)
template <typename T, int PACKS, bool kClustered>
__global__ void __launch_bounds__(1024, !kClustered && PACKS <= 4 ? 2 : 1)
    best_cluster_kernel(const T* __restrict__ in, T* __restrict__ out, int64_t cols,
                        int64_t in_stride, int64_t out_stride) {
    using RowCluster = RowCluster<kClustered>;
    const unsigned blocks = RowCluster::size(), rank = RowCluster::rank();
    const int64_t row = blockIdx.x / blocks;
    // On-chip rows are far below 2^31 values.
    const RowSlice<T> g(in + row * in_stride, static_cast<int>(cols), blocks, rank);

    uint4 raw[PACKS];
    // Clusters skip the edge bookkeeping on aligned rows (a block-uniform branch). One block a
    // row does not: the branch costs it 8 registers a thread, and without it aligned rows ran as
    // fast and unaligned ones faster (docs/best-tuning.md, One block per row).
    if (kClustered && g.whole_packs())
        g.load(raw);
    else
        g.load_edges_last(raw, ReadableEdges::of<T>(row, gridDim.x / blocks, in_stride));
    if constexpr (kClustered) {
        __shared__ PushedStats stats;
        push_init(stats, blocks);
        const MaxSum mine = g.exps(raw);
        const MaxSum whole_row = push_row_stats(mine, stats, rank, blocks);
        g.store(out + row * out_stride, raw, output_factor(mine.m, whole_row));
    } else {
        __shared__ RowStats stats;
        const MaxSum mine = g.exps(raw);
        const MaxSum whole_row = row_stats<false>(mine, stats);
        g.store(out + row * out_stride, raw, output_factor(mine.m, whole_row));
    }
}

// The stash kernel: rows past a 16-block cluster's registers, the rest of each slice in shared
// memory, so that two blocks still share an SM.
// Past 16 x 512 threads x 8 packs (1 MB rows), a cluster kernel with larger blocks fits one block
// an SM: nothing overlaps one row's stores with the next row's loads, and on an H100 seven
// 16-block clusters leave 20 of 132 SMs idle. Here a block stays at 512 threads and PACKS packs a
// thread in registers (half an SM's registers; 8, or 6 for 16-bit rows in clusters, whose
// conversions need registers of their own), and a thread's further packs of the slice go to
// its own column of shared memory by cp.async, which needs no registers. Each thread reads back
// only what it copied itself, so no barrier guards the stash. Two blocks an SM hold up to
// 2 x ~110 KB there: rows of up to ~2.75 MB (fp32 N ~ 700000, fp16/bf16 N ~ 1.4M) keep their
// overlap.
// Without clusters (before Hopper) the same kernel runs one block of 1024 threads a row: 128 KB
// of the row in registers and the rest in shared memory, where the GPU's opt-in allows (an
// A100's 163 KB holds fp32 rows of 65536; a GPU with 99 KB does not, and reads twice).
template <typename T, int PACKS, bool kClustered>
__global__ void __launch_bounds__(kClustered ? 512 : 1024, kClustered ? 2 : 1)
    best_stash_kernel(const T* __restrict__ in, T* __restrict__ out, int64_t cols,
                      int64_t in_stride, int64_t out_stride) {
    constexpr int V = Vec<T>::kSize;
    using RowCluster = RowCluster<kClustered>;
    extern __shared__ uint4 stash[];  // [slots][blockDim.x]: thread t's packs in column t
    using Stats = std::conditional_t<kClustered, PushedStats, RowStats>;
    __shared__ Stats stats;
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
    if constexpr (kClustered) push_init(stats, blocks);

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
    MaxSum whole_row;
    if constexpr (kClustered)
        whole_row = push_row_stats(MaxSum{m, sum}, stats, rank, blocks);
    else
        whole_row = row_stats<false>(MaxSum{m, sum}, stats);
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

template <typename T, int P>
static LaunchStep make_cluster_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    return make_cluster_launch<T>("best_cluster", best_cluster_kernel<T, P, true>,
                                  best_cluster_kernel<T, P, false>, c.threads, 0, a, c.cluster,
                                  err);
}

// The stash kernel for `packs` in registers: 8, or 6 in clusters (stash_register_packs);
// nullptr for any other count.
template <typename T>
static RowKernel<T> stash_kernel(int packs, bool clusters) {
    if (packs == 8)
        return clusters ? best_stash_kernel<T, 8, true> : best_stash_kernel<T, 8, false>;
    if (packs == 6 && clusters) return best_stash_kernel<T, 6, true>;
    return nullptr;
}

template <typename T>
static LaunchStep cluster_step_of(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    if (c.stash > 0) {  // 8 or 6 packs in registers and the rest in shared memory
        // A cluster's blocks: up to 512 threads (two an SM); one block a row: up to 1024.
        const bool clusters = c.cluster > 1;
        const RowKernel<T> kernel = stash_kernel<T>(c.packs, clusters);
        if (kernel != nullptr && c.cluster >= 1 && valid_threads(c.threads, clusters ? 512 : 1024))
            return make_cluster_launch<T>("best_stash", kernel, kernel, c.threads, stash_bytes(c),
                                          a, c.cluster, err);
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

template <typename T, bool kClustered>
static const void* registers_kernel(int packs) {
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
static const void* cluster_kernel_of(const Config& c) {
    if (c.stash > 0) return reinterpret_cast<const void*>(stash_kernel<T>(c.packs, c.cluster > 1));
    return c.cluster > 1 ? registers_kernel<T, true>(c.packs) : registers_kernel<T, false>(c.packs);
}

LaunchStep cluster_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    return for_dtype(
        a.problem.dtype,
        [&](auto t) { return cluster_step_of<typename decltype(t)::type>(a, c, err); },
        [&] { return rejected(err, cudaErrorInvalidValue); });
}

const void* cluster_kernel(DType dtype, const Config& c) {
    return for_dtype(
        dtype, [&](auto t) { return cluster_kernel_of<typename decltype(t)::type>(c); },
        [] { return static_cast<const void*>(nullptr); });
}

}  // namespace best
}  // namespace sml
