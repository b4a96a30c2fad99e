// best's launch planning for an explicit configuration, for its tests and bench/ (CUDA only).
#pragma once

#include <vector>

#include "kernels/best_softmax.h"
#include "kernels/launch.h"

namespace sml::best {

// The configuration the registry's `best` runs for these arguments: choose() with the GPU's
// occupancy, and two passes where this GPU cannot schedule the chosen cluster.
Config plan_config(const LaunchArgs& args);

// Plans the launch for an explicit configuration (the tuning harness compares several).
// The grid path needs args.workspace of workspace_bytes(args.problem, config) bytes.
cudaError_t plan_with(const LaunchArgs& args, const Config& config, std::vector<LaunchStep>* steps);

}  // namespace sml::best
