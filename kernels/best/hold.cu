// best's path for rows past what the grid kernel holds (fp32 N > 1081344 on 132 SMs) while the
// GPU's registers and shared memory still hold one row per team: the held grid. And its launch.
#include <algorithm>

#include "kernels/best/launch.cuh"
#include "kernels/best/reduce.cuh"
#include "kernels/best/row_slice.cuh"
#include "kernels/best/slots.cuh"

namespace sml {
namespace best {

// @region hold-kernel: rows as long as the chip -- each team holds one row, swapped in place
// The grid kernel keeps a block's slice of LAG + AHEAD + 1 rows on its SM, so it stops where
// five slices no longer fit. Two passes past it read the row twice (55-72% of copy). Here a
// team of blocks (one or two an SM) holds exactly one row at a time, in registers (PACKS = 8
// packs a thread) and shared memory (`stash` packs a thread), and swaps it in place: as a thread
// stores a pack of row r it loads the same pack of row r + 1 into the register or shared-memory
// place that pack just left. So the team needs room for one row, not five, and reads it once. In
// step r a block
//   1. waits for its slice of row r (registers, and the cp.async copies into shared memory),
//   2. takes its (max, sum) with step 6's running rule, one pass over what it holds,
//   3. publishes that pair in the row's slot (slots.cuh) and merges the team's slots,
//   4. stores row r, each pack followed by the load of row r + 1's pack into its place.
// Between 1 and 4 the team's stores stop, and so would its loads: it waits for its last loads
// and for the slowest block of the team, and every team, served alike by DRAM, reaches that
// pause at the same time. So the shared memory a row leaves free is used: a thread's `stash`
// places and `ahead` more form a ring, through which the stash packs of row 0, row 1, ... pass
// in order, each row's starting `stash` places on from the last's. The place a store frees
// takes the next pack in that order, so while a thread holds row r + 1 it has `ahead` packs of
// the rows after it in flight, through the pause. Teams, each on every teams-th row, run as
// many as hold a row, two blocks an SM where that still leaves two teams.
// A row's packs are counted from its first 128-byte line, so every warp's loads are whole
// sectors wherever the row starts. The values before that line and after the last whole pack
// (fewer than a line and a pack) are the edges: warp 0 of the team's last block holds them, a
// few values a lane, read and written one by one. So output rows must sit at their input rows'
// offsets from 16 bytes (the launch checks it), and a row of 2^31 values or more is refused.
// A thread's shared-memory place is its own, read and refilled by it alone: no barrier guards
// it. Its next copy is issued after the store of the value read from it, and a warp issues in
// order, so the copy cannot land before the read.
template <typename T, int PACKS>
__global__ void __launch_bounds__(kHoldMaxThreads)
    best_hold_kernel(const T* __restrict__ in, T* __restrict__ out, int rows, int64_t cols,
                     int64_t in_stride, int64_t out_stride, uint64_t* __restrict__ slots, int teams,
                     int stash, int ahead) {
    constexpr int V = Vec<T>::kSize;
    constexpr int kLine = 128 / static_cast<int>(sizeof(T));  // values in a 128-byte line
    constexpr int kEdges = (kLine + V + 31) / 32;  // edge values a lane of warp 0 may hold
    extern __shared__ uint4 stashed[];             // [stash + ahead][blockDim.x], a ring
    __shared__ MaxSum warp_sums[32];               // the block's warps' (max, sum) of the row
    __shared__ MaxSum warp_slots[32];              // each slot warp's merge of its 32 slots
    const int n = static_cast<int>(cols);
    // Teams as in the grid kernel (join_team, slots.cuh): team t takes rows t, t + teams, ...
    // Its row r is row_of(r) of the launch: addressed from the launch's own pointers and strides,
    // which stay in the constant bank, not in registers.
    const T* team_in = in;
    T* team_out = out;
    int64_t team_in_stride = in_stride, team_out_stride = out_stride;
    const Team my =
        join_team(teams, rows, team_in, team_out, team_in_stride, team_out_stride, slots);
    auto row_of = [&](int r) { return int64_t{my.team} + int64_t{r} * teams; };
    const int blocks = my.blocks, rank = my.rank;
    const int64_t slot_stride = my.slot_stride;
    const int threads = static_cast<int>(blockDim.x), tid = static_cast<int>(threadIdx.x);
    const int lane = tid % 32, warp = tid / 32, warps = threads / 32;
    const int slot_warps = (blocks + 31) / 32;
    const bool edge_warp = rank == blocks - 1 && warp == 0;
    // Every block's slice is cut from the longest count of whole packs a row can have, so a
    // thread's places q = first_q + p * threads are the same for every row.
    const int size = RowSlice<T>::size_of(n / V, blocks);
    const int first_q = rank * size + tid;
    const int held_most = PACKS + stash;

    // Row r's values before its first 128-byte line; its whole packs start there.
    auto lead_of = [&](int r) {
        const auto offset =
            static_cast<int>(reinterpret_cast<uintptr_t>(in + row_of(r) * in_stride) % 128);
        return min(n, (128 - offset) % 128 / static_cast<int>(sizeof(T)));
    };
    // Row r as this thread holds it: where its first pack is in the row, and how many packs it
    // holds (`count`: its places 0..count-1).
    struct Row {
        int r, first, count;
    };
    auto row_at = [&](int r) {
        const int lead = lead_of(r), end = min((n - lead) / V, rank * size + size);
        return Row{r, lead + first_q * V,
                   min(held_most, max(0, (end - first_q + threads - 1) / threads))};
    };
    // Edge value k of a lane of warp 0 in row r: its index in the row, or -1 where it holds none
    // (the `lead` values, then the `tail` past the last whole pack).
    auto edge_index = [&](int r, int k) {
        const int e = lane + 32 * k, lead = lead_of(r), tail = (n - lead) % V;
        if (e < lead) return e;
        return e - lead < tail ? n - tail + (e - lead) : -1;
    };
    // Stash pack j of a row whose stash starts at ring place `base` (0 <= j < stash + ahead).
    const int ring = stash + ahead;
    auto place = [&](int base, int j) {
        const int s = base + j < ring ? base + j : base + j - ring;
        return &stashed[s * threads + tid];
    };
    auto pack_in = [&](const Row& w, int p) {
        return reinterpret_cast<const uint4*>(in + row_of(w.r) * in_stride + w.first +
                                              p * threads * V);
    };
    auto pack_out = [&](const Row& w, int p) {
        return reinterpret_cast<uint4*>(out + row_of(w.r) * out_stride + w.first + p * threads * V);
    };

    uint4 x[PACKS];
    float edge[kEdges];
    const Row none{0, 0, 0};
    Row cur = row_at(0), next = rows > 1 ? row_at(1) : none;
    // The ring's copies follow the rows' stash packs in order (row 0's, row 1's, ...), `ring`
    // packs ahead of the stores: the next to issue is stash pack feed_j of row feed_at.r. One
    // goes into each place a store frees. Row `waited`'s last closes a group of copies, so the
    // wait for it leaves the copies issued after it in flight.
    Row feed_at = cur;
    int feed_j = 0;
    auto feed = [&](uint4* at, int waited) {
        if (PACKS + feed_j < feed_at.count) copy_async16(at, pack_in(feed_at, PACKS + feed_j));
        if (feed_at.r == waited && feed_j == stash - 1) copy_async_commit();
        if (++feed_j == stash) {
            feed_j = 0;
            feed_at = feed_at.r + 1 < rows ? row_at(feed_at.r + 1) : Row{feed_at.r + 1, 0, 0};
        }
    };

    // @region hold-step: a row's (max, sum), then its store, each pack refilled from the next row
    if (rows > 0) {  // row 0's registers and edges, and the whole ring: row 0's stash, then on
#pragma unroll
        for (int p = 0; p < PACKS; ++p)
            if (p < cur.count) x[p] = *pack_in(cur, p);
        for (int j = 0; j < ring; ++j) feed(place(0, j), 0);
        copy_async_commit();
        if (edge_warp) {
#pragma unroll
            for (int k = 0; k < kEdges; ++k) {
                const int e = edge_index(0, k);
                edge[k] = e >= 0 ? to_float(in[row_of(0) * in_stride + e]) : kNegInf;
            }
        }
    }
    int base = 0;  // the ring place where row r's stash starts
    for (int r = 0; r < rows; ++r) {
        // 1-2. This thread's (max, sum) of row r: its registers (loaded first), then its stash
        // once those copies have landed (all groups but the newest, which holds later rows').
        MaxSum mine{kNegInf, 0.0f};
#pragma unroll
        for (int p = 0; p < PACKS; ++p)
            if (p < cur.count) absorb_pack<T>(mine, x[p]);
        copy_async_wait_all_but<1>();
        for (int j = 0; j < cur.count - PACKS; ++j) absorb_pack<T>(mine, *place(base, j));
        if (edge_warp) absorb(mine, edge, kEdges);
        // 3. The block's pair into the row's slot; the team's slots merged by the first warps.
        const MaxSum w = warp_merge(mine);
        if (lane == 0) warp_sums[warp] = w;
        __syncthreads();
        if (warp == 0) {
            const MaxSum b = warp_merge(lane < warps ? warp_sums[lane] : MaxSum{kNegInf, 0.0f});
            if (lane == 0) publish(&slots[r * slot_stride + rank], b);
        }
        if (warp < slot_warps) {
            const MaxSum v = tid < blocks ? wait_for_slot(&slots[r * slot_stride + tid])
                                          : MaxSum{kNegInf, 0.0f};
            const MaxSum m = warp_merge(v);
            if (lane == 0) warp_slots[warp] = m;
        }
        // warp_sums and warp_slots are next written after the next row's step 2, which no warp
        // reaches before every warp has read them (warp 0 before this barrier, all after it).
        __syncthreads();
        const MaxSum row =
            warp_merge(lane < slot_warps ? warp_slots[lane] : MaxSum{kNegInf, 0.0f});
        const float inv = 1.0f / row.s;
        // 4. Store row r; load into each place as it is freed: row r + 1's pack in registers,
        // and in the ring the next stash pack in the rows' order.
#pragma unroll
        for (int p = 0; p < PACKS; ++p) {
            if (p < cur.count) {
                float y[V];
                normalise<T>(x[p], row.m, inv, y);
                store16(pack_out(cur, p), pack<T>(y));
            }
            if (p < next.count) x[p] = *pack_in(next, p);
        }
        for (int j = 0; j < stash; ++j) {
            uint4* at = place(base, j);
            if (PACKS + j < cur.count) {
                float y[V];
                normalise<T>(*at, row.m, inv, y);
                store16(pack_out(cur, PACKS + j), pack<T>(y));
            }
            feed(at, r + 1);
        }
        copy_async_commit();
        if (edge_warp) {
#pragma unroll
            for (int k = 0; k < kEdges; ++k) {
                const int e = edge_index(r, k);
                if (e >= 0)
                    out[row_of(r) * out_stride + e] =
                        from_float<T>(ex2((edge[k] - row.m) * kLog2e) * inv);
                const int f = r + 1 < rows ? edge_index(r + 1, k) : -1;
                edge[k] = f >= 0 ? to_float(in[row_of(r + 1) * in_stride + f]) : kNegInf;
            }
        }
        base = base + stash < ring ? base + stash : base + stash - ring;
        cur = next;
        next = r + 2 < rows ? row_at(r + 2) : none;
    }
    // @endregion hold-step
}

// Shared memory of the held grid: its ring, `stash` + `ahead` packs a thread.
constexpr size_t hold_stash_bytes(int threads, int stash, int ahead) {
    return static_cast<size_t>(stash + ahead) * threads * 16;
}
// @endregion hold-kernel

template <typename T, int P>
static LaunchStep make_hold_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    const SoftmaxProblem& p = a.problem;
    auto* kernel = best_hold_kernel<T, P>;
    const int blocks = c.cluster, teams = c.grid_teams();
    const int vec = vec_of(p.dtype);
    const int64_t slice = blocks < 1 ? 0 : slice_packs(p.cols / vec, blocks);
    // Warp 0 of the last block holds the edges, and its first `blocks` threads read the slots.
    if (a.workspace == nullptr || blocks < 1 || blocks > c.threads || teams > kMaxGridTeams ||
        p.rows > 0x7fffffff || p.cols > 0x7fffffff || c.stash < 0 || c.ahead < 0 ||
        (c.stash == 0 && c.ahead > 0) || !valid_threads(c.threads, kHoldMaxThreads) ||
        slice > int64_t{c.threads} * (P + c.stash) || !same_frames(a)) {
        *err = cudaErrorInvalidValue;
        return {};
    }
    return slots_launch("best_hold", kernel, hold_stash_bytes(c.threads, c.stash, c.ahead), a, c,
                        err, c.stash, c.ahead);
}

template <typename T>
static LaunchStep hold_step_of(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    if (c.packs == 8) return make_hold_step<T, 8>(a, c, err);
    *err = cudaErrorInvalidConfiguration;
    return {};
}

LaunchStep hold_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    return for_dtype(
        a.problem.dtype,
        [&](auto t) { return hold_step_of<typename decltype(t)::type>(a, c, err); },
        [&] { return rejected(err, cudaErrorInvalidValue); });
}

}  // namespace best
}  // namespace sml
