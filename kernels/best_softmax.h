// The `best` kernel's dispatch, exposed for its tests and for bench/ (tuning and the peer
// benchmark). Everything else reaches `best` through the registry like any other kernel.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "kernels/kernel_api.h"

namespace sml::best {

// Which of best_softmax.cu's kernels runs a problem, and how it is shaped. Sizes are in 16-byte
// packs (4 fp32 or 8 fp16/bf16 values), so one shape moves the same bytes in every dtype.
struct Config {
    enum class Path { kGroup, kCluster, kTwoPass, kGrid };
    // Two-pass flags (best_two_pass_kernel): evict_last / evict_first L2 policies on the first /
    // second read; the second pass backwards over the slice.
    static constexpr int kL2Policy = 1, kL2Reverse = 2;
    Path path = Path::kGroup;
    int width = 0;    // group: lanes per row (1..32)
    int packs = 0;    // group: packs per lane and row; cluster: packs per thread in registers
    int threads = 0;  // threads per block (group: 0 means group_threads()'s default, one warp)
    int cluster = 1;  // cluster / two-pass / grid: blocks per row (grid: per team)
    int l2 = 0;       // two-pass: kL2Policy | kL2Reverse, how its second read finds L2
    int rows = 0;     // group: rows per group; 0 is the default, 2 / 2 / 1 for 1 / 2 / 4 packs
    int lag = 0;      // grid: rows a block reduces ahead of the row it finishes (2 or 4)
    int ahead = 0;    // grid: rows of loads in flight past the row reduced; 0 is 2 (2 or 4)
    int teams = 0;    // grid: teams of `cluster` blocks, each on every teams-th row; 0 is 1
    int stash = 0;    // cluster: packs a thread holds in shared memory, past `packs` (8) in
                      // registers (best_stash_kernel; clusters of 2 or more blocks)
    int rows_per_group() const { return rows > 0 ? rows : (packs <= 2 ? 2 : 1); }
    int group_threads() const { return threads > 0 ? threads : 32; }
    int grid_ahead() const { return ahead > 0 ? ahead : 2; }
    int grid_teams() const { return teams > 0 ? teams : 1; }
    std::string describe() const;  // e.g. "cluster 4 x 512 threads x 4 packs"
};

// Resident blocks per SM for a cluster-path configuration (the occupancy calculator, where there
// is a GPU). choose() compares shapes by rows in flight, this times SMs over blocks per cluster.
using ResidentBlocks = std::function<int(const Config&)>;

// The choice `best` makes. `aligned`: every row of input and output starts on 16 bytes.
// Without `resident`, one-block shapes take 4 packs a thread, else 8, and cluster sizes are
// compared as if every thread held 64 registers (the clustered kernel's cap).
Config choose(int64_t cols, DType dtype, bool aligned, const DeviceLimits& limits,
              const ResidentBlocks& resident = nullptr);

// Device memory a configuration needs besides input and output: the grid path's slots, one
// 8-byte (max, sum) per row and block; 0 for every other path.
size_t workspace_bytes(const SoftmaxProblem& problem, const Config& config);

// workspace_bytes for the configuration the registry's `best` runs on a device with `limits`.
size_t registry_workspace_bytes(const SoftmaxProblem& problem, const DeviceLimits& limits);

// True where best's path for this problem reads each row twice (the two-pass path).
bool reads_twice(const SoftmaxProblem& problem, const DeviceLimits& limits);

// The registry's plan (kernel_api.h's PlanFn): plan_config's configuration, planned.
int plan(const LaunchArgs& args, std::vector<LaunchStep>* steps);

}  // namespace sml::best
