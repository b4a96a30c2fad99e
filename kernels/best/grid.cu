// best's path for rows longer than a 16-block cluster holds (fp32 N up to 1081344 on 132 SMs):
// a grid with one block per SM (and team), each holding a slice of every row, the blocks meeting
// through (max, sum) slots in global memory (slots.cuh). And its launch.
#include <algorithm>

#include "kernels/best/launch.cuh"
#include "kernels/best/reduce.cuh"
#include "kernels/best/row_slice.cuh"
#include "kernels/best/slots.cuh"

namespace sml {
namespace best {


// @region grid-kernel: rows longer than a cluster holds -- every SM holds a slice of every row
// A cluster stops at 16 SMs, and on an H100 seven 16-SM clusters fit at once: 112 of 132 SMs
// (bench/cluster_occupancy.cu). Here every block of the grid (all SMs) owns one slice of *every*
// row and meets the others through the slots above. The whole grid is resident (a cooperative
// launch guarantees it), so blocks can wait for each other. What makes it fast:
//   - A block finishes a row LAG steps after reducing it, and the slots it merges were read
//     during the step before: it never waits for a row it has just published (an L2 round trip).
//   - The next rows' loads go to shared memory by cp.async, whose groups are waited for in
//     order, oldest first (cp.async.wait_group AHEAD: all but the AHEAD newest rows have
//     landed). In registers, waiting for row i would also wait for the row just issued: a warp
//     waits on loads through a few scoreboards that the compiler shares among them.
//   - One barrier a step: warp 0 publishes after it, and every warp merges the few slot-warp
//     results itself, so no warp waits while one merges alone.
//   - The grid may be two *teams*, each a block per SM on every other row, so an SM has a second
//     block to run while one waits (registers allow two teams up to 256 threads a block).
// In step i a block
//   1. starts the copies of row i + AHEAD into its shared-memory ring (AHEAD rows in flight),
//   2. reduces row i, whose copies have landed: each thread reads back only the packs it copied
//      itself, so no barrier is needed; the exps stay in a register ring of LAG + 1 rows. The
//      first K threads' slots of row f = i - LAG, read during the step before, are merged by
//      warp (a lane whose slot is still unwritten polls it),
//   3. passes the step's barrier; warp 0 merges the warps' (max, sum) of row i and publishes it,
//      every warp merges the slot warps' results of row f and stores its slice of row f,
//   4. reads row f + 1's slots (one per thread, for the first K threads) for the next step.
// The dispatcher takes a lag of 4 rows (3 on the kWide kernel, below) and AHEAD 2 (1 where the
// GPU's shared memory holds no more, as on a T4); lag 2 and AHEAD 4 are built for the tuning
// harness.
// Every block holds the same slots of every row: its slice [begin, begin + size) of the row's
// main packs, so a thread's slots begin + threadIdx.x + p * threads never move from row to row
// and are worked out once (worked out per row, addresses and bounds took much of the kernel's
// issue slots, which it is short of).
// A row that starts off 16 bytes, or ends inside a pack, has edge packs: its first and last
// packs hold other rows' bytes. The main packs are the ones that lie wholly inside a row wherever
// in its frame the row starts, from its first 128-byte line past slot 0, so the block's main
// threads run exactly the code of whole rows, with sector-aligned loads. The other slots -- the
// lead before them, and the few past them that may hold the row's last values -- go to one
// extra warp, the last of each block: in the last block it holds one a lane, in the others
// nothing, and passes the barrier. (Per-pack predicates on every warp instead cost each warp
// half as many instructions again.) An edge pack is copied whole with the others, except at the
// tensor's own first and last rows, where the bytes around the row may lie outside the tensor,
// and masked once it has landed; its outputs are stored one by one. So the output's rows must
// sit at the input's offsets in their frames (the launch checks it: otherwise two passes).
// kWhole (chosen at launch): every row is whole 128-byte lines on 16 bytes (grid_whole_lines),
// so there is no edge warp. Rows of whole packs off a line take the edge warp too: it starts the
// main warps' loads on a line, where the kWhole form would touch a sector more a warp.
// The edge warp takes a place of the main threads' 512 at 4 packs a thread, which then hold 1920
// packs a block, not 2048. Rows of 1920 to 2048 a block [fp32 N ~ 1013800-1081300] take the
// kWide kernel, which has the warp on top: 17 warps, so ptxas gives each thread 96 registers,
// not 128 (a quarter of the SM's registers for 5 of them), and the ring of lag 4 spills. So kWide
// is built for lag 3 only. (120 registers, which 17 warps would seem to fit, leave no block
// resident: the launch is refused.) Its 16-bit forms still spill a little (28 bytes a thread).
template <typename T, int PACKS, int LAG, int AHEAD, bool kWhole, bool kWide = false>
__global__ void __launch_bounds__(grid_max_threads(PACKS, kWide),
                                  grid_min_blocks(PACKS, LAG, sizeof(T)))
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
    // The grid is `teams` independent teams (join_team, slots.cuh): from here on, this block's.
    const Team my = join_team(teams, rows, in, out, in_stride, out_stride, slots);
    const int blocks = my.blocks, team = my.team, rank = my.rank;
    const int64_t slot_stride = my.slot_stride;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
    const int slot_warps = (blocks + 31) / 32;
    const bool slot_reader = static_cast<int>(threadIdx.x) < blocks;
    const bool edge_warp = !kWhole && warp == warps - 1;
    const int threads = static_cast<int>(blockDim.x) - (kWhole ? 0 : 32);  // the main threads
    // This main thread's slots, counted from the row's first main pack: q_p = lead + first_q +
    // p * threads, for p < slot_count. A whole row's main packs are all of it (lead 0). Another
    // row's are n / V - kLine packs from its first 128-byte line past slot 0 (lead 1 to kLine),
    // which lie wholly inside the row wherever it starts. (From slot 1 instead, the warps' loads
    // of rows 16 bytes off a 32-byte sector would each touch one sector more.)
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

