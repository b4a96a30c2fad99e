// best's path for rows past what the grid kernel holds (fp32 N > 1081344 on 132 SMs) while the
// GPU's registers and shared memory still hold one row per team: the held grid. And its launch.
#include <algorithm>
#include <type_traits>

#include "kernels/best/launch.cuh"
#include "kernels/best/reduce.cuh"
#include "kernels/best/slots.cuh"

namespace sml {
namespace best {

// @region hold-kernel: rows as long as the chip -- each team holds one row or two, swapped in place
// The grid kernel keeps a block's slice of LAG + AHEAD + 1 rows on its SM, so it stops where
// five slices no longer fit. Two passes past it read the row twice (55-72% of copy). Here a
// team of blocks (one or two an SM) holds exactly one row at a time, in registers (PACKS = 8
// packs a thread; 6 for 16-bit rows whose blocks run alone on their SMs, whose conversions need
// registers of their own) and shared memory (`stash` packs a thread), and swaps it in place: as a
// thread stores a pack of row r it loads the same pack of row r + 1 into the register or
// shared-memory place that pack just left. So the team needs room for one row, not five, and reads
// it once. In step r a block
//   1. takes the (max, sum) of its register packs of row r with step 6's running rule: their
//      loads went out first, so they land while the cp.async copies into shared memory fly,
//   2. takes in those copies, each half as soon as it has landed,
//   3. publishes that pair in the row's slot (slots.cuh) and merges the team's slots, and while
//      it waits, asks L2 for its first `prefetch` places of row r + 1,
//   4. stores row r, each pack followed by the load of row r + 1's pack into its place.
// Between 1 and 4 the team's loads and stores stop: it waits for its last loads and for the
// slowest block of the team. The prefetch gives DRAM work meanwhile, and step 4's first loads
// find their packs in L2. Several teams, each on every teams-th row, fill that time with
// their own traffic; one block of 1024 threads an SM, so each block has its SM to itself and a
// larger share of the L2 to prefetch into.
// With HELD = 2 a team holds two rows, each in half the places (3 of PACKS = 6 in registers):
// a block takes row r + 1's (max, sum) and publishes it, and only then merges row r's slots,
// published a whole store phase before, and stores row r, refilling its places from row r + 2.
// So a block waits only where another block of its team is a whole store phase behind it, and
// the team's loads and stores stop only for the last loads of row r + 1. The dispatcher takes
// it where two rows fit two teams or more (or one, where one row a team would run in two).
// A row's packs are counted from its first 128-byte line, so every warp's loads are whole
// sectors wherever the row starts. The values before that line and after the last whole pack
// (fewer than a line and a pack) are the edges: warp 0 of the team's last block holds them, a
// few values a lane, read and written one by one. So output rows must sit at their input rows'
// offsets from 16 bytes (the launch checks it), and a row of 2^31 values or more is refused.
// A row longer than the whole GPU holds (fp32 N > 11894784 on an H100) takes the same steps
// with STREAM: each thread holds what its places hold (PACKS = 6 in registers, which leaves
// registers for the loops below), and reads the packs past them from memory twice: for the
// (max, sum) while the team merges the row before (its DRAM is idle then), and in step 4 for the
// store. The row costs its held part once and the rest twice, where two passes read all of it
// twice.
// A thread's shared-memory place is its own, read and refilled by it alone: no barrier guards
// it. Its copy for the next row is issued after the store of the value read from it, and a warp
// issues in order, so the copy cannot land before the read.
template <typename T, int PACKS, bool STREAM, int HELD>
__global__ void __launch_bounds__(kHoldMaxThreads)
    best_hold_kernel(const T* __restrict__ in, T* __restrict__ out, int rows, int64_t cols,
                     int64_t in_stride, int64_t out_stride, uint64_t* __restrict__ slots, int teams,
                     int stash, int prefetch) {
    static_assert(HELD == 1 || (HELD == 2 && !STREAM && PACKS % 2 == 0));
    constexpr int V = Vec<T>::kSize;
    constexpr int kLine = 128 / static_cast<int>(sizeof(T));  // values in a 128-byte line
    constexpr int kEdges = (kLine + V + 31) / 32;  // edge values a lane of warp 0 may hold
    constexpr int R = PACKS / HELD;                // a row's packs in registers
    extern __shared__ uint4 stashed[];             // [stash][blockDim.x]
    __shared__ MaxSum warp_sums[32];               // the block's warps' (max, sum) of the row
    __shared__ MaxSum warp_slots[32];              // each slot warp's merge of its 32 slots
    __shared__ MaxSum warp_streamed[32];  // STREAM: each warp's (max, sum) of its streamed packs
    const int n = static_cast<int>(cols);
    // Teams as in the grid kernel (join_team, slots.cuh): team t takes rows t, t + teams, ...
    const Team my = join_team(teams, rows, in, out, in_stride, out_stride, slots);
    const int blocks = my.blocks, rank = my.rank;
    const int64_t slot_stride = my.slot_stride;
    const int threads = static_cast<int>(blockDim.x), tid = static_cast<int>(threadIdx.x);
    const int lane = tid % 32, warp = tid / 32, warps = threads / 32;
    const int slot_warps = (blocks + 31) / 32;
    const bool edge_warp = rank == blocks - 1 && warp == 0;
    // The blocks' places interleave: place p of the block is the row's packs
    // [(p * blocks + rank) * threads, + threads), so at any moment the whole team reads and
    // writes one stretch of the row, as a copy kernel does. A thread's place p is pack
    // first_q + p * stride of every row.
    const int first_q = rank * threads + tid, stride = blocks * threads;
    const int row_stash = stash / HELD;  // a row's places in shared memory
    const int held_most = R + row_stash;

    // Where row r lies: its values before the first 128-byte line (`lead`), its whole packs from
    // there (`packs`), how many of them this thread holds (`count`, its places 0..count-1) and
    // how many are its own (`all`; past `count` only with STREAM).
    struct Row {
        const T* in;
        T* out;
        int lead, packs, count, all;
    };
    auto row_at = [&](int r) {
        Row w;
        w.in = in + r * in_stride;
        w.out = out + r * out_stride;
        const auto offset = static_cast<int>(reinterpret_cast<uintptr_t>(w.in) % 128);
        w.lead = min(n, (128 - offset) % 128 / static_cast<int>(sizeof(T)));
        w.packs = (n - w.lead) / V;
        w.all = max(0, (w.packs - first_q + stride - 1) / stride);
        w.count = min(held_most, w.all);
        return w;
    };
    const Row none{nullptr, nullptr, 0, 0, 0, 0};
    // Edge value k of a lane of warp 0: its index in the row, or -1 where it holds none.
    auto edge_index = [&](const Row& w, int k) {
        const int e = lane + 32 * k;
        const int after = e - w.lead;  // past the whole packs
        if (e < w.lead) return e;
        return after < n - w.lead - w.packs * V ? w.lead + w.packs * V + after : -1;
    };
    // Shared-memory place s of buffer j (HELD rows, each in a buffer of its own).
    auto place = [&](int j, int s) { return &stashed[(j * row_stash + s) * threads + tid]; };
    // A row's copies into shared memory go in two cp.async groups, split at this place.
    auto half_of = [&](const Row& w) { return max(0, w.count - R) / 2; };
    auto pack_in = [&](const Row& w, int p) {
        return reinterpret_cast<const uint4*>(w.in + w.lead + (first_q + p * stride) * V);
    };
    auto pack_out = [&](const Row& w, int p) {
        return reinterpret_cast<uint4*>(w.out + w.lead + (first_q + p * stride) * V);
    };

    // STREAM: the packs past a thread's places, kStreamed at a time, taken by `use` in order.
    constexpr int kStreamed = 1;
    auto stream = [&](const Row& w, auto use) {
        for (int p = held_most; p < w.all; p += kStreamed) {
            uint4 y[kStreamed];
#pragma unroll
            for (int k = 0; k < kStreamed; ++k)
                if (p + k < w.all) y[k] = *pack_in(w, p + k);
#pragma unroll
            for (int k = 0; k < kStreamed; ++k)
                if (p + k < w.all) use(p + k, y[k]);
        }
    };

    // The block's first `places` places of row w, into L2 by one warp (packs.cuh): place p of
    // all its threads is `threads` packs from rank * threads + p * stride, cut at the row's end.
    auto prefetch_places = [&](const Row& w, int places) {
        for (int p = 0; p < places; ++p) {
            const int start = rank * threads + p * stride;
            const int end = min(w.packs, start + threads);
            if (start < end)
                prefetch_l2(w.in + w.lead + int64_t{start} * V,
                            static_cast<unsigned>(end - start) * 16u, lane);
        }
    };

    uint4 x[HELD][R];  // buffer j's register packs
    float edge[HELD][kEdges];
    Row held[HELD];  // the row in each buffer
    // Row w into buffer J's places, when nothing of another row is left in them.
    auto load = [&](const Row& w, auto J) {
        constexpr int j = decltype(J)::value;
#pragma unroll
        for (int p = 0; p < R; ++p)
            if (p < w.count) x[j][p] = *pack_in(w, p);
        const int half = half_of(w);
        for (int s = 0; s < half; ++s) copy_async16(place(j, s), pack_in(w, R + s));
        copy_async_commit();
        for (int s = half; s < w.count - R; ++s) copy_async16(place(j, s), pack_in(w, R + s));
        copy_async_commit();
        if (edge_warp) {
#pragma unroll
            for (int k = 0; k < kEdges; ++k) {
                const int e = edge_index(w, k);
                edge[j][k] = e >= 0 ? to_float(w.in[e]) : kNegInf;
            }
        }
    };

    // @region hold-step: a row's (max, sum), then its store, each pack refilled from the next row
    // 1-2. This thread's (max, sum) of the row in buffer J, its packs taken in the order their
    // loads went out: the register packs while the copies are still landing, then each half of
    // the copies (two cp.async groups, the only ones in flight) once it has landed.
    auto max_sum = [&](auto J) {
        constexpr int j = decltype(J)::value;
        const Row& w = held[j];
        MaxSum mine{kNegInf, 0.0f};
#pragma unroll
        for (int p = 0; p < R; ++p)
            if (p < w.count) absorb_pack<T>(mine, x[j][p]);
        if (edge_warp) absorb(mine, edge[j], kEdges);
        const int half = half_of(w);
        copy_async_wait_all_but<1>();
        for (int s = 0; s < half; ++s) absorb_pack<T>(mine, *place(j, s));
        copy_async_wait_all_but<0>();
        for (int s = half; s < w.count - R; ++s) absorb_pack<T>(mine, *place(j, s));
        return mine;
    };
    // STREAM: the (max, sum) of the packs of row r it does not hold, taken before step 1 (for row
    // r + 1, while the team merges row r's slots: the team's DRAM is otherwise idle then). Kept
    // per warp, by its lane 0, in shared memory: registers are what the held packs need.
    auto stream_max_sum = [&](const Row& w) {
        MaxSum mine{kNegInf, 0.0f};
        stream(w, [&](int, const uint4& v) { absorb_pack<T>(mine, v); });
        const MaxSum m = warp_merge(mine);
        if (lane == 0) warp_streamed[warp] = m;
    };
    // 3. The block's pair of row r into the row's slot (by warp 0, which then asks L2 for the
    // block's first `prefetch` places of row r + 1).
    auto publish_row = [&](int r, const MaxSum& mine) {
        const MaxSum w = warp_merge(mine);
        if (lane == 0) warp_sums[warp] = STREAM ? merge(w, warp_streamed[warp]) : w;
        __syncthreads();
        if (warp == 0) {
            const MaxSum b = warp_merge(lane < warps ? warp_sums[lane] : MaxSum{kNegInf, 0.0f});
            if (lane == 0) publish(&slots[r * slot_stride + rank], b);
            if (r + 1 < rows) prefetch_places(row_at(r + 1), prefetch);
        }
    };
    // Row r's (max, sum) over the team: its slots merged by the first warps. warp_sums and
    // warp_slots are next written after a later row's step 2, which no warp reaches before every
    // warp has read them (warp 0 before this barrier, all after it).
    auto merge_row = [&](int r) {
        if (warp < slot_warps) {
            const MaxSum v = tid < blocks ? wait_for_slot(&slots[r * slot_stride + tid])
                                          : MaxSum{kNegInf, 0.0f};
            const MaxSum m = warp_merge(v);
            if (lane == 0) warp_slots[warp] = m;
        }
        __syncthreads();
        return warp_merge(lane < slot_warps ? warp_slots[lane] : MaxSum{kNegInf, 0.0f});
    };
    // 4. Store row r from buffer J; load row r_next into each place as it is freed.
    auto store_row = [&](auto J, const MaxSum& row, int r_next) {
        const bool more = r_next < rows;
        const Row next = more ? row_at(r_next) : none;
        constexpr int j = decltype(J)::value;
        const Row& cur = held[j];
        const float inv = 1.0f / row.s;
#pragma unroll
        for (int p = 0; p < R; ++p) {
            if (p < cur.count) {
                float y[V];
                normalise<T>(x[j][p], row.m, inv, y);
                store16(pack_out(cur, p), pack<T>(y));
            }
            if (p < next.count) x[j][p] = *pack_in(next, p);
        }
        // The copies into shared memory go in two groups, split where step 1 will split them.
        const int next_half = half_of(next), places = cur.count - R;
        const int passes = max(places, next.count - R);
        for (int s = 0; s < passes; ++s) {
            if (s == next_half) copy_async_commit();
            if (s < places) {
                float y[V];
                normalise<T>(*place(j, s), row.m, inv, y);
                store16(pack_out(cur, R + s), pack<T>(y));
            }
            if (R + s < next.count) copy_async16(place(j, s), pack_in(next, R + s));
        }
        if (next_half >= passes) copy_async_commit();  // not reached in the loop
        copy_async_commit();
        // STREAM: the packs it does not hold, read a second time, while the next row's loads fly.
        if constexpr (STREAM) {
            stream(cur, [&](int p, const uint4& v) {
                float y[V];
                normalise<T>(v, row.m, inv, y);
                store16(pack_out(cur, p), pack<T>(y));
            });
        }
        if (edge_warp) {
#pragma unroll
            for (int k = 0; k < kEdges; ++k) {
                const int e = edge_index(cur, k);
                if (e >= 0) cur.out[e] = from_float<T>(ex2((edge[j][k] - row.m) * kLog2e) * inv);
                const int f = more ? edge_index(next, k) : -1;
                edge[j][k] = f >= 0 ? to_float(next.in[f]) : kNegInf;
            }
        }
        held[j] = next;
    };
    // One step, row r in buffer J. One row held (HELD = 1): its (max, sum) and publish, the
    // team's merge, its store. Two rows held: the other buffer's row r + 1 has landed; its
    // (max, sum) is published, then row r, published a step ago, is merged and stored. So a
    // block waits on its team only where another block is a whole store phase behind it.
    auto step = [&](auto J, int r) {
        constexpr int j = decltype(J)::value, k = (j + HELD - 1) % HELD;
        const int ahead = r + HELD - 1;  // the row published in this step
        if (ahead < rows) {
            const MaxSum mine = max_sum(std::integral_constant<int, k>{});
            publish_row(ahead, mine);
        } else {
            __syncthreads();  // as publish_row's barrier: warp_slots was read by every warp
        }
        if constexpr (STREAM) {
            if (r + 1 < rows) stream_max_sum(row_at(r + 1));
        }
        const MaxSum row = merge_row(r);
        store_row(J, row, r + HELD);
    };

    using B0 = std::integral_constant<int, 0>;
    held[0] = rows > 0 ? row_at(0) : none;
    if (rows > 0) load(held[0], B0{});
    if constexpr (STREAM) {
        if (rows > 0) stream_max_sum(held[0]);
    }
    if constexpr (HELD == 1) {
        for (int r = 0; r < rows; ++r) step(B0{}, r);
    } else {
        using B1 = std::integral_constant<int, 1>;
        // Row 0 published before the first step, row 1 loaded behind it.
        if (rows > 0) {
            publish_row(0, max_sum(B0{}));
            __syncthreads();  // warp 0 has read warp_sums before step 0 writes it again
        }
        held[1] = rows > 1 ? row_at(1) : none;
        if (rows > 1) load(held[1], B1{});
        for (int r = 0; r < rows; r += 2) {
            step(B0{}, r);
            if (r + 1 < rows) step(B1{}, r + 1);
        }
    }
    // @endregion hold-step
}

// Shared memory of the held grid: its stash, `stash` packs a thread.
constexpr size_t hold_stash_bytes(int threads, int stash) {
    return static_cast<size_t>(stash) * threads * 16;
}
// @endregion hold-kernel

template <typename T, int P, bool STREAM, int HELD = 1>
static LaunchStep make_hold_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    const SoftmaxProblem& p = a.problem;
    auto* kernel = best_hold_kernel<T, P, STREAM, HELD>;
    const int blocks = c.cluster, teams = c.grid_teams();
    const int vec = vec_of(p.dtype);
    const int64_t slice = blocks < 1 ? 0 : slice_packs(p.cols / vec, blocks);
    // Warp 0 of the last block holds the edges, and its first `blocks` threads read the slots.
    if (a.workspace == nullptr || blocks < 1 || blocks > c.threads || teams > kMaxGridTeams ||
        p.rows > 0x7fffffff || p.cols > 0x7fffffff || c.stash < 0 ||
        !valid_threads(c.threads, kHoldMaxThreads) ||
        (!STREAM && slice > int64_t{c.threads} * c.held_places()) || c.prefetch < 0 ||
        c.prefetch > P || !same_frames(a)) {
        *err = cudaErrorInvalidValue;
        return {};
    }
    return slots_launch("best_hold", kernel, hold_stash_bytes(c.threads, c.stash), a, c, err,
                        c.stash, c.prefetch);
}

// Packs in registers: kHoldPacks or kStreamedHoldPacks (16-bit rows' count,
// hold_register_packs), or kStreamedHoldPacks with Config::stream (shapes.h). Two rows a team
// (Config::held) split kStreamedHoldPacks between them: on 8 the kernel spilled.
template <typename T>
static LaunchStep hold_step_of(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    const int held = c.held_rows();
    if (c.stream == 0 && held == 1 && c.packs == kHoldPacks)
        return make_hold_step<T, kHoldPacks, false>(a, c, err);
    if (c.stream == 0 && held == 1 && c.packs == kStreamedHoldPacks)
        return make_hold_step<T, kStreamedHoldPacks, false>(a, c, err);
    if (c.stream == 1 && held == 1 && c.packs == kStreamedHoldPacks)
        return make_hold_step<T, kStreamedHoldPacks, true>(a, c, err);
    if (c.stream == 0 && held == 2 && c.packs == kStreamedHoldPacks)
        return make_hold_step<T, kStreamedHoldPacks, false, 2>(a, c, err);
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
