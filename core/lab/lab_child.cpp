#include "core/lab/lab_child.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>

namespace sml::lab {
namespace {

// The last `n` non-empty lines of `text`, joined by " | " (for a one-line hint).
std::string last_lines(const std::string& text, int n) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        if (!l.empty()) lines.push_back(l);
    std::string out;
    for (size_t i = lines.size() > size_t(n) ? lines.size() - size_t(n) : 0; i < lines.size(); ++i)
        out += (out.empty() ? "" : " | ") + lines[i];
    return out.empty() ? "(no output)" : out;
}

std::string fresh_dir() {
    std::string base = std::filesystem::temp_directory_path().string() + "/softmaxlab-job-XXXXXX";
    std::vector<char> tmpl(base.begin(), base.end());
    tmpl.push_back('\0');
    if (!::mkdtemp(tmpl.data())) return "";
    return tmpl.data();
}

}  // namespace

RuntimeClass classify_runtime_error(const std::string& m) {
    struct Rule {
        const char* name;
        const char* status;
        const char* kind;
    };
    static const Rule rules[] = {
        {"cudaErrorIllegalAddress", status::kFault, "illegal_address"},
        {"cudaErrorMisalignedAddress", status::kFault, "misaligned_address"},
        {"cudaErrorIllegalInstruction", status::kFault, "illegal_instruction"},
        {"cudaErrorInvalidPc", status::kFault, "invalid_pc"},
        {"cudaErrorHardwareStackError", status::kFault, "stack_error"},
        {"cudaErrorAssert", status::kFault, "device_assert"},
        {"cudaErrorInvalidAddressSpace", status::kFault, "invalid_address_space"},
        {"cudaErrorLaunchFailure", status::kFault, "launch_failure"},
        {"cudaErrorLaunchTimeout", status::kTimeout, "watchdog"},
        {"cudaErrorMemoryAllocation", status::kOutOfMemory, "out_of_memory"},
        {"cudaErrorLaunchOutOfResources", status::kLaunchError, "out_of_resources"},
        {"cudaErrorInvalidConfiguration", status::kLaunchError, "invalid_configuration"},
        {"cudaErrorInvalidDeviceFunction", status::kLaunchError, "invalid_function"},
        {"cudaErrorNoKernelImageForDevice", status::kLaunchError, "no_image"},
        {"cudaErrorInvalidValue", status::kLaunchError, "invalid_value"},
        {"cudaErrorSharedObjectSymbolNotFound", status::kLaunchError, "symbol_not_found"},
    };
    for (const Rule& r : rules)
        if (m.find(r.name) != std::string::npos) return {r.status, r.kind};
    if (m.find("out of memory") != std::string::npos ||
        m.find("not enough GPU memory") != std::string::npos)
        return {status::kOutOfMemory, "out_of_memory"};
    return {status::kFailed, ""};
}

bool parse_sanitizer_report(const std::string& output, SanitizerReport* report) {
    static const std::regex what(
        R"(=+\s+((Invalid|Misaligned|Out-of-range|Illegal|Program hit)[^\n]*))");
    static const std::regex at_line(R"(=+\s+at (.+)\+0x([0-9a-fA-F]+) in (.+):(\d+)\s*$)");
    static const std::regex at_pc(R"(=+\s+at (.+)\+0x([0-9a-fA-F]+)\s*$)");
    // Other layouts ("at 0x1f0 in file.cu:77:kernel"): any source file:line on the line.
    static const std::regex any_line(R"(([^\s:()]+\.(cu|cuh|h|hpp)):(\d+))");
    std::istringstream in(output);
    bool have_what = false;
    for (std::string l; std::getline(in, l);) {
        std::smatch m;
        if (!have_what) {
            if (std::regex_search(l, m, what)) {
                report->what = m[1];
                have_what = true;
            }
            continue;
        }
        if (std::regex_search(l, m, at_line)) {
            report->function = m[1];
            report->pc = std::stoull(m[2].str(), nullptr, 16);
            report->file = m[3];
            report->line = std::stoi(m[4]);
            return true;
        }
        if (std::regex_search(l, m, at_pc)) {
            report->function = m[1];
            report->pc = std::stoull(m[2].str(), nullptr, 16);
            return true;
        }
        if (l.find(" at ") != std::string::npos && std::regex_search(l, m, any_line)) {
            report->file = m[1];
            report->line = std::stoi(m[3]);
            return true;
        }
    }
    return have_what;
}

std::string find_compute_sanitizer() {
    if (const char* s = std::getenv("SML_COMPUTE_SANITIZER"); s && *s) return s;
    if (const char* path = std::getenv("PATH")) {
        std::stringstream dirs(path);
        for (std::string d; std::getline(dirs, d, ':');) {
            const std::string c = d + "/compute-sanitizer";
            if (!d.empty() && ::access(c.c_str(), X_OK) == 0) return c;
        }
    }
    const char* fixed = "/usr/local/cuda/bin/compute-sanitizer";
    return ::access(fixed, X_OK) == 0 ? fixed : "";
}

