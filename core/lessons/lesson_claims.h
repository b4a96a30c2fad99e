// The numbers a lesson promises, evaluated against a session.
//
// A claim (lesson_model.h) names a quantity at one point of a sweep and the range the text
// relies on. The viewer shows evaluate_claim's value from whichever session is open; a CPU test
// evaluates every claim on the recorded H100 session, so re-recording the session cannot leave
// the text saying something the hardware no longer shows.
#pragma once

#include <functional>
#include <string>

#include "common/result.h"
#include "core/lessons/lesson_model.h"
#include "core/session/session.h"

namespace sml {

// The quantities a claim may name (see LessonClaim). Also what an experiment's metric may be
// when it is not a CUPTI metric name.
bool is_claim_quantity(const std::string& quantity);

// The claim's value in `session`. Errors name the claim and what is missing (the point, the
// other kernel's point, the metrics, the metric) and say how to re-record.
Result<double> evaluate_claim(const LessonClaim& claim, const Session& session);

// The value as the text shows it: "2861 GB/s", "95%", "0.712 ms", "4.1x", "0.26x", "yes"/"no",
// "#1". Units are the same in every language.
std::string format_claim_value(const LessonClaim& claim, double value);

// What the text shows when no session is open: the promised range, e.g. "3.5-4.5x".
std::string format_claim_range(const LessonClaim& claim);

// Replaces each {{claim:id}} in `markdown` by the claim's value in `session` (or its range when
// `session` is null or lacks the point), and each [[anchor]] by anchor_text(anchor) when given
// (the viewer turns anchors into links; by default they stay as written).
std::string fill_lesson_text(
    const std::string& markdown, const LessonStep& step, const Session* session,
    const std::function<std::string(const LessonAnchor&)>& anchor_text = nullptr);

}  // namespace sml
