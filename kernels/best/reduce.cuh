// best's reductions of (max, sum) pairs: inside a group of lanes, a warp, a block, and a
// thread-block cluster (Hopper), where the blocks of one row exchange their pairs once.
#pragma once

#include <cooperative_groups.h>

#include "kernels/best/exp.cuh"

namespace cg = cooperative_groups;

namespace sml {
namespace best {

constexpr unsigned kFullMask = 0xffffffffu;

// Two (max, sum) pairs as one: step 6's merge rule.
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
    // on the memory system before every row's stores.
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
// thread.
// One block a row: the block's pair is the row's. Each warp merges its lanes by shuffles; a
// one-warp block is then done, with no shared memory and no barrier. A larger one passes each
// warp's pair through shared memory, and after the one barrier every warp merges them all
// itself, rather than waiting at a second barrier for warp 0 to pass the result on. (Each block
// holds one row and exits, so nothing overwrites the slots while a warp still reads them.) The
// clusters' form below, which one block used to take, waits at three barriers and merges three
// times; short rows cannot hide that (docs/best-tuning.md: one-warp 16-bit rows gained up to 11
// points of copy on an H200).
// A cluster: warp 0 reads the peers' `block` entries, a lane per block. Its cluster barrier also
// keeps a block from overwriting `block` for its next row before every peer has read it.
template <bool kClustered>
__device__ __forceinline__ MaxSum row_stats(MaxSum mine, RowStats& st) {
    if constexpr (!kClustered) {
        mine = warp_merge(mine);
        const int warps = blockDim.x / 32;
        if (warps == 1) return mine;
        const int lane = threadIdx.x % 32;
        if (lane == 0) st.slots[threadIdx.x / 32] = mine;
        __syncthreads();
        return warp_merge(lane < warps ? st.slots[lane] : MaxSum{kNegInf, 0.0f});
    }
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
// with the loads in flight and its wait comes a whole memory latency later. (A cluster sync
// instead would release, which ptxas makes a MEMBAR.ALL.GPU: a wait on the memory system.)
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

}  // namespace best
}  // namespace sml
