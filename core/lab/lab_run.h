// Running a lab job in this process: the child side of lab_child.h (`softmaxlab-cli lab run`).
//
// An edit runs exactly like its registry kernel (core/runner's run_point: output poisoned,
// float64 reference check, timing with L2 flushed against the same run's copy, CUPTI counters),
// with one change: after the original's plan has made its launches, each launch's function is
// swapped for the same-named kernel of the edit, compiled by NVRTC for this GPU and loaded with
// cudaLibraryLoadData. Grid, block, shared memory and arguments stay the plan's, unless an
// @launch line changes the shape (launch_override.h). Then, with per_line, the launches run once
// more under CUPTI's SASS metrics and the counters are folded per source line.
#pragma once

#include <string>

#include "core/lab/lab_job.h"

namespace sml::lab {

// Never throws; every failure is a LabResult status (lab_job.h) with a message and a hint. On a
// machine without a GPU it still compiles, so errors and PTX come back (status no_gpu).
LabResult run_job(const LabJob& job);

}  // namespace sml::lab
