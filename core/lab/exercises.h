// Exercises: one small piece of a lesson kernel to write yourself (LeetGPU / GPU-Puzzles style).
//
// lessons/exercises/exercises.json lists them. An exercise is its lesson's kernel file in which
// one named region (`// @region NAME` ... `// @endregion NAME`, the same markers the lessons
// point at) holds a stub and a TODO instead of the lesson's code: exercise_text() makes it from
// the lesson file whenever it is opened, so an exercise cannot drift from its lesson. The stub
// compiles and runs, and gives wrong answers until the region is written. The solution is the
// lesson's own file.
//
// The check (check_exercise): the edit runs as a lab job in a child process on odd shapes, every
// row compared with float64, then once at a stated N where it must reach a stated share of the
// copy bandwidth. Without a GPU it still compiles, and shows errors and PTX.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/result.h"
#include "core/lab/lab_child.h"
#include "core/lab/lab_job.h"

namespace sml::lab {

struct ExerciseShape {
    int64_t rows = 0, cols = 0;
};

// What the learner reads of an exercise, in one language.
struct ExerciseWords {
    std::string title;
    std::string task;                // what to write, one or two sentences
    std::vector<std::string> hints;  // 2-3, from gentle to nearly the answer
};

struct Exercise {
    std::string id;      // "warp-reduce"
    int step = 0;        // the lesson step (1..6)
    std::string kernel;  // registry id the exercise edits ("warp")
    std::string title;
    std::string task;                   // what to write, one or two sentences
    std::string region;                 // the region to complete
    std::string stub;                   // its body in the exercise: a TODO and placeholder code
    std::vector<std::string> hints;     // 2-3, from gentle to nearly the answer
    std::vector<ExerciseShape> shapes;  // correctness: every row against float64
    ExerciseShape speed;                // the speed check's shape
    double min_pct_of_copy = 0;         // ... and the share of copy it must reach there
    // The title, task and hints in other languages ("zh"), each hint in the same place.
    std::map<std::string, ExerciseWords> translations;

    // The title, task and hints in `lang`, in English where it has none.
    ExerciseWords words(const std::string& lang) const;
};

// lessons/exercises/exercises.json (or `path`), every entry checked for its fields.
Result<std::vector<Exercise>> load_exercises(const std::string& path = "");
const Exercise* find_exercise(const std::vector<Exercise>& all, const std::string& id);

// The lines strictly between a region's markers ("" + '\n'-terminated lines), and a text with
// them replaced. Errors name the region when the text does not have it.
Result<std::string> region_body(const std::string& text, const std::string& region,
                                const std::string& origin);
Result<std::string> replace_region(const std::string& text, const std::string& region,
                                   const std::string& body, const std::string& origin);

// The exercise as a learner opens it: a three-line header saying what it is, then the lesson's
// kernel file with the region's body replaced by the stub.
Result<std::string> exercise_text(const Exercise& e);

// The exercise's solution: the lesson's kernel file, which holds the region as the lesson wrote it.
Result<std::string> solved_exercise(const Exercise& e);

// One check's outcome, and the verdict over all of them.
struct ExerciseCheck {
    std::string what;  // "1823 x 781: correct", "speed at 65536 x 1024: 91% of copy (>= 70%)"
    bool passed = false;
    LabResult result;
};
struct ExerciseVerdict {
    bool passed = false;
    bool ran = false;  // false: compiled only (no GPU), or it did not compile
    std::string summary;
    std::vector<ExerciseCheck> checks;
    std::vector<Diagnostic> diagnostics;  // when it did not compile
};

// The verdict from the results of the correctness jobs (one per shape, in order) and the speed
// job (absent when a correctness job failed).
ExerciseVerdict evaluate_exercise(const Exercise& e, const std::vector<LabResult>& shape_results,
                                  const std::optional<LabResult>& speed_result);

// The jobs the check runs (mode "check" per shape, then "measure" at the speed shape).
std::vector<LabJob> exercise_jobs(const Exercise& e, const std::string& source);

// Runs the whole check through child processes (lab_child.h): stops at the first failure.
ExerciseVerdict check_exercise(const Exercise& e, const std::string& source,
                               const ChildJobOptions& options = {});

}  // namespace sml::lab
