// Lesson consistency checks. See lesson_check.h.
#include "core/lessons/lesson_check.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "core/lessons/annotated_source.h"
#include "core/lessons/lesson_claims.h"
#include "core/lessons/lesson_values.h"
#include "kernels/registry.h"

namespace sml {

namespace {

std::string step_name(const LessonStep& s) {
    return "step " + std::to_string(s.index) + " (" + s.id + ")";
}

void need_kernel(const LessonStep& s, const std::string& id, const std::string& where,
                 std::vector<std::string>* problems) {
    if (!find_kernel(id))
        problems->push_back(step_name(s) + ": " + where + " names kernel '" + id +
                            "', which is not in the registry (" + kernel_ids() + ")");
}

// Why `kernel` cannot run (cols, dtype, variant) on `limits`; empty when it can.
std::string range_problem(const std::string& kernel, int64_t cols, const std::string& dtype,
                          const std::string& variant, const DeviceLimits& limits) {
    const KernelInfo* k = find_kernel(kernel);
    if (!k) return "";  // reported by check_step_kernels
    DType t;
    if (!parse_dtype(dtype, &t)) return "unknown dtype '" + dtype + "'";
    if (!variant.empty() &&
        std::find(k->variants.begin(), k->variants.end(), variant) == k->variants.end())
        return kernel + " has no variant '" + variant + "'";
    Status st = check_problem(*k, SoftmaxProblem::contiguous(1, cols, t), limits);
    return st ? "" : st.error().message;
}

bool is_cupti_metric_name(const std::string& m) {
    return m.find("__") != std::string::npos && m.find('.') != std::string::npos &&
           m.find(' ') == std::string::npos;
}

std::set<std::string> as_set(const std::vector<std::string>& v) {
    return std::set<std::string>(v.begin(), v.end());
}

std::string join(const std::set<std::string>& s) {
    std::string out;
    for (const std::string& x : s) out += (out.empty() ? "" : ", ") + x;
    return out.empty() ? "none" : out;
}

}  // namespace

std::vector<std::string> check_step_kernels(const LessonStep& s) {
    std::vector<std::string> problems;
    if (s.kernels.empty()) problems.push_back(step_name(s) + ": names no kernel");
    for (const std::string& k : s.kernels) need_kernel(s, k, "its kernel list", &problems);
    for (const std::string& k : s.experiment.kernels)
        need_kernel(s, k, "the experiment", &problems);
    for (const LessonAnchor& a : s.anchors)
        need_kernel(s, a.kernel, "anchor [[" + a.key() + "]]", &problems);
    for (const LessonClaim& c : s.claims) {
        if (c.quantity != "copy_gbps") need_kernel(s, c.kernel, "claim " + c.id, &problems);
        if (c.quantity == "ratio_gbps" && !c.other.empty())
            need_kernel(s, c.other, "claim " + c.id, &problems);
        for (const std::string& k : c.among) need_kernel(s, k, "claim " + c.id, &problems);
    }
    for (const std::string& k : s.chart.contrast)
        need_kernel(s, k, "the chart's contrast", &problems);
    return problems;
}

std::vector<std::string> check_step_anchors(const LessonStep& s, const std::string& source_root,
                                            const std::string& build_dir, int* ptx_checked) {
    std::vector<std::string> problems;
    std::map<std::string, Result<AnnotatedSource>> parsed;  // source path -> parsed source
    auto source_at = [&](const std::string& path) -> const Result<AnnotatedSource>& {
        auto it = parsed.find(path);
        if (it == parsed.end())
            it = parsed.emplace(path, load_annotated_source(source_root + "/" + path)).first;
        return it->second;
    };
    for (const LessonAnchor& a : s.anchors) {
        const KernelInfo* k = find_kernel(a.kernel);
        if (!k) continue;  // reported by check_step_kernels
        const std::string where = step_name(s) + ": anchor [[" + a.key() + "]]";
        if (a.is_ptx()) {
            // Any of the kernel's sources may hold the instruction (best's paths are several).
            bool have_ptx = false, found = false;
            for (const char* src : k->sources) {
                Result<std::string> ptx = read_text_file(ptx_path_for_source(src, build_dir));
                if (!ptx) continue;
                have_ptx = true;
                if (!find_ptx_lines(*ptx, a.ptx).empty()) found = true;
            }
            if (!have_ptx) continue;  // no PTX in this build: nothing to check against
            if (ptx_checked) ++*ptx_checked;
            if (!found)
                problems.push_back(where + ": no PTX instruction matches '" + a.ptx + "' in " +
                                   k->id + "'s PTX under " + build_dir + "/ptx");
            continue;
        }
        std::string names;
        bool found = false;
        for (const char* path : k->sources) {
            const Result<AnnotatedSource>& src = source_at(path);
            if (!src) {
                problems.push_back(where + ": " + src.error().message);
                found = true;  // reported
                break;
            }
            if (src->find(a.region)) {
                found = true;
                break;
            }
            for (const std::string& n : src->region_names())
                names += (names.empty() ? "" : ", ") + n;
        }
        if (!found)
            problems.push_back(where + ": no source of " + k->id + " has region '" + a.region +
                               "' (they have: " + (names.empty() ? "none" : names) + ")");
    }
    return problems;
}

std::vector<std::string> check_step_ranges(const LessonStep& s, const DeviceLimits& limits) {
    std::vector<std::string> problems;
    const LessonExperiment& e = s.experiment;
    const std::string where = step_name(s) + ": experiment";
    if (e.rows < 1 || e.cols < 1)
        problems.push_back(where + " has rows = " + std::to_string(e.rows) +
                           ", cols = " + std::to_string(e.cols) + "; both must be >= 1");
    for (const std::string& k : e.kernels) {
        std::string why = range_problem(k, e.cols, e.dtype, e.variant, limits);
        if (!why.empty()) problems.push_back(where + ": " + why);
    }
    if (!is_claim_quantity(e.metric) && !is_cupti_metric_name(e.metric))
        problems.push_back(where + " watches '" + e.metric +
                           "', which is neither a claim quantity nor a CUPTI metric name");
    for (const LessonClaim& c : s.claims) {
        const std::string cw = step_name(s) + ": claim " + c.id;
        if (!is_claim_quantity(c.quantity)) {
            problems.push_back(cw + " has unknown quantity '" + c.quantity + "'");
            continue;
        }
        if (c.quantity == "copy_gbps") continue;
        std::vector<std::pair<std::string, int64_t>> points = {{c.kernel, c.cols}};
        if (c.quantity == "ratio_gbps")
            points.emplace_back(c.other.empty() ? c.kernel : c.other,
                                c.other_cols > 0 ? c.other_cols : c.cols);
        for (const auto& [k, cols] : points) {
            std::string why = range_problem(k, cols, c.dtype, c.variant, limits);
            if (!why.empty()) problems.push_back(cw + ": " + why);
        }
        if (c.quantity == "metric" && !is_cupti_metric_name(c.metric))
            problems.push_back(cw + " needs a CUPTI metric name, not '" + c.metric + "'");
    }
    return problems;
}

std::vector<std::string> check_step_text(const LessonStep& s) {
    std::vector<std::string> problems;
    const std::string where = step_name(s) + " " + s.text.path;
    for (const std::string& key : s.text.anchor_refs)
        if (!s.find_anchor(key))
            problems.push_back(where + ": [[" + key + "]] is not declared in lessons.json");
    for (const std::string& id : s.text.claim_refs)
        if (!s.find_claim(id))
            problems.push_back(where + ": {{claim:" + id + "}} is not declared in lessons.json");
    const std::set<std::string> used_anchors = as_set(s.text.anchor_refs);
    for (const LessonAnchor& a : s.anchors)
        if (!used_anchors.count(a.key()))
            problems.push_back(where + ": anchor " + a.key() + " is declared but never shown");
    // A predict question's explanation shows claims too (after the reveal): they count as shown,
    // and every {{...}} in it must be a claim of the step or a GPU value.
    std::set<std::string> used_claims = as_set(s.text.claim_refs);
    for (const LessonQuestion& q : s.questions) {
        size_t pos = 0;
        while ((pos = q.explain.find("{{", pos)) != std::string::npos) {
            const size_t end = q.explain.find("}}", pos);
            if (end == std::string::npos) {
                problems.push_back(where + ": predict question " + q.id + ": '{{' without '}}'");
                break;
            }
            const std::string ref = q.explain.substr(pos + 2, end - pos - 2);
            if (ref.rfind("claim:", 0) == 0 && s.find_claim(ref.substr(6)))
                used_claims.insert(ref.substr(6));
            else if (!is_lesson_value_ref(ref))
                problems.push_back(where + ": predict question " + q.id + " shows {{" + ref +
                                   "}}, which is neither a claim of the step nor a GPU value");
            pos = end + 2;
        }
    }
    for (const LessonClaim& c : s.claims)
        if (!used_claims.count(c.id))
            problems.push_back(where + ": claim " + c.id + " is declared but never shown");
    if (s.text.answer.find_first_not_of(" \t\n") == std::string::npos)
        problems.push_back(where + ": the answer block is empty");

    if (s.question_id.empty()) problems.push_back(where + ": no question id");
    return problems;
}

std::vector<std::string> check_step_predict(const LessonStep& s) {
    std::vector<std::string> problems;
    const std::string where = step_name(s);
    if (s.questions.empty())
        problems.push_back(where + ": no predict question (lessons.json \"predict\")");
    for (const LessonQuestion& q : s.questions) {
        if (!s.find_claim(q.claim))
            problems.push_back(where + ": predict question " + q.id +
                               " asks for undeclared claim " + q.claim);
        if (q.question.find_first_not_of(" \t\n") == std::string::npos ||
            q.explain.find_first_not_of(" \t\n") == std::string::npos)
            problems.push_back(where + ": predict question " + q.id +
                               " needs a question and an explanation");
    }
    for (size_t a = 0; a < s.questions.size(); ++a)
        for (size_t b = 0; b < a; ++b)
            if (s.questions[a].id == s.questions[b].id)
                problems.push_back(where + ": predict question id " + s.questions[a].id +
                                   " is used twice");
    return problems;
}

std::vector<std::string> check_step_numbers(const LessonStep& s) {
    std::vector<std::string> problems;
    const std::string where = step_name(s) + " " + s.text.path;
    if (s.text.section_text.size() <= kSectionWhatYouSee) {
        problems.push_back(where + ": has no 'what you should see' section (the 5th)");
        return problems;
    }
    std::set<std::string> allowed;
    auto allow = [&](int64_t v) {
        if (v > 0) allowed.insert(std::to_string(v));
    };
    allow(s.experiment.rows);
    allow(s.experiment.cols);
    for (int64_t m : s.chart.marks) allow(m);
    for (const LessonClaim& c : s.claims) {
        allow(c.rows);
        allow(c.cols);
        allow(c.other_cols);
    }
    auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
    const std::string& text = s.text.section_text[kSectionWhatYouSee];
    size_t i = 0;
    while (i < text.size()) {
        if (text.compare(i, 2, "{{") == 0 || text.compare(i, 2, "[[") == 0) {  // skip refs
            size_t end = text.find(text[i] == '{' ? "}}" : "]]", i);
            i = end == std::string::npos ? text.size() : end + 2;
        } else if (!digit(text[i])) {
            ++i;
        } else if (i > 0 &&
                   (std::isalpha(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_')) {
            while (i < text.size() && digit(text[i])) ++i;  // part of a name: L2, fp32, sm_90
        } else {
            size_t j = i;
            while (j < text.size() && (digit(text[j]) || (text[j] == '.' && j + 1 < text.size() &&
                                                          digit(text[j + 1]))))
                ++j;
            const std::string number = text.substr(i, j - i);
            if (!allowed.count(number))
                problems.push_back(where + ": 'what you should see' types the number " + number +
                                   "; a measured number must be a {{claim:...}}, and the only "
                                   "literals allowed there are the N and M of a claim");
            i = j;
        }
    }
    return problems;
}

std::vector<std::string> check_same_structure(const LessonBook& a, const LessonBook& b) {
    std::vector<std::string> problems;
    if (a.steps.size() != b.steps.size()) {
        problems.push_back(a.lang + " has " + std::to_string(a.steps.size()) + " steps, " + b.lang +
                           " has " + std::to_string(b.steps.size()));
        return problems;
    }
    for (size_t i = 0; i < a.steps.size(); ++i) {
        const LessonText& ta = a.steps[i].text;
        const LessonText& tb = b.steps[i].text;
        const std::string where = step_name(a.steps[i]) + " " + a.lang + " vs " + b.lang;
        if (ta.sections.size() != tb.sections.size())
            problems.push_back(where + ": " + std::to_string(ta.sections.size()) + " vs " +
                               std::to_string(tb.sections.size()) + " sections");
        if (as_set(ta.anchor_refs) != as_set(tb.anchor_refs))
            problems.push_back(where + ": anchors differ: {" + join(as_set(ta.anchor_refs)) +
                               "} vs {" + join(as_set(tb.anchor_refs)) + "}");
        if (as_set(ta.claim_refs) != as_set(tb.claim_refs))
            problems.push_back(where + ": claims differ: {" + join(as_set(ta.claim_refs)) +
                               "} vs {" + join(as_set(tb.claim_refs)) + "}");
        if (as_set(ta.value_refs) != as_set(tb.value_refs))
            problems.push_back(where + ": GPU values differ: {" + join(as_set(ta.value_refs)) +
                               "} vs {" + join(as_set(tb.value_refs)) + "}");
        // Same section titles in order is what the languages share; the questions too.
        if (a.steps[i].questions.size() != b.steps[i].questions.size())
            problems.push_back(where + ": " + std::to_string(a.steps[i].questions.size()) + " vs " +
                               std::to_string(b.steps[i].questions.size()) + " predict questions");
    }
    return problems;
}

std::vector<std::string> check_step_claims(const LessonStep& s, const Session& session) {
    std::vector<std::string> problems;
    for (const LessonClaim& c : s.claims) {
        if (!claim_applies(c, &session)) continue;  // "not on this GPU": no verdict to check
        Result<double> v = evaluate_claim(c, session);
        if (!v) {
            problems.push_back(step_name(s) + ": " + v.error().message);
        } else if (!(*v >= c.min && *v <= c.max)) {  // written so that NaN fails too
            problems.push_back(step_name(s) + ": claim " + c.id + " says " + format_claim_range(c) +
                               " but the session measured " + format_claim_value(c, *v) +
                               ": update the text and the claim's range, or find out why");
        }
    }
    return problems;
}

}  // namespace sml
