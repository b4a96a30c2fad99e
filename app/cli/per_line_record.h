// Per-line counters for the built-in kernels, recorded into a session (issue 23): so that a
// replayed session shows the heat gutter beside each lesson file on a machine with no GPU.
//
// Each lab-editable kernel's own lesson file runs as a lab job (core/lab/lab_job.h) in a child
// process, compiled by NVRTC with line info, at the shape of the session's point for that kernel
// (and for each of its variants) at the first N of `cols` it has a point at; CUPTI's SASS metrics are folded per line, and the result is attached to that
// point as its `source_lines`, with the file's name and SHA-256 (so the viewer can tell when the
// file has changed since). The point's own timing and counters are left as they were measured.
// Used by `softmaxlab-cli sweep --per-line N` and `softmaxlab-cli lab lines`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"
#include "core/session/session.h"
#include "kernels/kernel_api.h"

namespace sml::cli {

struct PerLineOptions {
    std::vector<int64_t> cols = {4096, 1024};  // the N whose points get counters, first found
    double time_limit_s = 300;  // per kernel (the child is stopped after it)
    std::string repo_root;      // where the lesson files are; "" = SML_SOURCE_DIR
};

struct PerLineSummary {
    int recorded = 0;                   // points that got counters
    std::vector<std::string> problems;  // one line per kernel (or variant) that got none, and why
};

// Attaches counters to the points of `kernels` (those not lab-editable are skipped and said so)
// and notes how they were recorded in session->notes["source_lines"]. Prints a line per kernel.
// An error only when nothing could run at all (no GPU, no CLI to run the child).
Result<PerLineSummary> record_source_lines(Session* session,
                                           const std::vector<const KernelInfo*>& kernels,
                                           const PerLineOptions& options);

}  // namespace sml::cli
