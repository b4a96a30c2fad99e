// Source lines <-> listing lines: which PTX or SASS instructions a line of CUDA became, and
// which line an instruction came from (Compiler Explorer's shared colours, Nsight Compute's
// Source page). Built once for a (listing, source file) pair from the line info compiled in
// (core/code/asm_listing.h); hover lookups are then two vector reads.
//
// An instruction carries an inline chain, innermost first: __shfl_xor_sync's line in CUDA's
// header, inlined into group_max (warp_softmax.cu:44), inlined into the kernel (line 97). In the
// file shown, it is *charged* to the innermost line of that file (44), and *reached* from every
// line of that file in its chain (44 and 97): hovering the call at line 97 lights the shuffles it
// became, hovering a shuffle lights line 44.
#pragma once

#include <string>
#include <vector>

#include "core/code/asm_listing.h"

namespace sml {

// True when `compiled_path` (as the compiler wrote it, often absolute) names repo-relative
// `source`: equal, or ending in "/" + source.
bool same_source_file(const std::string& compiled_path, const std::string& source);

class LineMap {
  public:
    LineMap() = default;
    // `source`: the repo-relative path of the file shown ("kernels/warp_softmax.cu").
    static LineMap build(const AsmListing& listing, const std::string& source);

    // The 1-based source line listing line `i` (0-based) is charged to; 0 = none.
    int source_line(int listing_line) const;
    // Listing lines whose chain reaches `source_line` (ascending; empty if none).
    const std::vector<int>& reached_from(int source_line) const;
    // Listing lines charged to `source_line` (ascending; empty if none).
    const std::vector<int>& charged_to(int source_line) const;
    // Source lines some instruction is charged to, ascending.
    const std::vector<int>& source_lines() const { return mapped_; }
    // A colour for `source_line` among `slots`, so that neighbouring mapped lines differ:
    // its rank among source_lines() modulo slots; -1 when nothing is charged to it.
    int color_slot(int source_line, int slots) const;
    // Instructions charged to some line of the file, and instructions in all.
    int instructions_mapped() const { return mapped_instructions_; }
    int instructions() const { return instructions_; }
    bool empty() const { return mapped_.empty(); }

  private:
    std::vector<int> charged_of_line_;                 // per listing line
    std::vector<std::vector<int>> reached_, charged_;  // per source line (index = line)
    std::vector<int> mapped_;
    std::vector<int> rank_;  // per source line: rank in mapped_, or -1
    int mapped_instructions_ = 0, instructions_ = 0;
};

}  // namespace sml
