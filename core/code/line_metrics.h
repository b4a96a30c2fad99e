// A number per line for the code views: where per-line counters plug in.
//
// The lab bench measures per-instruction counters (CUPTI's SASS metrics give a value per
// function and PC offset; see ../shared/FACTS.md); anything else keyed by a line fits too. A
// LineMetric says what the number is (nvbench-style: id, short label, unit, one-line description
// that doubles as the tooltip) and holds the values by key. The code views draw it as a heat bar
// in the gutter with the value beside it, and sum SASS values onto the CUDA lines they are
// charged to (core/code/line_map.h), as Nsight Compute's Source page does.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/code/asm_listing.h"
#include "core/code/line_map.h"

namespace sml {

struct LineMetric {
    enum class Key {
        sass_address,  // a SASS instruction's offset in its function (CUPTI's PC offset)
        ptx_line,      // a 1-based line of the PTX file
        source_line,   // a 1-based line of the source file
    };
    std::string id;           // "smsp__sass_inst_executed"
    std::string label;        // the column's header: "inst"
    std::string unit;         // "", "sectors", "%"
    std::string description;  // one line: what it counts (the tooltip)
    Key key = Key::sass_address;
    std::string function;  // sass_address / ptx_line: function_key of the entry; "" = any
    std::map<int64_t, double> values;
};

// The metric's value for each line of `listing` (same size as listing.lines); lines without one
// get NaN. Empty (all NaN) when the metric is for another function or keyed by source lines.
std::vector<double> metric_per_listing_line(const LineMetric& m, const AsmListing& listing);

// A per-instruction metric summed onto the source lines its instructions are charged to:
// key source_line, same id, label, unit and description.
LineMetric metric_per_source_line(const LineMetric& m, const AsmListing& listing,
                                  const LineMap& map);

// The largest finite value (0 when there is none): what a full heat bar means.
double metric_max(const std::vector<double>& values);

}  // namespace sml
