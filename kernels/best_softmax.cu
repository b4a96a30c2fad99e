// Step 8 -- best: one entry that picks the fastest kernel for each N and dtype.
//
// The idea
//   Steps 1-6 each teach one idea and pay for it somewhere. `best` keeps only what pays on an
//   H100 and chooses by row length, like OneFlow's and PyTorch's softmax do. Sizes are in 16-byte
//   packs (4 fp32 or 8 fp16/bf16 values), so every dtype takes the shape of an fp32 row of the
//   same bytes. fp32 numbers on an H100 (choose() below has the exact rule):
//
//     N (fp32)        path                                               DRAM traffic
//     <= 512          tile (rows back to back, neither a power of two    read MN, write MN
//                     of 16-byte packs on 16 bytes nor fp32 whole
//                     32-byte sectors): 32-74 KB of rows move between
//                     DRAM and shared memory as packs, 1..32 lanes a
//                     row compute there
//     <= 256          group: 1..32 lanes per row, 2 rows per group,      read MN, write MN
//                     one warp per block (the other short rows; fp32
//                     rows of whole sectors below 512 too, 1 KB a warp)
//     <= 32768        block per row, sized to the row in steps of a      read MN, write MN
//                     warp, 2, 4 or 8 packs a thread: whichever keeps
//                     the most rows resident on an SM
//     <= 131072       cluster of 2..8 blocks of <= 512 threads, 8 packs, read MN, write MN
//                     the size that keeps the most rows resident
//     <= 262144       cluster of 16 blocks of <= 512 threads; where      read MN, write MN
//                     registers keep only two an SM, of fewer threads
//                     with the rest in shared memory, three an SM
//     <= ~700000      stash: the same 16 x 512 threads, 8 packs in       read MN, write MN
//                     registers (16-bit: 6), the rest of each slice in
//                     shared memory, while two blocks fit an SM (whole
//                     rows of 2 MB: the grid; from 18 packs a thread in
//                     all, the grid of 8 packs in two teams where it
//                     fits twice an SM)
//     <= 1081344      grid: one block per SM, each holding a slice of    read MN, write MN
//                     every row; blocks meet through (max, sum) slots
//                     in global memory, 3-4 rows behind the row they
//                     reduce; a row's edge packs go to a warp of its own
//     <= 11894784     held grid: teams of blocks (one or two an SM),     read MN, write MN
//                     each holding one row in registers and shared
//                     memory; storing a value of row r frees its place
//                     for row r + 1's, so a team needs room for one row
//     longer          the held grid in one team, every place full; the   read MN + the part
//                     part of each row past its places is read twice     past the places,
//                     (once for the row's (max, sum), once to store it)  write MN
//     (fallback)      two-pass online over a cluster of up to 16 blocks, read 2MN (part of
//                     with L2 eviction policies on its two reads, for    the second from L2),
//                     rows of 2^31 values or more and GPUs that cannot   write MN
//                     keep a held grid resident
//
//   fp16 and bf16 rows take the path of the fp32 row of the same bytes, except four: where one
//   block would be the only block on its SM, a 16-bit row (twice the values per byte, so twice
//   the arithmetic) takes a cluster that keeps more rows an SM [fp16 N ~ 36000-57000]; on
//   16-block clusters it takes a third block an SM with up to 10 packs a thread in all, fp32 up
//   to 9 [fp16 N ~ 328000-410000, fp32 ~ 164000-184000]; on the grid, whole packs off a line
//   skip the edge warp where it would cost the block its registers, other rows there take the
//   held grid [fp16 N ~ 2027600-2162600], and so do rows with edges where the grid would run one
//   team of under 12 warps [fp16 N ~ 1360000-1487000]. Their stash shapes differ only in where
//   a thread's packs sit: 6 in registers rather than 8, the rest in shared memory.
//
//   On a GPU whose SMs each move more bytes a second than an H100's, some shapes take more
//   warps: the grid in one team (on an H200 the held grid takes all its rows, fp32 too), the
//   grid in two teams, and group blocks whose one warp holds under 1 KB of rows times that
//   share; and the held grid takes the stash's rows, and rows of 16-block clusters of two
//   blocks an SM [on an H200 fp32 N ~ 184000-1080000, fp16 ~ 393000-491500, where its teams
//   use as many SMs as the clusters]. One block a row keeps more rows an SM
//   too: fp32 rows take 2 packs a thread only where that keeps 2 rows an SM times the share,
//   and take a cluster where one block would be alone on its SM, as 16-bit rows do.
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
//     handles two rows so every thread has two loads in flight.
//   - Short rows that are not whole packs are mostly edges: 22 fp16 values (44 bytes) touch four
//     packs, and only one or two of them are whole. Loaded row by row, the edges go value by
//     value, and such rows ran far below copy. But a contiguous tensor's rows are one flat run
//     of memory: a block takes 32 KB or more of whole rows as one run, copies it to shared
//     memory as 16-byte packs (only the run's two ends are partial), computes each row there,
//     and writes the run back the same way. The row's alignment stops mattering
//     (docs/best-tuning.md).
//   - Every access is a 16-byte vector where possible. Rows need not be aligned: each row is
//     viewed in an "aligned frame" (its address rounded down to 16 bytes); packs wholly inside
//     the row move as vectors and only the two edge packs are masked and stored element by
//     element. On the grid path an extra warp a block holds them and the packs up to the row's
//     first 128-byte line (in every row that is not whole lines), so the other warps run the
//     code of aligned rows on whole lines.
//   - exp(x - m) is computed as exp2((x - m) * log2(e)): one FMUL plus the hardware EX2.
//     One reciprocal per row, then a multiply per element.
//   - Stores carry the streaming hint (st.global.cs): the output is never read again.
//
// Where the code is (kernels/best/; the regions a lesson can point at in brackets)
//   packs.cuh      16-byte packs: loads, stores, edge packs, cp.async   [element-io]
//   exp.cuh        one exp per element; (max, sum) pairs                [one-exp]
//   reduce.cuh     group, warp, block and cluster reductions            [cluster-reduce]
//   row_slice.cuh  which packs of a row a block and its threads hold    [row-slice]
//   group.cu       the group kernel and its launches                    [group-kernel]
//   tile.cu        the tile kernel (short rows through shared memory)   [tile-kernel]
//   cluster.cu     the cluster and stash kernels and their launches     [cluster-kernel]
//   two_pass.cu    the two-pass kernel and its launches                 [two-pass-kernel]
//   slots.cuh      where the grid kernels' blocks meet                  [grid-slots]
//   grid.cu        the grid kernel and its launches                     [grid-kernel, grid-step]
//   hold.cu        the held grid and its launches                       [hold-kernel, hold-step]
//   launch.cu      plan_with; the dispatcher with this GPU's occupancy, and its fallbacks
//   shapes.h       shape arithmetic shared by this file and the kernels
// What each choice was measured against, and what was tried and not kept: docs/best-tuning.md.
//
// Valid N: any N >= 1, every dtype. Without clusters (a GPU before Hopper, or code built for
//   one) one block of up to 1024 threads holds 32768 fp32 values in registers, the rest of the
//   row in shared memory while the GPU's opt-in holds it (an A100: fp32 N <= 73728); beyond, the
//   grid kernel in teams of the blocks a row needs, while the GPU has that many SMs, else the
//   held grid, reading twice what its registers and shared memory cannot hold.
// DRAM traffic: MN read and MN written wherever the row fits on chip (up to 11894784 fp32 values
//   on 132 SMs); beyond, the part of each row past the streamed grid's places (10813440 fp32
//   values: 6 packs a thread in registers there, not 8) is read twice (fp32 N = 2^24: 1.36MN
//   read). Two passes, where they run, read 2MN, the second read partly from L2.
// Special values follow torch.softmax: a row of all -inf gives NaN; a NaN anywhere in a row
//   makes that row NaN.
//
// This file is plain C++ (no device code, no CUDA calls), so it also builds without the CUDA
// toolkit: the choice is a function of the problem and the device's limits alone.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <string>

#include "common/message.h"
#include "kernels/best/shapes.h"
#include "kernels/best_softmax.h"
#include "kernels/kernel_api.h"

