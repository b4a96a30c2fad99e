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

// How fill_lesson_text fills a step's Markdown.
struct LessonFill {
    const Session* session = nullptr;  // null: promised ranges, H100 reference values
    std::string lang = "en";           // the words around a value ("not on this GPU")
    // Predict mode before the learner's guess: every claim shows as a blank to be predicted,
    // not as its value. GPU facts ({{device:...}}) stay: they are the question's givens.
    bool hide_claims = false;
    // Given: each [[anchor]] becomes anchor_text(anchor) (the viewer makes links of them).
    std::function<std::string(const LessonAnchor&)> anchor_text;
};

// What a hidden claim shows in predict mode.
extern const char kHiddenClaimText[];

// One claim as the text shows it for `fill`: its value in the session; the promised range when
// there is no session or no point; "not on this GPU" when the session's GPU lacks what it needs;
// and, when the value falls outside the promise, the promise after it in brackets.
std::string claim_text(const LessonClaim& claim, const LessonFill& fill);

// Replaces each {{claim:id}} in `markdown` by claim_text, each {{device:...}}, {{session:...}}
// and {{limit:...}} by the session's value (lesson_values.h), and each [[anchor]] by
// anchor_text(anchor) when given (by default anchors stay as written).
std::string fill_lesson_text(const std::string& markdown, const LessonStep& step,
                             const LessonFill& fill);
// The same with an English LessonFill of `session` and `anchor_text`.
std::string fill_lesson_text(
    const std::string& markdown, const LessonStep& step, const Session* session,
    const std::function<std::string(const LessonAnchor&)>& anchor_text = nullptr);

// How close a guess came to the measured value, for predict mode. Percent quantities compare
// in points (a guess of 80% against 79% is 1 point off); every other quantity by ratio, so a
// guess of 1e8 bank conflicts against 1.01e8 is as good as 4x against 4.04x.
struct GuessScore {
    enum class Grade { spot_on, close, far };
    Grade grade = Grade::far;
    double off = 0;  // points off (percent) or the ratio >= 1 between guess and value
    bool in_points = false;
};
GuessScore score_guess(const LessonClaim& claim, double guess, double value);
// "spot on (2 points off)", "close (1.3x off)", "far (4x off)": in `lang` ("en" | "zh").
std::string guess_score_text(const GuessScore& score, const std::string& lang);

}  // namespace sml
