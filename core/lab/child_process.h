// Running a command in a child process with a time limit, so that whatever it does (a GPU fault,
// an endless loop, an abort) ends there and not in the caller. The lab bench runs each job so:
// `softmaxlab-cli lab run --job J --out R` (lab_job.h), from the viewer and from `run --source`.
#pragma once

#include <string>
#include <vector>

#include "common/result.h"

namespace sml::lab {

struct ChildOutcome {
    enum class Kind { exited, signaled, timed_out, spawn_failed };
    Kind kind = Kind::spawn_failed;
    int exit_code = 0;  // exited
    int signal = 0;     // signaled (or the signal that ended a timed-out child: SIGKILL)
    double seconds = 0;
    std::string output_tail;  // the last few KB of its stdout and stderr, interleaved
    std::string spawn_error;  // spawn_failed: why

    // One line for a person: "exited with status 1", "killed by signal 11 (Segmentation fault)",
    // "stopped after 30 s (time limit)".
    std::string describe() const;
};

struct ChildOptions {
    double time_limit_s = 60;
    std::string output_path;  // where the child's stdout+stderr go; "" = a temp file, removed
    size_t tail_bytes = 4096;
};

// Spawns argv[0] (a path, not searched in PATH) with argv in its own process group, waits up to
// the time limit, then kills the whole group (SIGKILL) and reaps it. Never throws; the caller's
// process is untouched whatever the child does.
ChildOutcome run_child(const std::vector<std::string>& argv, const ChildOptions& options);

// The softmaxlab-cli to spawn: $SML_CLI, else next to this executable, else the build's.
std::string default_cli_path();

}  // namespace sml::lab
