// NVRTC log -> diagnostics. The log looks like this (EDG's format):
//
//   kernels/warp_softmax.cu(60): error: identifier "m2" is undefined
//           v = fmaxf(m2, v);
//                     ^
//             detected during instantiation of "..." at line 150
//
//   1 error detected in the compilation of "kernels/warp_softmax.cu".
//
// The echoed source line is indented by two spaces, so the caret's column in the source is its
// index in the caret line minus two, plus one.
#include "core/lab/diagnostics.h"

#include <regex>
#include <sstream>

namespace sml::lab {
namespace {

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
        if (!l.empty() && l.back() == '\r') l.pop_back();
        lines.push_back(l);
    }
    return lines;
}

bool is_caret_line(const std::string& l) {
    const size_t caret = l.find('^');
    return caret != std::string::npos && l.find_first_not_of(' ') == caret &&
           l.find_first_not_of(' ', caret + 1) == std::string::npos;
}

std::string trim(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t");
    if (a == std::string::npos) return "";
    return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

}  // namespace

std::vector<Diagnostic> parse_nvrtc_log(const std::string& log) {
    static const std::regex head(
        R"(^(.+)\((\d+)\): (catastrophic error|error|warning|remark|note)( #[0-9]+(-[A-Z])?)?: (.*)$)");
    static const std::regex lineless(
        R"(^(error|warning|nvrtc error|catastrophic error)\s*:\s*(.*)$)");
    const std::vector<std::string> lines = split_lines(log);
    std::vector<Diagnostic> out;
    Diagnostic* current = nullptr;
    bool echoed = false;  // the current message's source line has been seen
    for (const std::string& l : lines) {
        std::smatch m;
        if (std::regex_match(l, m, head)) {
            Diagnostic d;
            d.file = m[1];
            d.line = std::stoi(m[2]);
            const std::string sev = m[3];
            d.severity = sev == "catastrophic error" ? "fatal" : sev;
            d.message = m[6];
            out.push_back(d);
            current = &out.back();
            echoed = false;
            continue;
        }
        if (std::regex_match(l, m, lineless)) {
            Diagnostic d;
            d.severity = m[1] == "warning" ? "warning" : "error";
            d.message = m[2];
            out.push_back(d);
            current = nullptr;
            continue;
        }
        if (!current) continue;
        if (l.empty()) {
            current = nullptr;  // a blank line ends a message
            continue;
        }
        if (is_caret_line(l)) {
            current->column = int(l.find('^')) - 2 + 1;
            if (current->column < 1) current->column = 1;
            continue;
        }
        const std::string t = trim(l);
        if (!echoed && l.rfind("  ", 0) == 0 && t.rfind("detected during", 0) != 0) {
            echoed = true;  // the source line itself: not part of the message
            continue;
        }
        current->message += "\n" + t;  // instantiation context, continued text
    }
    if (out.empty()) {
        const std::string t = trim(log);
        bool any = false;
        for (const std::string& l : lines) {
            const std::string tl = trim(l);
            if (!tl.empty() && tl.find("detected in the compilation of") == std::string::npos &&
                tl != "Compilation terminated." && tl.rfind("Remark: ", 0) != 0)
                any = true;
        }
        if (any) out.push_back(Diagnostic{"", 0, 0, "error", t});
    }
    return out;
}

std::vector<Diagnostic> diagnostics_for_line(const std::vector<Diagnostic>& all,
                                             const std::string& file, int line) {
    std::vector<Diagnostic> r;
    for (const Diagnostic& d : all)
        if (d.file == file && d.line == line) r.push_back(d);
    return r;
}

bool has_errors(const std::vector<Diagnostic>& all) {
    for (const Diagnostic& d : all)
        if (d.severity == "error" || d.severity == "fatal") return true;
    return false;
}

std::string format_diagnostics(const std::vector<Diagnostic>& all) {
    std::string s;
    for (const Diagnostic& d : all) {
        if (!d.file.empty()) {
            s += d.file + ":";
            if (d.line > 0) s += std::to_string(d.line) + ":";
            if (d.column > 0) s += std::to_string(d.column) + ":";
            s += " ";
        }
        s += d.severity + ": " + d.message + "\n";
    }
    return s;
}

}  // namespace sml::lab
