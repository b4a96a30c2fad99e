// The lessons as data: what each step says, which code it points at, what it asks the learner
// to run, and which measured numbers it promises. No ImGui here; the viewer draws this.
//
// On disk (lessons/README.md has the full format):
//   lessons/lessons.json       the structure shared by every language: per step the kernels,
//                              anchors, the one-click experiment, the claims, the question id
//   lessons/<lang>/NN-<id>.md  the text of step NN in <lang> ("en", "zh")
//
// Inside the Markdown:
//   [[warp:warp-reduce]]          an anchor to region "warp-reduce" of kernel "warp"'s source
//   [[warp:ptx:shfl.sync.bfly]]   an anchor to the PTX lines matching "shfl.sync.bfly"
//   {{claim:fused-vs-naive}}      a measured number, filled in from the open session
//   {{device:sms}}                a fact of the open session's GPU (lesson_values.h): SM count,
//                                 L2, registers, shared memory; {{session:copy}} the same run's
//                                 copy bandwidth; {{limit:smem}} a kernel's largest N on that GPU
//   :::answer ... :::             the check question's answer, hidden until the learner reveals it
//
// lessons.json also holds each step's chart (which kernels, which N to mark) and its predict
// questions (a number the learner guesses before the session shows it, tied to a claim), with
// their text in every language.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"

namespace sml {

// A pointer from a lesson into a kernel's code: a named source region, or a PTX pattern.
struct LessonAnchor {
    std::string kernel;  // registry id
    std::string region;  // source region name; empty for a PTX anchor
    std::string ptx;     // PTX instruction pattern (see find_ptx_lines); empty for a region

    bool is_ptx() const { return !ptx.empty(); }
    // The form used in the Markdown, without brackets: "warp:warp-reduce", "warp:ptx:shfl.sync".
    std::string key() const;
};

// What the viewer sets up when the learner clicks "Run this experiment".
struct LessonExperiment {
    std::vector<std::string> kernels;  // registry ids, run side by side
    int64_t rows = 0;
    int64_t cols = 0;
    std::string dtype = "fp32";
    std::string metric;   // what to watch: "gbps", "pct_of_copy", "median_ms", "dram_ratio",
                          // or a CUPTI metric name such as "dram__bytes_read.sum"
    std::string variant;  // KernelInfo::variants entry, e.g. "bank-conflicted"; "" = default
};

// A number the text promises, checked against the recorded session by a test and shown in the
// viewer from whichever session is open. Quantities (see lesson_claims.h):
//   gbps, pct_of_copy, median_ms           of point (kernel, cols[, rows], dtype, variant)
//   copy_gbps                              the session's measured copy bandwidth (no kernel)
//   ratio_gbps                             gbps of `kernel` / gbps of `other` at `other_cols`
//                                          (other defaults to kernel, other_cols to cols)
//   dram_ratio                             measured DRAM bytes (read+write) / predicted
//   metric                                 the CUPTI metric `metric` of the point
//   l2_resident                            1 when the session flags the point L2-resident, else 0
//   rank_gbps                              1 = fastest of the kernels at this N (`among`, or all)
//   registers, blocks_per_sm               of the point's first launch (cudaFuncGetAttributes and
//                                          the occupancy API, as recorded in the session)
//   dram_bytes                             measured DRAM bytes, read + write
//   dram_bytes_ratio                       dram_bytes of `kernel` / of `other` at `other_cols`
//   bank_conflicts                         shared-memory bank conflicts, loads + stores (the
//                                          Metrics table's column)
//   conflict_share                         bank conflicts / shared-memory wavefronts (ld + st):
//                                          the share of shared-memory passes a conflict added
//   masked_fraction                        1 - N / next_pow2(N): the share of a next_pow2 block
//                                          that is masked padding (fused's BLOCK), at a point the
//                                          session has
struct LessonClaim {
    std::string id;  // kebab-case, unique within the step
    std::string quantity;
    std::string kernel;              // registry id ("" for copy_gbps)
    std::string other;               // ratio_gbps: the denominator kernel ("" = the same kernel)
    int64_t other_cols = 0;          // ratio_gbps: the denominator's N (0 = the same N)
    std::vector<std::string> among;  // rank_gbps: the kernels ranked (empty = all at this N)
    std::string metric;              // metric: the CUPTI metric name
    int64_t rows = 0;                // 0 = any rows (the sweep's M for this N)
    int64_t cols = 0;
    std::string dtype = "fp32";
    std::string variant;      // "" = the default variant
    std::string other_variant;  // ratio quantities: the denominator's variant ("" = `variant`)
    // What the GPU must offer for the claim to mean anything: "" (any GPU) or "clusters"
    // (thread-block clusters, Hopper and newer). On a GPU without it the viewer shows
    // "not on this GPU" instead of a verdict.
    std::string requires_feature;
    double min = 0, max = 0;  // the measured value must lie in [min, max]
};

// The chart a step opens (lesson_chart in the viewer): a chart kind (core/chart/chart_build.h)
// on the step's kernels plus `contrast` (by default the previous step's kernels) and copy, with
// `marks` (the N the text talks about) marked. Empty marks: the experiment's N.
struct LessonChart {
    std::string kind = "pct";
    std::vector<std::string> contrast;  // registry ids; empty = the previous step's kernels
    bool contrast_given = false;        // "contrast": [] in the file means none at all
    std::vector<int64_t> marks;
};

// A number the learner predicts before the step shows it (predict mode). The answer is the
// value of `claim` in the open session, so a live session on another GPU is its own answer key.
struct LessonQuestion {
    std::string id;        // kebab-case, unique within the step
    std::string claim;     // id of one of the step's claims
    std::string question;  // in the book's language: what to guess, with its unit
    std::string explain;   // in the book's language: why the value is what it is (Markdown,
                           // may use {{claim:...}} and {{device:...}} like the lesson text)
};

// The language-specific text of one step, split for the viewer.
struct LessonText {
    std::string path;                   // the Markdown file it came from
    std::string title;                  // the first "# " heading, without the '#'
    std::string body;                   // Markdown after the title, with the answer block removed
    std::string answer;                 // Markdown inside ":::answer" ... ":::"
    std::vector<std::string> sections;  // "## " headings in order, without the '#'
    std::vector<std::string> section_text;  // the Markdown under each heading (answer excluded)
    std::vector<std::string> anchor_refs;   // [[...]] keys in order of appearance (may repeat)
    std::vector<std::string> claim_refs;    // {{claim:...}} ids in order of appearance
    std::vector<std::string> value_refs;    // {{device:...}}, {{session:...}}, {{limit:...}}
};

struct LessonStep {
    int index = 0;                     // 0..N-1, the order the viewer steps through
    std::string id;                    // kebab-case, e.g. "naive"; the file is NN-<id>.md
    bool draft = false;                // content may reference kernels that have not landed yet
    std::vector<std::string> kernels;  // the kernels this step is about (registry ids)
    // The kernels this step teaches first (a subset of `kernels`): the one mapping from kernels
    // to lesson steps; every registry kernel is introduced by exactly one step.
    std::vector<std::string> introduces;
    std::vector<LessonAnchor> anchors;
    LessonExperiment experiment;
    std::vector<LessonClaim> claims;
    LessonChart chart;
    std::vector<LessonQuestion> questions;  // predict mode: at least one per step
    std::string question_id;  // stable id of the check question (e.g. to remember "revealed")
    LessonText text;          // in the book's language