    // @region grid-step: the steps -- copies of row i + AHEAD, reduce row i, finish row i - LAG
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
    // @endregion grid-step
}

// Shared memory of the grid kernel: its ring, AHEAD + 1 rows of `packs` packs a thread.
constexpr size_t grid_staged_bytes(int threads, int packs, int ahead) {
    return static_cast<size_t>(ahead + 1) * packs * threads * 16;
}
// @endregion grid-kernel

// Whether the rows run without the edge warp (the kWhole form). Config's `edges`: 1 (tuning), the
// edge warp on every row; -1 (the dispatcher's choice for 16-bit rows that would need kWide, or
// tuning), none on rows of whole packs.
static bool grid_whole(const LaunchArgs& a, const Config& c) {
    const int vec = vec_of(a.problem.dtype);
    return c.edges < 0 ? rows_aligned(a) && a.problem.cols % vec == 0
                       : grid_whole_lines(a.problem.cols, vec, rows_aligned(a)) && c.edges == 0;
}

// The grid kernel for rows `whole` or not, at `threads`: rows with edges on more threads than
// grid_max_threads(P) take the kWide kernel, built for P = 4 and lag 3 only (else nullptr).
template <typename T, int P, int LAG, int AHEAD>
static auto grid_kernel_of(bool whole, int threads) {
    auto* kernel = whole ? best_grid_kernel<T, P, LAG, AHEAD, true>
                         : best_grid_kernel<T, P, LAG, AHEAD, false>;
    if (whole || threads <= grid_max_threads(P)) return kernel;
    if constexpr (P == 4 && LAG == 3 && AHEAD == 2)
        return best_grid_kernel<T, P, LAG, AHEAD, false, true>;
    return static_cast<decltype(kernel)>(nullptr);
}

template <typename T, int P, int LAG, int AHEAD>
static LaunchStep make_grid_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    const SoftmaxProblem& p = a.problem;
    const int vec = vec_of(p.dtype);
    const bool whole = grid_whole(a, c);
    const bool wide = !whole && c.threads > grid_max_threads(P);
    auto* kernel = grid_kernel_of<T, P, LAG, AHEAD>(whole, c.threads);
    if (kernel == nullptr) return rejected(err, cudaErrorInvalidConfiguration);
    const int blocks = c.cluster, teams = c.grid_teams();
    // The kernel's slices, as best_grid_kernel cuts them: the row's main packs (all of them for
    // whole rows), which a block's main threads x P packs must hold; the slot readers are main
    // threads. Rows with edges need their output rows at the input rows' offsets from 16 bytes.
    const int main_threads = c.threads - (whole ? 0 : 32);
    const int64_t slice = blocks < 1 ? 0 : slice_packs(grid_main_packs(p.cols, vec, whole), blocks);
    if (a.workspace == nullptr || blocks < 1 || blocks > main_threads || teams > kMaxGridTeams ||
        p.rows > 0x7fffffff || !valid_threads(c.threads, grid_max_threads(P, wide)) ||
        slice > int64_t{main_threads} * P || (!whole && !same_frames(a))) {
        *err = cudaErrorInvalidValue;
        return {};
    }
    return slots_launch("best_grid", kernel, grid_staged_bytes(c.threads, P, AHEAD), a, c, err);
}

