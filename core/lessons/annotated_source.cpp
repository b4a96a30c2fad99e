// Region markers in kernel sources and instruction patterns in PTX. See annotated_source.h.
#include "core/lessons/annotated_source.h"

#include <sstream>

#include "core/code/asm_listing.h"
#include "core/common/safe_file.h"

namespace sml {

namespace {

const char kRegionTag[] = "// @region";
const char kEndTag[] = "// @endregion";

std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return "";
    size_t e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

bool starts_with(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}

Error at_line(const std::string& origin, int line, const std::string& what,
              const std::string& hint) {
    return Error{origin + ":" + std::to_string(line) + ": " + what, hint};
}

const char kMarkerHint[] =
    "region markers are '// @region <kebab-name>: <one-line note>' and '// @endregion "
    "<kebab-name>', each on its own line";

}  // namespace

bool is_kebab_case(const std::string& name) {
    if (name.empty() || name.front() == '-' || name.back() == '-') return false;
    char prev = 0;
    for (char c : name) {
        bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
        if (!ok || (c == '-' && prev == '-')) return false;
        prev = c;
    }
    return true;
}

const SourceRegion* AnnotatedSource::find(const std::string& name) const {
    for (const SourceRegion& r : regions)
        if (r.name == name) return &r;
    return nullptr;
}

std::vector<std::string> AnnotatedSource::region_names() const {
    std::vector<std::string> names;
    for (const SourceRegion& r : regions) names.push_back(r.name);
    return names;
}

Result<AnnotatedSource> parse_annotated_source(const std::string& text, const std::string& origin) {
    AnnotatedSource src;
    src.origin = origin;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        src.lines.push_back(line);
    }
    src.is_marker.assign(src.lines.size(), false);

    std::vector<size_t> open;  // indices into src.regions, innermost last
    for (size_t i = 0; i < src.lines.size(); ++i) {
        const int lineno = static_cast<int>(i) + 1;
        const std::string t = trim(src.lines[i]);
        // Check the longer tag first: "// @endregion" does not start with "// @region", but a
        // typo like "// @regionx" must not be taken for either.
        if (starts_with(t, kEndTag)) {
            src.is_marker[i] = true;
            std::string name = trim(t.substr(sizeof(kEndTag) - 1));
            if (open.empty())
                return at_line(origin, lineno, "@endregion " + name + " closes no open region",
                               kMarkerHint);
            SourceRegion& r = src.regions[open.back()];
            if (name != r.name)
                return at_line(origin, lineno,
                               "@endregion '" + name +
                                   "' does not match the innermost open "
                                   "region '" +
                                   r.name + "' (line " + std::to_string(r.begin_marker) + ")",
                               "close regions in the reverse order they were opened");
            r.end_marker = lineno;
            r.first_line = r.begin_marker + 1;
            r.last_line = lineno - 1;
            if (r.last_line < r.first_line)
                return at_line(origin, lineno, "region '" + r.name + "' contains no code",
                               "put the code the note describes between the markers");
            open.pop_back();
        } else if (starts_with(t, kRegionTag)) {
            src.is_marker[i] = true;
            std::string rest = t.substr(sizeof(kRegionTag) - 1);
            if (rest.empty() || (rest[0] != ' ' && rest[0] != '\t'))
                return at_line(origin, lineno, "malformed region marker '" + t + "'", kMarkerHint);
            size_t colon = rest.find(':');
            std::string name = trim(rest.substr(0, colon));
            std::string note = colon == std::string::npos ? "" : trim(rest.substr(colon + 1));
            if (!is_kebab_case(name))
                return at_line(origin, lineno, "region name '" + name + "' is not kebab-case",
                               "use lower-case words joined by '-', e.g. warp-reduce");
            if (note.empty())
                return at_line(origin, lineno, "region '" + name + "' has no note",
                               "add ': <one line shown on hover>' after the name");
            if (const SourceRegion* dup = src.find(name))
                return at_line(origin, lineno,
                               "duplicate region name '" + name + "' (first at line " +
                                   std::to_string(dup->begin_marker) + ")",
                               "region names must be unique within a file");
            SourceRegion r;
            r.name = name;
            r.note = note;
            r.begin_marker = lineno;
            open.push_back(src.regions.size());
            src.regions.push_back(r);
        }
    }
    if (!open.empty()) {
        const SourceRegion& r = src.regions[open.back()];
        return at_line(origin, r.begin_marker, "region '" + r.name + "' is never closed",
                       "add '// @endregion " + r.name + "' after its last line");
    }
    return src;
}

Result<std::string> read_text_file(const std::string& path) {
    // Regular files only, size-capped, never blocking on a FIFO (core/common/safe_file.h).
    return read_file_capped(path, kMaxTextFileBytes, "file");
}

Result<AnnotatedSource> load_annotated_source(const std::string& path) {
    Result<std::string> text = read_text_file(path);
    if (!text) return text.error();
    return parse_annotated_source(*text, path);
}

std::vector<int> find_ptx_lines(const std::string& ptx_text, const std::string& pattern) {
    std::vector<int> hits;
    std::istringstream in(ptx_text);
    int lineno = 0;
    for (std::string line; std::getline(in, line);) {
        ++lineno;
        std::string t = trim(line);
        if (!t.empty() && t[0] == '@') {  // predicate guard: "@%p1 bra" / "@!%p2 ld..."
            size_t sp = t.find_first_of(" \t");
            t = sp == std::string::npos ? "" : trim(t.substr(sp));
        }
        // Instructions start with a letter; directives start with '.', comments with '/',
        // labels end with ':' and braces open and close scopes.
        if (t.empty() || !((t[0] >= 'a' && t[0] <= 'z'))) continue;
        std::string mnemonic = t.substr(0, t.find_first_of(" \t;"));
        if (!mnemonic.empty() && mnemonic.back() == ':') continue;
        // The matching rule is the code views' (core/code/asm_listing.h), defined once.
        if (ptx_opcode_matches(mnemonic, pattern)) hits.push_back(lineno);
    }
    return hits;
}

std::string kernel_source_with_region(const KernelInfo& k, const std::string& region,
                                      const std::string& source_root) {
    for (const char* path : k.sources) {
        Result<AnnotatedSource> src = load_annotated_source(source_root + "/" + path);
        if (src && src->find(region)) return path;
    }
    return "";
}

std::string kernel_source_with_ptx(const KernelInfo& k, const std::string& pattern,
                                   const std::string& build_dir) {
    for (const char* path : k.sources) {
        Result<std::string> ptx = read_text_file(ptx_path_for_source(path, build_dir));
        if (ptx && !find_ptx_lines(*ptx, pattern).empty()) return path;
    }
    return "";
}

std::string code_file_stem(const std::string& source) {
    std::string file = source.substr(source.find_last_of('/') + 1);
    std::string stem = file.substr(0, file.find_last_of('.'));
    // kernels/best/grid.cu -> best_grid (kernels/CMakeLists.txt names best's units so).
    if (source.find("kernels/best/") != std::string::npos) stem = "best_" + stem;
    return stem;
}

std::string ptx_path_for_source(const std::string& source, const std::string& build_dir) {
    return build_dir + "/ptx/" + code_file_stem(source) + ".ptx";
}

}  // namespace sml
