// Predict mode: each lesson step asks for a number before it shows it.
//
// A step's questions (lessons.json "predict") each name one of its claims; the claim's value in
// the open session is the answer, so a live run on another GPU is its own answer key. Until every
// question of the step has a guess or the learner reveals it (key R), the step's measured numbers
// stay hidden: the claims in its text, the measured cells of the Metrics table and the chart
// lines of the kernels asked about. Then each question shows the measured value, how close the
// guess came, and why. An instructor switches the mode off (setting, key P): everything shows.
//
// No ImGui: App keeps one PredictState and asks it what to hide and what the card says.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/viewer/model/metric_rows.h"
#include "common/result.h"
#include "core/lessons/lesson_model.h"
#include "core/session/session.h"

namespace sml::viewer {

// A guess as typed: "4", "4x", "4.5 x", "80%", "1e8", "100M", "72.2k", "0,5" is not accepted.
// Percent-style claims (pct_of_copy) take the number as percent; share claims (conflict_share,
// masked_fraction, shown as %) take "75" or "75%" as 0.75 and "0.75" as itself.
Result<double> parse_guess(const std::string& text, const LessonClaim& claim);

struct QuestionState {
    std::optional<double> guess;  // set once a guess was entered
    bool revealed = false;        // shown without a guess (or after one)
};

class PredictState {
  public:
    bool enabled = true;

    // Every question of the step has a guess or was revealed (or the step asks none).
    bool step_done(const LessonStep& step) const;
    // The step's measured numbers are hidden now.
    bool hides_numbers(const LessonStep& step) const { return enabled && !step_done(step); }
    // The question the card asks next: the first without a guess or reveal; -1 when done.
    int next_question(const LessonStep& step) const;

    // Parses `text` and records it as the guess for question `q`; the error says what to type.
    Status guess(const LessonStep& step, int q, const std::string& text);
    void reveal(const LessonStep& step);  // every question of the step, guessed or not
    void forget(const LessonStep& step);  // back to unanswered (an instructor replays a step)
    const QuestionState& question(const LessonStep& step, int q) const;

  private:
    std::map<std::string, std::map<std::string, QuestionState>> steps_;  // step id -> q id
};

// The Metrics table while the step's numbers are hidden: every number (time, GB/s, % of copy,
// DRAM predicted and measured, L2 hit, occupancy, bank conflicts) reads `hidden`. The formula's
// prediction goes too: naive's 8.59 GB against fused's 2.15 GB is step 1's answer. The rows stay,
// so the learner sees which kernels will be measured.
void hide_measured_cells(std::vector<MetricRow>* rows, const std::string& hidden = "?");

// What the card shows for an answered question.
struct PredictAnswer {
    std::string question;  // the question, in the book's language
    std::string measured;  // "79%" from the session, or the promised range without one
    bool from_session = false;
    // What `measured` is, in `lang`: "measured", or the lesson's promise with why (no session
    // open, or the open session lacks the point or metric the claim needs).
    std::string measured_label;
    std::string guess;  // "90%" as the learner's number reads back, "" when revealed
    // "close (11 points off)"; without a measured value, whether the guess lies within the
    // lesson's promised range. "" when revealed without a guess.
    std::string score;
    // GuessScore::Grade as an int, -1 without a guess. Without a measured value: spot on inside
    // the promised range, else graded against the nearer end of it.
    int grade = -1;
    std::string explain;  // the explanation, its {{...}} filled from the session
};
PredictAnswer predict_answer(const LessonStep& step, int q, const QuestionState& state,
                             const Session* session, const std::string& lang);

}  // namespace sml::viewer
