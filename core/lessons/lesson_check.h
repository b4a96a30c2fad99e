// Consistency checks between the lessons and the rest of the project: the registry, the kernel
// sources, the PTX the build generated, the other language, and a recorded session.
//
// Each check returns a list of problems, one readable sentence each (empty = all good), so the
// CPU tests can assert on them and the viewer can list them in a developer panel. None of them
// needs a GPU.
#pragma once

#include <string>
#include <vector>

#include "core/lessons/lesson_model.h"
#include "core/session/session.h"
#include "kernels/kernel_api.h"

namespace sml {

// Every kernel the step names (its list, its experiment, its anchors, its claims) is in the
// registry.
std::vector<std::string> check_step_kernels(const LessonStep& step);

// Every region anchor resolves to a region of its kernel's source under `source_root`. PTX
// anchors resolve in <build_dir>/ptx/<stem>.ptx when that file exists; `ptx_checked` (optional)
// counts the PTX anchors that could be checked, so a caller can tell "resolved" from "no PTX".
std::vector<std::string> check_step_anchors(const LessonStep& step, const std::string& source_root,
                                            const std::string& build_dir, int* ptx_checked);

// The experiment and the claims use kernels, N, dtype and variant inside each kernel's range on
// `limits`; the experiment's metric is a claim quantity or a CUPTI metric name ("a__b.c").
std::vector<std::string> check_step_ranges(const LessonStep& step, const DeviceLimits& limits);

// The Markdown and lessons.json agree: every [[anchor]] and {{claim}} in the text is declared,
// every declared anchor and claim is used in the text, and there is a question and an answer.
std::vector<std::string> check_step_text(const LessonStep& step);

// Predict mode: the step asks at least one question, each for one of its claims, with a question
// and an explanation (in the book's language), and question ids are unique.
std::vector<std::string> check_step_predict(const LessonStep& step);

// "What you should see" types no measured number: every literal number there must be a
// coordinate of a claim or of the experiment (an N or an M, e.g. "at N = 8193"); everything
// measured is a {{claim:...}}. Other sections may quote facts of the code and the hardware.
std::vector<std::string> check_step_numbers(const LessonStep& step);

// Two languages tell the same lesson: same steps, same sections count, same anchors and claims
// referenced (as sets; the order may differ with the grammar).
std::vector<std::string> check_same_structure(const LessonBook& a, const LessonBook& b);

// Every claim of the step holds on `session`: its value exists and lies in [min, max].
std::vector<std::string> check_step_claims(const LessonStep& step, const Session& session);

}  // namespace sml
