// softmaxlab-cli subcommands. Each lives in its own file, app/cli/cmd_<name>.cpp, and defines
// one add_<name>_command(): it adds a CLI11 subcommand to `app` and returns the function that
// runs it (called by main.cpp only if that subcommand was chosen). Exit codes: 0 success,
// 1 runtime failure (no GPU, out of memory, ...), 2 bad arguments.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace sml::cli {

using CommandFn = std::function<int()>;

CommandFn add_list_command(CLI::App& app);         // cmd_list.cpp
CommandFn add_device_command(CLI::App& app);       // cmd_device.cpp
CommandFn add_run_command(CLI::App& app);          // cmd_run.cpp
CommandFn add_sweep_command(CLI::App& app);        // cmd_sweep.cpp
CommandFn add_chart_command(CLI::App& app);        // cmd_chart.cpp
CommandFn add_record_code_command(CLI::App& app);  // cmd_record_code.cpp
CommandFn add_lab_command(CLI::App& app);          // cmd_lab.cpp

// For options that name a file or folder: "--out ''" is refused while parsing (exit 2) rather
// than read as no option, or as the root folder ("" + "/manifest.json" is "/manifest.json").
CLI::Validator non_empty_path();

// Prints "error: <message>" and, when present, "hint: <hint>" to stderr.
void print_error(const std::string& message, const std::string& hint = "");

}  // namespace sml::cli