    const LessonAnchor* find_anchor(const std::string& key) const;  // nullptr if absent
    const LessonClaim* find_claim(const std::string& id) const;     // nullptr if absent
};

struct LessonBook {
    std::string root;  // the lessons/ directory
    std::string lang;  // "en" | "zh"
    std::vector<LessonStep> steps;
};

// Languages with a lessons/<lang>/ folder that the app knows how to show.
const std::vector<std::string>& lesson_languages();  // {"en", "zh"}

// Where the lessons live in this checkout: SML_SOURCE_DIR "/lessons".
std::string default_lessons_root();

// The sections every step has, in this order, in every language (lessons/README.md).
enum LessonSection {
    kSectionIdea = 0,
    kSectionTraffic,
    kSectionCode,
    kSectionExperiment,
    kSectionWhatYouSee,
    kSectionCheck,
    kLessonSectionCount
};

// Loads lessons.json and every step's Markdown in `lang`. Errors name the file and the problem
// (not JSON, missing field, wrong type, missing Markdown file, no title, unbalanced answer
// block, a [[ ]] or {{ }} reference that is malformed) and say how to fix it.
Result<LessonBook> load_lessons(const std::string& root, const std::string& lang);

// The index of the step that introduces `kernel`, or -1: lessons.json is the one place that says
// which step teaches which kernel.
int lesson_step_of(const LessonBook& book, const std::string& kernel);

// Parses one step's Markdown (exposed for tests and for live reload in the viewer).
Result<LessonText> parse_lesson_text(const std::string& markdown, const std::string& origin);

// Parses "kernel:region" or "kernel:ptx:pattern" (the text between [[ and ]]).
Result<LessonAnchor> parse_anchor_key(const std::string& key);

}  // namespace sml
