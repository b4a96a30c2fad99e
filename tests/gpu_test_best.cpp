// `best` (kernels/best_softmax.cu and kernels/best/) against the float64 reference, for every
// dtype and N from 1 to 2^20, through the registry exactly as the CLI runs it; then every one of
// its paths forced on the same inputs, so a path the dispatcher does not pick on this GPU is
// still checked.
//
// Tolerances (sml::tolerance_for, used by the whole project):
//   fp32 1e-5  : fp32 math over a row; exp2f and the reciprocal are within a few ulp (~1e-7).
//   fp16 2e-3  : the stored output is rounded to an 11-bit mantissa, 2^-11 = 4.9e-4 relative,
//                plus the input's own rounding amplified by |x - max| (inputs |x| < 5 here).
//   bf16 1.6e-2: an 8-bit mantissa, 2^-8 = 3.9e-3 relative per rounding, same reasoning.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "core/measure/accuracy.h"
#include "core/reference/reference.h"
#include "gpu_env.h"
#include "kernels/best/shapes.h"
#include "kernels/best_launch.h"
#include "kernels/launch.h"
#include "kernels/registry.h"

namespace sml {
namespace {

struct HostInput {
    std::vector<float> values;       // what the kernel sees, decoded (stride = in_stride)
    std::vector<unsigned char> raw;  // the bytes uploaded
};

// Normal data, plus special rows where M allows: large magnitudes, some -inf entries, an all
// -inf row (expected NaN) and a row with one NaN (expected NaN).
HostInput make_input(DType dtype, int64_t rows, int64_t cols, int64_t stride, unsigned seed) {
    std::mt19937 gen(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    const float inf = std::numeric_limits<float>::infinity();
    // A stride's gap holds NaN: a kernel that lets a byte outside the row into the max or the
    // sum (a cluster reads edge packs whole and masks them) turns the row NaN and fails.
    std::vector<float> v(size_t(rows * stride), std::nanf(""));
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) v[size_t(r * stride + c)] = normal(gen);
    if (rows >= 3) {  // row 1: +-1e4 (and 1e30 where the dtype can hold it); row 2: some -inf
        const float big = dtype == DType::f16 ? 1e4f : 1e30f;
        for (int64_t c = 0; c < cols; c += 3) v[size_t(stride + c)] = (c % 2 ? 1e4f : -1e4f);
        v[size_t(stride + cols / 2)] = big;
        for (int64_t c = 0; c < cols; c += 2) v[size_t(2 * stride + c)] = -inf;
        if (cols > 1) v[size_t(2 * stride + 1)] = 0.5f;  // keep a finite max
    }
    if (rows >= 5) {
        for (int64_t c = 0; c < cols; ++c) v[size_t(3 * stride + c)] = -inf;
        v[size_t(4 * stride + cols - 1)] = std::nanf("");
    }
    HostInput h;
    h.raw.resize(v.size() * size_t(dtype_size(dtype)));
    h.values = v;
    if (dtype == DType::f32) {
        std::memcpy(h.raw.data(), v.data(), h.raw.size());
    } else {
        auto* bits = reinterpret_cast<uint16_t*>(h.raw.data());
        for (size_t i = 0; i < v.size(); ++i) {
            bits[i] =
                dtype == DType::f16 ? ref::float_to_half_bits(v[i]) : ref::float_to_bf16_bits(v[i]);
            h.values[i] = ref::bits_to_float(bits[i], dtype);
        }
    }
    return h;
}

struct DeviceBuffers {
    void* in = nullptr;
    void* out = nullptr;
    void* workspace = nullptr;
    ~DeviceBuffers() {
        cudaFree(in);
        cudaFree(out);
        cudaFree(workspace);
    }
};

// Runs `steps` (or the registry's plan when config is null) and compares every element.
// `in_offset` and `out_offset` shift the input and output pointers by elements, so rows start
// off a 16-byte boundary.
void check_case(DType dtype, int64_t rows, int64_t cols, int64_t in_stride, int64_t out_stride,
                int in_offset, const best::Config* config, int out_offset = 0) {
    const std::string forced =
        config ? " forced " + config->describe() + " {" + config->fields() + "}" : "";
    const std::string what = std::string(dtype_name(dtype)) + " M=" + std::to_string(rows) +
                             " N=" + std::to_string(cols) + " strides " +
                             std::to_string(in_stride) + "/" + std::to_string(out_stride) +
                             " offsets " + std::to_string(in_offset) + "/" +
                             std::to_string(out_offset) + (config ? forced : " (registry plan)");
    SCOPED_TRACE(what);
    const int es = dtype_size(dtype);
    const HostInput h = make_input(dtype, rows, cols, in_stride, unsigned(cols * 7 + rows));

    DeviceLimits limits;
    ASSERT_TRUE(query_device_limits(0, &limits));
    DeviceBuffers buf;
    const size_t in_bytes = h.raw.size() + size_t(in_offset * es);
    const size_t out_bytes = size_t(rows * out_stride * es);
    const size_t out_shift = size_t(out_offset * es);
    ASSERT_EQ(cudaMalloc(&buf.in, in_bytes), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&buf.out, out_shift + out_bytes), cudaSuccess);
    char* in = static_cast<char*>(buf.in) + in_offset * es;
    ASSERT_EQ(cudaMemcpy(in, h.raw.data(), h.raw.size(), cudaMemcpyHostToDevice), cudaSuccess);
    // 0xFF bytes are NaN in fp32, fp16 and bf16: an element the kernel skips cannot pass.
    ASSERT_EQ(cudaMemset(buf.out, 0xFF, out_shift + out_bytes), cudaSuccess);
    char* out = static_cast<char*>(buf.out) + out_shift;

