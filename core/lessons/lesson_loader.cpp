// Loading lessons/lessons.json and the per-language Markdown. See lesson_model.h.
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/lessons/annotated_source.h"
#include "core/lessons/lesson_model.h"

namespace sml {

namespace {

using nlohmann::json;

const char kFormatHint[] = "see lessons/README.md for the lessons.json format";
constexpr int64_t kLessonSchema = 1;  // bump when lessons.json changes incompatibly

// Where a parse error stopped, as "at line L, column C (byte B)". `byte` is nlohmann's count of
// bytes read, so the offending byte is byte - 1; past the end it reads "at the end (byte B)".
std::string json_error_position(const std::string& text, size_t byte) {
    const size_t at = byte > 0 ? byte - 1 : 0;
    if (at >= text.size())
        return "at the end (byte " + std::to_string(text.size()) + "): it is cut off";
    size_t line = 1, line_start = 0;
    for (size_t i = 0; i < at; ++i)
        if (text[i] == '\n') ++line, line_start = i + 1;
    return "at line " + std::to_string(line) + ", column " + std::to_string(at - line_start + 1) +
           " (byte " + std::to_string(at + 1) + ")";
}

// Reads typed fields of one JSON object, remembering the first problem with its location.
class FieldReader {
  public:
    FieldReader(const json& obj, std::string where) : obj_(obj), where_(std::move(where)) {
        if (!obj_.is_object()) fail("", "must be a JSON object");
    }
    bool ok() const { return error_.empty(); }
    const std::string& error() const { return error_; }

    std::string str(const char* key, bool required = true, const std::string& dflt = "") {
        const json* v = get(key, required);
        if (!v) return dflt;
        if (!v->is_string()) return fail(key, "must be a string"), dflt;
        return v->get<std::string>();
    }
    int64_t integer(const char* key, bool required = true, int64_t dflt = 0) {
        const json* v = get(key, required);
        if (!v) return dflt;
        if (!v->is_number_integer()) return fail(key, "must be an integer"), dflt;
        return v->get<int64_t>();
    }
    double number(const char* key, bool required = true) {
        const json* v = get(key, required);
        if (!v) return 0;
        if (!v->is_number()) return fail(key, "must be a number"), 0;
        return v->get<double>();
    }
    bool boolean(const char* key) {
        const json* v = get(key, false);
        if (!v) return false;
        if (!v->is_boolean()) return fail(key, "must be true or false"), false;
        return v->get<bool>();
    }
    std::vector<std::string> strings(const char* key, bool required = true) {
        std::vector<std::string> out;
        const json* v = get(key, required);
        if (!v) return out;
        if (!v->is_array()) return fail(key, "must be an array of strings"), out;
        for (const json& e : *v) {
            if (!e.is_string()) return fail(key, "must be an array of strings"), out;
            out.push_back(e.get<std::string>());
        }
        return out;
    }
    const json* array(const char* key, bool required = true) {
        const json* v = get(key, required);
        if (v && !v->is_array()) return fail(key, "must be an array"), nullptr;
        return v;
    }
    const json* object(const char* key) {
        const json* v = get(key, true);
        if (v && !v->is_object()) return fail(key, "must be an object"), nullptr;
        return v;
    }
    void fail(const std::string& key, const std::string& what) {
        if (error_.empty()) error_ = where_ + (key.empty() ? "" : "." + key) + " " + what;
    }
    void adopt(const FieldReader& inner) {
        if (error_.empty()) error_ = inner.error_;
    }

