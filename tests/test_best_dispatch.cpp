// best's dispatcher, best::choose (kernels/best_softmax.cu), on the CPU: the shape it picks for
// each row length and dtype, and two properties that must hold for every N -- the shape holds the
// whole row (an element left out would never be written), and the launch is a legal one.
// The GPU side (every path against float64) is tests/gpu_test_best.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/message.h"
#include "kernels/best/shapes.h"
#include "kernels/best_softmax.h"
#include "kernels/kernel_api.h"

namespace sml {
namespace {

using best::Config;
using Path = best::Config::Path;

const DeviceLimits kH100 = DeviceLimits::h100_reference();
// An H200's limits: an H100's SMs, shared memory and registers, more L2 and DRAM bandwidth (the
// device's own figures, bench/results/2026-11-28/one-team/2-ab/gpu.txt).
const DeviceLimits kH200 = [] {
    DeviceLimits d = kH100;
    d.name = "NVIDIA H200";
    d.l2_bytes = 60 * 1024 * 1024;
    d.peak_dram_gbps = 4814.30;
    return d;
}();

DeviceLimits ampere() {  // no thread-block clusters
    DeviceLimits d = kH100;
    d.cc_major = 8;
    return d;
}

DeviceLimits turing() {  // a T4's shared memory, SMs and bandwidth: the team grid one row ahead
    DeviceLimits d = ampere();
    d.cc_major = 7;
    d.cc_minor = 5;
    d.sm_count = 40;
    d.smem_per_block_optin = 64 * 1024;
    d.smem_per_sm = 64 * 1024;
    d.peak_dram_gbps = 320;  // its datasheet (the t4 profile's): less an SM than an H100's
    return d;
}

Config pick(int64_t cols, DType t = DType::f32, bool aligned = true,
            const DeviceLimits& limits = kH100, const best::ResidentBlocks& resident = nullptr) {
    return best::choose(cols, t, aligned, limits, resident);
}

// Packs a thread of the held grid's stash (a block of 1024 threads alone on its SM): the SM's
// shared memory a block may have, less 2 KB for the block's own.
int64_t held_stash(const DeviceLimits& limits) {
    return (std::min(limits.smem_per_block_optin, limits.smem_per_sm) - 2048) /
           (best::kHoldMaxThreads * 16);
}

// Classes with clusters the property tests draw over: the H100, one of 114 SMs (an H100 PCIe)
// and one of an A100's 163 KB of shared memory.
std::vector<DeviceLimits> cluster_classes() {
    DeviceLimits pcie = kH100;
    pcie.sm_count = 114;
    pcie.peak_dram_gbps = 2039;  // an H100 PCIe's datasheet
    DeviceLimits small_smem = kH100;
    small_smem.smem_per_block_optin = small_smem.smem_per_sm = 163 * 1024;
    return {kH100, pcie, small_smem};
}

// A cluster shape's blocks an SM as choose() counts them without a GPU to ask: 64 registers a
// thread, and with a stash the block's stash plus 2 KB of the SM's shared memory.
int cluster_blocks_without_gpu(const Config& c) {
    const int64_t smem = int64_t{c.stash} * c.threads * 16 + 2048;
    return static_cast<int>(
        std::min<int64_t>(1024 / c.threads, c.stash > 0 ? kH100.smem_per_sm / smem : 1024));
}

// An occupancy answer of 56 registers a thread for 8-pack cluster shapes (ptxas's count for the
// 16-bit kernels, sm_90; fp32's take 64, which moves where the rules fall, not what they are);
// the grid once an SM; other shapes as without a GPU.
int blocks_at_56_registers(const Config& c) {
    if (c.path != Path::kCluster || c.stash > 0 || c.packs != 8)
        return c.path == Path::kGrid ? 1 : cluster_blocks_without_gpu(c);
    const int per_warp = (56 * 32 + 255) / 256 * 256;
    return std::min(65536 / (per_warp * (c.threads / 32)), 2048 / c.threads);
}

// The 16-block cluster of 8 packs a thread for a row of `packs` packs: blocks sized to their
// slice in steps of a warp.
Config sixteen_block_cluster(int64_t packs) {
    Config c;
    c.path = Path::kCluster;
    c.cluster = 16;
    c.packs = 8;
    c.threads = static_cast<int>(((packs + 15) / 16 + 7) / 8 + 31) / 32 * 32;
    return c;
}

// An H100 whose DRAM moves twice the bytes a second: a GPU past the H200, for rules by the share.
DeviceLimits twice_h100_bandwidth() {
    DeviceLimits d = kH100;
    d.peak_dram_gbps = 2 * kH100.peak_dram_gbps;
    return d;
}

// An occupancy answer: `most` blocks an SM for shapes of `packs` packs a thread, `others` for
// every other shape.
best::ResidentBlocks favouring(int packs, int most, int others) {
    return [=](const Config& c) { return c.packs == packs ? most : others; };
}

// An occupancy answer: a grid fits twice an SM up to `most` threads a block, once past it; every
// other shape twice.
best::ResidentBlocks grid_twice_to(int most) {
    return [most](const Config& c) { return c.path == Path::kGrid && c.threads > most ? 1 : 2; };
}

TEST(BestDispatch, ShortRowsTakeSubWarpGroupsSizedToTheRow) {
    EXPECT_EQ(pick(1).describe(), "group 1 lanes x 1 packs x 2 rows, 32 threads");
    EXPECT_EQ(pick(32).describe(),
              "group 8 lanes x 1 packs x 2 rows, 32 threads");  // 8 lanes x 4 fp32
    EXPECT_EQ(pick(64).describe(), "group 16 lanes x 1 packs x 2 rows, 32 threads");
    EXPECT_EQ(pick(128).describe(), "group 32 lanes x 1 packs x 2 rows, 32 threads");
    EXPECT_EQ(pick(256).describe(), "group 32 lanes x 2 packs x 2 rows, 32 threads");
    // Sizes are in 16-byte packs: 512 fp16 values are the bytes of 256 fp32 ones.
    EXPECT_EQ(pick(512, DType::f16).describe(), pick(256).describe());
    EXPECT_EQ(pick(512, DType::bf16).describe(), pick(256).describe());
}

TEST(BestDispatch, OneBlockPerRowSizedInStepsOfAWarp) {  // without a GPU: 4 packs, else 8
    EXPECT_EQ(pick(257).path, Path::kCluster);
    EXPECT_EQ(pick(1024).describe(), "cluster 1 x 64 threads x 4 packs");
    EXPECT_EQ(pick(16384).describe(), "cluster 1 x 1024 threads x 4 packs");
    // A row that does not start on 16 bytes may straddle one more pack: 2049 values, 514 packs
    // at most, 129 threads of 4 packs, rounded up to 160.
    EXPECT_EQ(pick(2049, DType::f32, false).describe(), "cluster 1 x 160 threads x 4 packs");
    // Past 4 packs x 1024 threads, 8 packs a thread, still one block.
    EXPECT_EQ(pick(16385).describe(), "cluster 1 x 544 threads x 8 packs");
    EXPECT_EQ(pick(32768).describe(), "cluster 1 x 1024 threads x 8 packs");
}

TEST(BestDispatch, OccupancyDecidesThePacksAThread) {
    // The shape (2, 4 or 8 packs a thread) that keeps the most rows resident on an SM wins, ties
    // to fewer packs. fp16 N = 1025 (129 packs of an unaligned row): the occupancy calculator
    // gives 21 blocks of 64 threads x 4 packs and 32 of 32 x 8 on an H100.
    auto h100_fp16_1025 = favouring(8, 32, 21);
    EXPECT_EQ(pick(1025, DType::f16, false, kH100, h100_fp16_1025).describe(),
              "cluster 1 x 32 threads x 8 packs");
    auto same = [](const Config&) { return 2; };  // a tie: the fewest packs a thread
    EXPECT_EQ(pick(12288, DType::f32, true, kH100, same).describe(),
              "cluster 1 x 768 threads x 4 packs");
    EXPECT_EQ(pick(4096, DType::f32, true, kH100, same).describe(),
              "cluster 1 x 512 threads x 2 packs");
    auto by_threads = [](const Config& c) { return 2048 / c.threads; };
    EXPECT_EQ(pick(12288, DType::f32, true, kH100, by_threads).describe(),
              "cluster 1 x 384 threads x 8 packs");
    // A shape over 1024 threads is never a candidate: 2 packs would need 1536 here.
    auto two_pack_favourite = favouring(2, 32, 1);
    EXPECT_EQ(pick(12288, DType::f32, true, kH100, two_pack_favourite).describe(),
              "cluster 1 x 768 threads x 4 packs");
    EXPECT_EQ(pick(4096, DType::f32, true, kH100, two_pack_favourite).describe(),
              "cluster 1 x 512 threads x 2 packs");
    // Without an occupancy calculator (no GPU) the shape stays at 4 packs.
    EXPECT_EQ(pick(12288).describe(), "cluster 1 x 768 threads x 4 packs");
    // fp32 takes 2 packs a thread wherever the block fits, whatever the occupancy says (measured
    // 0.5-1% faster); fp16 with the same occupancy answers takes the most resident rows.
    auto favours_eight = favouring(8, 32, 8);
    EXPECT_EQ(pick(1000, DType::f32, true, kH100, favours_eight).describe(),
              "cluster 1 x 128 threads x 2 packs");
    EXPECT_EQ(pick(8192, DType::f32, true, kH100, favours_eight).describe(),
              "cluster 1 x 1024 threads x 2 packs");
    EXPECT_EQ(pick(4000, DType::f16, true, kH100, favours_eight).describe(),
              "cluster 1 x 64 threads x 8 packs");
    auto favours_four = favouring(4, 32, 8);
    EXPECT_EQ(pick(4000, DType::f16, true, kH100, favours_four).describe(),
              "cluster 1 x 128 threads x 4 packs");
}

// 16-bit rows that one warp holds at 8 packs a thread or fewer take one warp, the fewest packs a
// thread that hold the row, whatever the occupancy says: a one-warp block reduces by shuffles
// alone (measured: fp16 and bf16 N = 1071-1984 -0.1 to +4.3 points against the kernels before,
// bench/results/2026-11-27/one-block/). fp32 rows, and 16-bit rows past one warp, are
// unchanged.
TEST(BestDispatch, SixteenBitRowsOneWarpHoldsTakeOneWarp) {
    const std::vector<best::ResidentBlocks> answers = {nullptr, favouring(2, 32, 4),
                                                       favouring(4, 32, 4), favouring(8, 32, 4)};
    int one_warp = 0;
    for (DType t : {DType::f16, DType::bf16})
        for (bool aligned : {true, false})
            for (int64_t cols = 500; cols <= 2100; ++cols) {
                const int64_t packs = (cols + (aligned ? 0 : 7) + 7) / 8;
                for (const auto& resident : answers) {
                    const Config c = pick(cols, t, aligned, kH100, resident);
                    SCOPED_TRACE(testing::Message()
                                 << cols << (aligned ? "" : " unaligned") << " " << c.describe());
                    if (packs <= 64) {
                        EXPECT_EQ(c.path, Path::kGroup);
                    } else if (packs <= 256) {
                        ++one_warp;
                        EXPECT_EQ(c.path, Path::kCluster);
                        EXPECT_EQ(c.threads, 32);
                        EXPECT_EQ(c.cluster, 1);
                        EXPECT_EQ(c.stash, 0);
                        EXPECT_GE(32 * c.packs, packs);      // holds the row
                        EXPECT_LT(32 * c.packs / 2, packs);  // the fewest packs that do
                    } else {
                        EXPECT_GT(c.threads, 32);
                    }
                }
            }
    EXPECT_GT(one_warp, 4 * 1000);
    // Past one warp the occupancy decides again: bf16 N = 2121 (266 packs unaligned) takes the
    // shape that keeps the most rows.
    auto favours_four = favouring(4, 32, 8);
    EXPECT_EQ(pick(2121, DType::bf16, false, kH100, favours_four).describe(),
              "cluster 1 x 96 threads x 4 packs");
    // fp32 rows of one warp's bytes keep 2 packs a thread.
    auto favours_eight = favouring(8, 32, 4);
    EXPECT_EQ(pick(1000, DType::f32, false, kH100, favours_eight).describe(),
              "cluster 1 x 128 threads x 2 packs");
}

// 16-bit rows whose one-block shape keeps one block an SM take a shape that keeps more rows an
// SM where one does; fp32 rows of the same bytes stay in one block (measured: fp16 N = 37364 in
// one block of 608 threads at 90% of copy, in clusters of 2-4 at 98.6-99.7%; fp32 N = 18684 at
// 99.9% in one block). Resident blocks as the occupancy calculator counts them: 64 registers a
// thread, and the stash in an SM's 100 KB of shared memory.
TEST(BestDispatch, SixteenBitRowsAtOneBlockAnSmTakeMoreRows) {
    auto registers = [](const Config& c) {
        const int by_smem = 100 * 1024 / (c.stash * c.threads * 16 + 1024);
        return std::min({65536 / (c.threads * 64), 2048 / c.threads, by_smem});
    };
    const Config fp16 = pick(37364, DType::f16, false, kH100, registers);
    EXPECT_EQ(fp16.path, Path::kCluster);
    EXPECT_GE(fp16.cluster, 2) << fp16.describe();
    EXPECT_GT(registers(fp16), fp16.cluster) << fp16.describe();  // more than a row an SM
    const Config fp32 = pick(18684, DType::f32, true, kH100, registers);
    EXPECT_EQ(fp32.cluster, 1) << fp32.describe();
    EXPECT_EQ(fp32.stash, 0) << fp32.describe();
    // Where the cluster keeps no more rows (a block of 928 threads: two of 464 keep one row an
    // SM), the one block stays.
    EXPECT_EQ(pick(58111, DType::f16, true, kH100, registers).describe(),
              "cluster 1 x 928 threads x 8 packs");
    // Without clusters: one block of 512 threads, the rest of its slice in shared memory, two
    // blocks an SM; where two such blocks do not fit an SM's shared memory, the one block.
    DeviceLimits ampere99 = ampere();
    ampere99.smem_per_block_optin = 99 * 1024;
    ampere99.smem_per_sm = 100 * 1024;
    const Config stash = pick(37364, DType::f16, false, ampere99, registers);
    EXPECT_EQ(stash.describe(), "cluster 1 x 512 threads x 8 packs + 2 in shared memory");
    EXPECT_EQ(pick(65536, DType::f16, true, ampere99, registers).describe(),
              "cluster 1 x 1024 threads x 8 packs");
}

TEST(BestDispatch, GroupRowsPerGroupDefaultsByPacks) {
    Config c = pick(64);
    EXPECT_EQ(c.rows_per_group(), 2);
    EXPECT_EQ(c.threads, 32);  // one warp per block: 1 KB of rows at N = 64 fp32
    c.rows = 4;                // the tuning harness's override
    EXPECT_EQ(c.describe(), "group 16 lanes x 1 packs x 4 rows, 32 threads");
    EXPECT_EQ(pick(256).rows_per_group(), 2);
}

// A group block's rows are all it has in flight, and an SM runs at most 32 blocks: a block takes
// one warp on an H100, on a GPU of less bandwidth an SM and where the bandwidth is unknown, as
// measured there; elsewhere the fewest warps (at most 4) whose rows hold 1 KB a warp times the
// SM's share of the DRAM's bandwidth against an H100's: on an H200 two where one warp's rows hold
// less than ~1.44 KB. Every N a group takes, every dtype, alignment and layout.
TEST(BestDispatch, GroupBlocksTakeWarpsForAKilobyteAWarpTimesTheBandwidthShare) {
    DeviceLimits unknown = kH100;
    unknown.peak_dram_gbps = 0;
    const DeviceLimits twice = twice_h100_bandwidth();
    const std::vector<DeviceLimits> gpus = {kH100, unknown, cluster_classes()[1], kH200, twice};
    std::map<std::string, int> more;
    for (const DeviceLimits& limits : gpus) {
        const double need = 1024 * best::sm_bandwidth_vs_h100(limits);
        for (DType t : {DType::f32, DType::f16, DType::bf16}) {
            const int vec = 16 / dtype_size(t);
            for (int64_t cols = 1; cols <= 64 * vec; ++cols) {
                for (const bool aligned : {true, false}) {
                    for (const bool flat : {true, false}) {
                        const Config c = best::choose_for(cols, t, aligned, flat, limits, nullptr);
                        if (c.path != Path::kGroup) continue;
                        SCOPED_TRACE(std::to_string(cols) + " " + dtype_name(t) +
                                     (aligned ? " aligned" : " unaligned") +
                                     (flat ? ", flat, " : ", ") + limits.name + " at " +
                                     std::to_string(limits.peak_dram_gbps) +
                                     " GB/s: " + c.describe());
                        // The packs of a row's frame, as choose() counts them (a misaligned row
                        // straddles one more).
                        const int64_t packs = (cols + (aligned ? 0 : vec - 1) + vec - 1) / vec;
                        const int64_t warp_bytes =
                            int64_t{c.rows_per_group()} * (32 / c.width) * packs * 16;
                        const int warps = c.threads / 32;
                        ASSERT_EQ(c.threads % 32, 0);
                        ASSERT_GE(warps, 1);
                        ASSERT_LE(warps, 4);
                        if (best::sm_bandwidth_vs_h100(limits) == 1.0) {
                            ASSERT_EQ(warps, 1);  // as measured on an H100
                        } else {
                            if (warps < 4) ASSERT_GE(warps * warp_bytes, need);        // enough...
                            if (warps > 1) ASSERT_LT((warps - 1) * warp_bytes, need);  // fewest
                        }
                        // More bandwidth an SM never takes a warp away.
                        DeviceLimits faster = limits;
                        faster.peak_dram_gbps = (limits.peak_dram_gbps > 0 ? limits.peak_dram_gbps
                                                                           : kH100.peak_dram_gbps) *
                                                1.3;
                        ASSERT_GE(best::choose_for(cols, t, aligned, flat, faster, nullptr).threads,
                                  c.threads);
                        if (warps > 1) ++more[limits.name + std::to_string(limits.peak_dram_gbps)];
                    }
                }
            }
        }
    }
    // On an H200 rows of 1 KB a warp take two (fp32 N = 32 and 128, measured 79 -> 100% there);
    // rows of 2 KB a warp keep one.
    EXPECT_GT(more[kH200.name + std::to_string(kH200.peak_dram_gbps)], 50);
    EXPECT_EQ(best::choose_for(32, DType::f32, true, true, kH200, nullptr).threads, 64);
    EXPECT_EQ(best::choose_for(128, DType::f16, true, true, kH200, nullptr).threads, 64);
    EXPECT_EQ(best::choose_for(256, DType::f32, true, true, kH200, nullptr).threads, 32);
    EXPECT_EQ(best::choose_for(32, DType::f32, true, true, kH100, nullptr).threads, 32);
}

// Where an SM moves more bytes a second than an H100's, the grid in two teams needs more warps
// an SM (its two blocks: 8 packs a thread at least 10 warps on an H100, 4 packs 16, times the
// share), and the held grid takes the rows of the 16-block stash of 512 threads and the fp32
// rows of 16-block clusters of two blocks an SM. On an H100, and where an SM has less bandwidth,
// the rules are as they were measured there.
TEST(BestDispatch, TwoTeamGridsStashAndClustersFollowTheBandwidthShare) {
    const DeviceLimits pcie = cluster_classes()[1], twice = twice_h100_bandwidth();
    // An occupancy answer: the grid twice an SM up to 224 threads a block; a cluster shape as
    // choose() counts it without a GPU.
    const auto resident = [](const Config& c) {
        return c.path == Path::kGrid ? (c.threads > 224 ? 1 : 2) : cluster_blocks_without_gpu(c);
    };
    std::map<std::string, int> two_teams, held, stash512, two_block_clusters;
    std::mt19937_64 gen(37);
    for (int i = 0; i < 2000; ++i) {
        // fp32 N from 2^17 to 2^21, log-uniform (16-bit rows of the same bytes: twice that)
        const double u = std::uniform_real_distribution<double>(17, 21)(gen);
        const int64_t n = static_cast<int64_t>(std::exp2(u));
        const bool aligned = gen() % 4 != 0;
        for (const DeviceLimits& limits : {kH100, pcie, kH200, twice}) {
            const double share = best::sm_bandwidth_vs_h100(limits);
            const std::string gpu = limits.name + " " + std::to_string(limits.peak_dram_gbps);
            for (DType t : {DType::f32, DType::f16, DType::bf16}) {
                const int64_t cols = dtype_size(t) == 4 ? n : 2 * n;
                const Config c = pick(cols, t, aligned, limits, resident);
                SCOPED_TRACE(std::to_string(cols) + " " + dtype_name(t) +
                             (aligned ? " aligned, " : " unaligned, ") + gpu + ": " + c.describe());
                if (c.path == Path::kGrid && !c.held_grid() && c.grid_teams() == 2) {
                    ++two_teams[gpu];
                    const int least = c.packs == 8 ? 10 : 16;  // warps an SM on an H100
                    // (16-bit rows of whole sectors drop the edge warp after the rule counted it)
                    const int threads = c.threads + (c.packs == 4 && c.edges < 0 ? 32 : 0);
                    ASSERT_GE(2 * threads, 32 * static_cast<int>(least * share + 0.99));
                }
                if (c.held_grid()) ++held[gpu];
                if (c.path == Path::kCluster && c.cluster == 16 && c.threads == 512 &&
                    c.stash > 0) {
                    ++stash512[gpu];
                    ASSERT_EQ(share, 1.0) << "a stash where the held grid should take the row";
                }
                if (c.path == Path::kCluster && c.cluster == 16 && c.stash == 0 &&
                    dtype_size(t) == 4 && resident(c) <= 2) {
                    ++two_block_clusters[gpu];
                    ASSERT_EQ(share, 1.0) << "two blocks an SM where the held grid should run";
                }
            }
        }
    }
    // The H100's rules still choose both two-team grids and the stash; the H200 neither.
    const std::string h100 = kH100.name + " " + std::to_string(kH100.peak_dram_gbps);
    const std::string h200 = kH200.name + " " + std::to_string(kH200.peak_dram_gbps);
    EXPECT_GT(two_teams[h100], 100);
    EXPECT_GT(stash512[h100], 100);
    EXPECT_GT(two_block_clusters[h100], 50);
    EXPECT_EQ(two_teams[h200], 0);
    EXPECT_GT(held[h200], held[h100] + 500);
    // Rows of the 8-pack grid's band on an H100 take the held grid on an H200.
    EXPECT_EQ(pick(1200000, DType::f16, true, kH100, resident).describe(),
              "grid 132 blocks x 160 threads x 8 packs, lag 2, 2 rows ahead, 2 teams");
    EXPECT_TRUE(pick(1200000, DType::f16, true, kH200, resident).held_grid());
}

// fp32 rows of one block: on an H100 2 packs a thread wherever the block fits; where an SM moves
// more bytes a second, 2 packs only where the block keeps 2 rows an SM times the share, else the
// shape with the most rows, and a cluster where one block would be alone on its SM. Every move
// away from the H100's pick keeps more rows an SM. The occupancy answer counts registers as the
// occupancy calculator does (by warps, in 256s; 64K an SM; 2048 threads, 32 blocks): 28
// registers at 2 packs, 32 at 4, 54 at 8 (64 in clusters), ptxas's counts for the fp32 kernels.
TEST(BestDispatch, Fp32OneBlockRowsKeepRowsByTheBandwidthShare) {
    const auto resident = [](const Config& c) {
        if (c.path != Path::kCluster || c.stash > 0) return cluster_blocks_without_gpu(c);
        const int regs = c.packs == 2 ? 28 : c.packs == 4 ? 32 : c.cluster > 1 ? 64 : 54;
        const int per_warp = (regs * 32 + 255) / 256 * 256;
        return std::min({65536 / (per_warp * (c.threads / 32)), 2048 / c.threads, 32});
    };
    // Rows an SM of a shape: its resident blocks over the blocks a row takes.
    const auto rows_an_sm = [&](const Config& c) {
        return static_cast<double>(resident(c)) / std::max(1, c.cluster);
    };
    const DeviceLimits pcie = cluster_classes()[1], twice = twice_h100_bandwidth();
    std::map<std::string, int> two_packs, moved, clusters;
    std::mt19937_64 gen(41);
    for (int i = 0; i < 3000; ++i) {
        // fp32 N from 257 to 2^15, log-uniform: the rows one block holds
        const double u = std::uniform_real_distribution<double>(std::log2(257.0), 15)(gen);
        const int64_t n = static_cast<int64_t>(std::exp2(u));
        const bool aligned = gen() % 4 != 0;
        const int64_t packs = (n + (aligned ? 0 : 3) + 3) / 4;
        if (packs <= 64) continue;  // the group kernel's rows
        const int two_pack_threads = static_cast<int>((packs + 1) / 2 + 31) / 32 * 32;
        const Config h100 = pick(n, DType::f32, aligned, kH100, resident);
        for (const DeviceLimits& limits : {kH100, pcie, kH200, twice}) {
            const double share = best::sm_bandwidth_vs_h100(limits);
            const std::string gpu = limits.name + " " + std::to_string(limits.peak_dram_gbps);
            const Config c = pick(n, DType::f32, aligned, limits, resident);
            SCOPED_TRACE(std::to_string(n) + (aligned ? " aligned, " : " unaligned, ") + gpu +
                         ": " + c.describe() + " (H100: " + h100.describe() + ")");
            ASSERT_EQ(c.path, Path::kCluster);
            const bool one_block_two_packs = c.cluster == 1 && c.packs == 2 && c.stash == 0;
            if (one_block_two_packs) ++two_packs[gpu];
            if (c.cluster > 1) ++clusters[gpu];
            if (share == 1.0) {
                // The H100's rule: 2 packs wherever the block fits.
                if (two_pack_threads <= 1024) ASSERT_TRUE(one_block_two_packs);
                continue;
            }
            if (one_block_two_packs) ASSERT_GE(resident(c), static_cast<int>(2 * share + 0.99));
            if (c.describe() != h100.describe()) {
                ++moved[gpu];
                ASSERT_GT(rows_an_sm(c), rows_an_sm(h100));
            }
        }
    }
    const std::string h100 = kH100.name + " " + std::to_string(kH100.peak_dram_gbps);
    const std::string h200 = kH200.name + " " + std::to_string(kH200.peak_dram_gbps);
    // Both rules occur on an H200: blocks of 2 packs that keep three rows, and moves to shapes
    // of more rows, among them clusters where the H100 keeps one block.
    EXPECT_GT(two_packs[h200], 300);
    EXPECT_GT(moved[h200], 300);
    EXPECT_GT(clusters[h200], clusters[h100] + 50);
    // fp32 N = 5724 (on an H200 ran at 79.8% of copy in one block of 736 threads, two an SM; at
    // 95.9% in blocks of 192 threads x 8 packs, bench/results/2026-11-28/h200-reduce/).
    EXPECT_EQ(pick(5724, DType::f32, true, kH100, resident).describe(),
              "cluster 1 x 736 threads x 2 packs");
    EXPECT_EQ(pick(5724, DType::f32, true, kH200, resident).describe(),
              "cluster 1 x 192 threads x 8 packs");
}

// Rows on portable clusters (2-8 blocks of at most 512 threads, by rows in flight, ties to fewer
// blocks): where an SM moves more bytes a second than an H100's and that cluster keeps two blocks
// an SM or fewer, 16 blocks of at most 512 threads take the row exactly where they keep more
// blocks an SM and at least as many rows in flight; never on an H100. The occupancy answer:
// blocks_at_56_registers.
TEST(BestDispatch, PortableTwoBlockClustersTakeSixteenBlocksOnFasterDram) {
    const auto resident = blocks_at_56_registers;
    const DeviceLimits twice = twice_h100_bandwidth();
    std::map<std::string, int> moved, kept;
    std::mt19937_64 gen(53);
    for (int i = 0; i < 20000; ++i) {
        const DType t = std::array{DType::f32, DType::f16, DType::bf16}[gen() % 3];
        const int vec = 16 / dtype_size(t);
        // The rows of 8 packs a thread on 2-16 blocks: 2^15 to 2^18 bytes, log-uniform.
        const double u = std::uniform_real_distribution<double>(15.0, 18.0)(gen);
        const int64_t n = static_cast<int64_t>(std::exp2(u)) / dtype_size(t);
        const bool aligned = gen() % 4 != 0;
        const int64_t packs = (n + (aligned ? 0 : vec - 1) + vec - 1) / vec;
        const Config h100 = pick(n, t, aligned, kH100, resident);
        const Config sixteen = sixteen_block_cluster(packs);
        const bool portable = h100.path == Path::kCluster && h100.cluster >= 2 &&
                              h100.cluster <= 8 && h100.stash == 0;
        const bool rule = portable && resident(h100) <= 2 && sixteen.threads <= 512 &&
                          resident(sixteen) > resident(h100) &&
                          int64_t{resident(sixteen)} * h100.cluster >= int64_t{resident(h100)} * 16;
        for (const DeviceLimits& limits : {kH100, kH200, twice}) {
            const Config c = pick(n, t, aligned, limits, resident);
            const std::string gpu = limits.name + " " + std::to_string(limits.peak_dram_gbps);
            SCOPED_TRACE(std::to_string(n) + " " + dtype_name(t) +
                         (aligned ? " aligned, " : " unaligned, ") + gpu + ": " + c.describe() +
                         " (H100: " + h100.describe() + ")");
            if (!portable) continue;
            if (best::sm_bandwidth_vs_h100(limits) > 1.0 && rule) {
                ASSERT_EQ(c.describe(), sixteen.describe());
                ++moved[gpu];
            } else {
                ASSERT_EQ(c.describe(), h100.describe());
                ++kept[gpu];
            }
        }
    }
    const std::string h100 = kH100.name + " " + std::to_string(kH100.peak_dram_gbps);
    const std::string h200 = kH200.name + " " + std::to_string(kH200.peak_dram_gbps);
    EXPECT_EQ(moved[h100], 0);
    // A narrow band (on an H200 fp32 N ~ 60000-66000 and ~112000-131000, 16-bit N ~
    // 200000-262000), and most portable clusters kept (three blocks an SM or more, or fewer rows
    // in flight on 16 blocks).
    EXPECT_GT(moved[h200], 80);
    EXPECT_GT(kept[h200], 5 * moved[h200]);
    // fp32 N = 115001 on an H200: 8 x 480 threads at 90.7% of copy, 16 x 256 at 96.4%
    // (bench/results/2026-11-28/h200-cluster-blocks/); fp16 N = 204629: 88.8 -> 95.8%.
    EXPECT_EQ(pick(115001, DType::f32, true, kH100, resident).describe(),
              "cluster 8 x 480 threads x 8 packs");
    EXPECT_EQ(pick(115001, DType::f32, true, kH200, resident).describe(),
              "cluster 16 x 256 threads x 8 packs");
    EXPECT_EQ(pick(204629, DType::f16, true, kH200, resident).describe(),
              "cluster 16 x 224 threads x 8 packs");
}

// 16-bit rows on 16-block clusters [fp16 N 262145-524288]: where an SM moves more bytes a second
// than an H100's and the cluster keeps two blocks an SM (or would need the stash for a third),
// the held grid, where its teams use as many SMs as whole clusters of two blocks an SM do; never
// on an H100, and never where the registers keep three blocks an SM. The occupancy answer is
// ptxas's count for the 16-bit 8-pack cluster kernels (56 registers, sm_90).
TEST(BestDispatch, SixteenBitTwoBlockClustersTakeTheHeldGridWhereItKeepsTheSMs) {
    const auto resident = blocks_at_56_registers;
    const DeviceLimits twice = twice_h100_bandwidth();
    std::map<std::string, int> held, kept_two, three;
    std::mt19937_64 gen(29);
    for (int i = 0; i < 2000; ++i) {
        const double u = std::uniform_real_distribution<double>(18.0 + 1e-6, 19.0)(gen);
        const int64_t n = static_cast<int64_t>(std::exp2(u));
        const DType t = gen() % 2 ? DType::f16 : DType::bf16;
        const bool aligned = gen() % 4 != 0;
        const int64_t packs = (n + (aligned ? 0 : 7) + 7) / 8;
        // The 16-block cluster this row takes before any rule moves it.
        const Config cl = sixteen_block_cluster(packs);
        const int blocks = resident(cl);
        for (const DeviceLimits& limits : {kH100, kH200, twice}) {
            const Config c = pick(n, t, aligned, limits, resident);
            const std::string gpu = limits.name + " " + std::to_string(limits.peak_dram_gbps);
            SCOPED_TRACE(std::to_string(n) + (aligned ? " aligned, " : " unaligned, ") + gpu +
                         ": " + c.describe() + " (cluster of " + std::to_string(cl.threads) + ", " +
                         std::to_string(blocks) + " an SM)");
            if (c.path == Path::kGrid) {
                ++held[gpu];
                ASSERT_GT(best::sm_bandwidth_vs_h100(limits), 1.0);
                ASSERT_LE(blocks, 2);
                const int64_t cluster_sms = int64_t{limits.sm_count} * blocks / 16 * 16 / blocks;
                ASSERT_GE(int64_t{c.cluster} * c.grid_teams(), cluster_sms);
                ASSERT_EQ(c.threads, 1024);  // one block an SM
            } else {
                ASSERT_EQ(c.path, Path::kCluster);
                ASSERT_EQ(c.cluster, 16);
                if (blocks >= 3) ++three[gpu];
                if (blocks <= 2 && c.stash == 0) ++kept_two[gpu];
            }
        }
    }
    const std::string h100 = kH100.name + " " + std::to_string(kH100.peak_dram_gbps);
    const std::string h200 = kH200.name + " " + std::to_string(kH200.peak_dram_gbps);
    // On an H200 the rule takes a good share of the range and leaves some two-block clusters
    // (the 512-thread blocks, where its 7-block teams would idle 6 SMs); three-block clusters stay.
    EXPECT_GT(held[h200], 400);
    EXPECT_GT(kept_two[h200], 50);
    EXPECT_EQ(three[h200], three[h100]);
    EXPECT_GT(three[h200], 300);
    // bf16 N = 418109: 16 x 416 threads (83.3% of copy on an H200), the held grid there (87.2%).
    EXPECT_EQ(pick(418109, DType::bf16, true, kH100, resident).describe(),
              "cluster 16 x 416 threads x 8 packs");
    EXPECT_EQ(pick(418109, DType::bf16, true, kH200, resident).describe(),
              "held grid 6 blocks x 1024 threads x 6 packs + 12 in shared memory, 22 teams, 2 rows "
              "a team, 2 prefetched into L2");
}

TEST(BestDispatch, LongRowsSplitOverClustersThenTwoPasses) {
    EXPECT_EQ(pick(65536).describe(), "cluster 4 x 512 threads x 8 packs");
    EXPECT_EQ(pick(100003, DType::f32, false).describe(), "cluster 7 x 448 threads x 8 packs");
    // Of the sizes that fit in 512 threads, the one with the most rows in flight: blocks per SM
    // (here 1024 threads an SM, 64 registers each) x 132 SMs / blocks per cluster, ties to fewer
    // blocks. fp16 N = 100003 is 12502 packs: 4 x 416 threads keep 66 rows, 5 x 320 79, 7 x 224
    // 75. fp32 N = 90000: 6 x 480 keep 44, 8 x 352 33 (fewer dead slots, measured 87% against
    // 95%).
    EXPECT_EQ(pick(100003, DType::f16, false).describe(), "cluster 5 x 320 threads x 8 packs");
    EXPECT_EQ(pick(90000).describe(), "cluster 6 x 480 threads x 8 packs");
    EXPECT_EQ(pick(4 * 12288).describe(), "cluster 3 x 512 threads x 8 packs");  // 6 x 256 ties
    // The occupancy calculator decides where there is one: were 224 threads to fit 6 times, 7
    // blocks would keep 113 rows in flight against 5 x 320's 79.
    auto roomy_224 = [](const Config& c) { return c.threads == 224 ? 6 : 1024 / c.threads; };
    EXPECT_EQ(pick(100003, DType::f16, false, kH100, roomy_224).describe(),
              "cluster 7 x 224 threads x 8 packs");
    EXPECT_EQ(pick(131072).describe(), "cluster 8 x 512 threads x 8 packs");
    // Past 8 blocks of 512: 16 blocks (non-portable) of 512 threads x 8 packs in registers...
    EXPECT_EQ(pick(131076).describe(), "cluster 16 x 288 threads x 8 packs");
    EXPECT_EQ(pick(262144).describe(), "cluster 16 x 512 threads x 8 packs");
    // ...except where those keep two blocks an SM (over 320 threads at 64 registers, without a
    // GPU to ask) and the largest size that keeps three needs at most one pack a thread in
    // shared memory (two in 16 bits): 175162 fp32 values are 2744 packs a block, 9 a thread of
    // 320; 190000 would need 10.
    EXPECT_EQ(pick(175162).describe(), "cluster 16 x 320 threads x 8 packs + 1 in shared memory");
    EXPECT_EQ(pick(190000).describe(), "cluster 16 x 384 threads x 8 packs");
    // 16-bit rows count up to 10 packs a thread (6 of them in registers: stash_register_packs).
    EXPECT_EQ(pick(400003, DType::bf16, false).describe(),
              "cluster 16 x 320 threads x 6 packs + 4 in shared memory");
    // Where the occupancy calculator says the registers keep three blocks, they stay.
    auto roomy_352 = [](const Config& c) { return c.threads == 352 && c.stash == 0 ? 3 : 2; };
    EXPECT_EQ(pick(175162, DType::f32, true, kH100, roomy_352).describe(),
              "cluster 16 x 352 threads x 8 packs");
    // ...then the same blocks with the rest of each thread's share of the slice in shared
    // memory (the stash), while two blocks fit an SM: 2 x (stash + 2 KB) <= 228 KB without a GPU
    // to ask. 262148 values: 65537 packs, a slice of 4104 (whole 128-byte lines), 9 a thread.
    EXPECT_EQ(pick(262148).describe(), "cluster 16 x 512 threads x 8 packs + 1 in shared memory");
    EXPECT_EQ(pick(300000).describe(), "cluster 16 x 512 threads x 8 packs + 2 in shared memory");
    EXPECT_EQ(pick(393216).describe(), "cluster 16 x 512 threads x 8 packs + 4 in shared memory");
    // Rows of whole packs on 16 bytes take the grid where it runs two teams of 256 threads a
    // block (2 MB rows), finishing a row 4 steps after reducing it...
    EXPECT_EQ(pick(524288).describe(),
              "grid 132 blocks x 256 threads x 4 packs, lag 4, 2 rows ahead, 2 teams");
    EXPECT_EQ(pick(540672).describe(), pick(524288).describe());
    // ...where the rows are whole 128-byte lines: off a line, the grid's blocks have the edge
    // warp too (288 threads), too many for two teams, so the stash.
    EXPECT_EQ(pick(524280).describe(), "cluster 16 x 512 threads x 8 packs + 8 in shared memory");
    // ...other rows stay with the stash, up to 14 packs a thread there (fp32 N ~ 700000).
    EXPECT_EQ(pick(524289).describe(), "cluster 16 x 512 threads x 8 packs + 9 in shared memory");
    EXPECT_EQ(pick(524288, DType::f32, false).describe(), pick(524289).describe());
    EXPECT_EQ(pick(600001).describe(), "cluster 16 x 512 threads x 8 packs + 11 in shared memory");
    EXPECT_EQ(pick(680001).describe(), "cluster 16 x 512 threads x 8 packs + 13 in shared memory");
    // At 14 packs there (22 in all), fp32 rows leave the stash. 16-bit rows hold 6 of their
    // packs in registers, so their stash is 2 packs a thread larger: it fits twice an SM up to
    // 20 packs in all (6 + 14, 114 KB a block), and past that they leave it too. Without a GPU
    // to ask whether the 8-pack grid fits twice an SM, the 4-pack grid in one team would have
    // 11 warps past its edge warp there (352 threads + 32), too few: the held grid, whose
    // blocks hold it two rows a team in 7 teams of 18 (one row a team would take 16 teams of 8;
    // OneTeamGridsHaveTwelveWarpsOrTheHeldGrid below).
    EXPECT_EQ(pick(700001).describe(),
              "held grid 18 blocks x 1024 threads x 6 packs + 14 in shared memory, 7 teams, 2 rows "
              "a team, 2 prefetched into L2");
    EXPECT_EQ(pick(1300001, DType::bf16).describe(),
              "cluster 16 x 512 threads x 6 packs + 14 in shared memory");
    EXPECT_EQ(pick(1400001, DType::bf16).describe(), pick(700001).describe());
    EXPECT_EQ(pick(540673).describe(), "cluster 16 x 512 threads x 8 packs + 9 in shared memory");
    // Past 14 (2.75 MB rows), one team of the grid, lag 4. Rows that are not whole lines add
    // the edge warp to the threads that hold their main packs (196600 of them at N = 786433:
    // 1496 a block, 374 threads); past 512 threads, the kWide kernel at lag 3.
    EXPECT_EQ(pick(786432).describe(),
              "grid 132 blocks x 384 threads x 4 packs, lag 4, 2 rows ahead");
    EXPECT_EQ(pick(786433).describe(),
              "grid 132 blocks x 416 threads x 4 packs, lag 4, 2 rows ahead");
    EXPECT_EQ(pick(int64_t{1} << 20).describe(),
              "grid 132 blocks x 512 threads x 4 packs, lag 4, 2 rows ahead");
    EXPECT_EQ(pick(1000003).describe(),
              "grid 132 blocks x 512 threads x 4 packs, lag 4, 2 rows ahead");
    EXPECT_EQ(pick((int64_t{1} << 20) - 1).describe(),
              "grid 132 blocks x 544 threads x 4 packs, lag 3, 2 rows ahead");
    // 16-bit rows there: whole packs off a line skip the edge warp (the kWide kernel spills in
    // 16 bits); rows with edges take the held grid.
    EXPECT_EQ(pick(2103144, DType::f16).describe(),
              "grid 132 blocks x 512 threads x 4 packs, lag 4, 2 rows ahead, no edge warp");
    EXPECT_EQ(pick(2103145, DType::bf16).describe(),
              "held grid 26 blocks x 1024 threads x 6 packs + 14 in shared memory, 5 teams, 2 rows "
              "a team, 2 prefetched into L2");
    EXPECT_EQ(pick(2103144, DType::f32).describe(),
              "held grid 66 blocks x 1024 threads x 6 packs + 10 in shared memory, 2 teams, 2 rows "
              "a team, 2 prefetched into L2");
    // Where the occupancy calculator says a stash fits only once an SM, the stash is not taken.
    auto one_stash = [](const Config& c) { return c.stash > 0 ? 1 : 2; };
    EXPECT_EQ(pick(300000, DType::f32, true, kH100, one_stash).describe(),
              "cluster 16 x 608 threads x 8 packs");
    // (Nor the 4-pack grid in one team, which would have 8 warps past its edge warp: the held
    // grid.)
    EXPECT_EQ(
        pick(524289, DType::f32, true, kH100, one_stash).describe(),
        "held grid 13 blocks x 1024 threads x 6 packs + 14 in shared memory, 10 teams, 2 rows "
        "a team, 2 prefetched into L2");
    // From 10 packs a thread in shared memory, the grid of 8 packs in two teams where the
    // calculator says it fits twice an SM (EightPackGridFromEighteenPacksAThread below).
    EXPECT_EQ(pick(600001, DType::f32, true, kH100, one_stash).describe(),
              "grid 132 blocks x 192 threads x 8 packs, lag 2, 2 rows ahead, 2 teams");
    // The grid holds 2048 packs a block: of a row of whole 128-byte lines, or of the main packs
    // of another (all but 8 of its packs), whole packs or not.
    EXPECT_EQ(pick(132 * 2048 * 4).path, Path::kGrid);
    EXPECT_EQ(pick(132 * 2048 * 4 + 4).describe(),
              "grid 132 blocks x 544 threads x 4 packs, lag 3, 2 rows ahead");
    EXPECT_EQ(pick(132 * 2048 * 4 + 35).path, Path::kGrid);
    // Longer rows: the held grid, one block of 1024 threads an SM. Two rows a team, each in 3
    // packs a thread of registers and up to 7 of shared memory, in as many teams as hold two
    // rows (4 teams of 33 blocks past the grid, 2 of 66 up to fp32 N = 66 x 1024 x 10 x 4 =
    // 2703360)...
    EXPECT_EQ(pick(132 * 2048 * 4 + 36).describe(),
              "held grid 33 blocks x 1024 threads x 6 packs + 12 in shared memory, 4 teams, 2 rows "
              "a team, 2 prefetched into L2");
    EXPECT_EQ(pick(int64_t{1} << 21).describe(),
              "held grid 66 blocks x 1024 threads x 6 packs + 10 in shared memory, 2 teams, 2 rows "
              "a team, 2 prefetched into L2");
    EXPECT_EQ(pick(2703360).describe(),
              "held grid 66 blocks x 1024 threads x 6 packs + 14 in shared memory, 2 teams, 2 rows "
              "a team, 2 prefetched into L2");
    // ...but not in one team where one row a team runs in three or more: one row a team in 8
    // packs of registers and up to 14 of shared memory, in as many teams as hold a row (four,
    // then three while 44 x 1024 x 22 packs hold it, fp32 N = 3964928)...
    EXPECT_EQ(pick(2703364).describe(),
              "held grid 33 blocks x 1024 threads x 8 packs + 13 in shared memory, 4 teams, 4 "
              "prefetched into L2");
    EXPECT_EQ(pick(3964928).describe(),
              "held grid 44 blocks x 1024 threads x 8 packs + 14 in shared memory, 3 teams, 4 "
              "prefetched into L2");
    // ...where it runs in two, two rows in one team (without the prefetch: in one team it ran
    // 6-12 points slower at 2 of 5 N) up to 132 x 1024 x 10 x 4 = 5406720, then one row a team
    // in two teams (up to 66 x 1024 x 22 x 4 = 5947392) and one (up to 132 x 1024 x 22 x 4 =
    // 11894784).
    EXPECT_EQ(pick(3964932).describe(),
              "held grid 132 blocks x 1024 threads x 6 packs + 10 in shared memory, 2 rows a team");
    EXPECT_EQ(pick(5406720).describe(),
              "held grid 132 blocks x 1024 threads x 6 packs + 14 in shared memory, 2 rows a team");
    EXPECT_EQ(pick(5406724).describe(),
              "held grid 66 blocks x 1024 threads x 8 packs + 13 in shared memory, 2 teams, 4 "
              "prefetched into L2");
    EXPECT_EQ(pick(5947392).describe(),
              "held grid 66 blocks x 1024 threads x 8 packs + 14 in shared memory, 2 teams, 4 "
              "prefetched into L2");
    // (Whole packs count: the values past the last one are held apart.)
    EXPECT_EQ(pick(5947395).describe(), pick(5947392).describe());
    EXPECT_EQ(pick(5947396).describe(),
              "held grid 132 blocks x 1024 threads x 8 packs + 4 in shared memory, 6 prefetched "
              "into L2");
    EXPECT_EQ(pick(11894784 + 3, DType::f32, false).describe(),
              "held grid 132 blocks x 1024 threads x 8 packs + 14 in shared memory, 6 prefetched "
              "into L2");
    // Past that, one team with every place full (6 packs in registers: the streamed kernel's
    // loops need registers of their own) reads the rest of the row twice; two passes only
    // where a row has 2^31 values or more.
    EXPECT_EQ(pick(11894784 + 4).describe(),
              "held grid 132 blocks x 1024 threads x 6 packs + 14 in shared memory, the rest read "
              "twice, 2 prefetched into L2");
    EXPECT_EQ(pick(int64_t{1} << 24).describe(), pick(11894784 + 4).describe());
    EXPECT_EQ(pick(int64_t{1} << 31).describe(),
              "two-pass cluster 16 x 1024 threads, L2 evict_last/first");
    // fp16 takes the shape of the fp32 row of the same bytes.
    EXPECT_EQ(pick(262144, DType::f16).describe(), pick(131072).describe());
    EXPECT_EQ(pick(int64_t{1} << 20, DType::f16).describe(), pick(524288).describe());
    EXPECT_EQ(pick(int64_t{1} << 21, DType::bf16).describe(), pick(int64_t{1} << 20).describe());
    // On the held grid too (one row a team, fp32 N = 6000000), but for the packs in registers: 6
    // in 16 bits where the stash has room for the other 2 (hold_register_packs).
    const Config held16 = pick(12000000, DType::bf16), held32 = pick(6000000);
    EXPECT_EQ(held16.cluster, held32.cluster);
    EXPECT_EQ(held16.grid_teams(), held32.grid_teams());
    EXPECT_EQ(held16.packs + held16.stash, held32.packs + held32.stash);
    EXPECT_EQ(held16.packs, 6);
}

// Wherever a row takes a 16-block cluster short of the stash's range, its blocks hold the
// block's slice. Where registers alone keep two blocks an SM (without a GPU to ask: 64 registers
// a thread and the block's shared memory), the largest block of fewer threads that keeps three
// is taken if it needs at most 9 packs a thread in all (10 in 16 bits), and only then.
TEST(BestDispatch, SixteenBlockClustersTakeAThirdBlockWhileItsStashIsSmall) {
    const auto blocks = cluster_blocks_without_gpu;
    int fired = 0, kept = 0;
    for (const DType t : {DType::f32, DType::f16, DType::bf16}) {
        const int vec = 16 / static_cast<int>(dtype_size(t));
        const int most_packs = t == DType::f32 ? 9 : 10;
        for (int64_t n = 131073 * vec / 4; n <= 262144 * vec / 4 - vec; n += 977) {
            for (const bool aligned : {true, false}) {
                const Config c = pick(n, t, aligned);
                SCOPED_TRACE(std::to_string(n) + " " + c.describe());
                ASSERT_EQ(c.path, Config::Path::kCluster);
                ASSERT_EQ(c.cluster, 16);
                const int64_t packs = (n + (aligned ? 0 : vec - 1) + vec - 1) / vec;
                const int64_t slice = best::slice_packs(packs, 16);
                EXPECT_GE(int64_t{c.threads} * (c.packs + c.stash), slice);
                // The largest block under 512 threads that keeps three an SM, and its packs a
                // thread in all.
                Config third = c;
                third.threads = 1024 / 3 / 32 * 32;
                const int64_t third_packs = (slice + third.threads - 1) / third.threads;
                third.packs = best::stash_register_packs(vec, 16);
                third.stash = static_cast<int>(third_packs) - third.packs;
                ASSERT_GE(blocks(third), 3);
                if (c.stash > 0) {
                    ++fired;
                    EXPECT_EQ(c.threads, third.threads);
                    EXPECT_EQ(c.packs, third.packs);
                    EXPECT_LE(c.packs + c.stash, most_packs);
                } else if (blocks(c) < 3) {
                    ++kept;
                    EXPECT_GT(third_packs, most_packs);
                }
            }
        }
    }
    EXPECT_GT(fired, 0);
    EXPECT_GT(kept, 0);
}

// Rows whose 16-block stash would hold 18 packs a thread or more in all take the grid
// of 8 packs a thread, lag 2, in two teams -- exactly where the occupancy calculator says two of
// its blocks fit an SM, and where the 4-pack grid in one team would have fewer than 13 warps
// past its edge warp. A rule over packs, so fp32 and 16-bit rows alike; never without a GPU to
// ask.
TEST(BestDispatch, EightPackGridFromEighteenPacksAThread) {
    // Calculators for which a grid fits twice an SM up to `most` threads a block
    // (grid_twice_to), and never.
    auto grid_once = [](const Config& c) { return c.path == Path::kGrid ? 1 : 2; };
    auto eight = [](const Config& c) {
        return c.path == Path::kGrid && c.packs == 8 && c.lag == 2;
    };
    std::mt19937_64 gen(11);
    std::map<DType, int> taken;
    for (int i = 0; i < 3000; ++i) {
        // Up to twice the grid's fp32 reach: 16-bit rows of the same bytes hold twice the N.
        const int64_t cols = 262144 + int64_t(gen() % (2 * 1081344 - 262144));
        const bool aligned = gen() % 2 == 0;
        const int most = std::array{192, 224, 256}[gen() % 3];
        for (DType t : {DType::f32, DType::f16, DType::bf16}) {
            const Config c = pick(cols, t, aligned, kH100, grid_twice_to(most));
            const Config without = pick(cols, t, aligned, kH100, grid_once);  // the rule cannot
            SCOPED_TRACE(std::to_string(cols) + " " + dtype_name(t) +
                         (aligned ? " aligned, " : " unaligned, ") + std::to_string(most) + ": " +
                         c.describe() + " / without: " + without.describe());
            if (eight(c)) {
                ++taken[t];
                ASSERT_EQ(c.grid_teams(), 2);
                ASSERT_EQ(c.cluster, kH100.sm_count);
                ASSERT_LE(c.threads, most);
                ASSERT_LE(c.threads, best::grid_max_threads(8));
                // Where the 4-pack grid in one team would have 13 warps past its edge warp or
                // more, that grid. (Without the 8-pack grid, under 12 warps take the held grid.)
                if (without.path == Path::kGrid && !without.held_grid()) {
                    const bool lines = best::grid_whole_lines(cols, 16 / dtype_size(t), aligned);
                    const int edge = without.edges < 0 || lines ? 0 : 32;
                    ASSERT_LT(without.threads - edge, best::kGridOneTeamFullThreads);
                }
                // In place of the 16-block stash at 18 packs a thread or more in all (or of the
                // 4-pack grid that takes the stash's place from 22, or the held grid that takes
                // the 4-pack grid's where it would have under 12 warps).
                const bool stash_18 =
                    without.path == Path::kCluster && without.packs + without.stash >= 18;
                const bool grid4 =
                    without.path == Path::kGrid && (without.packs == 4 || without.held_grid());
                ASSERT_TRUE(stash_18 || grid4);
                // A calculator that fits more never takes it away.
                ASSERT_TRUE(eight(pick(cols, t, aligned, kH100, grid_twice_to(256))));
            } else {
                ASSERT_EQ(c.describe(), without.describe());  // elsewhere the rule changes nothing
            }
            // Without a GPU to ask: never.
            ASSERT_FALSE(eight(pick(cols, t, aligned, kH100)));
        }
    }
    for (DType t : {DType::f32, DType::f16, DType::bf16}) EXPECT_GT(taken[t], 50) << dtype_name(t);
}

// The grid in one team runs faster the more warps it has, and needs more where an SM's share of
// the DRAM's bandwidth is larger: where it would have fewer warps past its edge warp than
// grid_one_team_least_threads asks (12 on an H100), the held grid takes the row (16-bit rows
// with edges at N ~ 1360000-1487000 on an H100, which the 8-pack grid cannot hold two blocks an
// SM of; every one-team row on an H200). Drawn over the grid's range, every dtype and alignment,
// on three classes with clusters at four bandwidths each, with no GPU to ask and with
// calculators that fit the 8-pack grid twice an SM up to 192, 224 or 256 threads.
TEST(BestDispatch, OneTeamGridsHaveTheWarpsTheirBandwidthAsksOrTheHeldGrid) {
    // The warps asked: 12 at an H100's share or less, or where the bandwidth is unknown; more
    // in proportion past it; never fewer as the share grows.
    DeviceLimits l = kH100;
    EXPECT_EQ(best::grid_one_team_least_threads(l), 384);
    l.peak_dram_gbps = 0;
    EXPECT_EQ(best::grid_one_team_least_threads(l), 384);
    l.peak_dram_gbps = 1000;
    EXPECT_EQ(best::grid_one_team_least_threads(l), 384);
    l.peak_dram_gbps = kH100.peak_dram_gbps * 1.5;
    EXPECT_EQ(best::grid_one_team_least_threads(l), 18 * 32);
    int last = 0;
    for (double gbps = 500; gbps < 9000; gbps *= 1.05) {
        l.peak_dram_gbps = gbps;
        ASSERT_GE(best::grid_one_team_least_threads(l), last) << gbps;
        last = best::grid_one_team_least_threads(l);
    }
    std::mt19937_64 gen(23);
    std::map<double, int> held, grids;
    int fast_grids = 0, fast_held = 0;  // where an SM's share is an H200's or more
    for (const DeviceLimits& base : cluster_classes()) {
        for (const double scale : {0.0, 1.0, 1.25, kH200.peak_dram_gbps / kH100.peak_dram_gbps}) {
            DeviceLimits limits = base;
            limits.peak_dram_gbps = base.peak_dram_gbps * scale;
            for (int i = 0; i < 600; ++i) {
                const int64_t cols = 393216 + int64_t(gen() % (2 * 1081344 - 393216));
                const bool aligned = gen() % 2 == 0;
                const int most = std::array{0, 192, 224, 256}[gen() % 4];
                const best::ResidentBlocks resident =
                    most == 0 ? best::ResidentBlocks{} : grid_twice_to(most);
                for (DType t : {DType::f32, DType::f16, DType::bf16}) {
                    const Config c = pick(cols, t, aligned, limits, resident);
                    SCOPED_TRACE(std::to_string(cols) + " " + dtype_name(t) +
                                 (aligned ? " aligned, " : " unaligned, ") + std::to_string(most) +
                                 ", " + std::to_string(limits.sm_count) + " SMs, " +
                                 std::to_string(limits.peak_dram_gbps) + " GB/s: " + c.describe());
                    const bool fast = limits.peak_dram_gbps / limits.sm_count >=
                                      kH200.peak_dram_gbps / kH200.sm_count;
                    if (c.path != Path::kGrid) continue;
                    if (c.held_grid()) {
                        ++held[scale];
                        fast_held += fast;
                        continue;
                    }
                    if (c.grid_teams() != 1) continue;
                    ++grids[scale];
                    fast_grids += fast;
                    const int vec = 16 / dtype_size(t);
                    const bool edge_warp =
                        c.edges >= 0 && !best::grid_whole_lines(cols, vec, aligned);
                    ASSERT_GE(c.threads - (edge_warp ? 32 : 0),
                              best::grid_one_team_least_threads(limits));
                    // A GPU of less bandwidth a SM keeps the grid there.
                    DeviceLimits slower = limits;
                    slower.peak_dram_gbps = limits.peak_dram_gbps * 0.8;
                    ASSERT_EQ(pick(cols, t, aligned, slower, resident).describe(), c.describe());
                }
            }
        }
    }
    for (const double scale : {0.0, 1.0, 1.25}) {
        EXPECT_GT(held[scale], 100) << scale;
        EXPECT_GT(grids[scale], 100) << scale;
    }
    // An H200's share asks for more warps than the 4-pack grid's blocks have: no grid in one
    // team, and more held-grid rows than at an H100's.
    EXPECT_EQ(fast_grids, 0);
    EXPECT_GT(fast_held, 500);
    const double h200 = kH200.peak_dram_gbps / kH100.peak_dram_gbps;
    EXPECT_GT(held[h200], held[1.0] + 100);
    // The rows it was measured at, with an H100's answers: the 16-bit 8-pack grid fits two
    // blocks of 192 threads an SM, not 224; a stash as many blocks as its shared memory and the
    // 1 KB the SM keeps for each fit. Two rows a team in 7 teams of 18 blocks (one row a team
    // would take 16 teams of 8), and at 12 warps the grid; on an H200, two rows a team there too.
    const best::ResidentBlocks h100 = [](const Config& c) {
        if (c.path == Path::kGrid) return c.threads > 192 ? 1 : 2;
        return static_cast<int>(kH100.smem_per_sm / (int64_t{c.stash} * c.threads * 16 + 1024));
    };
    EXPECT_EQ(pick(1363602, DType::f16, true, kH100, h100).describe(),
              "held grid 18 blocks x 1024 threads x 6 packs + 14 in shared memory, 7 teams, 2 rows "
              "a team, 2 prefetched into L2");
    EXPECT_EQ(pick(1514302, DType::bf16, true, kH100, h100).describe(),
              "grid 132 blocks x 416 threads x 4 packs, lag 4, 2 rows ahead");
    EXPECT_EQ(pick(1514302, DType::bf16, true, kH200, h100).describe(),
              "held grid 22 blocks x 1024 threads x 6 packs + 12 in shared memory, 6 teams, 2 rows "
              "a team, 2 prefetched into L2");
}

// A 16-bit row on the held grid takes the teams, blocks and threads of the fp32 row of the same
// bytes (8 packs a thread in registers decide them); where its blocks run alone on their SMs
// (1024 threads) and hold one row a team, it holds 6 of a thread's packs in registers wherever
// the stash has room for the other 2, and only there. Two rows a team take the same shape in
// every dtype (6 packs). Drawn over the held grid's range, on the H100 and on classes of other
// SM counts and shared memory (no GPU to ask).
TEST(BestDispatch, SixteenBitHeldRowsAloneOnAnSmHoldSixInRegisters) {
    std::mt19937_64 gen(29);
    std::map<int, int> seen;  // register packs (2: two rows a team) -> 16-bit held rows
    for (const DeviceLimits& limits : cluster_classes()) {
        const int64_t stash_1024 = held_stash(limits);
        for (int i = 0; i < 1500; ++i) {
            // Even N in [2^21, 2^25): fp32 rows of half as many values are the same bytes.
            const int64_t cols = (int64_t{1} << 21) + int64_t(gen() % (int64_t{15} << 21)) / 2 * 2;
            for (DType t : {DType::f16, DType::bf16}) {
                const Config c = pick(cols, t, true, limits);
                const Config f = pick(cols / 2, DType::f32, true, limits);
                SCOPED_TRACE(std::to_string(cols) + " " + dtype_name(t) + ": " + c.describe() +
                             " / fp32: " + f.describe());
                if (!c.held_grid() || c.stream != 0 || !f.held_grid() || f.stream != 0) continue;
                ASSERT_EQ(c.held_rows(), f.held_rows());
                if (f.held_rows() == 2) {
                    ASSERT_EQ(c.fields(), f.fields());
                    ++seen[2];
                    continue;
                }
                ASSERT_EQ(c.cluster, f.cluster);
                ASSERT_EQ(c.threads, f.threads);
                ASSERT_EQ(c.grid_teams(), f.grid_teams());
                ASSERT_EQ(c.packs + c.stash, f.packs + f.stash);  // the same places a thread
                ASSERT_EQ(f.packs, 8);
                const bool alone = c.threads == 1024;
                const bool room = f.packs + f.stash - 6 <= stash_1024;
                ASSERT_EQ(c.packs, alone && room ? 6 : 8);
                ++seen[c.packs];
            }
        }
    }
    EXPECT_GT(seen[6], 100);
    EXPECT_GT(seen[8], 100);
    EXPECT_GT(seen[2], 100);  // two rows a team
}

// The grid in two teams: 16-bit rows of whole 32-byte sectors run it without the edge warp (its
// kWhole form, edges -1); fp32 rows keep the edge warp; rows of whole 128-byte lines never had
// it. 16-bit rows of whole packs off a sector, which would need the edge warp on 256 threads,
// keep the stash instead. Drawn N on three GPU classes with clusters.
TEST(BestDispatch, SixteenBitSectorRowsRunTheTwoTeamGridWithoutTheEdgeWarp) {
    std::mt19937_64 gen(31);
    std::map<std::string, int> seen;  // "dtype rows" -> two-team grid picks
    for (const DeviceLimits& limits : cluster_classes()) {
        for (int i = 0; i < 3000; ++i) {
            const int64_t cols = 300000 + int64_t(gen() % 900000);
            for (DType t : {DType::f32, DType::f16, DType::bf16}) {
                for (bool aligned : {true, false}) {
                    const Config c = pick(cols, t, aligned, limits);
                    SCOPED_TRACE(std::to_string(cols) + " " + dtype_name(t) +
                                 (aligned ? "" : " unaligned") + ": " + c.describe());
                    const int64_t bytes = cols * dtype_size(t);
                    const bool lines = aligned && bytes % 128 == 0;
                    const bool sectors = aligned && bytes % 32 == 0;
                    const bool sixteen = t != DType::f32;
                    const bool packs_off_sector = aligned && bytes % 16 == 0 && !sectors;
                    if (sixteen && packs_off_sector && c.path == Path::kCluster && c.stash > 0)
                        ++seen[std::string(dtype_name(t)) + " packs, stash"];
                    if (c.path != Path::kGrid || c.held_grid() || c.grid_teams() != 2) continue;
                    if (sixteen && packs_off_sector) ASSERT_LT(c.threads, 256);
                    // The rule, and the block it gives: a main thread for every 4 of the
                    // row's packs over the SMs, none for the edges.
                    if (sixteen && sectors && !lines) {
                        ASSERT_EQ(c.edges, -1);
                        const int64_t slice = best::slice_packs(bytes / 16, c.cluster);
                        const int64_t main = ((slice + 3) / 4 + 31) / 32 * 32;
                        ASSERT_EQ(c.threads, std::max<int64_t>(main, (c.cluster + 31) / 32 * 32));
                    } else {
                        ASSERT_EQ(c.edges, 0);
                    }
                    ++seen[std::string(dtype_name(t)) + (lines     ? " lines"
                                                         : sectors ? " sectors"
                                                                   : " other")];
                }
            }
        }
    }
    // Each kind of row occurs among the draws (so no branch above is vacuous).
    EXPECT_GT(seen["fp16 sectors"], 20);
    EXPECT_GT(seen["bf16 sectors"], 20);
    EXPECT_GT(seen["fp16 packs, stash"], 5);
    EXPECT_GT(seen["bf16 packs, stash"], 5);
    EXPECT_GT(seen["fp32 sectors"], 5);
}

// The grid is sized by the GPU's SMs, and its workspace holds a slot per row and block.
TEST(BestDispatch, GridFollowsTheSmCountAndSizesItsWorkspace) {
    DeviceLimits pcie = kH100;
    pcie.sm_count = 114;  // an H100 PCIe: 114 x 2048 packs hold 933888 fp32 values
    pcie.peak_dram_gbps = 2039;  // its datasheet: less an SM than an SXM's
    EXPECT_EQ(pick(900000, DType::f32, true, pcie).describe(),
              "grid 114 blocks x 512 threads x 4 packs, lag 4, 2 rows ahead");
    // 2 MB rows there would leave the grid one team (288 threads a block): the stash instead.
    EXPECT_EQ(pick(524288, DType::f32, true, pcie).describe(),
              "cluster 16 x 512 threads x 8 packs + 8 in shared memory");
    EXPECT_EQ(pick(int64_t{1} << 20, DType::f32, true, pcie).describe(),
              "held grid 28 blocks x 1024 threads x 6 packs + 14 in shared memory, 4 teams, 2 rows "
              "a team, 2 prefetched into L2");
    // Without clusters the grid runs in teams of the fewest blocks that hold the row: 2^20 fp32
    // takes 128 of 132 SMs; with 114 SMs it cannot, and the held grid takes the row.
    EXPECT_EQ(pick(int64_t{1} << 20, DType::f32, true, ampere()).describe(),
              "grid 128 blocks x 512 threads x 4 packs, lag 4, 2 rows ahead");
    DeviceLimits ampere114 = ampere();
    ampere114.sm_count = 114;
    EXPECT_EQ(pick(int64_t{1} << 20, DType::f32, true, ampere114).lag, 0);
    const SoftmaxProblem p = SoftmaxProblem::contiguous(256, int64_t{1} << 20);
    EXPECT_EQ(best::workspace_bytes(p, pick(int64_t{1} << 20)), 256u * 132 * 8);
    EXPECT_EQ(best::workspace_bytes(p, pick(524288)), 256u * 132 * 8);  // with two teams too
    EXPECT_EQ(best::workspace_bytes(p, pick(262144)), 0u);              // a cluster
}

// Without clusters: one block in registers, then one block with the rest of the row in shared
// memory while the opt-in holds it, then two passes. The boundary follows the opt-in: 163 KB
// (A100) holds 8 + 10 packs a thread (fp32 N = 73728), 99 KB (sm_86/89) none past 8 + 6, which
// is less than fp32 N = 65536 needs, 227 KB (an sm_80 build on an H100) 8 + 14.
TEST(BestDispatch, WithoutClustersOneBlockThenItsStashThenTwoPasses) {
    EXPECT_EQ(pick(32768, DType::f32, true, ampere()).describe(),
              "cluster 1 x 1024 threads x 8 packs");
    EXPECT_EQ(pick(32769, DType::f32, true, ampere()).describe(),
              "cluster 1 x 1024 threads x 8 packs + 1 in shared memory");
    DeviceLimits a100 = ampere();
    a100.smem_per_block_optin = 163 * 1024;
    EXPECT_EQ(pick(65536, DType::f32, true, a100).describe(),
              "cluster 1 x 1024 threads x 8 packs + 8 in shared memory");
    EXPECT_EQ(pick(73728, DType::f32, true, a100).describe(),
              "cluster 1 x 1024 threads x 8 packs + 10 in shared memory");
    // Past the stash: the grid in teams (rows with edges add an edge warp to 480 main threads).
    EXPECT_EQ(pick(73729, DType::f32, true, a100).describe(),
              "grid 10 blocks x 512 threads x 4 packs, lag 4, 2 rows ahead, 13 teams");
    DeviceLimits ada = ampere();
    ada.smem_per_block_optin = 99 * 1024;
    EXPECT_EQ(pick(57344, DType::f32, true, ada).describe(),
              "cluster 1 x 1024 threads x 8 packs + 6 in shared memory");
    EXPECT_EQ(pick(65536, DType::f32, true, ada).describe(),
              "grid 8 blocks x 512 threads x 4 packs, lag 4, 2 rows ahead, 16 teams");
    // 64 KB holds the staging ring of 2 rows ahead for only 320 threads a block, so one row
    // ahead, for 480; a GPU of fewer SMs (a T4's 40) runs fewer teams. One of fewer SMs than a
    // row's blocks holds it in the held grid while its registers and shared memory can (one
    // block of 1024 an SM: here two rows a team, 3 + 1 packs a thread each, in two teams of 4
    // blocks; one row a team up to 8 + 3), and past that holds what it can and reads the rest
    // twice.
    DeviceLimits small = turing();
    small.sm_count = kH100.sm_count;  // a 64 KB class on the H100's SMs
    EXPECT_EQ(pick(65536, DType::f32, true, small).describe(),
              "grid 9 blocks x 480 threads x 4 packs, lag 4, 1 row ahead, 14 teams");
    small.sm_count = 40;
    EXPECT_EQ(pick(65536, DType::f32, true, small).describe(),
              "grid 9 blocks x 480 threads x 4 packs, lag 4, 1 row ahead, 4 teams");
    small.sm_count = 8;
    EXPECT_EQ(pick(65536, DType::f32, true, small).describe(),
              "held grid 4 blocks x 1024 threads x 6 packs + 2 in shared memory, 2 teams, 2 rows a "
              "team, 3 prefetched into L2");
    small.sm_count = 1;
    EXPECT_EQ(pick(65536, DType::f32, true, small).describe(),
              "held grid 1 blocks x 1024 threads x 6 packs + 3 in shared memory, the rest read "
              "twice, 6 prefetched into L2");
    EXPECT_EQ(pick(65536, DType::f32, true, ampere()).describe(),
              "cluster 1 x 1024 threads x 8 packs + 8 in shared memory");  // 227 KB
}

int64_t capacity(const Config& c, DType t) {
    const int64_t vec = 16 / dtype_size(t);
    switch (c.path) {
        case Path::kGroup:
            return int64_t{c.width} * c.packs * vec;
        case Path::kCluster:
            return int64_t{c.cluster} * c.threads * (c.packs + c.stash) * vec;
        case Path::kGrid:  // the held grid (lag 0): whole packs, and the values past them; each
                           // of two rows a team has half the places
            return c.held_grid()
                       ? int64_t{c.cluster} * c.threads *
                                 (c.packs / c.held_rows() + c.stash / c.held_rows()) * vec +
                             vec - 1
                       : int64_t{c.cluster} * c.threads * c.packs * vec;
        case Path::kTwoPass:
            return kUnlimitedCols;
        case Path::kTile:
            return int64_t{c.width} * c.packs;
    }
    return 0;
}

// The tile path, as a rule: it takes exactly the short rows that are not whole packs on 16
// bytes (2 KB rows at most), holds every value in its lanes, launches legal blocks, and its
// shared memory stays under 48 KB (at 32 values a lane, a third of the SM's); everything else
// keeps choose()'s.
TEST(BestDispatch, TileTakesShortRowsOffTheirPacksAndHoldsThem) {
    std::mt19937_64 gen(11);
    int tiles = 0;
    for (int i = 0; i < 3000; ++i) {
        const int64_t cols = 1 + int64_t(gen() % 3000);
        for (DType t : {DType::f32, DType::f16, DType::bf16}) {
            for (int cls = 0; cls < 6; ++cls) {
                const bool aligned = cls % 2 == 0;
                // An H100's shared memory, a T4's 64 KB an SM, and an H200's faster DRAM.
                const DeviceLimits limits = cls < 2 ? kH100 : cls < 4 ? turing() : kH200;
                const Config c = best::tile_for(cols, t, aligned, limits);
                const int es = dtype_size(t), vec = 16 / es;
                SCOPED_TRACE(std::to_string(cols) + " " + dtype_name(t) +
                             (aligned ? " aligned, " : " unaligned, ") +
                             std::to_string(limits.smem_per_sm) + " B an SM: " + c.describe());
                const int64_t packs = cols / vec;
                const bool sectors =
                    t == DType::f32 && aligned && cols * es % 32 == 0 && cols * es < 2048;
                const bool wanted = cols * es <= 2048 && !sectors &&
                                    !(aligned && cols % vec == 0 && (packs & (packs - 1)) == 0);
                ASSERT_EQ(c.path == Path::kTile, wanted);
                if (!wanted) continue;
                ++tiles;
                EXPECT_GE(capacity(c, t), cols);
                EXPECT_TRUE(c.width >= 1 && c.width <= 32 && (c.width & (c.width - 1)) == 0);
                EXPECT_TRUE(c.packs == 8 || c.packs == 16 || (c.width == 32 && c.packs == 32));
                EXPECT_EQ(c.threads, 256);
                EXPECT_EQ(c.rows % (c.threads / c.width), 0);  // whole rounds of rows
                EXPECT_GE(c.rows, c.threads / c.width);        // every group of lanes has a row
                const int64_t smem = (int64_t{c.rows} * cols + 2 * vec - 1) / vec * 16;
                // The fewest whole rounds that reach 32 KB, one fewer where that passes 48 KB;
                // at 32 values a lane (3 blocks an SM) 56 KB, at most a third of the SM's shared
                // memory less 2 KB, so three blocks fit with the 1 KB the SM keeps for each;
                // fp32 rows on faster DRAM than an H100's (only the H200 here) 12 KB.
                const bool three = c.packs == 32;
                const bool small_fp32 = t == DType::f32 && cls >= 4;
                const int64_t most = three ? limits.smem_per_sm / 3 - 2048 : 48 * 1024;
                const int64_t reach = three        ? std::min<int64_t>(56 * 1024, most)
                                      : small_fp32 ? 12288
                                                   : 32768;
                const int64_t round = int64_t{c.threads / c.width} * cols * es;
                const int64_t tile = int64_t{c.rows} * cols * es;
                EXPECT_LE(smem, most);
                if (three) EXPECT_LE(3 * (smem + 1024), limits.smem_per_sm);
                EXPECT_TRUE(tile >= reach || tile + round + 32 > most);
                EXPECT_LT(tile - round, reach);
                if (three && limits.smem_per_sm == kH100.smem_per_sm) EXPECT_GT(tile, 48 * 1024);
                // Lanes are the fewest that hold the row at 16 values a lane, or 32.
                EXPECT_TRUE(c.width == 1 || c.width == 32 || (c.width / 2) * 16 < cols);
                // Monotone: a longer row never gets fewer lanes or fewer values a lane.
                if (cols > 1 && best::tile_for(cols - 1, t, aligned, limits).path == Path::kTile) {
                    const Config prev = best::tile_for(cols - 1, t, aligned, limits);
                    EXPECT_GE(c.width, prev.width);
                    EXPECT_GE(c.packs, prev.packs);
                }
            }
        }
    }
    EXPECT_GT(tiles, 500);
}

// fp32 rows of whole 32-byte sectors shorter than 2 KB, back to back, as a rule: the group
// kernel, in a shape it is compiled for (1 pack a lane at 2, 4 or 8 rows a group; 2 packs at 2
// rows; 4 at 1; 2 and 4 at 32 lanes), holding the row, with at least 1 KB of rows a warp. Not in
// 16 bits, not off 16 bytes, not where the rows are not back to back (choose()'s own shapes),
// and a row of 2 KB keeps one block.
TEST(BestDispatch, GroupTakesFp32RowsOfWholeSectorsWithAKilobyteAWarp) {
    int sectors = 0;
    for (DType t : {DType::f32, DType::f16, DType::bf16}) {
        const int es = dtype_size(t), vec = 16 / es;
        for (int64_t cols = 1; cols * es <= 4096; ++cols) {
            for (bool aligned : {true, false}) {
                const Config c = best::choose_for(cols, t, aligned, true, kH100, nullptr);
                SCOPED_TRACE(std::to_string(cols) + " " + dtype_name(t) +
                             (aligned ? " aligned: " : ": ") + c.describe());
                const bool rule =
                    t == DType::f32 && aligned && cols * es % 32 == 0 && cols * es < 2048;
                // Elsewhere, as before the rule: the tile, or choose()'s pick for any layout.
                if (!rule) {
                    const Config tile = best::tile_for(cols, t, aligned, kH100);
                    const Config before = tile.path == Path::kTile
                                              ? tile
                                              : best::choose(cols, t, aligned, kH100, nullptr);
                    EXPECT_EQ(c.describe(), before.describe());
                    continue;
                }
                ++sectors;
                ASSERT_EQ(c.path, Path::kGroup);
                EXPECT_GE(capacity(c, t), cols);
                const int rows = c.rows_per_group();
                EXPECT_TRUE((c.packs == 1 && (rows == 2 || rows == 4 || rows == 8)) ||
                            (c.packs == 2 && c.width == 32 && rows == 2) ||
                            (c.packs == 4 && c.width == 32 && rows == 1));
                EXPECT_GE(int64_t{rows} * (32 / c.width) * cols * es, 1024);
                EXPECT_LT(int64_t{c.width / 2} * c.packs * vec, cols);  // no narrower holds it
                EXPECT_EQ(c.group_threads(), 32);
                // The same rows not back to back keep choose()'s shape.
                EXPECT_EQ(best::choose_for(cols, t, aligned, false, kH100, nullptr).describe(),
                          best::choose(cols, t, aligned, kH100, nullptr).describe());
            }
        }
    }
    EXPECT_EQ(sectors, 63);  // N = 8, 16, ..., 504
    EXPECT_EQ(best::choose_for(96, DType::f32, true, true, kH100, nullptr).rows_per_group(), 4);
    EXPECT_EQ(best::choose_for(80, DType::f32, true, true, kH100, nullptr).describe(),
              "group 32 lanes x 1 packs x 4 rows, 32 threads");
    EXPECT_EQ(best::choose_for(100, DType::f32, true, true, kH100, nullptr).path, Path::kTile);
    EXPECT_EQ(best::choose_for(160, DType::f32, true, true, kH100, nullptr).describe(),
              "group 32 lanes x 2 packs x 2 rows, 32 threads");
    EXPECT_EQ(best::choose_for(480, DType::f32, true, true, kH100, nullptr).describe(),
              "group 32 lanes x 4 packs x 1 rows, 32 threads");
    EXPECT_EQ(best::choose_for(192, DType::f16, true, true, kH100, nullptr).path, Path::kTile);
    EXPECT_EQ(best::choose_for(512, DType::f32, true, true, kH100, nullptr).path, Path::kCluster);
}

// The tile path's spread, as a rule: odd (so every row of a block has one group), below the
// block's groups, taken exactly where rows side by side pile 4 or more words on a bank in an
// average warp and a spread of 3, 5 or 7 at least halves that, and then the best of them.
// Counted here apart from best_softmax.cu's own count: at 16-bit N = 63 (rows 31.5 words apart)
// side by side piles 7 words on a bank in every warp.
static int most_words_a_bank(int64_t cols, const Config& c, int esize, int spread) {
    const int groups = c.threads / c.width;
    int total = 0;
    for (int warp = 0; warp < c.threads / 32; ++warp) {
        std::map<int, std::set<int64_t>> banks;
        for (int t = warp * 32; t < warp * 32 + 32; ++t) {
            const int64_t row = int64_t{t / c.width} * spread % groups, col = t % c.width;
            if (col * 4 / esize < cols) {  // lanes read 4-byte words from the row's first
                const int64_t word = row * cols * esize / 4 + col;
                banks[int(word % 32)].insert(word);
            }
        }
        size_t most = 0;
        for (const auto& [bank, words] : banks) most = std::max(most, words.size());
        total += int(most);
    }
    return total;
}

TEST(BestDispatch, TileSpreadsRowsOnlyWhereTheyPileOntoBanks) {
    int spread_out = 0;
    for (DType t : {DType::f32, DType::f16, DType::bf16}) {
        for (int64_t cols = 1; cols <= 1024; ++cols) {
            const Config c = best::tile_for(cols, t, false, kH100);
            if (c.path != Path::kTile) continue;
            SCOPED_TRACE(std::to_string(cols) + " " + dtype_name(t) + ": " + c.describe());
            const int s = c.tile_spread(), es = dtype_size(t);
            EXPECT_EQ(s % 2, 1);
            EXPECT_TRUE(s == 1 || s < c.threads / c.width);
            const int side_by_side = most_words_a_bank(cols, c, es, 1);
            const int warps = c.threads / 32;
            int least = side_by_side;  // the fewest words a bank any candidate spread leaves
            for (int spread = 3; spread <= 7 && spread < c.threads / c.width; spread += 2)
                least = std::min(least, most_words_a_bank(cols, c, es, spread));
            EXPECT_EQ(s > 1, side_by_side >= 4 * warps && 2 * least <= side_by_side);
            if (s > 1) EXPECT_EQ(most_words_a_bank(cols, c, es, s), least);
            spread_out += s > 1;
        }
    }
    EXPECT_GT(spread_out, 10);
    const Config c63 = best::tile_for(63, DType::f16, false, kH100);
    EXPECT_EQ(most_words_a_bank(63, c63, 2, 1), 8 * 7);  // 7 words on a bank in every warp
    EXPECT_LE(most_words_a_bank(63, c63, 2, c63.tile_spread()), 8 * 2);
}

// The held grid as a rule over the row: walking N upward, its teams never grow in either form,
// one row a team or two (a longer row needs as many blocks or more); at each N its teams are
// the most that hold the row (or two rows: with 3 register packs a row and half the stash); two
// rows a team never in one team where one row a team takes three teams or more; and once it
// streams what it cannot hold it goes on streaming, in one team. Two passes never come below
// 2^31 values.
TEST(BestDispatch, HeldGridTeamsShrinkAsRowsGrowThenItStreams) {
    std::mt19937_64 gen(5);
    for (const DeviceLimits& limits : {kH100, kH200, ampere(), turing()}) {
        for (DType t : {DType::f32, DType::f16, DType::bf16}) {
            std::map<int, int> teams{{1, 1 << 30}, {2, 1 << 30}};  // rows a team -> teams
            int held = 0, pairs = 0;
            bool streamed = false;
            // (from 2^17: on an H200 the held grid takes rows from fp32 N ~ 184000)
            for (int64_t n = int64_t{1} << 17; n <= int64_t{1} << 25;
                 n += 1 + int64_t(gen() % (n / 16))) {
                const Config c = pick(n, t, gen() % 2 == 0, limits);
                SCOPED_TRACE(std::to_string(n) + " " + dtype_name(t) + " " + limits.name + " " +
                             std::to_string(limits.cc_major) + ": " + c.describe());
                ASSERT_NE(c.path, Path::kTwoPass);
                if (streamed) ASSERT_EQ(c.stream, 1) << "a row held whole after a longer one";
                if (!c.held_grid()) continue;
                ++held;
                ASSERT_LE(c.grid_teams(), teams[c.held_rows()]);
                teams[c.held_rows()] = c.grid_teams();
                streamed = c.stream != 0;
                // The most teams that hold the row: with one more, a block's slice (whole
                // lines) would need more places a thread than 8 in registers and the most the
                // block's share of shared memory holds (two rows: 3 and half of it).
                const bool pair = c.held_rows() == 2;
                pairs += pair;
                const int64_t places = pair ? best::kStreamedHoldPacks / 2 + held_stash(limits) / 2
                                            : best::kHoldPacks + held_stash(limits);
                auto places_in = [&](int teams) {
                    const int64_t slice =
                        best::slice_packs(n / (16 / dtype_size(t)), limits.sm_count / teams);
                    return (slice + best::kHoldMaxThreads - 1) / best::kHoldMaxThreads;
                };
                const int more = c.grid_teams() + 1;
                if (!streamed && more <= std::min(limits.sm_count, best::kMaxGridTeams))
                    ASSERT_GT(places_in(more), places) << "the row fits " << more << " teams";
                // One row a team, in the teams that hold one row; two rows in one team only
                // where one row a team would take two teams or one.
                if (pair && c.grid_teams() == 1)
                    ASSERT_GT(places_in(3), best::kHoldPacks + held_stash(limits));
            }
            EXPECT_GT(held, 10);
            EXPECT_GT(pairs, 3);
            EXPECT_TRUE(streamed);  // 2^25 values are more than any of these GPUs holds
        }
    }
}

// The held grid's L2 prefetch (held_prefetch): a share of the L2 over the whole grid where a
// block runs alone on its SM and the row does not stream, a quarter in one team and a sixth in
// several; none for two rows in one team; a twelfth otherwise; at most a row's register places;
// none without an L2 to fill; never more with a smaller L2 or more teams.
TEST(BestDispatch, HeldGridPrefetchIsAShareOfL2) {
    std::mt19937_64 gen(11);
    int alone = 0, teams = 0, shared = 0, pair_one_team = 0;
    for (DeviceLimits limits : {kH100, ampere(), turing()}) {
        for (DType t : {DType::f32, DType::f16, DType::bf16}) {
            for (int i = 0; i < 300; ++i) {
                const int64_t n = int64_t{1 << 18} + int64_t(gen() % (uint64_t{1} << 25));
                const Config c = pick(n, t, gen() % 2 == 0, limits);
                SCOPED_TRACE(std::to_string(n) + " " + dtype_name(t) + " " +
                             std::to_string(limits.cc_major) + ": " + c.describe());
                if (!c.held_grid()) {
                    ASSERT_EQ(c.prefetch, 0);
                    continue;
                }
                ASSERT_EQ(c.prefetch, best::held_prefetch(c, limits));
                ASSERT_GE(c.prefetch, 0);
                ASSERT_LE(c.prefetch, c.packs / c.held_rows());
                if (c.held_rows() == 2 && c.grid_teams() == 1) {
                    ASSERT_EQ(c.prefetch, 0);
                    ++pair_one_team;
                    continue;
                }
                const int64_t grid_threads = int64_t{c.cluster} * c.grid_teams() * c.threads;
                const bool one_an_sm = c.threads > 512 && c.stream == 0 && c.held_rows() == 1;
                const bool one_team = c.grid_teams() == 1;
                (!one_an_sm ? shared : one_team ? alone : teams) += 1;
                const int64_t share = limits.l2_bytes / (!one_an_sm ? 12 : one_team ? 4 : 6);
                ASSERT_LE(c.prefetch * grid_threads * 16, share);
                if (c.prefetch < c.packs / c.held_rows())
                    ASSERT_GT((c.prefetch + 1) * grid_threads * 16, share);
                DeviceLimits smaller = limits;
                smaller.l2_bytes /= 2;
                ASSERT_LE(best::held_prefetch(c, smaller), c.prefetch);
                smaller.l2_bytes = 0;
                ASSERT_EQ(best::held_prefetch(c, smaller), 0);
                Config more_teams = c;
                more_teams.teams = c.grid_teams() * 2;
                ASSERT_LE(best::held_prefetch(more_teams, limits), c.prefetch);
            }
        }
    }
    EXPECT_GT(alone, 50);
    EXPECT_GT(teams, 50);
    EXPECT_GT(shared, 50);
    EXPECT_GT(pair_one_team, 20);
    // On an H100's 50 MB: 6 places a thread of the held grid's 132 x 1024 threads in one team,
    // 4 in four teams; 2 where the row streams, where two blocks of 512 share each SM, or where
    // a team holds two rows in teams; none for two rows in one team.
    EXPECT_EQ(pick(8000000).prefetch, 6);
    EXPECT_EQ(pick(3000000).prefetch, 4);
    EXPECT_EQ(pick(2000000).prefetch, 2);
    EXPECT_EQ(pick(5000000).prefetch, 0);
    EXPECT_EQ(pick(16000000).prefetch, 2);
    Config two_an_sm = pick(3000000);
    two_an_sm.threads = 512;
    two_an_sm.cluster *= 2;
    EXPECT_EQ(best::held_prefetch(two_an_sm, kH100), 2);
}

// For random N and every dtype, alignment and GPU: the row fits, and the launch is legal.
TEST(BestDispatch, EveryShapeHoldsItsRowAndIsALegalLaunch) {
    std::mt19937_64 gen(7);
    std::uniform_int_distribution<int> exponent(0, 22);
    for (int i = 0; i < 4000; ++i) {
        const int e = exponent(gen);
        const int64_t cols = (int64_t{1} << e) + int64_t(gen() % (uint64_t{1} << e));
        for (DType t : {DType::f32, DType::f16, DType::bf16}) {
            for (bool aligned : {true, false}) {
                for (const DeviceLimits& limits : {kH100, kH200, ampere(), turing()}) {
                    const Config c = pick(cols, t, aligned, limits);
                    SCOPED_TRACE(std::to_string(cols) + " " + dtype_name(t) +
                                 (aligned ? " aligned " : " unaligned ") + limits.name + " " +
                                 std::to_string(limits.cc_major) + ": " + c.describe());
                    // The held grid counts a row's packs from its first 128-byte line and holds
                    // the values outside them apart (warp 0 of its last block): no slack. Its
                    // streamed form only where the row is past what one team's places hold, in
                    // one team with every place full.
                    const bool held = c.held_grid();
                    const int64_t slack = aligned || held ? 0 : 16 / dtype_size(t) - 1;
                    if (held && c.stream != 0) {
                        ASSERT_GT(cols, capacity(c, t));
                        ASSERT_EQ(c.grid_teams(), 1);
                        ASSERT_EQ(c.threads, 1024);
                        ASSERT_EQ(c.stash, held_stash(limits));
                    } else {
                        ASSERT_EQ(c.stream, 0);
                        ASSERT_GE(capacity(c, t), cols + slack);
                    }
                    ASSERT_GE(c.cluster, 1);
                    if (held) {  // 8 packs in registers (6 streamed, 6 or 8 in 16-bit rows);
                                 // one block of 1024 threads an SM, a team on as many SMs
                                 // as the teams share out
                        if (c.stream != 0 || c.held_rows() == 2)  // 3 a row with two rows
                            ASSERT_EQ(c.packs, best::kStreamedHoldPacks);
                        else if (t != DType::f32)
                            ASSERT_TRUE(c.packs == 6 || c.packs == 8);
                        else
                            ASSERT_EQ(c.packs, best::kHoldPacks);
                        ASSERT_EQ(c.threads, best::kHoldMaxThreads);
                        ASSERT_EQ(best::hold_blocks_per_sm(c.threads), 1);
                        ASSERT_EQ(c.cluster, limits.sm_count / c.grid_teams());
                        ASSERT_LE(int64_t{c.stash} * c.threads * 16 + 2048,
                                  std::min(limits.smem_per_block_optin, limits.smem_per_sm));
                        ASSERT_LE(c.cluster, c.threads);  // a slot reader per block of a team
                        // Only past 1 MB rows, longer than the grid and the stash hold; where an
                        // SM moves more bytes a second than an H100's, past the 16-block
                        // clusters of three blocks an SM (320 threads of 8 packs).
                        if (best::sm_bandwidth_vs_h100(limits) <= 1.0)
                            ASSERT_GT(cols * dtype_size(t), 16 * 1024 * 64);
                        else
                            ASSERT_GT(cols * dtype_size(t), 16 * 320 * 8 * 16);
                    } else if (c.stash > 0 && limits.has_clusters()) {
                        // 8 packs in registers (16-bit rows: 6), 2 an SM
                        ASSERT_EQ(c.path, Path::kCluster);
                        ASSERT_EQ(c.packs, t == DType::f32 ? 8 : 6);
                        ASSERT_GE(c.cluster, 2);
                        ASSERT_LE(c.threads, 512);
                        ASSERT_LE(2 * (int64_t{c.stash} * c.threads * 16 + 2048),
                                  limits.smem_per_sm);
                    } else if (c.stash > 0) {  // no clusters: one block a row, within the opt-in
                        ASSERT_EQ(c.path, Path::kCluster);
                        ASSERT_EQ(c.packs, 8);
                        ASSERT_EQ(c.cluster, 1);
                        ASSERT_LE(int64_t{c.stash} * c.threads * 16 + 1024,
                                  limits.smem_per_block_optin);
                        if (c.threads == 512) {  // 16-bit rows, two blocks an SM
                            ASSERT_NE(t, DType::f32);
                            ASSERT_LE(2 * (int64_t{c.stash} * c.threads * 16 + 2048),
                                      limits.smem_per_sm);
                        } else {
                            ASSERT_EQ(c.threads, 1024);
                        }
                    }
                    // 16-bit rows that one block of 8 packs would hold at one block an SM: a
                    // shape that keeps more rows an SM, where one does (a cluster of up to 512
                    // threads a block, or without clusters the 512-thread stash). One warp
                    // (rows of up to 256 packs) is its own rule.
                    if (t != DType::f32 && c.path == Path::kCluster && c.cluster == 1 &&
                        c.stash == 0 && c.packs == 8 && c.threads > 32 && limits.has_clusters()) {
                        Config two = c;
                        two.cluster = 2;
                        two.threads = (c.threads / 2 + 31) / 32 * 32;
                        ASSERT_LE(1024 / two.threads, 2) << "a cluster of 2 keeps more rows";
                    }
                    if (c.path == Path::kGrid && !held) {  // blocks on every SM; 4 packs
                        // Rows that are not whole 128-byte lines have an edge warp on the main
                        // threads (grid_whole_lines), except 16-bit rows of whole packs that
                        // would need the kWide kernel for it (edges = -1).
                        if (c.edges < 0) {
                            ASSERT_NE(t, DType::f32);
                            ASSERT_TRUE(aligned && cols % (16 / dtype_size(t)) == 0);
                            ASSERT_LE(c.threads, 512);
                        }
                        const bool whole =
                            (aligned && cols * dtype_size(t) % 128 == 0) || c.edges < 0;
                        const int main_threads = c.threads - (whole ? 0 : 32);
                        if (limits.has_clusters()) {
                            ASSERT_EQ(c.cluster, limits.sm_count);
                        } else {  // teams of the fewest blocks, one block an SM
                            ASSERT_LE(int64_t{c.cluster} * c.grid_teams(), limits.sm_count);
                            ASSERT_LE(c.threads, 512);
                            // The staging ring and 2 KB for the kernel's own shared memory;
                            // one row ahead only where two would leave under 512 threads.
                            ASSERT_LE(int64_t{c.grid_ahead() + 1} * c.packs * c.threads * 16 + 2048,
                                      limits.smem_per_block_optin);
                            if (c.grid_ahead() == 1)
                                ASSERT_GT(3 * c.packs * 512 * 16 + 2048,
                                          limits.smem_per_block_optin);
                        }
                        ASSERT_LE(main_threads * c.packs, 2048);
                        ASSERT_GT(c.lag, c.ahead - 1);
                        // With clusters, teams share an SM; without, a team's blocks are its own.
                        const int per_sm = limits.has_clusters() ? c.grid_teams() : 1;
                        if (c.threads * per_sm > 512) {          // 17 warps: the kWide kernel,
                            ASSERT_EQ(c.threads, 544);           // one team at lag 3, fp32 only
                            ASSERT_EQ(c.lag, 3);
                            ASSERT_EQ(t, DType::f32) << cols << ": 16-bit rows take the held grid";
                        } else {  // 128 registers a thread
                            ASSERT_EQ(c.lag, 4);
                        }
                        ASSERT_GE(main_threads, c.cluster);  // a slot reader per block of a team
                    } else if (!held) {
                        ASSERT_LE(c.cluster, limits.cc_major >= 9 ? 16 : 1);
                    }
                    if (c.path != Path::kGroup) {
                        ASSERT_EQ(c.threads % 32, 0);
                        ASSERT_GE(c.threads, 32);
                        ASSERT_LE(c.threads, 1024);
                    }
                }
            }
        }
    }
}

// Config's fields are defined once (SML_BEST_CONFIG_FIELDS). The C entry point carries them as an
// array in that order, named by config_field_names(); every field must survive the round trip.
TEST(BestConfigFields, NamesValuesAndTextFollowTheOneDefinition) {
    std::vector<std::string> names;
    std::stringstream list(best::config_field_names());
    for (std::string name; std::getline(list, name, ',');) names.push_back(name);
    ASSERT_EQ(names.size(), size_t(best::kConfigFieldCount));
    EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
    EXPECT_EQ(names.front(), "path");
    best::ConfigValues v;
    std::string text;
    for (int i = 0; i < best::kConfigFieldCount; ++i) {
        v[size_t(i)] = i == 0 ? int(Path::kGrid) : 100 + i;
        text += (i ? " " : "") + names[size_t(i)] + "=" + std::to_string(v[size_t(i)]);
    }
    const Config c = best::config_from_values(v);
    EXPECT_EQ(c.path, Path::kGrid);
    EXPECT_EQ(best::config_values(c), v);
    EXPECT_EQ(c.fields(), text);
    for (int64_t n : {int64_t{1}, int64_t{256}, int64_t{4096}, int64_t{100003}, int64_t{300000},
                      int64_t{1} << 20, int64_t{1} << 22}) {
        const Config picked = pick(n);
        EXPECT_EQ(best::config_from_values(best::config_values(picked)).describe(),
                  picked.describe());
    }
}

// describe()'s words for each path and each optional word, as the CLI, the bench and the tests
// print them; describe(say) words the same fragments, each an English template and its numbers.
TEST(BestConfigDescribe, EveryPathAndOptionInItsWords) {
    auto shape = [](Path path, int cluster, int threads, int packs) {
        Config c;
        c.path = path, c.cluster = cluster, c.threads = threads, c.packs = packs;
        return c;
    };
    std::vector<std::pair<Config, std::string>> cases;
    Config c;
    c.width = 8, c.packs = 2;
    cases.push_back({c, "group 8 lanes x 2 packs x 2 rows, 32 threads"});
    c.packs = 4, c.rows = 3, c.threads = 64;
    cases.push_back({c, "group 8 lanes x 4 packs x 3 rows, 64 threads"});
    c = shape(Path::kCluster, 4, 512, 8);
    cases.push_back({c, "cluster 4 x 512 threads x 8 packs"});
    c.stash = 3;
    cases.push_back({c, "cluster 4 x 512 threads x 8 packs + 3 in shared memory"});
    c = shape(Path::kTwoPass, 16, 1024, 0);
    cases.push_back({c, "two-pass cluster 16 x 1024 threads"});
    c.l2 = Config::kL2Policy;
    cases.push_back({c, "two-pass cluster 16 x 1024 threads, L2 evict_last/first"});
    c.l2 = Config::kL2Reverse;
    cases.push_back({c, "two-pass cluster 16 x 1024 threads, pass 2 backwards"});
    c.l2 = Config::kL2Policy | Config::kL2Reverse;
    cases.push_back(
        {c, "two-pass cluster 16 x 1024 threads, L2 evict_last/first, pass 2 backwards"});
    c = shape(Path::kTile, 1, 256, 16);
    c.width = 8, c.rows = 4, c.spread = 1;
    cases.push_back({c, "tile 8 lanes x 16 values, 4 rows, 256 threads"});
    c.spread = 3;
    cases.push_back({c, "tile 8 lanes x 16 values, 4 rows, 256 threads, rows 3 apart"});
    c = shape(Path::kGrid, 9, 480, 6);
    cases.push_back({c, "held grid 9 blocks x 480 threads x 6 packs + 0 in shared memory"});
    c.stash = 3, c.teams = 2, c.stream = 1, c.prefetch = 2;
    cases.push_back({c,
                     "held grid 9 blocks x 480 threads x 6 packs + 3 in shared memory, 2 teams, "
                     "the rest read twice, 2 prefetched into L2"});
    c.teams = 1, c.stream = 0;
    cases.push_back({c,
                     "held grid 9 blocks x 480 threads x 6 packs + 3 in shared memory, 2 "
                     "prefetched into L2"});
    c.teams = 3, c.held = 2, c.prefetch = 1;
    cases.push_back({c,
                     "held grid 9 blocks x 480 threads x 6 packs + 3 in shared memory, 3 teams, "
                     "2 rows a team, 1 prefetched into L2"});
    c = shape(Path::kGrid, 132, 224, 8);
    c.lag = 2;
    cases.push_back({c, "grid 132 blocks x 224 threads x 8 packs, lag 2, 2 rows ahead"});
    c.lag = 3, c.ahead = 1, c.teams = 2, c.edges = 1;
    cases.push_back({c,
                     "grid 132 blocks x 224 threads x 8 packs, lag 3, 1 row ahead, 2 teams, "
                     "edge warp"});
    c.ahead = 4, c.teams = 0, c.edges = -1;
    cases.push_back({c,
                     "grid 132 blocks x 224 threads x 8 packs, lag 3, 4 rows ahead, no edge "
                     "warp"});
    c.path = static_cast<Path>(7);  // a bad number through the C entry point
    cases.push_back({c,
                     "unknown path: path=7 width=0 packs=8 threads=224 cluster=132 l2=0 rows=0 "
                     "lag=3 ahead=4 teams=0 stash=0 edges=-1 spread=0 stream=0 prefetch=0 held=0"});
    for (const auto& [config, en] : cases) {
        EXPECT_EQ(config.describe(), en);
        // Said fragment by fragment: templates whose numbers are all parts (slots), but for the
        // names "L2" and "pass 2".
        std::string fragments;
        const std::string said =
            config.describe([&](const char* tmpl, const std::vector<std::string>& parts) {
                fragments += tmpl;
                return fill_slots(tmpl, parts);
            });
        EXPECT_EQ(said, en);
        static const std::regex names_and_slots("L2|pass 2|\\{[0-9]\\}");
        const std::string rest = std::regex_replace(fragments, names_and_slots, "");
        EXPECT_EQ(rest.find_first_of("0123456789"), std::string::npos) << fragments;
    }
}

// Without a GPU (limits not read from one), what the registry asks of best -- how often a row is
// read, and the workspace -- is choose()'s configuration for the limits given.
TEST(BestDispatch, RegistryQuestionsFollowThePathForTheLimitsGiven) {
    for (const DeviceLimits& limits : {kH100, ampere()}) {
        ASSERT_FALSE(limits.from_device);
        for (int64_t n : {int64_t{32}, int64_t{4096}, int64_t{131072}, int64_t{1} << 19,
                          int64_t{1} << 20, int64_t{1} << 21}) {
            const SoftmaxProblem p = SoftmaxProblem::contiguous(64, n, DType::bf16);
            const Config c = pick(n, DType::bf16, true, limits);
            SCOPED_TRACE(std::to_string(n) + ": " + c.describe());
            EXPECT_EQ(best::reads_per_value(p, limits), c.path == Path::kTwoPass ? 2 : 1);
            EXPECT_EQ(best::registry_workspace_bytes(p, limits),
                      c.path == Path::kGrid ? size_t(64) * size_t(c.cluster) * 8 : 0u);
        }
    }
    // bf16 rows of 2^20 take the grid on an H100 (its slots), and in teams of 64 blocks without
    // clusters; rows of 2^22 the held grid there (its slots); fp32 rows of 2^24 (64 MB) are more
    // than the GPU holds: one team holds 132 x 1024 threads x (6 + 14) packs of each and reads
    // the rest twice, and rows of 2^31 values are read twice.
    const SoftmaxProblem grid_rows = SoftmaxProblem::contiguous(8, int64_t{1} << 20, DType::bf16);
    EXPECT_EQ(best::registry_workspace_bytes(grid_rows, kH100), size_t(8) * 132 * 8);
    EXPECT_EQ(best::reads_per_value(grid_rows, kH100), 1);
    EXPECT_EQ(best::registry_workspace_bytes(grid_rows, ampere()), size_t(8) * 64 * 8);
    EXPECT_EQ(best::reads_per_value(grid_rows, ampere()), 1);
    const SoftmaxProblem held_rows = SoftmaxProblem::contiguous(8, int64_t{1} << 22, DType::bf16);
    const Config held = pick(int64_t{1} << 22, DType::bf16, true, ampere());
    EXPECT_EQ(held.lag, 0);
    EXPECT_EQ(best::registry_workspace_bytes(held_rows, ampere()), size_t(8) * held.cluster * 8);
    EXPECT_EQ(best::reads_per_value(held_rows, ampere()), 1);
    const SoftmaxProblem long_rows = SoftmaxProblem::contiguous(8, int64_t{1} << 24, DType::f32);
    EXPECT_EQ(best::registry_workspace_bytes(long_rows, ampere()), size_t(8) * 132 * 8);
    EXPECT_NEAR(best::reads_per_value(long_rows, ampere()), 1 + (16777216.0 - 10813440) / 16777216,
                1e-12);
    const SoftmaxProblem longest = SoftmaxProblem::contiguous(1, int64_t{1} << 31, DType::f32);
    EXPECT_EQ(best::registry_workspace_bytes(longest, ampere()), 0u);
    EXPECT_EQ(best::reads_per_value(longest, ampere()), 2);
}

// Past what the GPU holds (one team, 8 + stash packs a thread), the streamed held grid's places
// (6 + stash a thread, interleaved over the team's blocks) hold the row's first packs and the
// rest is read twice: the row is read 1 + (N - its places) / N times, to within the values past
// the last whole pack. Just past what the GPU holds, that is the 2 packs a
// thread that registers give up for the streamed kernel's loops. Counted from the limits alone.
TEST(BestDispatch, StreamedHoldReadsTwiceOnlyWhatNoPlaceHolds) {
    for (const DeviceLimits& limits : {kH100, kH200, ampere(), turing()}) {
        for (DType t : {DType::f32, DType::f16, DType::bf16}) {
            const int vec = t == DType::f32 ? 4 : 8;
            const int64_t stash = held_stash(limits);
            const int64_t most = int64_t{limits.sm_count} * 1024 * (8 + stash) * vec;
            const int64_t places = int64_t{limits.sm_count} * 1024 * (6 + stash) * vec;
            SCOPED_TRACE(std::string(dtype_name(t)) + " on " + std::to_string(limits.sm_count) +
                         " SMs, " + std::to_string(most) + " values held, " +
                         std::to_string(places) + " streamed");
            const Config first = pick(most + vec, t, true, limits);
            EXPECT_EQ(first.stream, 1) << first.describe();
            EXPECT_EQ(first.stash, stash);
            const double just_past = best::row_reads(first, most + vec, t);
            EXPECT_NEAR(just_past, 1 + double(most + vec - places) / double(most + vec),
                        double(vec) / double(most));
            EXPECT_NEAR(just_past, 1 + 2.0 / double(8 + stash), 1e-5);
            EXPECT_EQ(pick(most, t, true, limits).stream, 0);
            for (double f : {1.03, 1.29, 1.77, 2.5, 9.1, 100.3}) {
                const auto n = static_cast<int64_t>(static_cast<double>(most) * f) + 3;
                if (n >= int64_t{1} << 31) continue;
                const Config c = pick(n, t, true, limits);
                ASSERT_EQ(c.stream, 1) << n << ": " + c.describe();
                const double expect = 1 + static_cast<double>(n - places) / static_cast<double>(n);
                EXPECT_NEAR(best::row_reads(c, n, t), expect, double(vec) / double(n)) << n;
            }
        }
    }
}

}  // namespace
}  // namespace sml