    LaunchArgs args;
    args.problem = SoftmaxProblem{rows, cols, in_stride, out_stride, dtype};
    args.in = in;
    args.out = out;
    args.limits = limits;
    const KernelInfo* k = find_kernel("best");
    ASSERT_NE(k, nullptr);
    ASSERT_TRUE(check_problem(*k, args.problem, limits).ok());
    // The grid path's slots; the kernel poisons them itself before every launch.
    const size_t ws_bytes =
        config ? best::workspace_bytes(args.problem, *config) : k->workspace_bytes(args.problem, limits);
    if (ws_bytes > 0) ASSERT_EQ(cudaMalloc(&buf.workspace, ws_bytes), cudaSuccess);
    args.workspace = buf.workspace;
    if (config) {
        std::vector<LaunchStep> steps;
        ASSERT_EQ(best::plan_with(args, *config, &steps), cudaSuccess);
        for (LaunchStep& s : steps) ASSERT_EQ(s.launch(nullptr), cudaSuccess);
    } else {
        ASSERT_EQ(launch_all(*k, args, nullptr), cudaSuccess);
    }
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);

    std::vector<unsigned char> got(out_bytes);
    ASSERT_EQ(cudaMemcpy(got.data(), out, out_bytes, cudaMemcpyDeviceToHost), cudaSuccess);
    const std::vector<double> expect =
        ref::softmax_reference(h.values.data(), rows, cols, in_stride);
    const ref::Comparison c =
        dtype == DType::f32
            ? ref::compare_to_reference(expect, reinterpret_cast<const float*>(got.data()), rows,
                                        cols, out_stride, ref::default_floor(dtype))
            : ref::compare_to_reference_bits(expect, reinterpret_cast<const uint16_t*>(got.data()),
                                             dtype, rows, cols, out_stride,
                                             ref::default_floor(dtype));
    const double tol = tolerance_for(dtype);
    EXPECT_TRUE(c.passed(tol, tol))
        << "max rel err " << c.max_rel_err << " at (" << c.worst_row << ", " << c.worst_col
        << "), row-sum err " << c.max_rowsum_err << ", NaN where finite " << c.nan_where_finite
        << ", expected-NaN rows all NaN " << c.expected_nan_rows_all_nan;
    // Rows expected to be NaN are checked separately (all NaN); every other element is compared.
    EXPECT_EQ(c.checked_elements + c.expected_nan_rows * cols, rows * cols);
    if (rows >= 5 && cols > 1) EXPECT_EQ(c.expected_nan_rows, 2);  // all -inf row, NaN row
}

const int64_t kCols[] = {1,      2,      7,      31,      32,      33,      127,    1000,
                         1024,   1025,   2049,   4097,    12288,   16385,   32771,  100003,
                         131072, 262145, 600001, 1000003, 1048575, 1048576, 2097152};

int64_t rows_for(int64_t cols) {
    return cols >= 100000 ? 3 : (cols >= 4096 ? 7 : 37);
}

class BestAllN : public ::testing::TestWithParam<DType> {};

TEST_P(BestAllN, MatchesFloat64ReferenceEveryElement) {
    SML_REQUIRE_GPU();
    for (int64_t n : kCols) check_case(GetParam(), rows_for(n), n, n, n, 0, nullptr);
}

// Every shape the dispatcher takes for contiguous rows from 1 to 2^21 values on this GPU (or
// under SML_DEVICE_PROFILE), each at the first and the last N of a geometric walk where it was
// the choice: a launch that cannot run or a wrong element fails here even at N no list above
// names (a one-block stash of exactly 48 KB, fp32 N = 43755 without clusters, was refused once).
TEST_P(BestAllN, EveryShapeTheDispatcherTakesRuns) {
    SML_REQUIRE_GPU();
    DeviceLimits limits;
    ASSERT_TRUE(query_device_limits(0, &limits));
    std::map<std::string, std::pair<int64_t, int64_t>> first_last;  // by describe()
    for (int64_t n = 1; n <= (int64_t{1} << 21); n += n / 32 + 1) {
        const SoftmaxProblem p = SoftmaxProblem::contiguous(rows_for(n), n, GetParam());
        const best::Config c = best::launch_config(p, limits);
        if (c.path == best::Config::Path::kTile) continue;  // ContiguousRowsOffTheirPacks
        auto [it, fresh] = first_last.try_emplace(c.describe(), n, n);
        if (!fresh) it->second.second = n;
    }
    EXPECT_GE(first_last.size(), 20u);
    for (const auto& [shape, ends] : first_last) {
        SCOPED_TRACE(shape);
        check_case(GetParam(), rows_for(ends.first), ends.first, ends.first, ends.first, 0,
                   nullptr);
        if (ends.second != ends.first)
            check_case(GetParam(), rows_for(ends.second), ends.second, ends.second, ends.second, 0,
                       nullptr);
    }
}

