// How an edited kernel may change its launch: `// @launch` lines in the source (docs/lab.md).
//
// An edit keeps its original's kernel names and launch plan: the plan (the host code, which the
// lab does not compile) still picks the instantiation, the grid, the block and the shared memory
// for each launch. A comment line may change the shape of those launches:
//
//   // @launch threads=256            block size of a 1-D launch
//   // @launch block=32x8             block shape (x, y, z) of any launch
//   // @launch smem=8192              dynamic shared memory in bytes (8k = 8192)
//   // @launch grid=264               blocks (x) in the grid
//   // @launch step=divide threads=512  only the launch named `divide` (naive has five)
//
// Keys combine on one line. Without step=, a line applies to every launch. The plan's grid stays
// unless grid= is given: every lesson kernel grid-strides over its rows, so any grid is correct.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "core/lab/diagnostics.h"

namespace sml::lab {

struct LaunchOverride {
    std::string step;  // "" = every launch
    std::optional<int64_t> threads;
    std::optional<std::vector<int64_t>> block;  // 1 to 3 values
    std::optional<int64_t> smem;
    std::optional<int64_t> grid;
    int line = 0;  // where it was written (0: given in the job document)

    bool empty() const { return !threads && !block && !smem && !grid; }
};

// The launch of one step, as the plan made it or as overrides change it.
struct LaunchShape {
    std::string step;
    int64_t grid[3] = {1, 1, 1};
    int64_t block[3] = {1, 1, 1};
    int64_t smem = 0;
};

// Every `// @launch` line of `source`. A line with an unknown key or a bad value gives an error
// diagnostic on that line (file `source_name`) and no override.
std::vector<LaunchOverride> parse_launch_overrides(const std::string& source,
                                                   const std::string& source_name,
                                                   std::vector<Diagnostic>* diagnostics);

// Applies the overrides that name `shape.step` (or no step) in order. An Error for a shape that
// cannot run: threads= on a 2-D block, more than 1024 threads, sizes below 1.
Status apply_overrides(const std::vector<LaunchOverride>& overrides, LaunchShape* shape);

// Steps named in overrides that the plan does not have (a typo in step=).
std::vector<std::string> unknown_steps(const std::vector<LaunchOverride>& overrides,
                                       const std::vector<std::string>& plan_steps);

// "threads=256 smem=0" - the override as written, for records and messages.
std::string describe(const LaunchOverride& o);

}  // namespace sml::lab
