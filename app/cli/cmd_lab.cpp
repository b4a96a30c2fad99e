// `softmaxlab-cli lab`: the lab bench without a window (docs/lab.md).
//
//   lab run --job J --out R        run one job document in this process (the child's side)
//   lab compile --kernel K --source F [--arch sm_90] [--ptx out.ptx]
//                                  compile only (no GPU needed): errors at their lines, PTX
//   lab exercise --list | --check ID [--source F] | --solution ID --out F
//   lab sass-metrics [--out F]     the GPU's per-instruction (SASS) metrics, for the record
//   lab fold --result R            re-fold a result's stored records against its stored cubin
//   lab lines --session S --out O [--cols N,...] [--kernels K,...]
//                                  per-line counters for the built-in kernels, into a session
//
// `softmaxlab-cli run --source F --kernel K` (cmd_run.cpp) is the convenient form of a job: it
// runs in a child process, so a fault in the edit ends only that child.
//
// This file declares the options and checks them, in every build, and does what needs no CUDA
// toolkit (exercise --list, --start and --solution); cmd_lab_gpu.cpp does the rest
// (gpu_commands.h).
#include <cstdio>
#include <filesystem>
#include <memory>
#include <utility>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/gpu_commands.h"
#include "core/common/parse_number.h"
#include "core/common/safe_file.h"
#include "core/lab/edit_store.h"
#include "core/lab/exercises.h"
#include "core/session/session.h"
#include "kernels/registry.h"