// Rows that start off 16 bytes and input/output rows at different offsets in their frames:
// the edge packs go element by element and the output cannot use vector stores.
TEST_P(BestAllN, UnalignedAndStridedRows) {
    SML_REQUIRE_GPU();
    for (int64_t n : {int64_t{5}, int64_t{33}, int64_t{1000}, int64_t{4097}, int64_t{100003}})
        check_case(GetParam(), rows_for(n), n, n + 3, n + 1, 1, nullptr);
}

// Rows back to back whose starts are off 16 bytes (odd N, or the tensor itself offset by 1 or 3
// values): the tile path, which moves a run of rows as packs. A row count past one tile, and
// the same runs with the output at another offset than the input, where the tile path cannot
// run and the group or one-block kernels do.
TEST_P(BestAllN, ContiguousRowsOffTheirPacks) {
    SML_REQUIRE_GPU();
    const int es = dtype_size(GetParam());
    for (int64_t n : {1,   2,   3,   5,   7,   22,  29,  33,   63,   75,  100,
                      127, 130, 205, 257, 331, 513, 666, 1000, 1023, 1024}) {
        if (n * es > 4096) continue;
        for (int64_t rows : {int64_t{37}, 16384 / (n * es) * 3 + 5})
            for (int offset : {0, 1, 3}) {
                check_case(GetParam(), rows, n, n, n, offset, nullptr, offset);
                if (offset == 1) check_case(GetParam(), rows, n, n, n, 1, nullptr, 3);
            }
    }
}

// The tile path's groups at every spread the rule may pick, forced: every row has exactly one
// group (an element no group writes stays NaN), with a last tile of fewer rows than groups.
TEST_P(BestAllN, TileAtEverySpread) {
    SML_REQUIRE_GPU();
    DeviceLimits limits;
    ASSERT_TRUE(query_device_limits(0, &limits));
    // 601 and 1021: 16-bit rows of 32 values a lane, whose tiles pass 48 KB.
    for (int64_t n : {int64_t{11}, int64_t{63}, int64_t{126}, int64_t{127}, int64_t{331},
                      int64_t{601}, int64_t{1021}}) {
        best::Config c = best::tile_for(n, GetParam(), false, limits);
        if (c.path != best::Config::Path::kTile) continue;
        for (int spread : {1, 3, 5, 7}) {
            c.spread = spread;
            check_case(GetParam(), c.rows * 2 + 3, n, n, n, 1, &c, 1);
        }
    }
}

// The dispatcher takes the tile path exactly where the layout allows it.
TEST(BestPaths, TileRunsWhereTheRowsAreOneFlatRun) {
    SML_REQUIRE_GPU();
    DeviceLimits limits;
    ASSERT_TRUE(query_device_limits(0, &limits));
    LaunchArgs a;
    a.limits = limits;
    a.problem = SoftmaxProblem{1000, 75, 75, 75, DType::f16};
    alignas(16) static char buf[64];
    a.in = buf + 2;
    a.out = buf + 2;
    EXPECT_EQ(best::plan_config(a).path, best::Config::Path::kTile);
    a.out = buf + 4;  // another offset from 16 bytes
    EXPECT_NE(best::plan_config(a).path, best::Config::Path::kTile);
    a.out = buf + 2;
    a.problem.out_stride = 80;  // rows not back to back
    EXPECT_NE(best::plan_config(a).path, best::Config::Path::kTile);
    a.problem = SoftmaxProblem{1000, 64, 64, 64, DType::f16};  // 8 whole packs on 16 bytes
    a.in = a.out = buf;
    EXPECT_NE(best::plan_config(a).path, best::Config::Path::kTile);
}

INSTANTIATE_TEST_SUITE_P(Dtypes, BestAllN, ::testing::Values(DType::f32, DType::f16, DType::bf16),
                         [](const auto& info) { return std::string(dtype_name(info.param)); });

