// A lab job is a document in and a document out (docs/lab.md):
//
//   job.json     the edited source, the kernel it was made from, launch overrides, the problem
//                and the measurements wanted                                          (LabJob)
//   result.json  what happened: compile diagnostics, or the measured point in the session
//                format (marked as an edit), per-line counters, or a fault             (LabResult)
//
// `softmaxlab-cli lab run --job job.json --out result.json` turns one into the other. Nothing
// else crosses this boundary (no shared memory, no callbacks), so the same runner can run in a
// child process (lab_child.h) or, later, on another machine.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "core/lab/compile.h"
#include "core/lab/diagnostics.h"
#include "core/lab/launch_override.h"
#include "core/lab/line_fold.h"
#include "core/session/session.h"
#include "kernels/kernel_api.h"

namespace sml::lab {

constexpr int kLabSchemaVersion = 1;

struct LabJob {
    std::string kernel;       // the registry kernel this is an edit of ("warp")
    std::string source_name;  // "" = that kernel's lesson file name ("kernels/warp_softmax.cu")
    std::string source;       // the whole edited file
    std::string label;        // the learner's name for this edit (optional)
    std::vector<LaunchOverride> launch;  // applied after the source's own @launch lines
    int64_t rows = 4096;
    int64_t cols = 1024;
    std::string dtype = "fp32";
    int variant = 0;
    std::string metrics = "default";  // whole-kernel counters: off, default or deep
    bool per_line = true;             // per-instruction SASS metrics, folded per line
    int samples = 20;
    int warmup = 3;
    uint64_t seed = 1;
    int64_t check_rows = 64;  // rows compared with the float64 reference
    std::string arch;         // "" = the GPU's own (sm_XY)
    // "measure": check, time, count. "check": one launch, every row checked, nothing timed (the
    // exercise checker's odd shapes, and the fault locator).
    std::string mode = "measure";
};

// Where a run went wrong, as far as it can be known.
struct FaultInfo {
    std::string kind;      // illegal_address, misaligned_address, launch_failure, timeout, ...
    std::string step;      // the plan's step ("warp", "divide")
    std::string function;  // the kernel's mangled name in the edit
    std::string file;      // source position, when something located it
    int line = 0;
    std::string located_by;  // "compute-sanitizer", or "" when the line is not known
};

namespace status {
inline constexpr const char* kOk = "ok";                       // ran, correct
inline constexpr const char* kWrong = "wrong";                 // ran, outside tolerance
inline constexpr const char* kCompileError = "compile_error";  // diagnostics say why
inline constexpr const char* kBadJob = "bad_job";              // the job itself is invalid
inline constexpr const char* kLaunchError = "launch_error";    // refused before running
inline constexpr const char* kFault = "fault";                 // the kernel faulted
inline constexpr const char* kTimeout = "timeout";             // stopped at the time limit
inline constexpr const char* kOutOfMemory = "out_of_memory";
inline constexpr const char* kNoGpu = "no_gpu";
inline constexpr const char* kCrashed = "crashed";  // the runner died without a result
inline constexpr const char* kFailed = "failed";    // any other runtime error
}  // namespace status

struct LabResult {
    std::string status = status::kFailed;
    std::string message;  // one sentence for the learner
    std::string hint;     // what to do about it
    std::optional<FaultInfo> fault;
    // The compile (present whenever it ran).
    std::string arch;
    double compile_seconds = 0;
    std::vector<Diagnostic> diagnostics;
    std::string compile_log;
    std::string ptx;
    std::string cubin;  // bytes (base64 in the JSON)
    std::vector<CompiledKernel> kernels;
    std::vector<std::string> launch_overrides;  // as applied, one per override
    // The measurement: one point, marked as an edit (PointRecord::edit), per-line counters in
    // PointRecord::source_lines.
    std::optional<Session> session;
    // The raw per-instruction records (for tests of the fold and for the record).
    std::vector<SassRecord> sass_records;
    uint32_t cubin_crc = 0;  // as CUPTI computes it for this cubin, when known
    double seconds = 0;      // the whole job
    std::map<std::string, std::string> notes;

    bool ran() const { return status == status::kOk || status == status::kWrong; }
};

std::string job_to_json(const LabJob& job);
Result<LabJob> parse_job(const std::string& text, const std::string& origin);
Result<LabJob> load_job(const std::string& path);
Status save_job(const std::string& path, const LabJob& job);

std::string result_to_json(const LabResult& result);
Result<LabResult> parse_result(const std::string& text, const std::string& origin);
Result<LabResult> load_result(const std::string& path);
Status save_result(const std::string& path, const LabResult& result);

// Compiles only, with no GPU: every kernel the build holds for the job's lesson file
// (kernel_names.h), for `arch` ("" = the job's, else sm_90), with its @launch lines checked.
// Status ok or compile_error (or failed when there is no compiler in this build).
LabResult compile_job(const LabJob& job, const std::string& arch = "");

// The kernels the lab can edit (KernelInfo::lab_editable), in registry order: "naive, fused, ...".
std::string lab_kernel_ids();
// The registry kernel `id` when the lab can edit it; otherwise null, and *r (if given) becomes a
// bad_job result that names the kernels it can.
const KernelInfo* lab_kernel(const std::string& id, LabResult* r = nullptr);

// A job for `kernel` with its source from `source_path` and the rest default.
LabJob make_job(const std::string& kernel, const std::string& source_name,
                const std::string& source);

}  // namespace sml::lab
