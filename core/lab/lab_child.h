// Running a lab job in a child process (the viewer's Run button, `softmaxlab-cli run --source`
// and the exercise checker all come through here). The parent writes job.json, spawns
// `softmaxlab-cli lab run --job job.json --out result.json` with a time limit and reads
// result.json. Whatever the child does - a GPU fault, an endless loop, an allocation the GPU
// cannot satisfy, an abort - ends the child, and the parent gets a LabResult that says so.
//
// Where a kernel faulted: CUDA reports that a launch faulted, not where. When the child reports
// a fault, the parent runs the job once more under compute-sanitizer (if the toolkit has it),
// which names the faulting line from the edit's line info. Without compute-sanitizer the result
// names the kernel and the launch, and says so. An endless loop can only be named by kernel: the
// time limit stops the whole process and nothing can ask the GPU where it was.
#pragma once

#include <string>

#include "core/lab/child_process.h"
#include "core/lab/lab_job.h"

namespace sml::lab {

struct ChildJobOptions {
    std::string cli;  // "" = default_cli_path()
    double time_limit_s = 120;
    bool locate_faults = true;  // the compute-sanitizer pass above
    double locate_time_limit_s = 300;
    std::string sanitizer;  // "" = $SML_COMPUTE_SANITIZER, PATH, then the toolkit's bin/
    std::string work_dir;   // "" = a fresh temp folder, removed afterwards
};

LabResult run_job_in_child(const LabJob& job, const ChildJobOptions& options = {});

// The result for a child that ended without writing one (killed, crashed, timed out).
LabResult result_from_outcome(const ChildOutcome& outcome, const LabJob& job);

// compute-sanitizer's first report: "Invalid __global__ read ... at <function>+0x1f0 in
// <file>:<line>". False when the output has none.
struct SanitizerReport {
    std::string what;      // "Invalid __global__ read of size 16 bytes"
    std::string function;  // demangled, as printed
    std::string file;
    int line = 0;
    uint64_t pc = 0;
};
bool parse_sanitizer_report(const std::string& output, SanitizerReport* report);

// Turns a runtime Error from the runner (its message names the CUDA error, e.g.
// "(cudaErrorIllegalAddress)") into a status and a fault kind.
struct RuntimeClass {
    std::string status;  // status::kFault, kLaunchError, kOutOfMemory, kTimeout or kFailed
    std::string kind;    // illegal_address, misaligned_address, ... or ""
};
RuntimeClass classify_runtime_error(const std::string& message);

// The first compute-sanitizer found: $SML_COMPUTE_SANITIZER, PATH, /usr/local/cuda/bin; "".
std::string find_compute_sanitizer();

}  // namespace sml::lab