// Each path forced, so all of them stay correct whatever the dispatcher prefers on this GPU.
TEST(BestPaths, EveryPathMatchesReference) {
    SML_REQUIRE_GPU();
    best::Config group;
    group.path = best::Config::Path::kGroup;
    group.width = 32;
    group.packs = 2;
    best::Config one_block;
    one_block.path = best::Config::Path::kCluster;
    one_block.threads = 256;
    one_block.packs = 4;
    best::Config cluster4 = one_block;
    cluster4.cluster = 4;
    best::Config two_pass_single;
    two_pass_single.path = best::Config::Path::kTwoPass;
    two_pass_single.threads = 512;
    best::Config two_pass8 = two_pass_single;
    two_pass8.cluster = 8;
    // The two-pass kernel with its L2 flags: evict_last / evict_first policies, backwards.
    best::Config two_pass8_l2 = two_pass8;
    two_pass8_l2.l2 = best::Config::kL2Policy | best::Config::kL2Reverse;
    best::Config two_pass_single_l2 = two_pass_single;
    two_pass_single_l2.l2 = best::Config::kL2Reverse;
    // 16 blocks (a non-portable cluster) of 8 packs a thread. For fp16/bf16 the row fills under
    // half of it, so whole blocks hold no live pack and still join the reduction.
    best::Config cluster16 = one_block;
    cluster16.cluster = 16;
    cluster16.threads = 416;
    cluster16.packs = 8;
    // 8 packs a thread in registers and the rest of the slice in shared memory (the stash): 4
    // blocks of 64 threads with 4 packs each there, and the dispatcher's 16 x 512 shape with 11.
    best::Config stash4 = cluster4;
    stash4.threads = 64;
    stash4.packs = 8;
    stash4.stash = 4;
    best::Config stash16 = cluster16;
    stash16.threads = 512;
    stash16.stash = 11;
    // The same with 6 packs in registers and 2 more in shared memory (16-bit rows' form,
    // stash_register_packs; run here in every dtype).
    best::Config stash4_six = stash4;
    stash4_six.packs = 6;
    stash4_six.stash = 6;
    best::Config stash16_six = stash16;
    stash16_six.packs = 6;
    stash16_six.stash = 13;
    DeviceLimits limits;
    ASSERT_TRUE(query_device_limits(0, &limits));
    // The grid path: every block on every row, LAG rows between reducing and finishing a row.
    // Row counts below, at and above the ring of LAG + AHEAD + 1 rows, so its start, its wrap and
    // its end are all run; some grids are smaller than the GPU (any size that is resident works).
    // Rows that are not whole 128-byte lines add an edge warp to the main threads, which hold the
    // inner packs: some shapes below leave their main threads' packs just enough for their rows.
    auto grid = [](int blocks, int threads, int packs, int lag, int ahead, int teams = 1) {
        best::Config c;
        c.path = best::Config::Path::kGrid;
        c.cluster = blocks;
        c.threads = threads;
        c.packs = packs;
        c.lag = lag;
        c.ahead = ahead;
        c.teams = teams;
        return c;
    };
    const best::Config grid_gpu = grid(limits.sm_count, 1024, 1, 2, 4);
    // 544 threads: the kWide kernel (an edge warp on top of 512), lag 3 only.
    const best::Config grid_wide = grid(limits.sm_count, 544, 4, 3, 2);
    const best::Config grid16 = grid(16, 288, 2, 4, 4);
    const best::Config grid8 = grid(8, 128, 8, 2, 2);
    // Teams: 2 or 3 grids of 16 blocks, each on every 2nd or 3rd row (row counts that leave a
    // team with no row, one row, or one row fewer than the others).
    const best::Config teams2 = grid(16, 256, 4, 4, 2, 2);
    const best::Config teams3 = grid(16, 160, 2, 2, 2, 3);
    // 8 packs a thread, lag 2, in two teams: the dispatcher's shape past 8 packs of stash.
    const best::Config grid8_teams = grid(16, 160, 8, 2, 2, 2);
    // Lag 3, the kWide kernel's (and here the other's): its ring of 4 rows wraps out of step
    // with the shared ring of 3.
    const best::Config lag3 = grid(16, 256, 4, 3, 2);
    const best::Config lag3_wide = grid(16, 544, 4, 3, 2);
    // The held grid (lag 0): each team holds one row, 8 packs a thread in registers and `stash`
    // more in shared memory, and swaps it in place for its next row. These small grids fill both
    // places at moderate N, in one team and in teams (row counts that leave a team with no row,
    // one, or one fewer). Rows at offsets 1 and 3 from 16 bytes have values before their first
    // 128-byte line and after their last whole pack, which warp 0 of the last block holds; rows
    // shorter than a line are nothing else.
    auto held = [](int blocks, int threads, int stash, int teams) {
        best::Config c;
        c.path = best::Config::Path::kGrid;
        c.cluster = blocks;
        c.threads = threads;
        c.packs = 8;
        c.stash = stash;
        c.teams = teams;
        c.lag = 0;
        return c;
    };
    const best::Config held8 = held(16, 64, 6, 1);
    const best::Config held16 = held(8, 128, 11, 3);
    const best::Config held_registers = held(16, 64, 0, 2);
    // The same places with 6 packs a thread in registers (16-bit rows' form where a block runs
    // alone on its SM, hold_register_packs; run here in every dtype).
    best::Config held8_six = held(16, 64, 8, 1), held16_six = held(8, 128, 13, 3);
    held8_six.packs = held16_six.packs = best::kStreamedHoldPacks;
    // Two rows a team (Config::held): 3 of the 6 register packs and half the stash a row; a block
    // stores one row while its team merges the other's slots. Row counts that leave a team's last
    // step with no row behind it, and teams with one row or none.
    best::Config pair8 = held(16, 64, 20, 1), pair16 = held(8, 128, 20, 3);
    pair8.packs = pair16.packs = best::kStreamedHoldPacks;
    pair8.held = pair16.held = 2;
    best::Config pair_prefetch = pair16;
    pair_prefetch.prefetch = 2;
    best::Config streamed = held(16, 64, 2, 1), streamed_teams = held(8, 128, 3, 3);
    streamed.stream = streamed_teams.stream = 1;
    streamed.packs = streamed_teams.packs = best::kStreamedHoldPacks;
    for (DType t : {DType::f32, DType::f16, DType::bf16}) {
        for (int64_t rows : {1, 2, 3, 5, 7, 12, 37}) {
            check_case(t, rows, 50001, 50001, 50001, 0, &held8);
            check_case(t, rows, 50001, 50003, 50011, 1, &held16, 1);
            check_case(t, rows, 40000, 40008, 40000, 3, &held16, 3);
            check_case(t, rows, 4000, 4000, 4000, 0, &held_registers);
            check_case(t, rows, 50001, 50001, 50001, 0, &held8_six);
            check_case(t, rows, 50001, 50003, 50011, 1, &held16_six, 1);
            check_case(t, rows, 50001, 50001, 50001, 0, &pair8);
            check_case(t, rows, 50001, 50003, 50011, 1, &pair16, 1);
            check_case(t, rows, 40000, 40008, 40000, 3, &pair_prefetch, 3);
        }
        for (int64_t n : {1, 5, 33, 100, 131}) check_case(t, 7, n, n, n, 1, &pair8, 1);
        for (int64_t n : {1, 5, 33, 100, 131}) check_case(t, 7, n, n, n, 1, &held8, 1);
        // The dispatcher's own held grid, past what the grid kernel holds on 132 SMs.
        if (limits.sm_count >= 132) {
            check_case(t, 5, 1500007, 1500007, 1500007, 1, nullptr, 1);
            check_case(t, 6, 3000017, 3000021, 3000017, 3, nullptr, 3);
            // Two rows a team: in one team (fp32 N = 4200011 on 132 SMs, where one row a team
            // runs in two teams) and in three (1500007, above, where it runs in seven).
            check_case(t, 5, 4200011, 4200011, 4200011, 1, nullptr, 1);
            // 16-bit rows there on blocks of 1024 threads, in two teams (16-bit N = 8000009) and
            // in one (13000007): 6 packs a thread in registers where the block's stash has room
            // for 2 more (hold_register_packs). On an H100 both have; under a profile of 99 KB a
            // block (rtx5090, emulated on 132 SMs) 13000007 has not, and keeps 8.
            if (t != DType::f32) {
                const int64_t room = (limits.smem_per_block_optin - 2048) / (1024 * 16);
                for (int64_t n : {8000009, 13000007}) {
                    const best::Config c = best::choose(n, t, n == 13000007, limits);
                    SCOPED_TRACE(std::to_string(n) + ": " + c.describe());
                    ASSERT_TRUE(c.held_grid());
                    if (c.stream != 0 || c.threads != 1024) continue;
                    EXPECT_EQ(c.packs, c.packs + c.stash - 6 <= room ? 6 : 8);
                    if (limits.profile.empty() || limits.profile == "h100") EXPECT_EQ(c.packs, 6);
                }
                check_case(t, 3, 8000009, 8000009, 8000009, 1, nullptr, 1);
                check_case(t, 2, 13000007, 13000007, 13000007, 0, nullptr);
            }
        }
        // Config::stream: rows longer than a team's places, each thread reading the packs past
        // its places twice. 16 x 64 threads x (6 + 2) places hold 8192 packs, 8 x 128 x (6 + 3)
        // hold 9216: every dtype streams at N = 100003 and 120001; at 50001 fp32 streams and a
        // 16-bit row (6250 packs) fits, so the streamed kernel runs with nothing to stream.
        for (int64_t rows : {1, 3, 7}) {
            check_case(t, rows, 100003, 100003, 100003, 1, &streamed, 1);
            check_case(t, rows, 120001, 120009, 120001, 3, &streamed_teams, 3);
            check_case(t, rows, 50001, 50001, 50001, 0, &streamed);
        }
        // The dispatcher's streamed held grid, past what 132 SMs hold (fp32 N > 11894784).
        if (limits.sm_count >= 132 && t != DType::f16) {
            const int64_t n = t == DType::f32 ? 12000007 : 24000001;
            check_case(t, 2, n, n, n, 1, nullptr, 1);
        }
        // The dispatcher's grid of 8 packs in two teams (fp32 rows past 8 packs of stash a
        // thread), on rows with edges and on rows of whole lines.
        if (limits.sm_count >= 132) {
            check_case(t, 7, 620003, 620007, 620011, 1, nullptr, 1);
            check_case(t, 4, 660000, 660000, 660000, 0, nullptr);
        }
    }
    for (DType t : {DType::f32, DType::f16, DType::bf16}) {
        // A block per SM holding a slice of a 1M row: the H100's 132 SMs hold it; a class of
        // GPU with fewer (a device profile) cannot, and plan_with refuses it there.
        if (limits.sm_count >= 132) {
            check_case(t, 9, 300001, 300001, 300001, 0, &grid_gpu);
            check_case(t, 5, 1048576, 1048579, 1048579, 1, &grid_wide, 1);
            // The dispatcher's own pick for rows of whole 32-byte sectors off a line (on an
            // H100: in 16 bits the grid in two teams without the edge warp; fp32, one team with
            // it).
            check_case(t, 5, 828640, 828640, 828640, 0, nullptr);
        }
        for (int64_t rows : {1, 2, 6, 7, 8, 11, 37})
            check_case(t, rows, 30001, 30003, 30011, 1, &grid16, 1);
        for (int64_t rows : {1, 2, 5}) check_case(t, rows, 5000, 5000, 5000, 0, &grid8);
        for (int64_t rows : {1, 3, 4, 5, 13}) check_case(t, rows, 30001, 30001, 30001, 0, &lag3);
        for (int64_t rows : {1, 4, 13}) check_case(t, rows, 30001, 30001, 30001, 0, &lag3_wide);
        for (int64_t rows : {1, 2, 3, 7, 12, 37}) {
            check_case(t, rows, 30001, 30003, 30011, 1, &teams2, 1);
            check_case(t, rows, 12345, 12345, 12353, 0, &teams3);
            check_case(t, rows, 30001, 30003, 30011, 1, &grid8_teams, 1);
        }
        // Rows of whole 128-byte lines (N = 30016), every one on 16 bytes: the kernel's kWhole
        // form, with no edge warp. Rows of whole packs off a line (N = 30008) have the edge warp,
        // also with an output stride that keeps each output row at its input row's offset from
        // 16 bytes; and rows so short that most blocks hold no pack.
        for (int64_t rows : {1, 2, 6, 7, 8, 11, 37}) {
            check_case(t, rows, 30016, 30016, 30016, 0, &grid16);
            check_case(t, rows, 30016, 30024, 30016, 0, &teams2);
            check_case(t, rows, 30008, 30008, 30008, 0, &grid16);
            check_case(t, rows, 30008, 30016, 30008, 0, &teams2);
        }
        check_case(t, 7, 30008, 30009, 30017, 0, &grid16);
        check_case(t, 7, 256, 256, 256, 0, &grid16);
        // Rows of whole lines forced through the kernel with the edge warp (Config's `edges`),
        // one team and in teams; and rows off a line, which take it anyway.
        best::Config grid16_edges = grid16;
        grid16_edges.edges = 1;
        best::Config teams2_edges = teams2;
        teams2_edges.edges = 1;
        teams2_edges.threads = 288;
        // And rows of whole packs off a line without it (`edges` -1, the dispatcher's choice for
        // 16-bit rows where the edge warp would need the kWide kernel).
        best::Config grid16_no_edges = grid16;
        grid16_no_edges.edges = -1;
        // And in two teams (the dispatcher's choice for 16-bit rows of whole 32-byte sectors).
        best::Config teams2_no_edges = teams2;
        teams2_no_edges.edges = -1;
        for (int64_t rows : {1, 2, 7, 37}) {
            check_case(t, rows, 30008, 30008, 30008, 0, &grid16_no_edges);
            check_case(t, rows, 30008, 30008, 30008, 0, &teams2_no_edges);
            check_case(t, rows, 30032, 30048, 30032, 0, &teams2_no_edges);
            check_case(t, rows, 30008, 30008, 30008, 0, &grid16_edges);
            check_case(t, rows, 30016, 30016, 30016, 0, &grid16_edges);
            check_case(t, rows, 30016, 30016, 30016, 0, &teams2_edges);
        }
        // Rows with no inner pack, or none but edges: the edge warp holds all of each row.
        for (int64_t n : {1, 3, 5, 9, 17}) check_case(t, 7, n, n, n, 1, &grid16, 1);
        // One block a row with its stash (GPUs without clusters): 1024 threads x 8 packs in
        // registers and 8 more a thread in shared memory (fp32 N = 65536 on an A100); a row
        // that reaches only part of the stash, and rows at other offsets from 16 bytes.
        best::Config one_stash;
        one_stash.path = best::Config::Path::kCluster;
        one_stash.threads = 1024;
        one_stash.packs = 8;
        one_stash.stash = 8;
        const int64_t full = int64_t{16} * 1024 * (16 / dtype_size(t));
        check_case(t, 5, full, full, full, 0, &one_stash);
        check_case(t, 7, full - 3001, full - 2990, full - 2995, 1, &one_stash, 3);
        check_case(t, 3, full / 2 + 7, full / 2 + 7, full / 2 + 7, 3, &one_stash, 3);
    }
    // Output rows at other offsets from 16 bytes than the input's: the grid cannot store them
    // (it stores whole packs where the input had them), so a forced grid is refused, and the
    // dispatcher, which would take the grid at this N, runs two passes instead.
    {
        SoftmaxProblem p{3, 786433, 786433, 786434, DType::f32};
        LaunchArgs args;
        args.problem = p;
        args.limits = limits;
        args.in = reinterpret_cast<const void*>(uintptr_t{256});  // not dereferenced
        args.out = reinterpret_cast<void*>(uintptr_t{512});
        args.workspace = args.out;
        const best::Config forced = grid(limits.sm_count, 448, 4, 3, 2);
        std::vector<LaunchStep> steps;
        EXPECT_EQ(best::plan_with(args, forced, &steps), cudaErrorInvalidValue);
        EXPECT_TRUE(steps.empty());
        if (limits.sm_count >= 132 && limits.has_clusters()) {  // where best takes the grid
            EXPECT_EQ(best::plan_config(args).path, best::Config::Path::kTwoPass);
            args.problem.out_stride = p.in_stride;  // the same frames: the grid
            EXPECT_EQ(best::plan_config(args).path, best::Config::Path::kGrid);
        }
        for (DType t : {DType::f32, DType::bf16})
            check_case(t, 3, 786433, 786433, 786434, 0, nullptr);
    }
    for (DType t : {DType::f32, DType::f16, DType::bf16}) {
        check_case(t, 37, 200, 200, 200, 0, &group);
        check_case(t, 37, 201, 203, 201, 1, &group);
        // Group blocks of more than one warp (with_group_warps: an SM's share of bandwidth),
        // with a last block of fewer rows than its groups.
        for (const int threads : {64, 128}) {
            best::Config warps = group;
            warps.width = 8;
            warps.packs = 1;
            warps.threads = threads;
            check_case(t, 37, 32, 32, 32, 0, &warps);
            check_case(t, 101, 25, 27, 25, 1, &warps);
            warps.rows = 4;
            check_case(t, 37, 32, 32, 32, 0, &warps);
        }
        check_case(t, 7, 3000, 3001, 3000, 0, &one_block);
        check_case(t, 7, 3000, 3001, 3000, 0, &two_pass_single);
        check_case(t, 7, 30001, 30001, 30003, 1, &two_pass_single_l2);
        if (limits.has_clusters()) {  // clusters are Hopper and newer
            check_case(t, 7, 12000, 12003, 12000, 1, &cluster4);
            // Contiguous odd rows: a cluster reads each edge pack whole, the neighbour row's
            // values included, and must mask them out (only row 0's head and row 6's tail go
            // element by element).
            check_case(t, 7, 12001, 12001, 12001, 0, &cluster4);
            check_case(t, 5, 300001, 300001, 300001, 0, &two_pass8);
            check_case(t, 5, 300001, 300005, 300001, 1, &two_pass8_l2);
            check_case(t, 5, 200003, 200007, 200003, 1, &cluster16);
            // The same bytes in every dtype: 3001 packs (12001 fp32 values) over 4 blocks puts
            // a block's last 4 of 12 slots in the stash, the row's last pack among them; odd
            // contiguous rows read their edge packs whole from the stash and mask them there.
            const int64_t per_pack = 16 / dtype_size(t);
            const int64_t n4 = 3000 * per_pack + 1, n16 = 150000 * per_pack + 1;
            check_case(t, 7, n4, n4, n4, 0, &stash4);
            check_case(t, 7, n4 - 2, n4 + 1, n4 - 2, 1, &stash4);
            check_case(t, 5, n16, n16, n16, 0, &stash16);
            check_case(t, 5, n16 - 9, n16 - 9, n16 + 3, 3, &stash16);
            check_case(t, 7, n4, n4, n4, 0, &stash4_six);
            check_case(t, 7, n4 - 2, n4 + 1, n4 - 2, 1, &stash4_six);
            check_case(t, 5, n16, n16, n16, 0, &stash16_six);
            check_case(t, 5, n16 - 9, n16 - 9, n16 + 3, 3, &stash16_six);
        }
    }
}

