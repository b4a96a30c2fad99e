// `softmaxlab-cli record-code`: makes a recording of the kernels' generated code small and
// self-describing (core/code/code_record.h). bench/device_run.sh runs it on the GPU machine after
// dumping SASS with nvdisasm; the result is committed as assets/code/<device>-<date>-code.tar.xz
// and the viewer shows it, with a note when the checkout's sources have changed since.
//
// Needs no GPU: it reads the build's PTX, the dumped SASS and, optionally, the session whose
// launch records say which instantiations ran. Exit codes: 2 for bad arguments, 1 when a file
// cannot be read or written.
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "core/code/code_record.h"
#include "core/common/safe_file.h"
#include "core/common/text_cap.h"
#include "core/session/session.h"

namespace sml::cli {

namespace {

struct RecordCodeArgs {
    std::string ptx_dir, sass_dir, out, session, repo = SML_SOURCE_DIR;
    std::string created_utc, git, device, arch = "sm_90";
    std::vector<std::string> software;  // name=version
};

int run_record_code(const RecordCodeArgs& a) {
    if (a.ptx_dir.empty() && a.sass_dir.empty())
        return fail(Error{"nothing to record", "pass --ptx-dir, --sass-dir or both"}, kExitBadArgs);
    // record_code writes <out>/ptx/<stem>.ptx and <out>/sass/<stem>.sass: with --out's ptx/ or
    // sass/ the very folder it reads, each input would be replaced by its filtered copy.
    // A folder that is missing or a file: a typo, not "no files of this kind" (it used to exit 0
    // with an empty recording).
    for (const auto& [option, dir] :
         {std::pair{"--ptx-dir", a.ptx_dir}, std::pair{"--sass-dir", a.sass_dir}}) {
        struct stat st {};
        if (dir.empty()) continue;
        if (::stat(dir.c_str(), &st) != 0)
            return fail(
                Error{std::string(option) + " " + quote_short(dir) + ": " + std::strerror(errno),
                      "pass the folder that holds the <stem>." +
                          std::string(option[2] == 'p' ? "ptx" : "sass") + " files"},
                kExitBadArgs);
        if (!S_ISDIR(st.st_mode))
            return fail(Error{std::string(option) + " " + quote_short(dir) + " is not a folder",
                              "pass the folder that holds the files, not a file"},
                        kExitBadArgs);
    }
    std::string out = a.out;  // "d/" -> "d", for the messages
    while (out.size() > 1 && out.back() == '/') out.pop_back();
    for (const auto& [out_option, out_dir] :
         {std::pair{"--out's ptx/", out + "/ptx"}, std::pair{"--out's sass/", out + "/sass"}})
        for (const auto& [in_option, in_dir] :
             {std::pair{"--ptx-dir", a.ptx_dir}, std::pair{"--sass-dir", a.sass_dir}})
            if (!a.out.empty() && same_file(out_dir, in_dir))
                return fail(
                    Error{std::string(out_option) + " folder " + quote_short(out_dir) +
                              " is the same folder as " + in_option + " " + quote_short(in_dir) +
                              ": the recording would replace the files it reads",
                          "give --out a folder of its own, e.g. --out code-record"},
                    kExitBadArgs);
    RecordCodeOptions o;
    o.repo_root = a.repo;
    o.ptx_dir = a.ptx_dir;
    o.sass_dir = a.sass_dir;
    o.out_dir = a.out;
    o.created_utc = a.created_utc;
    o.git = a.git;
    o.device = a.device;
    o.arch = a.arch;
    for (const std::string& kv : a.software) {
        const size_t eq = kv.find('=');
        if (eq == std::string::npos || eq == 0)
            return fail(Error{"--software '" + kv + "' is not name=version",
                              "e.g. --software nvdisasm=13.0.88"},
                        kExitBadArgs);
        o.software[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    Session session;
    if (!a.session.empty()) {
        Result<Session> s = load_session(a.session);
        if (!s) return fail(s.error(), kExitFailure);
        session = std::move(*s);
        o.session = &session;
        o.session_label = a.session.substr(a.session.find_last_of('/') + 1);
    }
    std::vector<std::string> log;
    Result<CodeManifest> m = record_code(o, &log);
    for (const std::string& line : log) std::printf("%s\n", line.c_str());
    if (!m) return fail(m.error(), kExitFailure);
    std::printf("wrote %s/manifest.json: %zu files, %zu sources hashed; %s\n", a.out.c_str(),
                m->units.size(), m->sources.size(), m->selection.c_str());
    return kExitOk;
}

}  // namespace

CommandFn add_record_code_command(CLI::App& app) {
    auto args = std::make_shared<RecordCodeArgs>();
    CLI::App* sub = app.add_subcommand(
        "record-code",
        "Keep the PTX and SASS entry points that matter, with the hashes of their sources "
        "(bench/device_run.sh; no GPU needed)");
    sub->add_option("--ptx-dir", args->ptx_dir, "the build's PTX: <stem>.ptx per kernel file")
        ->check(non_empty_path());
    sub->add_option("--sass-dir", args->sass_dir,
                    "SASS per kernel file, <stem>.sass (nvdisasm -c -gi of its object)")
        ->check(non_empty_path());
    sub->add_option("--out", args->out, "folder to write manifest.json, ptx/ and sass/ into")
        ->check(non_empty_path())
        ->required();
    sub->add_option("--session", args->session,
                    "session whose launch records name the functions that ran (kept); without "
                    "one, files with many entry points keep their fp32 ones")
        ->check(non_empty_path());
    sub->add_option("--repo", args->repo,
                    "the checkout the build was made from (default: this one)")
        ->check(non_empty_path());
    sub->add_option("--created", args->created_utc, "when, ISO 8601 UTC");
    sub->add_option("--git", args->git, "the commit built");
    sub->add_option("--device", args->device, "the GPU it was recorded for");
    sub->add_option("--arch", args->arch, "the SASS architecture (default sm_90)");
    sub->add_option("--software", args->software, "name=version, repeatable");
    return [args] { return run_record_code(*args); };
}

}  // namespace sml::cli
