// Parsing one step's Markdown: title, sections, the hidden answer, [[anchor]] and {{claim}}
// references. See lesson_model.h for the format.
#include <sstream>

#include "core/lessons/annotated_source.h"
#include "core/lessons/lesson_model.h"
#include "core/lessons/lesson_values.h"

namespace sml {

namespace {

const char kAnswerOpen[] = ":::answer";
const char kFenceClose[] = ":::";
const char kClaimPrefix[] = "claim:";

std::string rtrim(std::string s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.pop_back();
    return s;
}

std::string strip_heading(const std::string& line, size_t hashes) {
    std::string s = line.substr(hashes);
    size_t b = s.find_first_not_of(' ');
    return b == std::string::npos ? "" : rtrim(s.substr(b));
}

// Collects every "open ... close" span in `text`; error if one is not closed on the same line.
Status collect_refs(const std::string& line, int lineno, const std::string& origin,
                    const char* open, const char* close, std::vector<std::string>* out) {
    size_t pos = 0;
    while ((pos = line.find(open, pos)) != std::string::npos) {
        size_t end = line.find(close, pos + 2);
        if (end == std::string::npos)
            return Error{
                origin + ":" + std::to_string(lineno) + ": '" + open + "' without '" + close + "'",
                std::string("close the reference on the same line, e.g. ") +
                    (open[0] == '[' ? "[[warp:warp-reduce]]" : "{{claim:fused-gbps}}")};
        out->push_back(line.substr(pos + 2, end - pos - 2));
        pos = end + 2;
    }
    return ok_status();
}

}  // namespace

std::string LessonAnchor::key() const {
    return is_ptx() ? kernel + ":ptx:" + ptx : kernel + ":" + region;
}

Result<LessonAnchor> parse_anchor_key(const std::string& key) {
    const std::string hint =
        "write [[kernel:region]] or [[kernel:ptx:pattern]], e.g. "
        "[[warp:warp-reduce]] or [[warp:ptx:shfl.sync.bfly]]";
    size_t colon = key.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == key.size())
        return Error{"malformed anchor '" + key + "'", hint};
    LessonAnchor a;
    a.kernel = key.substr(0, colon);
    std::string rest = key.substr(colon + 1);
    if (rest.rfind("ptx:", 0) == 0) {
        a.ptx = rest.substr(4);
        if (a.ptx.empty() || a.ptx.find_first_of(" \t") != std::string::npos)
            return Error{"malformed PTX anchor '" + key + "'", hint};
    } else {
        a.region = rest;
        if (!is_kebab_case(a.region))
            return Error{"anchor '" + key + "': region name '" + rest + "' is not kebab-case",
                         hint};
    }
    return a;
}

Result<LessonText> parse_lesson_text(const std::string& markdown, const std::string& origin) {
    LessonText t;
    t.path = origin;
    std::istringstream in(markdown);
    bool in_answer = false, seen_answer = false, in_code = false;
    int answer_line = 0, lineno = 0;
    for (std::string raw; std::getline(in, raw);) {
        ++lineno;
        const std::string line = rtrim(raw);
        if (t.title.empty()) {  // everything before the title must be blank
            if (line.empty()) continue;
            if (line.rfind("# ", 0) != 0)
                return Error{origin + ":" + std::to_string(lineno) +
                                 ": a lesson must start with its title as a '# ' heading",
                             "make the first line '# <title>'"};
            t.title = strip_heading(line, 1);
            continue;
        }
        if (line.rfind("```", 0) == 0) in_code = !in_code;
        if (!in_code && line == kAnswerOpen) {
            if (in_answer || seen_answer)
                return Error{origin + ":" + std::to_string(lineno) + ": a second ':::answer' block",
                             "each step has exactly one check question with one answer"};
            in_answer = seen_answer = true;
            answer_line = lineno;
            continue;
        }
        if (!in_code && in_answer && line == kFenceClose) {
            in_answer = false;
            continue;
        }
        const bool heading = !in_code && !in_answer && line.rfind("## ", 0) == 0;
        if (heading) {
            t.sections.push_back(strip_heading(line, 2));
            t.section_text.emplace_back();
        } else if (!in_answer && !t.section_text.empty()) {
            t.section_text.back() += raw + "\n";
        }
        if (Status s = collect_refs(line, lineno, origin, "[[", "]]", &t.anchor_refs); !s)
            return s.error();
        std::vector<std::string> braces;
        if (Status s = collect_refs(line, lineno, origin, "{{", "}}", &braces); !s)
            return s.error();
        for (const std::string& b : braces) {
            if (is_lesson_value_ref(b)) {
                t.value_refs.push_back(b);
                continue;
            }
            if (b.rfind(kClaimPrefix, 0) != 0 || b.size() == sizeof(kClaimPrefix) - 1)
                return Error{
                    origin + ":" + std::to_string(lineno) + ": unknown placeholder '{{" + b + "}}'",
                    "placeholders are {{claim:<id>}} and the GPU's own values: " +
                        lesson_value_ref_list()};
            t.claim_refs.push_back(b.substr(sizeof(kClaimPrefix) - 1));
        }
        (in_answer ? t.answer : t.body) += raw + "\n";
    }
    if (t.title.empty())
        return Error{origin + ": empty lesson (no '# ' title)", "write the step's text"};
    if (in_answer)
        return Error{origin + ":" + std::to_string(answer_line) + ": ':::answer' is never closed",
                     "end the answer with a line containing only ':::'"};
    if (!seen_answer)
        return Error{origin + ": no ':::answer' block",
                     "end the check question with ':::answer', the answer, then ':::'"};
    for (const std::string& key : t.anchor_refs)
        if (Result<LessonAnchor> a = parse_anchor_key(key); !a)
            return Error{origin + ": " + a.error().message, a.error().hint};
    return t;
}

}  // namespace sml