// Without clusters, the grid in teams is sized to the GPU that runs it: a profile decides the
// path and a team's blocks (9 of 480 threads, one row ahead, in a T4's 64 KB at fp32
// N = 65536), the launch runs as many teams as fill this GPU's SMs. Capped at the T4's 40 SMs on
// a larger GPU, the grid would be measured against a copy that uses them all.
TEST(BestPaths, TeamGridFillsTheGpuItRunsOn) {
    SML_REQUIRE_GPU();
    const Result<DeviceLimits> real = read_device_limits(0, "");
    ASSERT_TRUE(real.ok());
    const Result<DeviceLimits> t4 = read_device_limits(0, "t4");
    ASSERT_TRUE(t4.ok());
    // The choice as a T4 itself would make it (no GPU to ask): 4 teams of 9 on its 40 SMs.
    const best::Config on_t4 = best::choose_for(65536, DType::f32, true, true, *t4);
    ASSERT_EQ(on_t4.path, best::Config::Path::kGrid) << on_t4.describe();
    EXPECT_EQ(on_t4.cluster, 9) << on_t4.describe();
    EXPECT_EQ(on_t4.grid_ahead(), 1) << on_t4.describe();
    EXPECT_EQ(on_t4.grid_teams(), std::min(t4->sm_count, 40) / 9) << on_t4.describe();
    if (real->sm_count < on_t4.cluster) GTEST_SKIP() << "a GPU of fewer SMs than a T4 team";
    LaunchArgs a;  // no buffers: cudaMalloc-aligned, contiguous
    a.problem = SoftmaxProblem::contiguous(8, 65536);
    a.limits = *t4;
    const best::Config c = best::plan_config(a);
    ASSERT_EQ(c.path, best::Config::Path::kGrid) << c.describe();
    EXPECT_EQ(c.cluster, on_t4.cluster) << c.describe();
    EXPECT_EQ(c.grid_teams(), std::min(real->sm_count / on_t4.cluster, 64)) << c.describe();
    check_case(DType::f32, 29, 65536, 65536, 65536, 0, &c);
}

