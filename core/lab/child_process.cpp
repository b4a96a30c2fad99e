#include "core/lab/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace sml::lab {

std::string ChildOutcome::describe() const {
    char buf[128];
    switch (kind) {
        case Kind::exited:
            return "exited with status " + std::to_string(exit_code);
        case Kind::signaled:
            std::snprintf(buf, sizeof buf, "killed by signal %d (%s)", signal, strsignal(signal));
            return buf;
        case Kind::timed_out:
            std::snprintf(buf, sizeof buf, "stopped after %.0f s (the time limit)", seconds);
            return buf;
        case Kind::spawn_failed:
            return "could not be started: " + spawn_error;
    }
    return "?";
}

namespace {

std::string tail_of(const std::string& path, size_t bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "";
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    const std::streamoff from = size > std::streamoff(bytes) ? size - std::streamoff(bytes) : 0;
    in.seekg(from);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

ChildOutcome run_child(const std::vector<std::string>& argv, const ChildOptions& options) {
    ChildOutcome out;
    if (argv.empty()) {
        out.spawn_error = "no command";
        return out;
    }
    std::string log = options.output_path;
    bool remove_log = false;
    if (log.empty()) {
        char tmpl[] = "/tmp/softmaxlab-child-XXXXXX";
        const int fd = ::mkstemp(tmpl);
        if (fd < 0) {
            out.spawn_error = std::string("no temp file for its output: ") + std::strerror(errno);
            return out;
        }
        ::close(fd);
        log = tmpl;
        remove_log = true;
    }

    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, log.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&files, STDOUT_FILENO, STDERR_FILENO);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    // Its own process group, so a time-out kills everything it started; default signal actions.
    posix_spawnattr_setpgroup(&attr, 0);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setflags(
        &attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);

    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, argv[0].c_str(), &files, &attr, args.data(), environ);
    posix_spawn_file_actions_destroy(&files);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        out.spawn_error = argv[0] + ": " + std::strerror(rc);
        if (remove_log) ::unlink(log.c_str());
        return out;
    }

    auto elapsed = [&start] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    int status = 0;
    bool reaped = false;
    while (!reaped) {
        const pid_t w = ::waitpid(pid, &status, WNOHANG);
        if (w == pid) {
            reaped = true;
            break;
        }
        if (w < 0 && errno != EINTR) break;  // not our child any more (should not happen)
        if (elapsed() >= options.time_limit_s) {
            ::kill(-pid, SIGKILL);  // the whole group
            ::kill(pid, SIGKILL);
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
            out.kind = ChildOutcome::Kind::timed_out;
            out.signal = SIGKILL;
            out.seconds = elapsed();
            out.output_tail = tail_of(log, options.tail_bytes);
            if (remove_log) ::unlink(log.c_str());
            return out;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    out.seconds = elapsed();
    if (reaped && WIFEXITED(status)) {
        out.kind = ChildOutcome::Kind::exited;
        out.exit_code = WEXITSTATUS(status);
    } else if (reaped && WIFSIGNALED(status)) {
        out.kind = ChildOutcome::Kind::signaled;
        out.signal = WTERMSIG(status);
    } else {
        out.kind = ChildOutcome::Kind::spawn_failed;
        out.spawn_error = "lost track of the child process";
    }
    out.output_tail = tail_of(log, options.tail_bytes);
    if (remove_log) ::unlink(log.c_str());
    return out;
}

std::string default_cli_path() {
    if (const char* c = std::getenv("SML_CLI"); c && *c) return c;
    char self[4096];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        std::string dir(self);
        dir = dir.substr(0, dir.find_last_of('/'));
        const std::string beside = dir + "/softmaxlab-cli";
        if (::access(beside.c_str(), X_OK) == 0) return beside;
    }
    return std::string(SML_BUILD_DIR) + "/app/cli/softmaxlab-cli";
}

}  // namespace sml::lab
