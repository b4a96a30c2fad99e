// softmaxlab-cli: the headless tool. One subcommand per file (see commands.h); this file wires
// them into CLI11 and turns parse errors into the project's "error:/hint:" lines and exit 2.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "core/common/text_cap.h"
#include "kernels/device_profiles.h"

namespace {

const char* const kFooter = R"(
Examples:
  softmaxlab-cli list                                   kernels and their N ranges
  softmaxlab-cli device                                 the GPU, its L2, and whether counters work
  softmaxlab-cli run --kernel fused --rows 4096 --cols 1024
  softmaxlab-cli run --kernel naive --cols 1024 --metrics deep --json naive.json
  softmaxlab-cli sweep --kernels all --out session.json --csv session.csv
  softmaxlab-cli sweep --kernels warp,online --cols 32,1024,1025 --elements 16777216 --out s.json
  softmaxlab-cli chart --session assets/sessions/<file>.json --chart bandwidth --out bw.png
  softmaxlab-cli run --kernel warp --source my_warp.cu    an edited kernel (docs/lab.md)
  softmaxlab-cli lab exercise --list                     exercises to complete

Each subcommand has its own --help. Exit codes: 0 ok, 1 runtime failure (no GPU, out of memory,
a result outside tolerance), 2 bad arguments. Without a GPU, list and chart still work; replay a
recorded session in the viewer: softmaxlab --session assets/sessions/<file>.json)";

}  // namespace

int main(int argc, char** argv) {
    using namespace sml::cli;
    set_command_line(argc, argv);

    CLI::App app{"softmaxlab-cli: run, measure and record the softmaxlab kernels"};
    app.name("softmaxlab-cli");
    app.footer(kFooter);
    app.set_version_flag("--version", std::string("softmaxlab-cli ") + SML_VERSION);
    app.require_subcommand(1);
    // Any subcommand can take it: ranges, dispatch and runs then follow that class of GPU.
    std::string profile;
    app.add_option("--device-profile", profile,
                   "restrict ranges and dispatch to a class of GPU: " + sml::device_profile_ids() +
                       " (also SML_DEVICE_PROFILE)")
        ->envname("SML_DEVICE_PROFILE");
    app.fallthrough();

    // Each add_*_command adds the subcommand of that name; main looks it up to dispatch.
    std::vector<std::pair<CLI::App*, CommandFn>> commands;
    auto add = [&](const char* name, CommandFn fn) {
        commands.emplace_back(app.get_subcommand(name), std::move(fn));
    };
    add("list", add_list_command(app));
    add("device", add_device_command(app));
    add("run", add_run_command(app));
    add("sweep", add_sweep_command(app));
    add("chart", add_chart_command(app));
    add("record-code", add_record_code_command(app));
    add("lab", add_lab_command(app));

    // The first word that is not an option must be a subcommand. CLI11 would only say "A
    // subcommand is required" for `softmaxlab-cli frobnicate`, never naming the word it did not
    // know.
    if (argc > 1 && argv[1][0] != '-') {
        bool known = false;
        std::string names;
        for (auto& [sub, fn] : commands) {
            known |= sub->get_name() == argv[1];
            names += (names.empty() ? "" : ", ") + sub->get_name();
        }
        if (!known) {
            print_error("unknown subcommand '" + sml::quote_short(argv[1]) + "'",
                        "the subcommands are " + names + "; run `softmaxlab-cli --help`");
            return kExitBadArgs;
        }
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::string where = "softmaxlab-cli";
        for (auto& [sub, fn] : commands)
            if (sub->parsed()) where += " " + sub->get_name();
        print_error(e.what(), "run `" + where + " --help` for the options and examples");
        return kExitBadArgs;
    }
    if (!profile.empty()) {
        if (sml::find_device_profile(profile) == nullptr) {
            print_error("unknown device profile '" + profile + "'",
                        "use one of: " + sml::device_profile_ids());
            return kExitBadArgs;
        }
        setenv("SML_DEVICE_PROFILE", profile.c_str(), 1);  // the kernels' own device queries
    }
    set_device_profile(profile);
    for (auto& [sub, fn] : commands)
        if (sub->parsed()) return fn();
    print_error("no subcommand given", "run `softmaxlab-cli --help`");
    return kExitBadArgs;
}