// predict() follows the path plan() takes: one read while the row fits on chip, two after.
TEST(BestPaths, PredictionFollowsThePath) {
    SML_REQUIRE_GPU();
    DeviceLimits limits;
    ASSERT_TRUE(query_device_limits(0, &limits));
    const KernelInfo* k = find_kernel("best");
    ASSERT_NE(k, nullptr);
    for (int64_t n :
         {int64_t{32}, int64_t{4096}, int64_t{131072}, int64_t{1} << 19, int64_t{1} << 20}) {
        const SoftmaxProblem p = SoftmaxProblem::contiguous(64, n);
        const best::Config c = best::choose(n, DType::f32, true, limits);
        const double bytes = 64.0 * double(n) * 4;
        const double reads = best::row_reads(c, n, DType::f32);  // 1 on chip, 2 on two passes
        EXPECT_DOUBLE_EQ(k->predict(p, limits).dram_read_bytes, reads * bytes) << c.describe();
        EXPECT_DOUBLE_EQ(k->predict(p, limits).dram_write_bytes, bytes);
    }
    // A row of 2^18 fp32 values (1 MiB) fits in the registers of a cluster of 16 SMs (Hopper),
    // two blocks an SM without an occupancy answer; where an SM moves more bytes a second than an
    // H100's (an H200), the held grid takes such rows from the cluster. Without clusters, in a team
    // of blocks of up to 512 threads x 4 packs, each within the opt-in shared memory (less 2 KB)
    // for its staging ring of 3 x 4 packs a thread, or 2 x 4 where 3 leave fewer than 512 threads,
    // where the GPU has SMs for the team's blocks; else in the held grid, where the GPU's registers
    // (8 packs a thread of 1024 threads an SM) and shared memory (its opt-in less 2 KB) hold it;
    // else one team holds what it can (6 packs a thread in registers, the streamed kernel's) and
    // reads the rest twice. Rows of 2^19 and 2^20 take the grid on an H100 SXM (132 SMs hold them),
    // and one of 2^21 the held grid, streaming the rest where the GPU cannot hold it (a T4's 40
    // SMs).
    auto threads_at = [&](int rows_staged) {
        return std::min(512, (limits.smem_per_block_optin - 2048) / (rows_staged * 4 * 16)) / 32 *
               32;
    };
    const int64_t team_threads = threads_at(3) >= 512 ? 512 : threads_at(2);
    const int64_t team_blocks = ((int64_t{1} << 16) + team_threads * 4 - 1) / (team_threads * 4);
    const int64_t stash = (limits.smem_per_block_optin - 2048) / (1024 * 16);
    const int64_t held_per_sm = int64_t{1024} * 4 * (best::kHoldPacks + stash);
    const int64_t streamed_per_sm = int64_t{1024} * 4 * (best::kStreamedHoldPacks + stash);
    auto held = [&](int64_t n) { return held_per_sm * limits.sm_count > n * 101 / 100; };
    const bool faster_dram = best::sm_bandwidth_vs_h100(limits) > 1.0;
    EXPECT_EQ(best::choose(int64_t{1} << 18, DType::f32, true, limits).path,
              limits.has_clusters()
                  ? (faster_dram && held(int64_t{1} << 18) ? best::Config::Path::kGrid
                                                           : best::Config::Path::kCluster)
              : team_blocks <= limits.sm_count || held(int64_t{1} << 18)
                  ? best::Config::Path::kGrid
                  : best::Config::Path::kTwoPass);
    if (limits.has_clusters() && limits.sm_count >= 132) {
        EXPECT_EQ(best::choose(int64_t{1} << 19, DType::f32, true, limits).path,
                  best::Config::Path::kGrid);
        EXPECT_EQ(best::choose(int64_t{1} << 20, DType::f32, true, limits).path,
                  best::Config::Path::kGrid);
    }
    const best::Config c21 = best::choose(int64_t{1} << 21, DType::f32, true, limits);
    EXPECT_EQ(c21.path, best::Config::Path::kGrid);
    EXPECT_EQ(c21.stream, held(int64_t{1} << 21) ? 0 : 1);
    if (c21.stream != 0) {  // the share past the streamed team's places, read twice
        const SoftmaxProblem p = SoftmaxProblem::contiguous(8, int64_t{1} << 21);
        const double places = double(streamed_per_sm) * limits.sm_count;
        EXPECT_NEAR(k->predict(p, limits).dram_read_bytes / (8.0 * 4 * (1 << 21)),
                    2 - places / double(1 << 21), 1e-3);
    }
}

}  // namespace
}  // namespace sml
