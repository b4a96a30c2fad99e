// Compiler messages as data: NVRTC's log parsed into one Diagnostic per message, so the editor
// can put each on its line (Compiler Explorer style) instead of showing a log.
#pragma once

#include <string>
#include <vector>

namespace sml::lab {

struct Diagnostic {
    std::string file;      // as the compiler named it: the edit's name, or a header's path
    int line = 0;          // 1-based; 0 when the message has no line (a bad option, a crash)
    int column = 0;        // 1-based, from the caret under the echoed line; 0 when unknown
    std::string severity;  // "error", "warning", "remark" or "fatal" (NVRTC's catastrophic error)
    std::string message;   // the first line, plus any "detected during ..." context lines
};

// Parses an NVRTC (EDG front end) log. Lines it does not recognise are ignored, except that a
// log with no recognised message but text in it becomes one line-less error, so nothing the
// compiler said is dropped.
std::vector<Diagnostic> parse_nvrtc_log(const std::string& log);

// The diagnostics of `file`, the ones on line `line` (1-based), and whether any is an error.
std::vector<Diagnostic> diagnostics_for_line(const std::vector<Diagnostic>& all,
                                             const std::string& file, int line);
bool has_errors(const std::vector<Diagnostic>& all);

// "kernels/warp_softmax.cu:60:14: error: ..." lines, one per diagnostic (for the CLI).
std::string format_diagnostics(const std::vector<Diagnostic>& all);

}  // namespace sml::lab