// The grid kernel's instantiations: `use` is called as use(Shape<P, LAG, AHEAD>{}) for the
// configuration's packs, lag and rows ahead, or `none()` where none is built for them.
template <int P, int LAG, int AHEAD>
struct Shape {};
template <typename Use, typename None>
static auto with_grid_shape(const Config& c, Use&& use, None&& none) {
    const int ahead = c.grid_ahead();
    auto lags = [&](auto packs) {
        constexpr int P = decltype(packs)::value;
        if (c.lag == 2 && ahead == 2) return use(Shape<P, 2, 2>{});
        if (c.lag == 2 && ahead == 4) return use(Shape<P, 2, 4>{});
        if (c.lag == 4 && ahead == 2) return use(Shape<P, 4, 2>{});
        if constexpr (P == 4) {
            // The grid in teams where the opt-in holds only a short ring (a T4).
            if (c.lag == 4 && ahead == 1) return use(Shape<P, 4, 1>{});
            // The kWide kernel's (lag 4 spills there).
            if (c.lag == 3 && ahead == 2) return use(Shape<P, 3, 2>{});
        }
        if (c.lag == 4 && ahead == 4) return use(Shape<P, 4, 4>{});
        return none();
    };
    if (c.packs == 1) return lags(std::integral_constant<int, 1>{});
    if (c.packs == 2) return lags(std::integral_constant<int, 2>{});
    if (c.packs == 4) return lags(std::integral_constant<int, 4>{});
    if (c.packs == 8) return lags(std::integral_constant<int, 8>{});
    return none();
}

template <typename T, int P, int LAG, int AHEAD>
static LaunchStep grid_step_for(const LaunchArgs& a, const Config& c, cudaError_t* err,
                                Shape<P, LAG, AHEAD>) {
    return make_grid_step<T, P, LAG, AHEAD>(a, c, err);
}
template <typename T, int P, int LAG, int AHEAD>
static GridKernel grid_kernel_for(bool whole, const Config& c, Shape<P, LAG, AHEAD>) {
    return {reinterpret_cast<const void*>(grid_kernel_of<T, P, LAG, AHEAD>(whole, c.threads)),
            grid_staged_bytes(c.threads, P, AHEAD)};
}

LaunchStep grid_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    if (c.held_grid()) return hold_step(a, c, err);  // hold.cu
    return for_dtype(
        a.problem.dtype,
        [&](auto t) {
            using T = typename decltype(t)::type;
            return with_grid_shape(
                c, [&](auto shape) { return grid_step_for<T>(a, c, err, shape); },
                [&] { return rejected(err, cudaErrorInvalidConfiguration); });
        },
        [&] { return rejected(err, cudaErrorInvalidValue); });
}

GridKernel grid_kernel(const LaunchArgs& a, const Config& c) {
    if (c.held_grid()) return {};
    return for_dtype(
        a.problem.dtype,
        [&](auto t) {
            using T = typename decltype(t)::type;
            return with_grid_shape(
                c, [&](auto shape) { return grid_kernel_for<T>(grid_whole(a, c), c, shape); },
                [] { return GridKernel{}; });
        },
        [] { return GridKernel{}; });
}

}  // namespace best
}  // namespace sml
