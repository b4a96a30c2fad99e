// Shape arithmetic that best's dispatcher (kernels/best_softmax.cu, plain C++) and its kernels and
// launches (kernels/best/*.cu) must agree on. Plain C++ too: under nvcc, grid_main_packs is also
// compiled for the device.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/best_softmax.h"

#if defined(__CUDACC__)
#define SML_BEST_HOST_DEVICE __host__ __device__
#else
#define SML_BEST_HOST_DEVICE
#endif

namespace sml::best {

// Values in a 16-byte pack.
inline int vec_of(DType t) {
    return 16 / dtype_size(t);
}

// Packs of each block's slice of a row whose aligned frame has `packs` packs, as the cluster and
// grid kernels cut it (RowSlice::size_of): whole 128-byte lines.
inline int64_t slice_packs(int64_t packs, int blocks) {
    return ((packs + blocks - 1) / blocks + 7) / 8 * 8;
}

// Threads a block of the grid kernel may have: 1024 up to 2 packs a thread, then fewer, so a
// thread may use more registers (65536 / threads) for its larger ring. The `wide` kernel has a
// warp more (best_grid_kernel's kWide).
constexpr int grid_max_threads(int packs, bool wide = false) {
    return packs <= 2 ? 1024 : 2048 / packs + (wide ? 32 : 0);
}
// Blocks an SM the grid kernel is built for: two for fp32 rows at 8 packs a thread and lag 2 (the
// dispatcher's 8-pack grid in two teams), so ptxas keeps it to 128 registers a thread, which it
// fits without spilling, and two blocks of up to 256 threads fit an SM. Its 16-bit forms spill at
// 128 and ran up to 14 points slower, so they keep one (164 registers: two blocks of 192).
constexpr int grid_min_blocks(int packs, int lag, int esize) {
    return packs == 8 && lag == 2 && esize == 4 ? 2 : 1;
}
// Threads past the edge warp from which the 4-pack grid in one team runs about as fast as the
// 8-pack grid in two teams, or faster: 13 warps a block (best_softmax.cu says why).
constexpr int kGridOneTeamFullThreads = 416;
// An SM's share of the DRAM's bandwidth as a multiple of an H100's (its profile's 3352 GB/s over
// 132 SMs), and 1 where it is less, which nothing measured, or where the limits do not know it.
// What an SM must keep in flight to move its share grows with it (bytes in flight = bandwidth x
// latency): an H200 (4814 GB/s over the same SMs) asks 1.44 times an H100's.
inline double sm_bandwidth_vs_h100(const DeviceLimits& limits) {
    static const double h100_share = [] {  // GB/s an SM, worked out once
        const DeviceLimits h100 = DeviceLimits::h100_reference();
        return h100.peak_dram_gbps / h100.sm_count;
    }();
    if (limits.peak_dram_gbps <= 0 || limits.sm_count <= 0) return 1.0;
    return std::max(1.0, limits.peak_dram_gbps / limits.sm_count / h100_share);
}
// `n` times the share above, rounded up, forgiving a hundredth (so that an H100's own figures
// give n, not n + 1).
inline int scaled_by_bandwidth(int n, const DeviceLimits& limits) {
    return static_cast<int>(n * sm_bandwidth_vs_h100(limits) + 0.99);
}

// Threads past the edge warp below which the 4-pack grid in one team runs slower than the held
// grid: 12 warps a block on an H100, and more in proportion to an SM's share of the DRAM's
// bandwidth (best_softmax.cu, choose, says why).
inline int grid_one_team_least_threads(const DeviceLimits& limits) {
    return scaled_by_bandwidth(12, limits) * 32;
}
// Packs a thread of the stash kernel (cluster.cu) holds in registers; the rest of its slice is
// in shared memory. 8, and 6 for 16-bit rows in clusters: that kernel form needs registers for the
// exchange through DSMEM and for converting 16-bit values, and at 8 packs it spilled 8-12 bytes a
// thread under its cap of 64 registers (fp32, and one block a row, spill none). With 6, fp16
// stash rows ran 0.5-4.0 points faster side by side, bf16 0.0-1.1 (docs/best-tuning.md, The
// stash kernel's registers).
constexpr int stash_register_packs(int vec, int cluster) {
    return vec == 8 && cluster > 1 ? 6 : 8;
}
// Threads a block of the held grid may have (hold.cu), so a thread has 64 registers for its 8
// packs and the rest; and its blocks an SM (the registers hold two of 512 threads, one of 1024).
constexpr int kHoldMaxThreads = 1024;
// Packs a thread of the held grid holds in registers: 8, and 6 in its streamed form (rows past
// what the GPU holds), whose loops over the packs past its places need registers of their own:
// at 8 it spilled (60 bytes of stores a thread in fp32) and ran 1.6-2.7 points slower
// (docs/best-tuning.md).
constexpr int kHoldPacks = 8, kStreamedHoldPacks = 6;
// Packs in registers of a 16-bit row's held grid, one block alone on each SM (the dispatcher's
// hold_for takes them where the stash has room): 6, as in the stash kernel (stash_register_packs).
// At 8, converting 16-bit values takes registers, and the kernel spilled 12-16 bytes a thread (fp32
// none); at 6 it spills none. fp32: 8.
constexpr int hold_register_packs(int vec) {
    return vec == 8 ? kStreamedHoldPacks : kHoldPacks;
}
constexpr int hold_blocks_per_sm(int threads) {
    return threads <= 512 ? 2 : 1;
}
// Teams the grid kernel runs at most (its launch refuses more).
constexpr int kMaxGridTeams = 64;
// Packs of a row with edges that are not main packs (below): a 128-byte line's worth.
constexpr int kGridLinePacks = 128 / 16;
// Rows the grid kernel runs without its edge warp (its kWhole form): every row whole 128-byte
// lines, on 16 bytes (in a buffer from cudaMalloc every such row starts on a line). Any other
// row has the edge warp, which takes what lies outside the row's whole lines, so the other warps
// load whole lines. Why lines, not packs: whole packs off a line, the warps' loads touch a sector
// more each, and the kWhole form measured 85.6-86.4% of copy against the edge warp's 93.8-94.4%
// (99 KB classes, fp32 N = 58068-63284), 93.7 against 97.4% on the H100 (fp32 N = 879476).
SML_BEST_HOST_DEVICE constexpr bool grid_whole_lines(int64_t cols, int vec, bool aligned) {
    return aligned && cols % (int64_t{kGridLinePacks} * vec) == 0;
}
// A row's main packs on the grid: all of a `whole` row (grid_whole_lines), all but a line's worth
// of another. The kernel cuts its slices from this, and the launch sizes blocks by it.
template <typename I>  // int in the kernel, int64_t at launch
SML_BEST_HOST_DEVICE constexpr I grid_main_packs(I cols, int vec, bool whole) {
    return whole ? cols / vec : (cols / vec > kGridLinePacks ? cols / vec - kGridLinePacks : 0);
}

// The two-pass shape for rows of up to `packs` packs (kernels/best_softmax.cu): choose()'s last
// path, and the launch's fallback where a cluster or the grid cannot be scheduled.
Config two_pass_for(int64_t packs, const DeviceLimits& limits);

}  // namespace sml::best
