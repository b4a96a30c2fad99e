// Per-line counters a session carries for the built-in kernels (`softmaxlab-cli sweep
// --per-line`, `softmaxlab-cli lab lines`): what the code views' heat gutter shows beside a
// lesson file, in replay on a machine with no GPU as after a live sweep.
//
// The counters were measured on the lab bench's NVRTC build of the file (core/lab), folded per
// source line. Per source line they hold whatever the compiler did. Per instruction they belong
// to the NVRTC build's SASS, which is not always the nvcc build's the SASS tab shows
// (bench/sass_identity.sh: identical for naive and warp on the H100, not for the others), so the
// SASS listing gets them only when the recorded instructions are the listing's: as many, at the
// same addresses, from the same source lines.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "app/viewer/model/source_doc.h"
#include "core/code/asm_listing.h"
#include "core/code/line_metrics.h"
#include "core/session/session.h"

namespace sml::viewer {

struct RecordedLines {
    const PointRecord* point = nullptr;  // the point whose counters apply; null when none does
    std::string note;     // where they come from: "H100 (GH100), 65536 x 4096 fp32, ..."
    std::string problem;  // why there are none to show, when the session has some for the kernel
    bool every_launch =
        true;  // false: some launch of the point has no counters (the note names it)
};

// The counters of `kernel` (`variant`: "" for its default form) for `file`: those of the point
// at `cols` when it has them, else those of the point nearest in N (the note says which N).
// When the record names the file's SHA-256 and `file_sha256` differs, none apply: the file has
// changed since they were measured (problem says so).
// The note and the problem are in `lang` ("en" | "zh").
RecordedLines find_recorded_lines(const Session& session, const std::string& kernel,
                                  const std::string& variant, const std::string& file, int64_t cols,
                                  const std::string& file_sha256, const std::string& lang = "en");

// The roles (core/lab/sass_roles.h) with a value on some line of `file`, in the table's order.
std::vector<std::string> recorded_roles(const SourceLinesRecord& r, const std::string& file);

// One role keyed by source line of `file`, labelled from the roles table.
LineMetric source_line_metric(const SourceLinesRecord& r, const std::string& file,
                              const std::string& role, const std::string& lang = "en");

// One collected (not derived) role per instruction of `listing`'s function (SASS), keyed by
// address, when the record's instructions of that function are the listing's: as many, at the
// same addresses, each from the same line of `file` where the listing's innermost frame is in
// it. Otherwise nullopt, and *why (if given) says what differs.
std::optional<LineMetric> instruction_metric(const SourceLinesRecord& r, const AsmListing& listing,
                                             const std::string& file, const std::string& role,
                                             std::string* why, const std::string& lang = "en");

// Every counter of one line or instruction, one per line of text ("instructions executed:
// 15728640 count"), in the roles table's order: what hovering the gutter shows.
std::string describe_counters(const std::map<std::string, double>& values,
                              const std::string& lang = "en");

// describe_counters for each display line of `doc` (a CUDA file); "" where the record has none.
std::vector<std::string> per_display_line_details(const SourceLinesRecord& r,
                                                  const std::string& file, const SourceDoc& doc,
                                                  const std::string& lang = "en");

// The global-memory bytes the record's instructions moved, in every file (32-byte sectors):
// what a lesson's predicted global traffic compares with. 0 when sectors were not collected.
double recorded_global_bytes(const SourceLinesRecord& r);

// The metric's value on each display line of `doc` (a CUDA file: display lines carry their
// file line); NaN where there is none.
std::vector<double> per_display_line(const LineMetric& m, const SourceDoc& doc);

}  // namespace sml::viewer
