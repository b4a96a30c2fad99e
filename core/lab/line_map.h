// PC -> source line for the kernels of a cubin compiled with line info, through CUPTI's
// SASS-to-source correlation (cuptiGetSassToSourceCorrelation). It reads the cubin alone, no GPU
// needed: the CPU tests fold stored records against a cubin NVRTC makes on the spot.
// line_map_cupti.cpp; line_map_nocupti.cpp says why not in a build without CUPTI.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "core/lab/line_fold.h"

namespace sml::lab {

// Every instruction of `function` (mangled) with its file and line (0 where the cubin has none).
Result<std::vector<PcLine>> map_function_lines(const std::string& cubin,
                                               const std::string& function);

// map_function_lines for every function named in `records`.
Result<LineMaps> map_record_lines(const std::string& cubin, const std::vector<SassRecord>& records);

// CUPTI's CRC of a cubin (what SASS records carry in cubin_crc); 0 when unknown.
uint64_t cubin_crc(const std::string& cubin);

}  // namespace sml::lab
