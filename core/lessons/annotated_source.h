// Kernel source with named regions, and PTX anchors: how a lesson points at code.
//
// Lessons never cite line numbers; they cite named regions that the kernel file declares with
// marker comments on their own lines:
//
//     // @region warp-reduce: butterfly shuffles combine 32 partial maxima in 5 steps
//     ...code...
//     // @endregion warp-reduce
//
// Names are kebab-case and unique within a file. The note after the colon is shown on hover.
// Regions may nest but must close in order. The viewer hides the marker lines, so an edit to the
// kernel moves the highlight with the code instead of silently breaking the lesson.
//
// PTX has no markers; a lesson points into it by instruction pattern instead (see
// find_ptx_lines), e.g. "ld.global.v4.f32" or "shfl.sync.bfly".
#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "kernels/kernel_api.h"

namespace sml {

struct SourceRegion {
    std::string name;      // kebab-case, unique within the file
    std::string note;      // one line, shown when hovering the region
    int begin_marker = 0;  // 1-based line of "// @region"
    int end_marker = 0;    // 1-based line of "// @endregion"
    int first_line = 0;    // 1-based, first code line inside the markers
    int last_line = 0;     // 1-based, last code line inside the markers (>= first_line)
};

struct AnnotatedSource {
    std::string origin;                 // path or label, for messages
    std::vector<std::string> lines;     // every line of the file, markers included, no '\n'
    std::vector<bool> is_marker;        // same size as lines; true for lines the viewer hides
    std::vector<SourceRegion> regions;  // in order of their @region line

    const SourceRegion* find(const std::string& name) const;  // nullptr if absent
    std::vector<std::string> region_names() const;
};

// Parses marker comments in `text`. Errors (naming `origin` and the line): a marker without a
// name or note, a name that is not kebab-case, a duplicate name, an @endregion that does not
// close the innermost open region, a region with no code inside, a region left open at the end.
Result<AnnotatedSource> parse_annotated_source(const std::string& text, const std::string& origin);

// Reads `path` and parses it; an unreadable file is an error naming the path.
Result<AnnotatedSource> load_annotated_source(const std::string& path);

// True for names like "warp-reduce", "pass-2", "load": [a-z0-9]+ joined by single '-'.
bool is_kebab_case(const std::string& name);

// 1-based numbers of the PTX instruction lines whose opcode matches `pattern`.
//
// Matching is by dot-separated parts of the mnemonic, so lessons survive modifiers the compiler
// adds: the first part must equal the opcode and the remaining parts must appear in order.
// "ld.global.v4.f32" matches "ld.global.nc.v4.f32"; "shfl.sync.bfly" matches
// "shfl.sync.bfly.b32"; "ld.global" does not match "ld.shared.f32". Predicate guards
// ("@%p1 bra ...") are skipped; directives, labels and comments never match.
std::vector<int> find_ptx_lines(const std::string& ptx_text, const std::string& pattern);

// The stem that names a kernel source file's generated code: the file name without extension,
// "best_" in front for best's units ("kernels/warp_softmax.cu" -> "warp_softmax",
// "kernels/best/grid.cu" -> "best_grid"). PTX, recorded SASS and recorded PTX all use it.
std::string code_file_stem(const std::string& source);

// Where the build writes the PTX of a kernel source file: <build_dir>/ptx/<stem>.ptx, where
// <stem> is the file name without extension ("kernels/warp_softmax.cu" -> "warp_softmax").
std::string ptx_path_for_source(const std::string& source, const std::string& build_dir);

// Which of a kernel's source files (KernelInfo::sources, repo-relative) holds region `region`,
// under `source_root`; "" when none does. best's regions are spread over kernels/best/.
std::string kernel_source_with_region(const KernelInfo& k, const std::string& region,
                                      const std::string& source_root);

// The first of a kernel's sources whose PTX under `build_dir` has an instruction matching
// `pattern` (find_ptx_lines); "" when none does or no PTX was built.
std::string kernel_source_with_ptx(const KernelInfo& k, const std::string& pattern,
                                   const std::string& build_dir);

// Reads a whole text file (a regular file of at most kMaxTextFileBytes, see
// core/common/safe_file.h); error names the path.
Result<std::string> read_text_file(const std::string& path);

}  // namespace sml
