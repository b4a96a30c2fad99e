// How results are printed: the `run` result block, the sweep summary table and the points CSV.
// These only read the session model; nothing parses this text back.
#pragma once

#include <string>

#include "common/result.h"
#include "core/session/session.h"

namespace sml::cli {

void print_point(const PointRecord& p, const DeviceRecord& device);

// N down the side, kernels across; each cell is GB/s and % of copy.
void print_sweep_table(const Session& s);

// One row per point with the numbers a spreadsheet needs (timing, bandwidth, errors, predicted
// and measured DRAM bytes). Fails with the path and the reason.
Status write_points_csv(const std::string& path, const Session& s);

}  // namespace sml::cli
