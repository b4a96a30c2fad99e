// The `best` kernel's dispatch, exposed for its tests and for bench/ (tuning and the peer
// benchmark). Everything else reaches `best` through the registry like any other kernel.
#pragma once

#include <string>
#include <vector>

#include "kernels/kernel_api.h"

namespace sml::best {

// Which of best_softmax.cu's kernels runs a problem, and how it is shaped.
struct Config {
    enum class Path { kGroup, kCluster, kTwoPass, kPersistent };
    Path path = Path::kGroup;
    int width = 0;  // group: lanes per row (1..32)
    int packs = 0;  // group: 16-byte packs per lane and row
    int rows_per_group = 0;
    int threads = 0;  // cluster / two-pass / persistent: threads per block
    int values = 0;   // cluster / persistent: values per thread held in registers
    int stash = 0;    // persistent: values per thread held in shared memory
    int cluster = 1;  // cluster / two-pass / persistent: blocks per row
    int waves = 4;    // group: grid = SMs x resident blocks x waves (grid-stride beyond)
    int blocks_per_sm = 0;      // group: cap on resident blocks counted in the grid (0: none)
    bool plain_stores = false;  // group: st.global instead of the streaming st.global.cs
    std::string describe() const;  // e.g. "cluster 4 x 512 threads x 16 values"
};

// Rows up to this many values take 16 values a thread; longer ones 32 (and a cluster).
constexpr int kDefaultBlockValues = 8192;

// The choice `best` makes. `aligned`: every row of input and output starts on 16 bytes.
Config choose(int64_t cols, DType dtype, bool aligned, const DeviceLimits& limits,
              int block_values = kDefaultBlockValues);

// Plans the launch for an explicit configuration (the tuning harness compares several).
cudaError_t plan_with(const LaunchArgs& args, const Config& config, std::vector<LaunchStep>* steps);

}  // namespace sml::best
