#include "core/lab/kernel_names.h"

#include <cxxabi.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace sml::lab {

std::string demangle(const std::string& mangled) {
    int status = 0;
    char* d = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
    if (status != 0 || d == nullptr) return mangled;
    std::string out = d;
    std::free(d);
    return out;
}

Result<std::string> name_expression(const std::string& demangled) {
    const Error bad{"'" + demangled + "' is not a kernel's name",
                    "expected a demangled function name such as "
                    "\"void sml::(anonymous namespace)::k<4>(float const*, long)\""};
    std::string s = demangled;
    while (!s.empty() && s.back() == ' ') s.pop_back();
    // The parameter list: the last parenthesised group, matched from the end (parameter types
    // may hold parentheses themselves, e.g. function pointers).
    if (s.empty() || s.back() != ')') return bad;
    int depth = 0;
    size_t open = std::string::npos;
    for (size_t i = s.size(); i-- > 0;) {
        if (s[i] == ')') ++depth;
        if (s[i] == '(' && --depth == 0) {
            open = i;
            break;
        }
    }
    if (open == std::string::npos || open == 0) return bad;
    std::string name = s.substr(0, open);
    // The return type (template functions only): everything up to the last space outside <>
    // and (), e.g. "void " - "(anonymous namespace)" and "<32, 1, 4>" hold spaces of their own.
    size_t start = 0;
    int angle = 0, paren = 0;
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c == '<') ++angle;
        if (c == '>') --angle;
        if (c == '(') ++paren;
        if (c == ')') --paren;
        if (c == ' ' && angle == 0 && paren == 0) start = i + 1;
    }
    name = name.substr(start);
    const std::string anon = "(anonymous namespace)::";
    for (size_t p; (p = name.find(anon)) != std::string::npos;) name.erase(p, anon.size());
    if (name.empty() || name.find_first_of("()") == 0) return bad;
    return name;
}

std::vector<std::string> ptx_entry_names(const std::string& ptx) {
    static const std::regex entry(
        R"(^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+([A-Za-z_$][\w$]*)\s*\(?)");
    std::vector<std::string> names;
    std::istringstream in(ptx);
    for (std::string l; std::getline(in, l);) {
        std::smatch m;
        if (std::regex_search(l, m, entry)) names.push_back(m[1]);
    }
    return names;
}

std::string built_ptx_path(const std::string& lesson_source) {
    std::string stem = lesson_source;
    if (size_t slash = stem.find_last_of('/'); slash != std::string::npos) stem.erase(0, slash + 1);
    if (size_t dot = stem.find_last_of('.'); dot != std::string::npos) stem.erase(dot);
    const char* dir = std::getenv("SML_PTX_DIR");
    return (dir && *dir ? std::string(dir) : std::string(SML_BUILD_DIR) + "/ptx") + "/" + stem +
           ".ptx";
}

Result<std::vector<std::string>> built_kernel_expressions(const std::string& lesson_source) {
    const std::string path = built_ptx_path(lesson_source);
    std::ifstream in(path);
    if (!in)
        return Error{"no PTX of " + lesson_source + " at " + path,
                     "build the sml_ptx target (cmake --build build --target sml_ptx), or set "
                     "SML_PTX_DIR to a folder that holds it"};
    std::stringstream text;
    text << in.rdbuf();
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (const std::string& mangled : ptx_entry_names(text.str())) {
        Result<std::string> e = name_expression(demangle(mangled));
        if (!e) return Error{path + ": " + e.error().message, e.error().hint};
        if (seen.insert(*e).second) out.push_back(*e);
    }
    if (out.empty()) return Error{path + " holds no kernels", "rebuild the sml_ptx target"};
    return out;
}

}  // namespace sml::lab
