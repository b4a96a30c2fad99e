// The `best` kernel's dispatch, exposed for its tests and for bench/ (tuning and the peer
// benchmark). Everything else reaches `best` through the registry like any other kernel.
// The lesson is kernels/best_softmax.cu; the kernels and their launches are in kernels/best/, and
// planning an explicit configuration (CUDA only) is declared in kernels/best_launch.h.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kernels/kernel_api.h"

namespace sml::best {

// best::Config's fields, defined once, in order: X(type, name, default). Config declares its
// members from it; Config::fields(), the value arrays below (the C entry point in
// bench/best_capi.cu, whose field names bench/peers.py reads) and the tests go through it.
// Sizes are in 16-byte packs (4 fp32 or 8 fp16/bf16 values), so one shape moves the same bytes in
// every dtype.
#define SML_BEST_CONFIG_FIELDS(X)                                                            \
    /* which kernel: group, cluster (with or without a stash), two-pass, grid or tile */     \
    X(Path, path, Path::kGroup)                                                              \
    /* group, tile: lanes per row (1..32) */                                                 \
    X(int, width, 0)                                                                         \
    /* group: packs per lane and row; cluster: packs per thread in registers; grid: packs */ \
    /* per thread (lag 0: in registers, 8; 6 with stream); tile: values a lane holds */      \
    /* (8, 16 or 32) */                                                                      \
    X(int, packs, 0)                                                                         \
    /* threads per block (group: 0 means group_threads()'s default, one warp) */             \
    X(int, threads, 0)                                                                       \
    /* cluster / two-pass / grid: blocks per row (grid: per team) */                         \
    X(int, cluster, 1)                                                                       \
    /* two-pass: kL2Policy | kL2Reverse, how its second read finds L2 */                     \
    X(int, l2, 0)                                                                            \
    /* group: rows per group; 0 is the default, 2 / 2 / 1 for 1 / 2 / 4 packs; tile: rows */ \
    /* per block */                                                                          \
    X(int, rows, 0)                                                                          \
    /* grid: rows a block reduces ahead of the row it finishes (2, 3 or 4); 0 is the held */ \
    /* grid (hold.cu), which finishes each row as soon as it is reduced */                   \
    X(int, lag, 0)                                                                           \
    /* grid: rows of loads in flight past the row reduced; 0 is 2 (2, 4; 1 at 4 packs, */    \
    /* lag 4) */                                                                             \
    X(int, ahead, 0)                                                                         \
    /* grid: teams of `cluster` blocks, each on every teams-th row; 0 is 1 */                \
    X(int, teams, 0)                                                                         \
    /* cluster: packs a thread holds in shared memory past `packs` (8) in registers (the */  \
    /* stash kernel; clusters of 2 or more blocks); grid, lag 0: the same past `packs` */    \
    X(int, stash, 0)                                                                         \
    /* grid: 1 runs rows of whole 128-byte lines through the kernel with the edge warp, */   \
    /* which other rows take (grid_whole_lines; tuning); -1 runs rows of whole packs off */  \
    /* a line without it (choose() for 16-bit rows that would need kWide; tuning) */         \
    X(int, edges, 0)                                                                         \
    /* tile: a warp's groups of lanes take rows this many apart (odd; 0 is 1), so that */    \
    /* their values fall in different shared-memory banks (tile_spread) */                   \
    X(int, spread, 0)                                                                        \
    /* grid, lag 0: 1 reads the packs past a thread's places (packs + stash) from memory */  \
    /* twice, for the row's (max, sum) and for its store: rows longer than the GPU holds */  \
    X(int, stream, 0)                                                                        \
    /* grid, lag 0: places a thread of the next row that its block prefetches into L2 */     \
    /* while its team merges a row (held_prefetch; at most `packs`) */                       \
    X(int, prefetch, 0)                                                                      \
    /* grid, lag 0: rows a team holds at once, 1 or 2 (0 is 1); with 2 each row has half */  \
    /* of `packs` and `stash`, and a block stores one while its team merges the other */     \
    X(int, held, 0)

// Which of best's kernels runs a problem, and how it is shaped.
struct Config {
    enum class Path { kGroup, kCluster, kTwoPass, kGrid, kTile };
    // Two-pass flags (best_two_pass_kernel): evict_last / evict_first L2 policies on the first /
    // second read; the second pass backwards over the slice.
    static constexpr int kL2Policy = 1, kL2Reverse = 2;
#define SML_BEST_CONFIG_MEMBER(type, name, init) type name = init;
    SML_BEST_CONFIG_FIELDS(SML_BEST_CONFIG_MEMBER)
#undef SML_BEST_CONFIG_MEMBER
    int rows_per_group() const { return rows > 0 ? rows : (packs <= 2 ? 2 : 1); }
    int group_threads() const { return threads > 0 ? threads : 32; }
    int grid_ahead() const { return ahead > 0 ? ahead : 2; }
    int grid_teams() const { return teams > 0 ? teams : 1; }
    int tile_spread() const { return spread > 0 ? spread : 1; }
    int held_rows() const { return held > 0 ? held : 1; }
    // The held grid's places a thread has for each row it holds: `packs` in registers and
    // `stash` in shared memory, shared out between held_rows() rows.
    int held_places() const { return packs / held_rows() + stash / held_rows(); }
    // The grid path's held form (hold.cu): each team holds one row (or two, held_rows()), each
    // finished as it is reduced.
    bool held_grid() const { return path == Path::kGrid && lag == 0; }
    std::string describe() const;  // e.g. "cluster 4 x 512 threads x 4 packs"
    std::string fields() const;    // every field: "path=1 width=0 packs=4 threads=512 ..."
    // describe() in any language: each fragment is an English template with {0}, {1}, ... for
    // its numbers, worded by say(en, parts). describe() fills the English in; the viewer says
    // it in Chinese (app/viewer/model/device_view.cpp).
    using Say = std::function<std::string(const char* en, const std::vector<std::string>& parts)>;
    std::string describe(const Say& say) const;
};

// The fields as an array of ints, in SML_BEST_CONFIG_FIELDS's order (the path as its number),
// and back: the C entry point's form of a configuration.
#define SML_BEST_CONFIG_COUNT(type, name, init) +1
constexpr int kConfigFieldCount = 0 SML_BEST_CONFIG_FIELDS(SML_BEST_CONFIG_COUNT);
#undef SML_BEST_CONFIG_COUNT
using ConfigValues = std::array<int, kConfigFieldCount>;

// "path,width,packs,...": the field names, comma-separated, in that order.
inline const char* config_field_names() {
#define SML_BEST_CONFIG_NAME(type, name, init) "," #name
    return SML_BEST_CONFIG_FIELDS(SML_BEST_CONFIG_NAME) + 1;  // past the leading comma
#undef SML_BEST_CONFIG_NAME
}

inline ConfigValues config_values(const Config& c) {
#define SML_BEST_CONFIG_VALUE(type, name, init) static_cast<int>(c.name),
    return ConfigValues{SML_BEST_CONFIG_FIELDS(SML_BEST_CONFIG_VALUE)};
#undef SML_BEST_CONFIG_VALUE
}

inline Config config_from_values(const ConfigValues& values) {
    Config c;
    int i = 0;
#define SML_BEST_CONFIG_SET(type, name, init) c.name = static_cast<type>(values[i++]);
    using Path = Config::Path;
    SML_BEST_CONFIG_FIELDS(SML_BEST_CONFIG_SET)
#undef SML_BEST_CONFIG_SET
    return c;
}

// Resident blocks per SM for a cluster-path configuration (the occupancy calculator, where there
// is a GPU). choose() compares shapes by rows in flight, this times SMs over blocks per cluster.
using ResidentBlocks = std::function<int(const Config&)>;

// The choice `best` makes (kernels/best_softmax.cu). `aligned`: every row of input and output
// starts on 16 bytes. Without `resident`, one-block shapes take 4 packs a thread, else 8, and
// cluster sizes are compared as if every thread held 64 registers (the clustered kernel's cap).
Config choose(int64_t cols, DType dtype, bool aligned, const DeviceLimits& limits,
              const ResidentBlocks& resident = nullptr);

// The tile path's shape for rows of `cols` values, where the tensor allows it (rows back to back,
// input and output at the same offset from 16 bytes): the launch checks the layout and takes it
// in place of choose()'s when `tile.path == Path::kTile`. Otherwise path is kGroup and unused.
// Its tile's rows depend on the SM's shared memory (`limits`).
Config tile_for(int64_t cols, DType dtype, bool aligned, const DeviceLimits& limits);

// best's choice for a tensor's layout: where `flat` (rows back to back in input and output, which
// start at one offset from 16 bytes) and tile_for takes the row, the tile path; else choose()'s.
// The launch, the registry's questions and the viewer's GPU-class line all ask this.
Config choose_for(int64_t cols, DType dtype, bool aligned, bool flat, const DeviceLimits& limits,
                  const ResidentBlocks& resident = nullptr);

// Device memory a configuration needs besides input and output: the grid path's slots, one
// 8-byte (max, sum) per row and block; 0 for every other path.
size_t workspace_bytes(const SoftmaxProblem& problem, const Config& config);

// What the registry's `best` needs to know without launching (kernels/registry.cpp), for the
// configuration it runs on a device with `limits` and cudaMalloc-aligned buffers: choose()'s,
// or, where the limits were read from a GPU, the launch's own (occupancy, fallbacks).
// workspace_bytes for that configuration:
size_t registry_workspace_bytes(const SoftmaxProblem& problem, const DeviceLimits& limits);
// How many times that configuration reads each value from DRAM, on average (row_reads):
double reads_per_value(const SoftmaxProblem& problem, const DeviceLimits& limits);
// The same for configuration `c` on rows of `cols` values: 1 where the row stays on chip, 2 on
// two passes, and on the streamed held grid 1 plus the share of the row no thread's place holds.
double row_reads(const Config& c, int64_t cols, DType dtype);
// The held grid's L2 prefetch (Config::prefetch) for `c` as launched (its teams, blocks and
// threads): the places a thread of row r + 1 its block puts into L2 while its team merges row r.
int held_prefetch(const Config& c, const DeviceLimits& limits);

// The rest is CUDA code (kernels/best/launch.cu), built with the toolkit only.

// The configuration plan_config() takes for `problem` on the current GPU, whose `limits` these
// are, with cudaMalloc-aligned buffers.
Config launch_config(const SoftmaxProblem& problem, const DeviceLimits& limits);

// The registry's plan (kernel_api.h's PlanFn): plan_config's configuration, planned.
int plan(const LaunchArgs& args, std::vector<LaunchStep>* steps);

}  // namespace sml::best