namespace sml {
namespace best {

// Two passes over a cluster of one block per 8192 packs, up to 16, the first read marked
// evict_last in L2 and the second evict_first, so lines still to be read again stay in L2.
Config two_pass_for(int64_t packs, const DeviceLimits& limits) {
    Config c;
    c.path = Config::Path::kTwoPass;
    c.cluster =
        static_cast<int>(std::min<int64_t>(limits.has_clusters() ? 16 : 1, (packs + 8191) / 8192));
    c.threads = 1024;
    c.l2 = Config::kL2Policy;
    return c;
}

// The grid path's shape for a row of `cols` values, `vec` a pack: one block per SM and team, 4
// packs a thread, 2 rows of loads ahead. The block's main threads hold the row's main packs
// (all of a `whole` row, one of whole 128-byte lines: grid_whole_lines); other rows add the edge
// warp.
// Blocks of up to 256 threads [N <= 540672 on 132 SMs] run two teams, as many as the registers
// hold (2 x 256 threads x 128), so an SM has a second block to run while one waits; longer rows
// one team. The lag is 4 rows, except on the kWide kernel (over 512 threads), where it is 3.
// Over grid_max_threads: no fit.
static Config grid_for(int64_t cols, int vec, bool whole, const DeviceLimits& limits,
                       int packs = 4) {
    Config c;
    c.path = Config::Path::kGrid;
    c.cluster = std::max(1, limits.sm_count);
    c.packs = packs;
    const int64_t slice = slice_packs(grid_main_packs(cols, vec, whole), c.cluster);
    const int64_t main_threads = ((slice + packs - 1) / packs + 31) / 32 * 32;
    const int64_t slot_readers = (c.cluster + 31) / 32 * 32;  // a thread per block of a team
    const int64_t threads = std::max(main_threads, slot_readers) + (whole ? 0 : 32);
    c.threads = static_cast<int>(std::min<int64_t>(threads, 1 << 20));
    c.teams = c.threads <= 256 ? 2 : 1;
    c.lag = c.threads <= grid_max_threads(c.packs) ? 4 : 3;
    c.ahead = 2;
    return c;
}

// Without clusters, past what one block holds: the grid kernel in teams. Each row goes to the
// fewest blocks that hold its main packs at 4 a thread, in blocks of up to 512 threads (the
// grid's register budget) whose staging ring of (ahead + 1) x 4 packs a thread fits the GPU's
// opt-in shared memory; as many teams as fill the SMs, one block an SM. Fewer, larger blocks: a
// row's slot exchange is paid per block. No fit (more blocks than SMs): path stays kGroup.
// Why the grid and not two passes: the row is read once (fp32 N = 65536 under the profiles of
// 99 KB and 64 KB classes: 94-95% of copy; two passes 80%). A GPU of fewer SMs runs fewer
// teams, and its slower memory takes longer over a row, so each team's slot exchange weighs less
// there than on the H100 where it was measured.
static Config team_grid_for(int64_t cols, int vec, bool whole, const DeviceLimits& limits) {
    Config c;
    const int packs = 4, edge = whole ? 0 : 32;
    // Threads whose ring of (ahead + 1) x 4 packs fits the opt-in, less 2 KB for the kernel's
    // own shared memory. Two rows ahead, unless that leaves fewer than 512 threads a block (a
    // T4's 64 KB: 320); then one, for 480. Why: one block an SM of 10 warps is latency-bound,
    // and the edge warp's extra work showed there (fp32 rows with edges at 75-85% of copy).
    auto most_threads = [&](int ahead) {
        const int64_t ring = int64_t{ahead + 1} * packs * 16;  // staging bytes a thread
        return std::min<int64_t>(grid_max_threads(packs),
                                 (limits.smem_per_block_optin - 2048) / ring) /
               32 * 32;
    };
    const int ahead = most_threads(2) >= grid_max_threads(packs) ? 2 : 1;
    const int64_t most = most_threads(ahead);
    const int64_t main_most = most - edge;
    const int64_t main_packs = grid_main_packs(cols, vec, whole);
    if (main_most < 32) return c;
    int64_t blocks =
        std::max<int64_t>(1, (main_packs + main_most * packs - 1) / (main_most * packs));
    while (blocks <= limits.sm_count &&
           slice_packs(main_packs, static_cast<int>(blocks)) > main_most * packs)
        ++blocks;
    if (blocks > limits.sm_count || blocks > main_most) return c;
    const int64_t slice = slice_packs(main_packs, static_cast<int>(blocks));
    // Threads for the slice, and at least one per block of the team (they read its slots).
    const int64_t main_threads = (std::max((slice + packs - 1) / packs, blocks) + 31) / 32 * 32;
    c.path = Config::Path::kGrid;
    c.cluster = static_cast<int>(blocks);
    c.packs = packs;
    c.threads = static_cast<int>(main_threads + edge);
    c.teams = static_cast<int>(std::clamp<int64_t>(limits.sm_count / blocks, 1, kMaxGridTeams));
    c.lag = 4;
    c.ahead = ahead;
    return c;
}

// A held-grid block's stash at most: its share of the SM's shared memory, less 2 KB for its own.
static int64_t hold_most_stash(int threads, const DeviceLimits& limits) {
    const int64_t smem = std::min<int64_t>(limits.smem_per_block_optin,
                                           limits.smem_per_sm / hold_blocks_per_sm(threads)) -
                         2048;
    return std::max<int64_t>(0, smem / (int64_t{threads} * 16));
}

// The held grid (a grid of lag 0, hold.cu) in `teams` of `blocks` blocks, `packs` a thread in
// registers and `stash` in shared memory.
static Config held_shape(int blocks, int threads, int packs, int64_t stash, int teams) {
    Config c;
    c.path = Config::Path::kGrid;
    c.cluster = blocks;
    c.threads = threads;
    c.packs = packs;
    c.stash = static_cast<int>(stash);
    c.teams = teams;
    c.lag = 0;
    return c;
}

// The held grid's prefetch (hold.cu's step 3): while a block waits for its team's merge of row
// r, it puts its first places of row r + 1 into L2, so DRAM works through the wait and step 4's
// first loads find their packs there. As many places a thread as fill a share of the L2 across
// the grid: a quarter where one team runs, a block alone on each SM (the whole grid waits at once
// and DRAM idles); a sixth where several teams do (the other teams' traffic fills part of a
// team's wait, and their stores pass through the L2 the prefetch must survive in); a twelfth
// where an SM runs two teams' blocks (one's traffic fills the other's wait) or the row streams
// (its next row's streamed reads fill it); at most the register places, whose loads go out first.
// Why (H100, side by side, bench/results/2026-11-26/prefetch/): one team of 132 x 1024, a quarter
// (6 places) against none at fresh N, fp32 8351036 79.0 -> 87.0%, 11604235 79.8 -> 86.6, fp16
// 18244334 73.8 -> 80.1; 4 places 0.5-1.6 points below 6. Two blocks an SM in 2-9 teams, a
// twelfth (2 places): +0.2 to +2.1 at 14 of 15 N, -0.2 at fp32 N = 1280483 (9 teams); 8
// places 0.6-4.5 points below none. Streamed rows, 2 places: -0.5 to +2.1 points. Blocks of 1024
// alone on their SMs in two to ten teams (since cc1a187), a sixth (4 places) against a quarter
// (6), side by side at 11 N drawn at run time, two rounds: +0.3 to +1.3 points at all 11 (fp16
// N = 4184224 89.4 -> 90.6%); in one team -1.4 to -3.4 at all 5, and 2-5 places no faster than
// 6 at 4 more (bench/results/2026-11-28/prefetch-teams/).
// Two rows a team (Config::held): a twelfth in teams, at most a row's 3 register places; none in
// one team. Why (an H200, bench/results/2026-11-28/two-rows/, 3-tune-teams and 2-ab): in teams a
// twelfth against none +1.2 to +5.4 points at 17 of 18 N drawn at run time, -0.2 at one; in one
// team it ran 6.4 and 12.3 points slower at 2 of 5 N (fp32 N = 3302961 85.3 -> 73.0%) and
// 2.2-3.8 faster at the other 3.
int held_prefetch(const Config& c, const DeviceLimits& limits) {
    if (c.held_rows() > 1 && c.grid_teams() == 1) return 0;
    const int64_t threads = int64_t{c.cluster} * c.grid_teams() * c.threads;  // the whole grid
    const bool alone = hold_blocks_per_sm(c.threads) == 1 && c.stream == 0 && c.held_rows() == 1;
    const int64_t share = limits.l2_bytes / (!alone ? 12 : c.grid_teams() == 1 ? 4 : 6);
    return static_cast<int>(std::clamp<int64_t>(share / std::max<int64_t>(1, threads * 16), 0,
                                                c.packs / c.held_rows()));
}
static Config with_prefetch(Config c, const DeviceLimits& limits) {
    c.prefetch = held_prefetch(c, limits);
    return c;
}

// The held grid's shape for a row of `cols` values, `vec` a pack (hold.cu): 8 packs a thread in
// registers and the rest of the block's slice in shared memory, one block of 1024 threads an SM,
// in as many teams as each hold one row (or two rows a team, below). Why the most teams: a team
// stops its traffic once a row, to merge the row's slots, and the other teams' traffic fills
// that time (half as many teams ran 7-18 points slower at all seven N tried). Why one block an
// SM: each team then has its SMs to itself, and a block alone on its SM gets a quarter of the L2
// to prefetch the next row into (held_prefetch), so DRAM keeps working through the block's
// wait. Side by side with two blocks
// of 512 an SM in three to ten teams (the rule before), at 32 N drawn at run time, two rounds:
// faster at all 32, fp32 by 0.9-4.4 points (N = 3823234 in three teams 85.9 -> 90.3%), 16-bit
// by 0.9-4.8 (bench/results/2026-11-28/teams-1024/). (Before the prefetch and the interleaved
// places, two blocks of 512 an SM had won at 10 of 12 N: docs/best-tuning.md.) Why 8 packs in
// registers, not 16 at 512 threads a block: faster at all ten N tried, by 0.7-9 points. No fit
// (the row is longer than the whole GPU holds): path stays kGroup.
// 16-bit rows hold 6 of a thread's packs in registers, not 8 (hold_register_packs), where the
// stash has room for the 2 more; the teams stay as 8 packs give them. Why (H100, side by side,
// bench/results/2026-11-27/hold-six/): at 8 the 16-bit kernel spills, and a block alone on its SM
// waits for its spills; with 6, +0.5 to +7.1 points at all 9 such N (fp16 N = 13000007, one
// team, 77.7 -> 84.7%). Where 6 would leave fewer teams (9 -> 8, 8 -> 7, 2 -> 1), -0.2 to -2.9.
// Two rows a team (Config::held, hold.cu), each in 3 register packs and half the stash, in as
// many teams as hold two rows: where that is two teams or more, or one team where one row a team
// would run in two. Why: a block publishes row r + 1 before it waits for row r, published a whole
// store phase earlier, so the team no longer waits for its slowest block. Side by side with one
// row a team (an H200, bench/results/2026-11-28/two-rows/, N drawn at run time, two rounds),
// where the rule takes it: fp32 +2.9 to +8.1 points at 9 N (N = 5264342 83.9 -> 92.0%), 16-bit
// +2.2 to +9.2 at 8; tunes at other N +0.7 to +8.8 at 17 of 18 in teams, including 10 -> 4,
// 8 -> 3 and 5 -> 2 teams. Slower where the row's last place is mostly empty, with 6 teams of one
// row against 2 of two (-1.1 to -5.2 at 3 of 11 N: 7-six-teams). In one team against one row a
// team in three: -1.1 to -3.4 at 2 of 3 N, +2.1 at the third, so not there. On 8 register packs it
// spilled and ran 10-17 points slower. Not yet measured on an H100 (the same SMs and shared
// memory, so the same shapes there).
static Config hold_for(int64_t cols, int vec, const DeviceLimits& limits) {
    const int sms = std::max(1, limits.sm_count), threads = kHoldMaxThreads;
    const int64_t most_stash = hold_most_stash(threads, limits);
    // Places a thread needs for a row in `teams` teams (none fit where blocks > threads).
    auto places = [&](int teams) {
        const int blocks = sms / teams;
        return blocks > threads ? INT64_MAX
                                : (slice_packs(cols / vec, blocks) + threads - 1) / threads;
    };
    int one = 0;  // the most teams that each hold a row
    for (int teams = std::min(sms, kMaxGridTeams); teams >= 1 && one == 0; --teams)
        if (places(teams) <= kHoldPacks + most_stash) one = teams;
    if (one == 0) return Config{};
    // Two rows a team, 3 register packs and half the stash each, in as many teams as hold two
    // rows: where that is two teams or more, or one where one row a team would run in two.
    constexpr int kPairRegs = kStreamedHoldPacks / 2;
    for (int teams = one; teams >= 1; --teams) {
        const int64_t need = places(teams);
        if (need > kPairRegs + most_stash / 2) continue;
        if (teams == 1 && one > 2) break;
        Config c = held_shape(sms / teams, threads, kStreamedHoldPacks,
                              2 * std::max<int64_t>(0, need - kPairRegs), teams);
        c.held = 2;
        return with_prefetch(c, limits);
    }
    const int blocks = sms / one;
    const int64_t held = places(one);
    const int alone = hold_register_packs(vec);  // 6 in 16 bits, 8 in fp32
    const int regs = held - alone <= most_stash ? alone : kHoldPacks;
    return with_prefetch(held_shape(blocks, threads, regs, std::max<int64_t>(0, held - regs), one),
                         limits);
}

// Past what the whole GPU holds: the held grid in one team of one block of 1024 threads an SM,
// every place full, reading the rest of each thread's packs twice (Config::stream). Why: the
// row's held part is read once, where two passes read all of it twice. Why 6 packs in registers
// (kStreamedHoldPacks), where the held grid has 8: at 8 the streamed kernel spilled and ran
// 1.6-2.7 points slower at every N tried, although 6 read a little more of the row twice. Rows of
// 2^31 values or more, or more SMs than a block has threads to read slots: path stays kGroup.
static Config streamed_hold_for(int64_t cols, const DeviceLimits& limits) {
    const int threads = kHoldMaxThreads, blocks = std::max(1, limits.sm_count);
    if (cols > 0x7fffffff || blocks > threads) return Config{};
    Config c = held_shape(blocks, threads, kStreamedHoldPacks, hold_most_stash(threads, limits), 1);
    c.stream = 1;
    return with_prefetch(c, limits);
}

// The group kernel's shape for rows of `packs` packs: lanes first (shuffles are cheap), then
// packs a lane, one warp a block on an H100 (with_group_warps gives more where needed).
static Config group_for(int64_t packs) {
    Config c;
    c.path = Config::Path::kGroup;
    c.packs = 1;
    for (c.width = 1; c.width < 32 && c.width < packs;) c.width *= 2;
    while (int64_t{32} * c.packs < packs) c.packs *= 2;
    c.threads = c.group_threads();  // the default, one warp, named in describe()
    return c;
}

// Bytes of rows of `packs` packs one warp of a group block holds: its groups' rows.
static int64_t group_warp_bytes(const Config& c, int64_t packs) {
    return int64_t{c.rows_per_group()} * (32 / c.width) * packs * 16;
}

// A group block's warps: one on an H100 (or less bandwidth an SM), as measured there; elsewhere
// the fewest (at most 4) that hold 1 KB of rows a warp times the SM's share of the DRAM's
// bandwidth against an H100's (sm_bandwidth_vs_h100). Why: a block's rows are all it has
// in flight, and an SM runs at most 32 blocks, so the bytes an SM keeps in flight grow only with
// a block's warps. On an H200 (1.44 times an H100's share), side by side as libraries: rows of
// 1 KB a warp 78.7-79.4% of copy on one warp, 98.8-100.4% on two (fp32 N = 32-128, 16-bit
// N = 16-256: +19.8 to +21.5 points), fp32 N = 160 (1280 bytes) +3.8; where one warp already
// held 1.5 KB or more, two lost 0.2-0.9 (bench/results/2026-11-28/short-rows/).
static Config with_group_warps(Config c, int64_t packs, const DeviceLimits& limits) {
    const double share = sm_bandwidth_vs_h100(limits);
    if (share <= 1.0) return c;
    const int64_t warp_bytes = group_warp_bytes(c, packs);
    const double need = 1024 * share;
    const auto warps = static_cast<int>((need + warp_bytes - 1) / warp_bytes);
    c.threads = 32 * std::clamp(warps, 1, 4);
    return c;
}

// fp32 rows of whole 32-byte sectors on 16 bytes, shorter than 2 KB, back to back (N = 24, 40,
// 48, 56, 72, ..., 504, a multiple of 8: not a power of two of packs, which the group kernel
// takes anyway, and not 2 KB, where one block a row runs at copy speed): the group kernel, 1..32
// lanes x 1, 2 or 4 packs, not the tile. Why: every load and store of a row is then whole
// sectors straight from DRAM, no sector shared with the next row, as torch.softmax reads them,
// and the trip through shared memory cost the tile its last half point, where torch runs at copy
// speed (bench/results/2026-11-27/group-lines/). Rows of whole 128-byte lines first, at all 11
// such N: the group at 99.8-100.4% of copy, the tile at 99.4-99.7% (+0.1 to +0.8 points), torch
// at 99.0-100.1% (one point aside, where the copy ran slow). Then whole sectors, at 16 N drawn
// from the 46 more: -3.6 to +0.6, the loss at N = 80 (20 packs on 32 lanes, 96.0%) from the
// lanes past the row end taking load_raw's value-by-value path; with those lanes skipping it
// (packs.cuh), -0.6 to +1.0 (N = 80 99.4%, 144 and 216 99.4 -> 100.3-100.4%), against torch's
// 99.1-101.2% on such rows. Why fp32 only: 16-bit rows of the same bytes hold twice the values a
// pack, and the group's idle lanes cost them more; on whole lines they lost 0.8-12 points at
// N = 192, 320 and 576 (and gained 0.3-1.4 at the other 8), where the tile runs at 98.9-99.5%
// and torch far below. Rows of whole packs off a sector (fp32 N = 100, 116, 148, 204, 300) tied
// or lost on the group, so those stay on the tile.
static bool group_sectors(int64_t cols, DType dtype, bool aligned) {
    const int64_t bytes = cols * dtype_size(dtype);
    return dtype == DType::f32 && aligned && bytes % 32 == 0 && bytes < 2048;
}

// Their shape: group_for's, with at least 1 KB of rows a warp, so 4 rows a group where 2 hold
// less (N = 24, 40, 56, 72-120). Why: a one-warp block's rows are all it has in flight, and an
// SM runs at most 32 blocks. Side by side at N = 96 (32 lanes x 1 pack): 2 rows a group (768
// bytes a warp) at 84.3% of copy, 4 at 100.1-100.2%; every power of two of packs has 1 KB.
static Config group_sectors_for(int64_t cols, const DeviceLimits& limits) {
    const int64_t packs = cols / vec_of(DType::f32);
    Config c = group_for(packs);
    if (c.packs == 1 && group_warp_bytes(c, packs) < 1024) c.rows = 4;  // from 2 rows a group
    return with_group_warps(c, packs, limits);
}

// @region choose-path: the dispatch by N -- smallest on-chip home for the row, else what fits
// Everything is in 16-byte packs, so fp16 and bf16 rows take the shape of an fp32 row of the same
// bytes; the fp32 N of each step on an H100 is in brackets. Each threshold was measured on an H100
// (bench/peers.py --tune); a "why" line says what decides it.
Config choose(int64_t cols, DType dtype, bool aligned, const DeviceLimits& limits,
              const ResidentBlocks& resident) {
    const int vec = vec_of(dtype);
    // A misaligned row can straddle one extra pack of its aligned frame.
    const int64_t packs = (cols + (aligned ? 0 : vec - 1) + vec - 1) / vec;
    Config c;
    // [N <= 256] group (group_for), two rows a group and one warp a block (more warps where an
    // SM's share of bandwidth is larger). Why: one-warp blocks measured as fast as larger ones on
    // every H100 tried, and faster on one.
    if (packs <= 64) return with_group_warps(group_for(packs), packs, limits);
    auto threads_for = [&](int cluster, int per_thread) {
        const int64_t per_block = (packs + cluster - 1) / cluster;
        return static_cast<int>(((per_block + per_thread - 1) / per_thread + 31) / 32 * 32);
    };
    // [N <= 32768] one block a row, sized to the row in steps of a warp, 2, 4 or 8 packs a
    // thread: the one that keeps the most rows resident on an SM (ties to fewer packs). Why: every
    // row's loads are issued at once, so resident rows are bytes in flight, and registers and
    // dead slots decide how many fit. fp32 rows, with half the arithmetic per byte, take 2 packs
    // wherever the block fits (on a faster SM than an H100's, where it keeps enough rows: below).
    // Without a GPU to ask: 4 packs, else 8.
    c.path = Config::Path::kCluster;
    auto one_block = [&](int per_thread) {
        Config b = c;
        b.packs = per_thread;
        b.threads = threads_for(1, per_thread);
        return b;
    };
    const bool fp32 = dtype_size(dtype) == 4;
    // Whether an SM moves more bytes a second than an H100's, where some rules below differ.
    const bool faster_dram = sm_bandwidth_vs_h100(limits) > 1.0;
    // 16-bit rows one warp holds at 8 packs a thread or fewer [fp16 N <= 2048]: one warp, the
    // fewest packs a thread that hold the row. Why: a one-warp block reduces by shuffles alone,
    // with no shared memory and no barrier (row_stats); two warps wait at a barrier a row, which
    // rows this short cannot hide. Side by side at seven N of 1039-1741 (on an H100, when blocks
    // took three barriers a row): one warp of 8 packs at 95.1-100.0% of copy, two warps of 4
    // packs at 75.8-93.4% at five of them (97.7-100.2% at 1280 and 1521); with it, at 13 N of
    // 1071-1984, -0.1 to +4.3 points against before.
    if (!fp32)
        for (int per_thread : {2, 4, 8})
            if (threads_for(1, per_thread) == 32) return one_block(per_thread);
    int most_rows = 0;
    for (int per_thread : {2, 4, 8}) {
        const Config b = one_block(per_thread);
        if (b.threads > 1024) continue;
        // On an SM faster than an H100's, fp32 rows take 2 packs only where the block keeps 2
        // rows an SM times the share (3 on an H200), else the shape with the most rows. Why: an
        // H100's 2-pack blocks keep 2 rows an SM or more (blocks of up to 1024 threads of 28
        // registers), and a faster SM needs more rows to keep its bytes moving while one row's
        // block waits at its barrier. On an H200, blocks of 736-864 threads (two an SM) ran at
        // 79.8-89.5% of copy, 192-224 threads of 8 packs at 95.5-95.9% in their place; 2-pack
        // blocks of up to 640 threads (three an SM or more) at 93.8-98.8%.
        if (fp32 && per_thread == 2 && resident &&
            (!faster_dram || resident(b) >= scaled_by_bandwidth(2, limits)))
            return b;
        const int rows = resident ? resident(b) : (per_thread == 4 ? 2 : 1);
        if (rows > most_rows) {
            most_rows = rows;
            c = b;
        }
    }
    // 16-bit rows whose one-block shape keeps one block an SM [fp16 N > ~36000]: the shape below
    // that keeps more rows an SM, where there is one. Why: a 16-bit pack is twice the values of
    // an fp32 pack, so twice the arithmetic per byte, and one block of 608-704 threads an SM ran
    // at 90-95% of copy where clusters of 2-4 blocks ran at 98.5-99.7% (fp32 rows of those
    // bytes: 98.5-100% either way; docs/best-tuning.md). On an SM faster than an H100's, fp32
    // rows too: on an H200 one block of 640-832 threads of 8 packs an SM ran at 87.2-93.5% of
    // copy, clusters of 3-7 blocks in its place at 96.2-98.4%.
    const bool one_row_an_sm = most_rows == 1 && (!fp32 || faster_dram);
    if (most_rows > 0 && !one_row_an_sm) return c;
    const Config one = c;
    // [N <= 131072] a cluster of 2..8 blocks of at most 512 threads, 8 packs a thread, the blocks
    // reducing through DSMEM (Hopper and newer). Why: two blocks share an SM, so one's loads
    // overlap the other's stores; of the sizes that fit, the one with the most rows in flight
    // (resident blocks per SM times SMs over blocks per cluster; ties to fewer blocks). Without a
    // GPU to ask, 64 registers a thread: the kernel's launch bounds (1024) cap it there.
    const int per_thread = 8;
    c.packs = per_thread;
    const int portable = limits.has_clusters() ? 8 : 1;
    const int largest = limits.has_clusters() ? 16 : 1;
    // A stash shape: `cluster` blocks of `threads`, 8 packs a thread in registers (6 for 16-bit
    // rows in clusters: stash_register_packs) and the rest of the block's slice in shared memory
    // (stash_fits: one block's stash fits the opt-in). The rules below count a thread's packs in
    // all, registers and shared memory (held_packs), so they choose the same shapes either way.
    auto stash_shape = [&](int cluster, int threads) {
        Config s;
        s.path = Config::Path::kCluster;
        s.cluster = cluster;
        s.threads = threads;
        s.packs = stash_register_packs(vec, cluster);
        s.stash = static_cast<int>((slice_packs(packs, cluster) + threads - 1) / threads) - s.packs;
        return s;
    };
    auto held_packs = [](const Config& s) { return s.packs + s.stash; };
    // A cluster or stash shape's blocks an SM. Without a GPU to ask: 64 registers a thread (the
    // kernels' launch bounds cap them there) and, with a stash, its shared memory plus 2 KB.
    auto blocks_an_sm = [&](const Config& s) {
        if (resident) return resident(s);
        const int64_t by_registers = 1024 / s.threads;
        if (s.stash <= 0) return static_cast<int>(by_registers);
        const int64_t block_smem = int64_t{s.stash} * s.threads * 16 + 2048;
        return static_cast<int>(std::min(by_registers, limits.smem_per_sm / block_smem));
    };
    auto stash_fits = [&](const Config& s) {
        return s.stash > 0 && int64_t{s.stash} * s.threads * 16 + 1024 <= limits.smem_per_block_optin;
    };
    int best_blocks = 0;
    for (int cl = 2; cl <= portable; ++cl) {
        Config b = c;
        b.cluster = cl;
        b.threads = threads_for(cl, per_thread);
        if (b.threads > 512) continue;
        const int blocks = blocks_an_sm(b);
        // blocks / cl > best_blocks / c.cluster, without the division
        if (best_blocks == 0 || int64_t{blocks} * c.cluster > int64_t{best_blocks} * cl) {
            best_blocks = blocks;
            c = b;
        }
    }
    if (one_row_an_sm) {
        // A cluster where it keeps more than one row an SM; without clusters, one block of 512
        // threads with the rest of its slice in shared memory where two such blocks fit an SM.
        if (best_blocks > c.cluster) return c;
        if (limits.has_clusters()) return one;
        const Config s = stash_shape(1, 512);
        return stash_fits(s) && blocks_an_sm(s) >= 2 ? s : one;
    }
    // Where an SM moves more bytes a second than an H100's and that cluster keeps two blocks an
    // SM or fewer: 16 blocks of at most 512 threads where they keep more blocks an SM and at least
    // as many rows in flight [on an H200 fp32 N ~ 60000-66000 and ~112000-131000, 16-bit N ~
    // 200000-262000]. Why: the cluster's barrier stops its blocks' traffic once a row, and with
    // more, smaller blocks an SM each stop holds up less of the SM's traffic; on an H100 the ties
    // went to fewer blocks, as measured there. On an H200 the 16 x 256 cluster ran at 96.4% of
    // copy where 8 x 480 ran at 90.7% (fp32 N = 115001); side by side as libraries at N drawn
    // at run time, two rounds, +0.6 to +7.0 points at all 10 rows it moved (fp16 N = 204629
    // 88.8 -> 95.8%, fp32 N = 117501 91.3 -> 96.4%), the other 12 within 0.2
    // (bench/results/2026-11-28/h200-cluster-blocks/).
    if (best_blocks > 0 && best_blocks <= 2 && faster_dram && largest > portable &&
        threads_for(largest, per_thread) <= 512) {
        Config b = c;
        b.cluster = largest;
        b.threads = threads_for(largest, per_thread);
        const int blocks = blocks_an_sm(b);
        if (blocks > best_blocks && int64_t{blocks} * c.cluster >= int64_t{best_blocks} * largest)
            return b;
    }
    if (best_blocks > 0) return c;
    // [N <= 262144] 16 blocks (a "non-portable" cluster) of at most 512 threads. Why: still two
    // blocks an SM; 8 blocks of 1024 hold as much with one an SM, and ran slower.
    // Where its registers keep two blocks an SM or fewer [over 320 threads], and the largest
    // block of fewer threads that keeps three needs at most 9 packs a thread in all (10 in 16
    // bits): that block, the rest of its slice in shared memory (the stash). Why: the blocks of
    // an SM stop their traffic at the cluster's barrier once a row; two blocks of a short slice
    // leave DRAM idle then, and a third keeps it going, while its shared-memory copies cost less
    // than that. A 16-bit row has twice the arithmetic a byte, so its two blocks stay short of
    // DRAM over longer slices. Side by side on an H100 at fresh N (8 packs in registers then):
    // 16-bit rows on 2 blocks of 352-416 threads ran at 92.4-97.7% of copy where 3 of 320 need
    // 9-10 packs a thread, and 3 of 320 +0.4 to +6.3 points faster; at 11-13 packs -1.1 to +0.9.
    // fp32 N = 175162 (9 packs) 96.7 -> 99.0%; fp32 rows of 10 packs -0.6 to 0.
    // Smaller blocks, more of them an SM, gained nothing further (4 of 256: -0.4 to +0.6 against
    // 320; 4 of 224, 5 of 192, 6 of 160: -0.2 to -4.3). bench/results/2026-11-27/three-blocks/.
    // The held grid (hold_for), where it can hold the row.
    const Config held = hold_for(cols, vec, limits);
    const bool held_fits = held.path == Config::Path::kGrid;
    if (largest > portable && threads_for(largest, per_thread) <= 512) {
        c.cluster = largest;
        c.threads = threads_for(largest, per_thread);
        const int blocks = blocks_an_sm(c);
        const int most_packs = per_thread + (fp32 ? 1 : 2);
        // 16-bit rows whose blocks here fit two an SM [on an H200 fp16 N ~ 393000-491500, blocks
        // of 416-480 threads, or a stash], where an SM moves more bytes a second than an H100's:
        // the held grid, where its teams leave no more SMs idle than whole clusters of two
        // blocks an SM at best do (of 132 SMs, 4). Why: as for fp32 rows below. Side by side on
        // an H200 at N drawn at run time, two rounds, clusters of 416-480 threads -0.3 to +3.9
        // points (bf16 N = 418109 83.3 -> 87.2%); of 512 threads, where the held grid's 7-block
        // teams leave 6 SMs idle, -1.3 and -3.1; against the stash +2.5 and +3.8, one round
        // (bench/results/2026-11-28/h200-clusters-16bit/). Clusters of three blocks an SM keep
        // the cluster: the held grid ran 3.5-5.3 points slower at 6 of 6 such N.
        const auto held_keeps_sms = [&] {
            const int64_t cluster_sms =
                int64_t{limits.sm_count} * blocks / largest * largest / blocks;
            return int64_t{held.cluster} * held.grid_teams() / hold_blocks_per_sm(held.threads) >=
                   cluster_sms;
        };
        if (!fp32 && blocks >= 1 && blocks <= 2 && faster_dram && held_fits && held_keeps_sms())
            return held;
        for (int t = c.threads - 32; blocks <= 2 && t >= 32; t -= 32) {
            const Config s = stash_shape(largest, t);
            if (!stash_fits(s) || held_packs(s) > most_packs) break;
            if (blocks_an_sm(s) >= 3) return s;
        }
        // fp32 rows whose blocks here fit two an SM [on an H200 fp32 N ~ 184000-262000, 384-512
        // threads], where an SM moves more bytes a second than an H100's: the held grid. Why: the
        // cluster's barrier stops both blocks' traffic once a row, as for the stash below. Side
        // by side on an H200 at 14 fp32 N drawn at run time, two rounds: blocks of 384-512
        // threads 81.0-85.5% of copy, the held grid 90.3-90.9% (+5.0 to +9.3 at all 7); blocks
        // of 320, three an SM, 92.9% against 90.0-90.3%, so they keep the cluster. 16-bit rows
        // keep it too: on 16 x 512 threads the held grid ran 2.6-3.1 points slower at 3 of 3
        // (h200-held/, 3-trial-c0-cx and 4-trial-clusters-fp32).
        if (fp32 && blocks <= 2 && faster_dram && held_fits) return held;
        return c;
    }
    // [N <= ~700000] the stash: the same 16 x 512 threads x 8 packs, each thread's further packs
    // in shared memory. Why: while two blocks fit an SM, one block's stores overlap the other's
    // loads, which larger blocks lose. Without a GPU to ask, a block takes its stash plus 2 KB.
    // Rows of whole packs take the grid instead where it runs two teams of 256 threads
    // [N > 516096]. Why: with no edges to handle, the grid's two teams overlap just as well.
    // Where an SM moves more bytes a second than an H100's, those blocks need more warps (8 on
    // an H100, times the share: 12 on an H200) or the rows take the stash's place below. Why:
    // two blocks an SM are all the grid has in flight. On an H200, as libraries side by side at
    // N drawn at run time, the rows moved off it ran +5.0 to +11.9 points faster at all 3 (bf16
    // N = 841744 75.3 -> 87.2%; bench/results/2026-11-28/h200-held/, 2-trial-d-c16 and
    // 3-trial-c0-cx).
    const bool whole = aligned && cols % vec == 0;
    // The grid's edge warp: on every row that is not whole 128-byte lines (grid_whole_lines),
    // except 16-bit rows of whole packs where it would take the block past 512 threads [halves
    // N ~ 2027600-2162600]. Why: that kWide kernel has 96 registers a thread, and its 16-bit
    // forms spill: 85-87% of copy, against 91.4-94.9% without the edge warp (fp16 and bf16
    // N = 2103144); fp32 rows ran 1-1.5 points faster with it (fp32 N = 1021604).
    const bool lines = grid_whole_lines(cols, vec, aligned);
    bool edge_warp = !lines;
    Config grid = grid_for(cols, vec, lines, limits);
    const auto without_edge_warp = [&] {
        edge_warp = false;
        grid = grid_for(cols, vec, true, limits);
        grid.edges = -1;  // the launch's kWhole form on rows of whole packs
    };
    if (edge_warp && whole && !fp32 && grid.threads > grid_max_threads(grid.packs))
        without_edge_warp();
    // The kWide grid (the edge warp on top of 512 main threads) for fp32 rows only: 16-bit rows
    // with edges there take the held grid [halves N ~ 2027600-2162600]. Why: kWide's 16-bit forms
    // spill, and side by side at 18 such N (8 drawn) the held grid in 11 teams ran 0.5-3.8 points
    // faster at 17 (fp16 N = 2103145 85.5 -> 89.0%) and 2.1 slower at one (2026-11-27/
    // wide-16bit-held/).
    const bool wide = edge_warp && fp32;
    const bool grid_fits =
        limits.has_clusters() && grid.threads <= grid_max_threads(grid.packs, wide);
    // 16-bit rows of whole 32-byte sectors run those two teams without the edge warp [halves
    // N ~ 780000-940000, N % 16 == 0]. Why: side by side at 8 such N drawn at run time, +1.6 to
    // +5.3 points in both rounds (bf16 N = 828688 90.9 -> 96.0%), and +2.0 to +5.8 against the
    // rule before at 9 more; at 4 N of whole packs off a sector -3.0 to +0.2, and fp32 rows of
    // whole sectors -0.8 to +0.9, so those keep it (bench/results/2026-11-27/grid-edges/).
    // 16-bit rows of whole packs off a sector, which would need the edge warp there, keep the
    // stash, as rows of the same length with edges do [N % 16 == 8]. Why: side by side at 10
    // such N (8 drawn) in both dtypes, the stash ran 0.3-6.7 points faster at 18 of 20 (bf16
    // N = 812760 89.6 -> 96.3%) and 0.1-0.3 slower at two (2026-11-27/sector-stash/).
    const bool sectors = cols * dtype_size(dtype) % 32 == 0;
    const bool grid_wins = whole && grid_fits && grid.teams == 2 &&
                           grid.threads >= scaled_by_bandwidth(8, limits) * 32 &&
                           (fp32 || !edge_warp || sectors);
    if (grid_wins && edge_warp && !fp32 && sectors) without_edge_warp();
    const int grid_main_threads = grid.threads - (edge_warp ? 32 : 0);
    if (largest > portable && !grid_wins) {
        const Config s = stash_shape(largest, 512);
        const int blocks = blocks_an_sm(s);
        // Rows whose stash would hold 18 packs a thread or more in all, 10 or more past 8 in
        // registers (the count below is in those terms) [N > 557056]:
        // the grid of 8 packs a thread, lag 2, in two teams, where two of its blocks fit an SM
        // (the occupancy calculator: fp32 up to N ~ 811000 on an H100, whose kernel is built
        // for two blocks, grid_min_blocks; fp16 N ~ 1360000; without a GPU to ask, the stash),
        // and where the 4-pack grid in one team would have fewer than 13 warps a block past its
        // edge warp. Why: the stash slows as more of a thread's slice sits in
        // shared memory, the grid does not. Side by side over the stash's whole range, fp32 at N
        // of three draws: the grid lost up to 8 packs in shared memory (65-94% of copy against
        // 96.5-98.7%) and at 9 (-0.2 to -2.1 points), tied at 10 (-0.5 to +0.5) and won from 11
        // (+0.3 to +5.1, at 95.2-96.5%). 16-bit rows, the same count: -29 to -0.4 points at 2-8
        // packs, -2.7 at 9, +1.3 to +10.2 at 10-13 (93.6-95.8%; 2026-11-27/grid8-16bit/). And
        // the one-team grid runs faster the more warps it has, the two teams' grid does not:
        // against the 4-pack grid of 12 warps past the edge warp, the 8-pack grid ran -0.2 to
        // +6.0 points (fp32 N = 680001-811009, 15 N, 96.1-96.8% of copy); against 13-14,
        // -0.1 to -1.4 (N = 819200-946176, 6 N, where that grid ran at 96.8-97.9%;
        // 2026-11-27/grid8-two-blocks/).
        // Its two blocks an SM must have at least 10 warps on an H100 (its smallest blocks there
        // are 5), more in proportion where an SM moves more bytes a second (15 on an H200, more
        // than its blocks of 160-224 threads have). Why: on an H200 those blocks ran at 74-93%
        // of copy; side by side, the rows moved off them (to the held grid, below) ran +0.3 to
        // +12.6 points faster at 15 of 16 N drawn at run time (fp16 N = 1178374 76.3 -> 88.9%),
        // 0.8 slower at one (fp32 N = 807456, 92.7 -> 91.8%; h200-held/, 2-trial-d-c16 and
        // 3-trial-c0-cx).
        if (held_packs(s) >= per_thread + 10 && resident && limits.has_clusters() &&
            grid_main_threads < kGridOneTeamFullThreads) {
            Config g = grid_for(cols, vec, lines, limits, 8);
            g.teams = 2;
            g.lag = 2;
            if (g.threads <= grid_max_threads(g.packs) && resident(g) >= 2 &&
                2 * g.threads >= scaled_by_bandwidth(10, limits) * 32)
                return g;
        }
        // At 22 packs a thread in all, 14 past 8 [N ~ 700000]. Why: there fp32 rows ran faster on
        // the grid. (16-bit rows' stash, 2 packs a thread larger, fits twice an SM only up to 20
        // packs in all, so from 21 they take the grid too: fp16 +2.5 and +3.4 points, bf16 -2.2
        // and -1.1 against the 8 + 13-14 stash before; 2026-11-27/stash-six-adopted/.)
        const bool grid_beats_stash = fp32 && held_packs(s) >= per_thread + 14 && grid_fits;
        // Where an SM moves more bytes a second than an H100's: the held grid in place of the
        // stash. Why: each 16-block cluster stops its traffic at its barrier once a row, and
        // the held grid's teams keep their next rows coming into L2 meanwhile; the faster the
        // DRAM, the more a stop costs. On an H200, side by side at N drawn at run time, two
        // rounds: fp32 stashes of 1-9 packs past 8 ran 87.4-91.6% of copy, the held grid 90.7-
        // 91.7% (-0.9 to +4.3 points at 7 N, the loss at 4 past 8); 16-bit stashes of 3-11 past
        // 6 ran 85.0-89.1%, the held grid 86.8-90.8% (+0.7 to +3.7 at 8 N; h200-held/, the same
        // two). Measured on the H200 only (1.44 times an H100's share): a GPU between the two
        // takes the held grid too, untested.
        if (blocks >= 2 && !grid_beats_stash) return faster_dram && held_fits ? held : s;
    }
    // Where no stash fits two blocks an SM: 16 blocks of over 512 threads, one an SM, unless the
    // grid runs two teams of at least 192 threads a block [N >= 393216, 1.5 MB rows]. Why: seven
    // 16-block clusters leave 20 of an H100's 132 SMs idle, and the grid's two teams use them all.
    for (int cl : {portable, largest}) {
        if (cl == largest && grid_fits && grid.teams == 2 && grid.threads >= 192) break;
        if (threads_for(cl, per_thread) <= 1024) {
            c.cluster = cl;
            c.threads = threads_for(cl, per_thread);
            return c;
        }
    }
    // [N <= 1081344 on 132 SMs] the grid, up to 2048 packs a block. Why: the row is still read
    // once, where two passes read it twice. Hopper only, where it was measured.
    // Except where it runs in one team with too few warps past its edge warp for its SM's share
    // of the DRAM's bandwidth: the held grid (hold_for). That is 12 warps on an H100 [16-bit
    // rows with edges, N ~ 1360000-1487000, which the 8-pack grid above does not hold two
    // blocks an SM of with the edge warp], and more where an SM moves more bytes a second: on
    // an H200 (4.8 TB/s over the same 132 SMs: 18 warps) more than a block of 512 threads has,
    // so the held grid takes all of the grid's one-team rows. Why: a block alone on its SM moves
    // its slice of every row with only its own warps, and a warp moved about as many bytes a
    // second on both GPUs. On an H100 at 11 warps the grid ran 86-91% of copy and the held
    // grid +1.5 to +3.1 points faster at five of 6 N drawn at run time (0.5 slower at one);
    // from 12 warps the grid won by 1.8-6.9 (bench/results/2026-11-28/hold-band/). On an H200
    // in blocks of 13-17 warps the grid ran 62-84%, more with more, and as libraries side by side
    // at N drawn at run time, two rounds, the rule ran +8.8 to +15.7 points faster at all 6 such
    // fp32 N and +11.1 to +23.8 at all 11 16-bit N (bf16 N = 1502707 61.8 -> 85.6%), the other
    // 5 within -0.6 to +0.1; 4 rows ahead, more bytes in flight for the same warps, had moved
    // the grid only +0.3 to +1.8 (bench/results/2026-11-28/one-team/).
    if (grid_fits && grid.grid_teams() == 1 &&
        grid_main_threads < grid_one_team_least_threads(limits) && held_fits)
        return held;
    if (grid_fits) return grid;
    // [no clusters, N <= 73728 with an A100's 163 KB] one block of 1024 threads, 8 packs a thread
    // in registers and the rest of the row in shared memory, where the GPU's opt-in holds it.
    // Why: the row is read once; two passes read it twice (80% of copy at fp32 N = 65536).
    if (!limits.has_clusters()) {
        const Config s = stash_shape(1, 1024);
        if (stash_fits(s)) return s;
        // [no clusters, past the stash] the grid kernel in teams (team_grid_for). Why: one read;
        // two passes read twice (80% of copy at fp32 N = 65536 where a team grid ran at 94-95%).
        const Config teams = team_grid_for(cols, vec, lines, limits);
        if (teams.path == Config::Path::kGrid) return teams;
    }
    // [N <= 11894784 on 132 SMs] the held grid: each team of blocks holds one row in registers and
    // shared memory and swaps it in place for the next. Why: the row is read once.
    if (held_fits) return held;
    // Longer: the held grid in one team, the part of the row it cannot hold read twice. Why: it
    // reads less than two passes at every length; measured side by side at fp32 N = 12000007 to
    // 2^26 it ran 2.2-14.6 points faster (bench/results/2026-11-26/stream/).
    const Config streamed = streamed_hold_for(cols, limits);
    if (streamed.path == Config::Path::kGrid) return streamed;
    return two_pass_for(packs, limits);
}
// @endregion choose-path

// @region choose-tile: short rows, when the tensor is one flat run
// [N <= 512 fp32 values, 2 KB rows] the tile path, unless every row is whole packs on 16 bytes
// and a power of two of them, which the group kernel holds with every lane busy, or fp32 rows
// of whole 32-byte sectors (group_sectors). Otherwise the group and one-block kernels read and
// write each row's two edge packs value by value (a short row is mostly edges), or leave lanes
// idle (25 packs on 32 lanes). Lanes per row: the fewest
// that hold the row at 16 values a lane (a row's cost is its values plus its shuffles, and fewer
// lanes a row is fewer shuffles), 32 lanes holding 32 past 512 values; 8 values a lane where
// that suffices. Rows per block: at least 32 KB of them (56 KB at 32 values a lane, and 12 KB
// of fp32 rows on faster DRAM than an H100's, below), in whole rounds (a row for every group of
// lanes: a round with idle groups costs a full round). Why at least: 16 KB tiles ran far below 32
// KB ones (fp16 N = 75-130: 73-85% against 89-99%), and rounding down to whole rounds of 32 lanes'
// rows left 16-bit tiles of 22-26 KB at 93.9-95.6% where the round up ran at 97.2-98.8% (fp16 N =
// 543, 696, bf16 N = 529, 589, 759). Rows a warp's groups read at once: side by side, or `spread`
// apart where side by side piles up (tile_spread below). Why: rows of 126 or 254 bytes start almost
// a bank cycle (128 bytes) apart, so a warp's reads land on the same few shared-memory banks, up to
// five words a bank (16-bit N = 63 ran at 88% of copy side by side, 99.5% five rows apart).

// Shared-memory wavefronts the block's warps take for one step of reads (each group of `width`
// lanes reads `width` 4-byte words of its row side by side, from the word its row starts in)
// when a warp's groups take rows `spread` apart: per warp, the most distinct words any one of
// the 32 banks must serve.
static int tile_wavefronts(int64_t cols, int width, int esize, int threads, int spread) {
    const int groups = threads / width;
    int total = 0;
    for (int warp = 0; warp < threads / 32; ++warp) {
        std::array<int64_t, 32> words{};
        int n = 0;
        for (int lane = 0; lane < 32; ++lane) {
            const int g = (warp * 32 + lane) / width, l = (warp * 32 + lane) % width;
            if (int64_t{l} * 4 / esize >= cols) continue;  // a lane past a short row
            words[n++] = int64_t{g} * spread % groups * cols * esize / 4 + l;
        }
        std::sort(words.begin(), words.begin() + n);
        const int distinct =
            static_cast<int>(std::unique(words.begin(), words.begin() + n) - words.begin());
        std::array<int, 32> per_bank{};
        int most = 0;
        for (int i = 0; i < distinct; ++i) most = std::max(most, ++per_bank[words[i] % 32]);
        total += most;
    }
    return total;
}

// Side by side (a spread of 1) unless that piles 4 or more words on a bank in an average warp
// and a spread of 3, 5 or 7 rows at least halves it; then the one with the fewest wavefronts
// (the smallest of equals). Why not at every conflict: where side by side costs 2 words a bank,
// a spread measured a tie or up to 4 points slower (16-bit N = 68, 131, 205, in
// bench/results/2026-11-26/tile-63/).
static int count_tile_spread(int64_t cols, int width, int esize, int threads) {
    const int side_by_side = tile_wavefronts(cols, width, esize, threads, 1);
    if (side_by_side < 4 * (threads / 32)) return 1;
    int best = 1, least = side_by_side;
    for (int spread = 3; spread <= 7 && spread < threads / width; spread += 2) {
        const int w = tile_wavefronts(cols, width, esize, threads, spread);
        if (w < least) best = spread, least = w;
    }
    return 2 * least <= side_by_side ? best : 1;
}

// The same, counted once per row length and value size: every launch asks, and the count takes
// microseconds, which a launch of a few microseconds would feel (tile_for's rows and lanes
// depend on nothing else).
static int tile_spread(int64_t cols, int width, int esize, int threads) {
    static std::array<std::atomic<signed char>, 2 * 1025> known;  // 0: not counted yet
    std::atomic<signed char>& k = known[(esize == 2 ? 1025 : 0) + cols];
    int spread = k.load(std::memory_order_relaxed);
    if (spread == 0) {
        spread = count_tile_spread(cols, width, esize, threads);
        k.store(static_cast<signed char>(spread), std::memory_order_relaxed);
    }
    return spread;
}

Config tile_for(int64_t cols, DType dtype, bool aligned, const DeviceLimits& limits) {
    Config c;
    const int vec = vec_of(dtype);
    const int64_t bytes = cols * dtype_size(dtype);
    const int64_t packs = cols / vec;
    const bool whole_lanes = aligned && cols % vec == 0 && (packs & (packs - 1)) == 0;
    if (whole_lanes || group_sectors(cols, dtype, aligned) || bytes > 2048 || cols > 1024)
        return c;  // path kGroup: unused
    c.path = Config::Path::kTile;
    c.threads = 256;
    for (c.width = 1; c.width < 32 && c.width * 16 < cols;) c.width *= 2;
    c.packs = cols <= c.width * 8 ? 8 : (cols <= c.width * 16 ? 16 : 32);
    const int groups = c.threads / c.width;
    // The fewest whole rounds that reach 32 KB (a round fewer where they would pass 48 KB). At 32
    // values a lane [16-bit N 513-1024], whose kernel keeps 3 blocks an SM (ptxas, sm_90: 72
    // registers a thread), the fewest that reach 56 KB, at most a third of the SM's shared
    // memory less 2 KB (74 KB of 228). Why: those blocks used 100-144 KB of an SM's 228 and the
    // kernel is short of issue slots, so a block's own costs weigh; on an H200, side by side at
    // 6 N drawn at run time, two rounds, +3.1 to +5.0 points (bf16 N = 736 89.4 -> 94.5%); the
    // same tiles at 16 values a lane, which keep more blocks an SM, lost 1.5-15.5 points, and
    // the largest tiles that fit three times ran up to 3.3 points below 56 KB's
    // (bench/results/2026-11-28/h200-tiles/).
    // fp32 tiles where an SM moves more bytes a second than an H100's: the fewest whole rounds
    // that reach 12 KB. Why: on an H200 fp32 tiles of 32-48 KB ran at 95.2-97.2% of copy (on an
    // H100 at 99.4-99.7%); tuned at 5 N, the fastest listed tile was one of 12-14 KB at all 5
    // (98.3-100.0%), and tiles under 10 KB ran at 85-91%. Side by side at 24 N drawn at run time,
    // two rounds: +0.6 to +3.6 points at all 22 tile rows (fp32 N = 474 95.2 -> 98.8%), at or
    // above 16 KB's tiles wherever the two differ (bench/results/2026-11-28/h200-fp32-tiles/).
    // Measured on the H200 only: an H100 keeps 32 KB.
    const int64_t round = int64_t{groups} * bytes;
    const bool three_blocks = c.packs == 32;
    const bool small_fp32 = dtype == DType::f32 && sm_bandwidth_vs_h100(limits) > 1.0;
    const int64_t most =
        three_blocks ? std::max<int64_t>(limits.smem_per_sm / 3 - 2048, 0) : 48 * 1024;
    const int64_t reach =
        three_blocks ? std::min<int64_t>(56 * 1024, most) : (small_fp32 ? 12 * 1024 : 32 * 1024);
    int64_t rounds = std::max<int64_t>(1, (reach + round - 1) / round);
    if (rounds > 1 && rounds * round + 2 * 16 > most) --rounds;
    c.rows = static_cast<int>(rounds * groups);
    c.spread = tile_spread(cols, c.width, dtype_size(dtype), c.threads);
    return c;
}
// @endregion choose-tile

Config choose_for(int64_t cols, DType dtype, bool aligned, bool flat, const DeviceLimits& limits,
                  const ResidentBlocks& resident) {
    if (flat) {
        if (group_sectors(cols, dtype, aligned)) return group_sectors_for(cols, limits);
        const Config tile = tile_for(cols, dtype, aligned, limits);
        if (tile.path == Config::Path::kTile) return tile;
    }
    return choose(cols, dtype, aligned, limits, resident);
}

size_t workspace_bytes(const SoftmaxProblem& problem, const Config& config) {
    if (config.path != Config::Path::kGrid) return 0;
    return static_cast<size_t>(problem.rows) * static_cast<size_t>(config.cluster) *
           sizeof(uint64_t);
}

// The configuration the registry's `best` runs for p on a device with `limits`. Where the limits
// were read from a GPU, the launch's own choice (with the occupancy calculator and the launch's
// fallbacks); else choose() for buffers from cudaMalloc (256-byte aligned), whose rows are
// aligned where the strides are whole packs.
static Config registry_config(const SoftmaxProblem& p, const DeviceLimits& limits) {
#if SML_HAVE_CUDA
    if (limits.from_device) return launch_config(p, limits);
#endif
    const int vec = vec_of(p.dtype);
    const bool aligned = p.in_stride % vec == 0 && p.out_stride % vec == 0;
    // Rows back to back in both tensors are flat: cudaMalloc's buffers start at one offset.
    const bool flat = p.in_stride == p.cols && p.out_stride == p.cols;
    return choose_for(p.cols, p.dtype, aligned, flat, limits);
}

size_t registry_workspace_bytes(const SoftmaxProblem& p, const DeviceLimits& limits) {
    return workspace_bytes(p, registry_config(p, limits));
}

// The traffic model itself is in kernels/registry.cpp: MN written, and MN read times this.
double reads_per_value(const SoftmaxProblem& p, const DeviceLimits& limits) {
    return row_reads(registry_config(p, limits), p.cols, p.dtype);
}

double row_reads(const Config& c, int64_t cols, DType dtype) {
    if (c.path == Config::Path::kTwoPass) return 2;
    if (!c.held_grid() || c.stream == 0 || cols < 1 || c.cluster < 1) return 1;
    // The team's places interleave (hold.cu), so together they hold the row's first
    // blocks x threads x (packs + stash) packs; the rest of the row is read twice.
    const int64_t vec = vec_of(dtype), packs = cols / vec;
    const int64_t held = int64_t{c.cluster} * c.threads * c.held_places();
    const int64_t twice = std::max<int64_t>(0, packs - held);
    return 1 + static_cast<double>(twice * vec) / static_cast<double>(cols);
}

std::string Config::describe() const {
    return describe([](const char* en, const std::vector<std::string>& parts) {
        return fill_slots(en, parts);
    });
}

// One template a fragment, its numbers apart, so that each fragment has one Chinese entry.
std::string Config::describe(const Say& say) const {
    auto num = [](int v) { return std::to_string(v); };
    const std::string t = num(threads), n = num(cluster);
    auto teams = [&] { return grid_teams() > 1 ? say(", {0} teams", {num(grid_teams())}) : ""; };
    switch (path) {
        case Path::kGroup:
            return say("group {0} lanes x {1} packs x {2} rows, {3} threads",
                       {num(width), num(packs), num(rows_per_group()), num(group_threads())});
        case Path::kCluster:
            return say("cluster {0} x {1} threads x {2} packs", {n, t, num(packs)}) +
                   (stash > 0 ? say(" + {0} in shared memory", {num(stash)}) : "");
        case Path::kTwoPass:
            return say("two-pass cluster {0} x {1} threads", {n, t}) +
                   ((l2 & kL2Policy) != 0 ? say(", L2 evict_last/first", {}) : "") +
                   ((l2 & kL2Reverse) != 0 ? say(", pass 2 backwards", {}) : "");
        case Path::kTile:
            return say("tile {0} lanes x {1} values, {2} rows, {3} threads",
                       {num(width), num(packs), num(rows), t}) +
                   (tile_spread() > 1 ? say(", rows {0} apart", {num(tile_spread())}) : "");
        case Path::kGrid:
            if (held_grid())
                return say("held grid {0} blocks x {1} threads x {2} packs", {n, t, num(packs)}) +
                       say(" + {0} in shared memory", {num(stash)}) + teams() +
                       (stream != 0 ? say(", the rest read twice", {}) : "") +
                       (held_rows() > 1 ? say(", {0} rows a team", {num(held_rows())}) : "") +
                       (prefetch > 0 ? say(", {0} prefetched into L2", {num(prefetch)}) : "");
            return say(grid_ahead() == 1
                           ? "grid {0} blocks x {1} threads x {2} packs, lag {3}, {4} row ahead"
                           : "grid {0} blocks x {1} threads x {2} packs, lag {3}, {4} rows ahead",
                       {n, t, num(packs), num(lag), num(grid_ahead())}) +
                   teams() +
                   (edges > 0   ? say(", edge warp", {})
                    : edges < 0 ? say(", no edge warp", {})
                                : "");
    }
    return say("unknown path: {0}", {fields()});  // e.g. a bad number through the C entry point
}

std::string Config::fields() const {
    std::string s;
#define SML_BEST_CONFIG_TEXT(type, name, init) \
    s += (s.empty() ? "" : " ") + std::string(#name "=") + std::to_string(static_cast<int>(name));
    SML_BEST_CONFIG_FIELDS(SML_BEST_CONFIG_TEXT)
#undef SML_BEST_CONFIG_TEXT
    return s;
}

}  // namespace best
}  // namespace sml
