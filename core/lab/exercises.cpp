#include "core/lab/exercises.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/lab/edit_store.h"
#include "core/lessons/annotated_source.h"
#include "kernels/registry.h"

namespace sml::lab {
namespace {

using json = nlohmann::json;

std::string repo_path(const std::string& rel) {
    return std::string(SML_SOURCE_DIR) + "/" + rel;
}

std::string shape_text(const ExerciseShape& s) {
    return std::to_string(s.rows) + " x " + std::to_string(s.cols);
}

std::string pct(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.0f%%", v);
    return b;
}

}  // namespace

ExerciseWords Exercise::words(const std::string& lang) const {
    auto it = translations.find(lang);
    return it != translations.end() ? it->second : ExerciseWords{title, task, hints};
}

Result<std::vector<Exercise>> load_exercises(const std::string& path_in) {
    const std::string path =
        path_in.empty() ? repo_path("lessons/exercises/exercises.json") : path_in;
    Result<std::string> text = read_file_capped(path, 1 << 20);
    if (!text) return text.error();
    try {
        const json doc = json::parse(*text);
        std::vector<Exercise> out;
        for (const json& j : doc.at("exercises")) {
            Exercise e;
            e.id = j.at("id").get<std::string>();
            e.step = j.at("step").get<int>();
            e.kernel = j.at("kernel").get<std::string>();
            e.title = j.at("title").get<std::string>();
            e.task = j.at("task").get<std::string>();
            e.region = j.at("region").get<std::string>();
            for (const std::string& line : j.at("stub").get<std::vector<std::string>>())
                e.stub += line + "\n";
            e.hints = j.at("hints").get<std::vector<std::string>>();
            for (const char* lang : {"zh"}) {
                if (!j.contains(lang)) continue;
                const json& t = j.at(lang);
                ExerciseWords w{t.at("title").get<std::string>(), t.at("task").get<std::string>(),
                                t.at("hints").get<std::vector<std::string>>()};
                if (w.hints.size() != e.hints.size() || w.title.empty() || w.task.empty())
                    return Error{path + ": exercise " + e.id + "'s " + lang +
                                     " words need a title, a task and one hint per hint",
                                 "translate every hint, in the same order"};
                e.translations[lang] = std::move(w);
            }
            for (const json& s : j.at("check").at("shapes"))
                e.shapes.push_back(ExerciseShape{s.at(0).get<int64_t>(), s.at(1).get<int64_t>()});
            const json& sp = j.at("check").at("speed");
            e.speed = ExerciseShape{sp.at("rows").get<int64_t>(), sp.at("cols").get<int64_t>()};
            e.min_pct_of_copy = sp.at("min_pct_of_copy").get<double>();
            if (!lab_kernel(e.kernel))
                return Error{path + ": exercise " + e.id + " edits '" + e.kernel +
                                 "', which the lab cannot edit",
                             "name a lesson kernel"};
            if (e.hints.size() < 2 || e.shapes.empty() || e.min_pct_of_copy <= 0 || e.stub.empty())
                return Error{path + ": exercise " + e.id +
                                 " needs a stub, at least 2 hints, a shape and a speed bar",
                             "see lessons/exercises/README.md"};
            if (find_exercise(out, e.id))
                return Error{path + ": exercise id " + e.id + " appears twice", ""};
            out.push_back(std::move(e));
        }
        return out;
    } catch (const std::exception& ex) {
        return Error{path + ": not a valid exercise list: " + ex.what(),
                     "see lessons/exercises/README.md for its fields"};
    }
}

const Exercise* find_exercise(const std::vector<Exercise>& all, const std::string& id) {
    for (const Exercise& e : all)
        if (e.id == id) return &e;
    return nullptr;
}

Result<std::string> region_body(const std::string& text, const std::string& region,
                                const std::string& origin) {
    Result<AnnotatedSource> a = parse_annotated_source(text, origin);
    if (!a) return a.error();
    const SourceRegion* r = a->find(region);
    if (!r) return Error{origin + " has no region '" + region + "'", "restore its markers"};
    std::string body;
    for (int i = r->begin_marker + 1; i < r->end_marker; ++i)
        body += a->lines[size_t(i - 1)] + "\n";
    return body;
}

Result<std::string> replace_region(const std::string& text, const std::string& region,
                                   const std::string& body, const std::string& origin) {
    Result<AnnotatedSource> a = parse_annotated_source(text, origin);
    if (!a) return a.error();
    const SourceRegion* r = a->find(region);
    if (!r)
        return Error{origin + " has no region '" + region + "'",
                     "keep the // @region and // @endregion lines of the exercise"};
    std::string out;
    for (int i = 1; i <= int(a->lines.size()); ++i) {
        if (i > r->begin_marker && i < r->end_marker) continue;
        out += a->lines[size_t(i - 1)];
        if (i < int(a->lines.size()) || (!text.empty() && text.back() == '\n')) out += "\n";
        if (i == r->begin_marker) out += body;
    }
    return out;
}

Result<std::string> solved_exercise(const Exercise& e) {
    const KernelInfo* k = find_kernel(e.kernel);
    if (!k) return Error{"no kernel " + e.kernel, ""};
    return read_file_capped(repo_path(k->lesson_source()), 4 << 20);
}

Result<std::string> exercise_text(const Exercise& e) {
    const KernelInfo* k = find_kernel(e.kernel);
    if (!k) return Error{"no kernel " + e.kernel, ""};
    Result<std::string> lesson = solved_exercise(e);
    if (!lesson) return lesson.error();
    Result<std::string> stubbed = replace_region(*lesson, e.region, e.stub, k->lesson_source());
    if (!stubbed) return stubbed.error();
    return "// EXERCISE (" + e.id + "): " + k->lesson_source() + " with region '" + e.region +
           "' left for you\n// to write. The task and the hints: `softmaxlab-cli lab exercise "
           "--list`, or the viewer's Lab menu.\n// Check it: softmaxlab-cli lab exercise --check " +
           e.id + " --source <your file>.\n//\n" + *stubbed;
}

std::vector<LabJob> exercise_jobs(const Exercise& e, const std::string& source) {
    const KernelInfo* k = find_kernel(e.kernel);
    std::vector<LabJob> jobs;
    for (const ExerciseShape& s : e.shapes) {
        LabJob j = make_job(e.kernel, k ? k->lesson_source() : "", source);
        j.label = "exercise " + e.id;
        j.rows = s.rows;
        j.cols = s.cols;
        j.mode = "check";
        j.metrics = "off";
        j.per_line = false;
        j.seed = uint64_t(s.rows * 131 + s.cols);  // a different random input per shape
        jobs.push_back(j);
    }
    LabJob speed = make_job(e.kernel, k ? k->lesson_source() : "", source);
    speed.label = "exercise " + e.id + " (speed)";
    speed.rows = e.speed.rows;
    speed.cols = e.speed.cols;
    speed.metrics = "off";
    speed.per_line = false;
    speed.samples = 10;
    jobs.push_back(speed);
    return jobs;
}

ExerciseVerdict evaluate_exercise(const Exercise& e, const std::vector<LabResult>& shape_results,
                                  const std::optional<LabResult>& speed_result) {
    ExerciseVerdict v;
    v.ran = true;
    bool all = shape_results.size() == e.shapes.size();
    for (size_t i = 0; i < shape_results.size() && i < e.shapes.size(); ++i) {
        const LabResult& r = shape_results[i];
        ExerciseCheck c;
        c.result = r;
        c.passed = r.status == status::kOk;
        c.what =
            shape_text(e.shapes[i]) + ": " + (c.passed ? "correct" : r.status + ": " + r.message);
        if (r.status == status::kCompileError) {
            v.diagnostics = r.diagnostics;
            v.ran = false;
        }
        if (r.status == status::kNoGpu) v.ran = false;
        all = all && c.passed;
        v.checks.push_back(std::move(c));
    }
    if (all && speed_result) {
        const LabResult& r = *speed_result;
        ExerciseCheck c;
        c.result = r;
        double got = 0;
        if (r.session && !r.session->points.empty()) got = r.session->points.front().pct_of_copy;
        c.passed = r.status == status::kOk && got >= e.min_pct_of_copy;
        c.what =
            "speed at " + shape_text(e.speed) + ": " +
            (r.status == status::kOk ? pct(got) + " of copy (needs " + pct(e.min_pct_of_copy) + ")"
                                     : r.status + ": " + r.message);
        all = all && c.passed;
        v.checks.push_back(std::move(c));
    } else if (all) {
        all = false;
    }
    v.passed = all;
    if (v.passed) {
        v.summary = "passed: correct on every shape, and fast enough";
    } else if (!v.diagnostics.empty()) {
        v.summary = "does not compile yet: fix the errors at their lines";
    } else if (!v.ran) {
        v.summary = "compiles; the check needs a GPU to run it";
    } else {
        v.summary = "not yet: ";
        for (const ExerciseCheck& c : v.checks)
            if (!c.passed) {
                v.summary += c.what;
                break;
            }
    }
    return v;
}

ExerciseVerdict check_exercise(const Exercise& e, const std::string& source,
                               const ChildJobOptions& options) {
    std::vector<LabJob> jobs = exercise_jobs(e, source);
    std::vector<LabResult> shapes;
    for (size_t i = 0; i + 1 < jobs.size(); ++i) {
        shapes.push_back(run_job_in_child(jobs[i], options));
        if (shapes.back().status != status::kOk) return evaluate_exercise(e, shapes, std::nullopt);
    }
    return evaluate_exercise(e, shapes, run_job_in_child(jobs.back(), options));
}

}  // namespace sml::lab
