// The GPU half of `run`, `sweep`, `device` and `lab`.
//
// cmd_run.cpp, cmd_sweep.cpp, cmd_device.cpp and cmd_lab.cpp are built with and without the CUDA
// toolkit: each declares its subcommand's options (the structs below hold them as typed) and
// checks its arguments, so `--help` and every bad argument (exit 2) read the same in both
// builds. Only with good arguments does it call its execute_* function here: cmd_<name>_gpu.cpp
// in a build with the toolkit; cli_nogpu.cpp without it, where each says that this build has no
// GPU support (exit 1).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/cli/commands.h"
#include "common/result.h"
#include "core/lab/exercises.h"
#include "core/lab/lab_job.h"
#include "core/metrics/metric_set.h"
#include "core/plan/sweep_plan.h"
#include "core/session/session.h"
#include "kernels/kernel_api.h"

namespace sml::cli {

// ---- run ----------------------------------------------------------------------------------
// Numbers are kept as typed and read whole by cmd_run.cpp (core/common/parse_number.h), so
// "--cols 99999999999999999999999" or "--warmup -1" is reported as the user wrote it.
struct RunArgs {
    std::string kernel;
    std::string rows = "4096";
    std::string cols = "1024";
    std::string dtype = "fp32";
    std::string variant;
    std::string samples = "20";
    std::string warmup = "3";
    std::string metrics = "default";
    std::string json_out;
    std::string seed = "1";
    // An edited copy of the kernel's file (the lab bench, docs/lab.md), run in a child process.
    std::string source;
    std::string label;
    std::string result_out;          // the whole lab result (cubin, raw records), for the record
    std::string time_limit = "120";  // seconds, read whole by parse_seconds
    bool no_per_line = false;
};

// RunArgs read and checked: the kernel, the problem inside its range, writable outputs.
struct RunChecked {
    const KernelInfo* kernel = nullptr;
    SoftmaxProblem problem;
    int variant = 0;
    MetricSet metrics = MetricSet::standard;
    int64_t samples = 0, warmup = 0;
    uint64_t seed = 0;
    double time_limit_s = 0;
    std::string source_text;  // --source's contents; "" without --source
};

// Runs the point on the GPU, or with --source the edit as a lab job in a child process (which
// compiles it even without a GPU, and says so).
int execute_run(const RunArgs& a, const RunChecked& c);

// ---- sweep --------------------------------------------------------------------------------
// Numbers are kept as typed and read whole by cmd_sweep.cpp.
struct SweepArgs {
    std::string kernels = "all";
    std::string cols;
    std::string elements = std::to_string(int64_t(1) << 28);
    std::string dtype = "fp32";
    std::string out;
    std::string csv;
    std::string metrics = "default";
    std::string samples = "20";
    std::string seed = "1";
    std::string variants = "default";
    std::string per_line;  // "" = no per-line counters; else the N that gets them
    std::vector<std::string> extra;
    CLI::Option* cols_option = nullptr;  // to tell "--cols ''" from no --cols at all
};

struct SweepChecked {
    std::vector<const KernelInfo*> kernels;
    SweepPlan plan;  // not empty
    MetricSet metrics = MetricSet::standard;
    int64_t samples = 0;
    uint64_t seed = 0;
    std::vector<int64_t> per_line_cols;  // of the plan's N; empty without --per-line
};

// Runs the plan on this machine's GPU (there is one), prints it and writes --out and --csv.
int execute_sweep(const SweepArgs& a, const SweepChecked& c);

// ---- device -------------------------------------------------------------------------------
int execute_device(int device);

// ---- lab ----------------------------------------------------------------------------------
struct LabArgs {
    std::string job, out, kernel, source, arch, ptx, result, exercise_check, exercise_solution,
        exercise_start, session, cols = "4096,1024", kernels = "all";
    bool list = false;
    // As typed, read whole by parse_seconds; each subcommand its own default.
    std::string exercise_time_limit = "120", lines_time_limit = "300";
};

// The part of each lab subcommand that needs the toolkit, after its arguments were checked.
int execute_lab_run(const lab::LabJob& job, const std::string& out);
int execute_lab_compile(const lab::LabJob& job, const LabArgs& a);  // writes --ptx and --out
int execute_lab_check(const lab::Exercise& e, const std::string& source, double time_limit_s);
int execute_lab_sass_metrics(const std::string& out);
int execute_lab_fold(const lab::LabResult& r);
int execute_lab_lines(Session session, const std::vector<const KernelInfo*>& kernels,
                      const std::vector<int64_t>& cols, double time_limit_s,
                      const std::string& out);

}  // namespace sml::cli
