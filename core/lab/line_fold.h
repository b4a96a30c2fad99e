// Per-instruction counters folded per CUDA source line: what the editor's gutter shows.
//
// CUPTI's SASS metrics come per instruction: (cubin CRC, function, PC offset, one value per
// metric). The cubin's line info (compiled with --generate-line-info) maps each PC to a file and
// line (line_map.h). Folding sums the values of every instruction of a line; a few derived
// values follow from the sums (sector efficiency = ideal sectors / sectors).
//
// This part is plain C++ on recorded data, so it is tested without a GPU on stored records.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/session/session.h"

namespace sml::lab {

// One instruction's values, as CUPTI reported them (values keyed by role, sass_roles.h).
struct SassRecord {
    uint32_t cubin_crc = 0;
    std::string function;  // mangled
    uint32_t pc = 0;       // byte offset in the function
    std::map<std::string, double> values;
};

// Where one instruction's code came from.
struct PcLine {
    uint32_t pc = 0;
    std::string file;
    int line = 0;  // 0: no line info for this instruction
};
using LineMaps = std::map<std::string, std::vector<PcLine>>;  // function -> its instructions

// Sums per (file, line), sorted by file then line; instructions the maps don't know land on
// line 0 of file "". Adds derived values (derive_line_values) to each line.
std::vector<LineCounters> fold_per_line(const std::vector<SassRecord>& records,
                                        const LineMaps& maps);

// Each record with its line, in (function, pc) order, for the PTX and SASS views.
std::vector<InstructionCounters> per_instruction(const std::vector<SassRecord>& records,
                                                 const LineMaps& maps);

// Derived values from summed ones: "global_sector_efficiency_pct" = 100 * ideal / sectors
// where the line touched global memory.
void derive_line_values(std::map<std::string, double>* values);

// The counters of `line` in `file`, or null.
const LineCounters* find_line(const std::vector<LineCounters>& lines, const std::string& file,
                              int line);

}  // namespace sml::lab