  private:
    const json* get(const char* key, bool required) {
        if (!obj_.is_object()) return nullptr;
        auto it = obj_.find(key);
        if (it == obj_.end()) {
            if (required) fail(key, "is missing");
            return nullptr;
        }
        return &*it;
    }
    const json& obj_;
    std::string where_;
    std::string error_;
};

LessonAnchor read_anchor(const json& j, const std::string& where, FieldReader* parent) {
    FieldReader r(j, where);
    LessonAnchor a;
    a.kernel = r.str("kernel");
    a.region = r.str("region", false);
    a.ptx = r.str("ptx", false);
    if (r.ok() && a.region.empty() == a.ptx.empty())
        r.fail("", "needs exactly one of \"region\" or \"ptx\"");
    if (r.ok() && !a.region.empty() && !is_kebab_case(a.region))
        r.fail("region", "'" + a.region + "' is not kebab-case");
    parent->adopt(r);
    return a;
}

LessonExperiment read_experiment(const json& j, const std::string& where, FieldReader* parent) {
    FieldReader r(j, where);
    LessonExperiment e;
    e.kernels = r.strings("kernels");
    e.rows = r.integer("rows");
    e.cols = r.integer("cols");
    e.dtype = r.str("dtype", false, "fp32");
    e.metric = r.str("metric");
    e.variant = r.str("variant", false);
    if (r.ok() && e.kernels.empty()) r.fail("kernels", "must name at least one kernel");
    parent->adopt(r);
    return e;
}

LessonClaim read_claim(const json& j, const std::string& where, FieldReader* parent) {
    FieldReader r(j, where);
    LessonClaim c;
    c.id = r.str("id");
    c.quantity = r.str("quantity");
    c.kernel = r.str("kernel", false);
    c.other = r.str("other", false);
    c.other_cols = r.integer("other_cols", false);
    c.among = r.strings("among", false);
    c.metric = r.str("metric", false);
    c.rows = r.integer("rows", false);
    c.cols = r.integer("cols", false);
    c.dtype = r.str("dtype", false, "fp32");
    c.variant = r.str("variant", false);
    c.other_variant = r.str("other_variant", false);
    c.requires_feature = r.str("requires", false);
    c.min = r.number("min");
    c.max = r.number("max");
    if (r.ok() && !is_kebab_case(c.id)) r.fail("id", "'" + c.id + "' is not kebab-case");
    if (r.ok() && c.min > c.max) r.fail("", "has min > max");
    if (r.ok() && !c.requires_feature.empty() && c.requires_feature != "clusters")
        r.fail("requires", "is '" + c.requires_feature + "'; the only requirement is \"clusters\"");
    parent->adopt(r);
    return c;
}

// The step's chart: {"kind": "pct", "contrast": ["naive"], "marks": [8192, 8193]}.
LessonChart read_chart(const json& j, const std::string& where, FieldReader* parent) {
    FieldReader r(j, where);
    LessonChart c;
    c.kind = r.str("kind", false, "pct");
    c.contrast_given = j.is_object() && j.contains("contrast");
    c.contrast = r.strings("contrast", false);
    if (const json* marks = r.array("marks", false))
        for (const json& m : *marks) {
            if (!m.is_number_integer() || m.get<int64_t>() < 1) {
                r.fail("marks", "must be an array of N values >= 1");
                break;
            }
            c.marks.push_back(m.get<int64_t>());
        }
    parent->adopt(r);
    return c;
}

// {"en": "...", "zh": "..."}: the text in `lang`, which every language must have.
std::string read_text_in(const json& j, const char* key, const std::string& lang, FieldReader* r) {
    if (!j.is_object() || !j.contains(key)) {
        r->fail(key, "is missing");
        return "";
    }
    const json& t = j.at(key);
    if (!t.is_object()) {
        r->fail(key, "must be an object of languages, e.g. {\"en\": \"...\", \"zh\": \"...\"}");
        return "";
    }
    for (const std::string& l : lesson_languages())
        if (!t.contains(l) || !t.at(l).is_string() || t.at(l).get<std::string>().empty()) {
            r->fail(std::string(key) + "." + l, "is missing (every language needs the text)");
            return "";
        }
    return t.at(lang).get<std::string>();
}

LessonQuestion read_question(const json& j, const std::string& where, const std::string& lang,
                             FieldReader* parent) {
    FieldReader r(j, where);
    LessonQuestion q;
    q.id = r.str("id");
    q.claim = r.str("claim");
    q.question = read_text_in(j, "question", lang, &r);
    q.explain = read_text_in(j, "explain", lang, &r);
    if (r.ok() && !is_kebab_case(q.id)) r.fail("id", "'" + q.id + "' is not kebab-case");
    parent->adopt(r);
    return q;
}

std::string step_file_name(int index, const std::string& id) {
    char nn[16];
    std::snprintf(nn, sizeof nn, "%02d", index);
    return std::string(nn) + "-" + id + ".md";
}

}  // namespace

int lesson_step_of(const LessonBook& book, const std::string& kernel) {
    for (const LessonStep& st : book.steps)
        for (const std::string& k : st.introduces)
            if (k == kernel) return st.index;
    return -1;
}

const LessonAnchor* LessonStep::find_anchor(const std::string& key) const {
    for (const LessonAnchor& a : anchors)
        if (a.key() == key) return &a;
    return nullptr;
}

const LessonClaim* LessonStep::find_claim(const std::string& claim_id) const {
    for (const LessonClaim& c : claims)
        if (c.id == claim_id) return &c;
    return nullptr;
}

const std::vector<std::string>& lesson_languages() {
    static const std::vector<std::string> langs = {"en", "zh"};
    return langs;
}

std::string default_lessons_root() {
#ifdef SML_SOURCE_DIR
    return std::string(SML_SOURCE_DIR) + "/lessons";
#else
    return "lessons";
#endif
}

Result<LessonBook> load_lessons(const std::string& root, const std::string& lang) {
    bool known = false;
    for (const std::string& l : lesson_languages()) known = known || l == lang;
    if (!known) return Error{"unknown lesson language '" + lang + "'", "use --lang en or zh"};

    const std::string index_path = root + "/lessons.json";
    Result<std::string> text = read_text_file(index_path);
    if (!text)
        return Error{text.error().message,
                     "the lessons ship in the repository's lessons/ folder; point the app at it"};
    json doc;
    try {
        doc = json::parse(*text);
    } catch (const json::parse_error& e) {
        return Error{index_path + " is not valid JSON " + json_error_position(*text, e.byte),
                     "fix the syntax (a JSON linter helps)"};
    } catch (const std::exception& e) {
        return Error{index_path + " is not valid JSON: " + e.what(),
                     "fix the syntax (a JSON linter helps)"};
    }

    FieldReader top(doc, index_path);
    const json* steps = top.array("steps");
    if (top.integer("schema", false, kLessonSchema) != kLessonSchema)
        top.fail("schema",
                 "is not " + std::to_string(kLessonSchema) + ", the version this build reads");
    if (!top.ok()) return Error{top.error(), kFormatHint};

    LessonBook book;
    book.root = root;
    book.lang = lang;
    for (size_t i = 0; i < steps->size(); ++i) {
        const std::string where = index_path + ": steps[" + std::to_string(i) + "]";
        FieldReader r((*steps)[i], where);
        LessonStep s;
        s.index = static_cast<int>(i);
        s.id = r.str("id");
        s.draft = r.boolean("draft");
        s.kernels = r.strings("kernels");
        s.introduces = r.strings("introduces", false);
        for (const std::string& k : s.introduces)
            if (r.ok() && std::find(s.kernels.begin(), s.kernels.end(), k) == s.kernels.end())
                r.fail("introduces", "'" + k + "' must also be one of the step's kernels");
        s.question_id = r.str("question");
        if (const json* anchors = r.array("anchors"))
            for (size_t k = 0; k < anchors->size() && r.ok(); ++k)
                s.anchors.push_back(
                    read_anchor((*anchors)[k], where + ".anchors[" + std::to_string(k) + "]", &r));
        if (const json* exp = r.object("experiment"))
            s.experiment = read_experiment(*exp, where + ".experiment", &r);
        if (const json* claims = r.array("claims", false))
            for (size_t k = 0; k < claims->size() && r.ok(); ++k)
                s.claims.push_back(
                    read_claim((*claims)[k], where + ".claims[" + std::to_string(k) + "]", &r));
        if (r.ok() && (*steps)[i].contains("chart"))
            s.chart = read_chart((*steps)[i].at("chart"), where + ".chart", &r);
        if (const json* predict = r.array("predict", false))
            for (size_t k = 0; k < predict->size() && r.ok(); ++k)
                s.questions.push_back(read_question(
                    (*predict)[k], where + ".predict[" + std::to_string(k) + "]", lang, &r));
        for (const LessonQuestion& q : s.questions)
            if (r.ok() && !s.find_claim(q.claim))
                r.fail("predict", "question '" + q.id + "' asks for claim '" + q.claim +
                                      "', which the step does not declare");
        if (r.ok() && !is_kebab_case(s.id)) r.fail("id", "'" + s.id + "' is not kebab-case");
        for (const LessonStep& earlier : book.steps)
            if (r.ok() && earlier.id == s.id)
                r.fail("id", "'" + s.id + "' is used by an earlier step");
        for (size_t a = 0; a < s.anchors.size() && r.ok(); ++a)
            for (size_t b = 0; b < a; ++b)
                if (s.anchors[a].key() == s.anchors[b].key())
                    r.fail("anchors", "lists " + s.anchors[a].key() + " twice");
        for (size_t a = 0; a < s.claims.size() && r.ok(); ++a)
            for (size_t b = 0; b < a; ++b)
                if (s.claims[a].id == s.claims[b].id)
                    r.fail("claims", "uses the id '" + s.claims[a].id + "' twice");
        if (!r.ok()) return Error{r.error(), kFormatHint};

        const std::string md_path = root + "/" + lang + "/" + step_file_name(s.index, s.id);
        Result<std::string> md = read_text_file(md_path);
        if (!md)
            return Error{"step " + std::to_string(s.index) + " (" + s.id + ") has no " + lang +
                             " text: " + md.error().message,
                         "write " + md_path + " (every step needs a file in every language)"};
        Result<LessonText> parsed = parse_lesson_text(*md, md_path);
        if (!parsed) return parsed.error();
        s.text = std::move(*parsed);
        book.steps.push_back(std::move(s));
    }
    if (book.steps.empty()) return Error{index_path + " lists no steps", kFormatHint};
    return book;
}

}  // namespace sml