namespace sml::cli {

namespace {

Result<std::string> read_source(const std::string& path) {
    return lab::read_file_capped(path, lab::EditStore::kMaxEditBytes);
}

int lab_run(const LabArgs& a) {
    if (Status s = check_output_is_not_an_input(a.out, "--out", {{"--job", a.job}}); !s)
        return fail(s.error(), kExitBadArgs);
    if (Status s = check_writable(a.out, "--out"); !s) return fail(s.error(), kExitBadArgs);
    Result<lab::LabJob> job = lab::load_job(a.job);
    if (!job) return fail(job.error(), kExitBadArgs);
    return execute_lab_run(*job, a.out);
}

int lab_compile(const LabArgs& a) {
    // Writing the cubin or PTX over the source would replace the user's edit (it used to, and
    // exit 0); so would writing both over one file.
    for (const auto& [option, path] : {std::pair{"--ptx", a.ptx}, std::pair{"--out", a.out}})
        if (Status s = check_output_is_not_an_input(path, option, {{"--source", a.source}}); !s)
            return fail(s.error(), kExitBadArgs);
    if (Status s = check_output_is_not_an_input(a.out, "--out", {{"--ptx", a.ptx}}); !s)
        return fail(s.error(), kExitBadArgs);
    // A missing folder is refused before compiling, as everywhere (it used to be created).
    for (const auto& [option, path] : {std::pair{"--ptx", a.ptx}, std::pair{"--out", a.out}})
        if (!path.empty())
            if (Status s = check_writable(path, option); !s) return fail(s.error(), kExitBadArgs);
    Result<std::string> src = read_source(a.source);
    if (!src) return fail(src.error(), kExitBadArgs);
    const KernelInfo* k = find_kernel(a.kernel);
    if (!k)
        return fail(Error{"no kernel '" + a.kernel + "'", "kernels: " + kernel_ids()},
                    kExitBadArgs);
    return execute_lab_compile(lab::make_job(a.kernel, k->lesson_source(), *src), a);
}

int lab_exercise(const LabArgs& a) {
    const Result<double> time_limit =
        parse_seconds(a.exercise_time_limit, "--time-limit", kMaxTimeLimitSeconds);
    if (!time_limit) return fail(time_limit.error(), kExitBadArgs);
    Result<std::vector<lab::Exercise>> all = lab::load_exercises();
    if (!all) return fail(all.error(), kExitFailure);
    if (a.list) {
        for (const lab::Exercise& e : *all) {
            std::printf("%-16s step %d  %-12s %s\n", e.id.c_str(), e.step, e.kernel.c_str(),
                        e.title.c_str());
            std::printf("%16s %s\n", "", e.task.c_str());
            std::printf(
                "%16s region %s of its lesson file; speed bar %.0f%% of copy at %lld x %lld\n", "",
                e.region.c_str(), e.min_pct_of_copy, (long long)e.speed.rows,
                (long long)e.speed.cols);
        }
        return kExitOk;
    }
    const std::string id = !a.exercise_check.empty()      ? a.exercise_check
                           : !a.exercise_solution.empty() ? a.exercise_solution
                                                          : a.exercise_start;
    const lab::Exercise* e = lab::find_exercise(*all, id);
    if (!e) {
        std::string ids;
        for (const lab::Exercise& x : *all) ids += (ids.empty() ? "" : ", ") + x.id;
        return fail(Error{"no exercise '" + id + "'", "exercises: " + ids}, kExitBadArgs);
    }
    if (!a.exercise_solution.empty() || !a.exercise_start.empty()) {
        const bool solution = !a.exercise_solution.empty();
        Result<std::string> text = solution ? lab::solved_exercise(*e) : lab::exercise_text(*e);
        if (!text) return fail(text.error(), kExitFailure);
        if (a.out.empty())
            return fail(Error{solution ? "--solution needs --out" : "--start needs --out",
                              "name the file to write (an existing one is not replaced)"},
                        kExitBadArgs);
        if (std::filesystem::exists(a.out))
            return fail(Error{a.out + " exists", "give a new file name: nothing was written"},
                        kExitBadArgs);
        if (Status s = check_writable(a.out, "--out"); !s) return fail(s.error(), kExitBadArgs);
        if (Status s = lab::write_file_atomically(a.out, *text); !s)
            return fail(s.error(), kExitFailure);
        std::printf("wrote %s of %s to %s\n", solution ? "the solution" : "the exercise",
                    e->id.c_str(), a.out.c_str());
        return kExitOk;
    }
    Result<std::string> src = a.source.empty() ? lab::exercise_text(*e) : read_source(a.source);
    if (!src) return fail(src.error(), kExitBadArgs);
    return execute_lab_check(*e, *src, *time_limit);
}

int lab_sass_metrics(const LabArgs& a) {
    if (!a.out.empty())
        if (Status s = check_writable(a.out, "--out"); !s) return fail(s.error(), kExitBadArgs);
    return execute_lab_sass_metrics(a.out);
}

int lab_fold(const LabArgs& a) {
    Result<lab::LabResult> r = lab::load_result(a.result);
    if (!r) return fail(r.error(), kExitBadArgs);
    return execute_lab_fold(*r);
}

int lab_lines(const LabArgs& a) {
    const Result<double> time_limit =
        parse_seconds(a.lines_time_limit, "--time-limit", kMaxTimeLimitSeconds);
    if (!time_limit) return fail(time_limit.error(), kExitBadArgs);
    Result<std::vector<const KernelInfo*>> kernels = parse_kernel_list(a.kernels);
    if (!kernels) return fail(kernels.error(), kExitBadArgs);
    Result<std::vector<int64_t>> cols = parse_int_list(a.cols, "--cols");
    if (!cols) return fail(cols.error(), kExitBadArgs);
    if (Status s = check_output_is_not_an_input(a.out, "--out", {{"--session", a.session}}); !s)
        return fail(s.error(), kExitBadArgs);
    if (Status s = check_writable(a.out, "--out"); !s) return fail(s.error(), kExitBadArgs);
    Result<Session> session = load_session(a.session);
    if (!session) return fail(session.error(), kExitBadArgs);
    if (a.kernels == "all") {  // only the lesson kernels: best's source is many files
        std::vector<const KernelInfo*> editable;
        for (const KernelInfo* k : *kernels)
            if (k->lab_editable) editable.push_back(k);
        *kernels = editable;
    }
    return execute_lab_lines(std::move(*session), *kernels, *cols, *time_limit, a.out);
}

}  // namespace

CommandFn add_lab_command(CLI::App& app) {
    auto a = std::make_shared<LabArgs>();
    CLI::App* lab =
        app.add_subcommand("lab", "The lab bench: compile, run and check edited kernels");
    lab->require_subcommand(1);
    lab->footer(
        "\nExamples:\n"
        "  softmaxlab-cli lab compile --kernel warp --source my_warp.cu\n"
        "  softmaxlab-cli run --kernel warp --source my_warp.cu --cols 1024   (in a child)\n"
        "  softmaxlab-cli lab exercise --list\n"
        "  softmaxlab-cli lab exercise --check warp-reduce --source my_warp_reduce.cu\n"
        "See docs/lab.md.");

    CLI::App* run = lab->add_subcommand("run", "Run one job document in this process");
    run->add_option("--job", a->job, "The job (JSON, docs/lab.md)")
        ->check(non_empty_path())
        ->required();
    run->add_option("--out", a->out, "Where to write the result (JSON)")
        ->check(non_empty_path())
        ->required();

    CLI::App* compile =
        lab->add_subcommand("compile", "Compile an edited kernel file (no GPU needed)");
    compile->add_option("-k,--kernel", a->kernel, "The kernel it is an edit of")->required();
    compile->add_option("--source", a->source, "The edited .cu file")
        ->check(non_empty_path())
        ->required();
    compile->add_option("--arch", a->arch, "sm_XY (cubin) or compute_XY (PTX); default sm_90");
    compile->add_option("--ptx", a->ptx, "Write the PTX here")->check(non_empty_path());
    compile->add_option("--out", a->out, "Write the cubin here")->check(non_empty_path());

    CLI::App* ex = lab->add_subcommand("exercise", "List, check or solve the exercises");
    auto* list = ex->add_flag("--list", a->list, "List the exercises");
    auto* check = ex->add_option("--check", a->exercise_check, "Check exercise ID");
    auto* sol = ex->add_option("--solution", a->exercise_solution,
                               "Write exercise ID's solution (its lesson's file) to --out");
    auto* start = ex->add_option("--start", a->exercise_start,
                                 "Write exercise ID, ready to edit, to --out (a new file)");
    list->excludes(check)->excludes(sol)->excludes(start);
    check->excludes(sol)->excludes(start);
    sol->excludes(start);
    ex->add_option("--source", a->source, "Your version (default: the exercise as it starts)")
        ->check(non_empty_path());
    ex->add_option("--out", a->out, "Where --start and --solution write (a new file)")
        ->check(non_empty_path());
    ex->add_option("--time-limit", a->exercise_time_limit,
                   "Seconds each run may take (at most 3600)")
        ->default_val("120");

    CLI::App* sm =
        lab->add_subcommand("sass-metrics", "List this GPU's SASS (per-instruction) metrics");
    sm->add_option("--out", a->out, "Also write the list here")->check(non_empty_path());

    CLI::App* fold = lab->add_subcommand("fold", "Fold a result's stored records per source line");
    fold->add_option("--result", a->result, "A lab result (JSON)")
        ->check(non_empty_path())
        ->required();

    CLI::App* lines = lab->add_subcommand(
        "lines", "Record per-line counters of the built-in kernels into a session (GPU)");
    lines->add_option("--session", a->session, "The session to add them to (read only)")
        ->check(non_empty_path())
        ->required();
    lines->add_option("--out", a->out, "Where to write the session with them (JSON)")
        ->check(non_empty_path())
        ->required();
    lines->add_option("--cols", a->cols,
                      "N values, commas: each kernel gets them at the first it has a point at")
        ->default_val("4096,1024");
    lines->add_option("--kernels", a->kernels, "all (the lesson kernels), or ids separated by commas")
        ->default_val("all");
    lines
        ->add_option("--time-limit", a->lines_time_limit,
                     "Seconds each kernel's run may take (at most 3600)")
        ->default_val("300");
    lines->footer(
        "\nEach kernel's lesson file runs as a lab job (NVRTC, line info) at its point's shape;\n"
        "the point's own timing and counters stay as measured. Example:\n"
        "  softmaxlab-cli lab lines --session assets/sessions/h100.json --out with-lines.json");

    return [a, run, compile, ex, sm, fold, lines] {
        if (lines->parsed()) return lab_lines(*a);
        if (run->parsed()) return lab_run(*a);
        if (compile->parsed()) return lab_compile(*a);
        if (ex->parsed()) {
            if (!a->list && a->exercise_check.empty() && a->exercise_solution.empty() &&
                a->exercise_start.empty())
                return fail(
                    Error{"lab exercise needs --list, --start ID, --check ID or --solution ID", ""},
                    kExitBadArgs);
            return lab_exercise(*a);
        }
        if (sm->parsed()) return lab_sass_metrics(*a);
        if (fold->parsed()) return lab_fold(*a);
        return fail(Error{"lab needs a subcommand", "run `softmaxlab-cli lab --help`"},
                    kExitBadArgs);
    };
}

}  // namespace sml::cli