LabResult result_from_outcome(const ChildOutcome& o, const LabJob& job) {
    LabResult r;
    const std::string tail = last_lines(o.output_tail, 6);
    switch (o.kind) {
        case ChildOutcome::Kind::timed_out:
            r.status = status::kTimeout;
            r.message = "the edited " + job.kernel + " kernel did not finish within " +
                        std::to_string(int(o.seconds + 0.5)) +
                        " s, so its run was stopped (an endless loop?)";
            r.hint =
                "check every loop's exit condition; CUDA cannot say where a stopped kernel "
                "was, so look at the loops you changed. Your edit is saved.";
            r.fault = FaultInfo{"timeout", "", "", "", 0, ""};
            break;
        case ChildOutcome::Kind::signaled:
            r.status = status::kCrashed;
            r.message = "the run of the edited " + job.kernel + " kernel " + o.describe();
            r.hint = "this is a crash of the runner, not a wrong result; its last output: " + tail +
                     " Your edit is saved.";
            r.fault = FaultInfo{"crash", "", "", "", 0, ""};
            break;
        case ChildOutcome::Kind::exited:
            r.status = status::kCrashed;
            r.message = "the run of the edited " + job.kernel + " kernel " + o.describe() +
                        " without a result";
            r.hint = "its last output: " + tail;
            break;
        case ChildOutcome::Kind::spawn_failed:
            r.status = status::kFailed;
            r.message = "the lab runner " + o.describe();
            r.hint = "build softmaxlab-cli (it runs lab jobs), or set SML_CLI to its path";
            break;
    }
    r.seconds = o.seconds;
    return r;
}

LabResult run_job_in_child(const LabJob& job, const ChildJobOptions& options) {
    const std::string cli = options.cli.empty() ? default_cli_path() : options.cli;
    const bool own_dir = options.work_dir.empty();
    const std::string dir = own_dir ? fresh_dir() : options.work_dir;
    if (dir.empty()) {
        LabResult r;
        r.message = "could not create a folder for the job's files";
        r.hint = "check that the temp folder ($TMPDIR or /tmp) is writable";
        return r;
    }
    auto cleanup = [&] {
        if (own_dir) {
            std::error_code ec;
            std::filesystem::remove_all(dir, ec);
        }
    };
    const std::string job_path = dir + "/job.json", out_path = dir + "/result.json";
    if (Status s = save_job(job_path, job); !s) {
        LabResult r;
        r.message = s.error().message;
        r.hint = s.error().hint;
        cleanup();
        return r;
    }
    std::error_code ec;
    std::filesystem::remove(out_path, ec);
    ChildOptions co;
    co.time_limit_s = options.time_limit_s;
    co.output_path = dir + "/child.log";
    const ChildOutcome outcome =
        run_child({cli, "lab", "run", "--job", job_path, "--out", out_path}, co);
    LabResult result;
    Result<LabResult> written = outcome.kind == ChildOutcome::Kind::timed_out
                                    ? Result<LabResult>(Error{"timed out", ""})
                                    : load_result(out_path);
    if (written) {
        result = *written;
    } else {
        result = result_from_outcome(outcome, job);
    }
    result.notes["child"] = outcome.describe();

    // A fault with no line: ask compute-sanitizer where, on one checked launch.
    if (options.locate_faults && result.status == status::kFault &&
        (!result.fault || result.fault->line == 0)) {
        const std::string sanitizer =
            options.sanitizer.empty() ? find_compute_sanitizer() : options.sanitizer;
        if (sanitizer.empty()) {
            result.notes["fault_line"] =
                "not located: compute-sanitizer was not found (set SML_COMPUTE_SANITIZER)";
        } else {
            LabJob again = job;
            again.mode = "check";
            again.metrics = "off";
            again.per_line = false;
            const std::string job2 = dir + "/locate-job.json", out2 = dir + "/locate-result.json";
            ChildOptions lo;
            lo.time_limit_s = options.locate_time_limit_s;
            lo.output_path = dir + "/locate.log";
            lo.tail_bytes = 1 << 20;  // the report comes first; keep it all
            if (save_job(job2, again)) {
                const ChildOutcome o2 = run_child(
                    {sanitizer, "--tool", "memcheck", "--print-limit", "1", "--show-backtrace",
                     "no", cli, "lab", "run", "--job", job2, "--out", out2},
                    lo);
                SanitizerReport rep;
                if (parse_sanitizer_report(o2.output_tail, &rep) && rep.line > 0) {
                    if (!result.fault) result.fault = FaultInfo{};
                    result.fault->file = rep.file;
                    result.fault->line = rep.line;
                    result.fault->located_by = "compute-sanitizer";
                    result.message += ": " + rep.what + " at " +
                                      std::filesystem::path(rep.file).filename().string() + ":" +
                                      std::to_string(rep.line);
                    result.notes["fault_line"] = "located by compute-sanitizer";
                } else {
                    result.notes["fault_line"] =
                        "not located: compute-sanitizer " + o2.describe() +
                        (rep.what.empty() ? ", with no report"
                                          : ", report without a line: " + rep.what);
                }
            }
        }
    }
    cleanup();
    return result;
}

}  // namespace sml::lab
