// Predict mode. See predict.h.
#include "app/viewer/model/predict.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "app/viewer/model/ui_text.h"
#include "core/lessons/lesson_claims.h"

namespace sml::viewer {

namespace {

bool shown_as_share(const LessonClaim& c) {
    return c.quantity == "conflict_share" || c.quantity == "masked_fraction";
}

std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

Result<double> parse_guess(const std::string& typed, const LessonClaim& claim) {
    const Error bad{"'" + typed + "' is not a number", "type a number such as 4, 80%, 1.5x or 2e6"};
    std::string t = trim(typed);
    if (t.empty() || t.size() > 64) return bad;
    // One unit at the end: %, x (or the multiplication sign), or an SI multiplier.
    double scale = 1;
    bool percent = false;
    const std::string times = "\xC3\x97";  // ×
    if (t.size() >= times.size() && t.compare(t.size() - times.size(), times.size(), times) == 0)
        t.resize(t.size() - times.size());
    else if (t.back() == 'x' || t.back() == 'X')
        t.pop_back();
    else if (t.back() == '%') {
        t.pop_back();
        percent = true;
    } else if (t.back() == 'k' || t.back() == 'K') {
        t.pop_back();
        scale = 1e3;
    } else if (t.back() == 'M') {
        t.pop_back();
        scale = 1e6;
    } else if (t.back() == 'G') {
        t.pop_back();
        scale = 1e9;
    }
    t = trim(t);
    if (t.empty()) return bad;
    for (char c : t)
        if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' ||
              c == '+' || c == '-'))
            return bad;
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size() || !std::isfinite(v)) return bad;
    double value = v * scale;
    if (shown_as_share(claim) && (percent || value > 1)) value /= 100;
    return value;
}

bool PredictState::step_done(const LessonStep& step) const {
    return next_question(step) < 0;
}

int PredictState::next_question(const LessonStep& step) const {
    for (size_t i = 0; i < step.questions.size(); ++i) {
        const QuestionState& q = question(step, static_cast<int>(i));
        if (!q.guess && !q.revealed) return static_cast<int>(i);
    }
    return -1;
}

Status PredictState::guess(const LessonStep& step, int q, const std::string& text) {
    if (q < 0 || q >= static_cast<int>(step.questions.size()))
        return Error{"no question " + std::to_string(q) + " in step " + step.id, ""};
    const LessonClaim* claim = step.find_claim(step.questions[q].claim);
    if (!claim) return Error{"question " + step.questions[q].id + " has no claim", ""};
    Result<double> v = parse_guess(text, *claim);
    if (!v) return v.error();
    steps_[step.id][step.questions[q].id].guess = *v;
    return ok_status();
}

void PredictState::reveal(const LessonStep& step) {
    for (const LessonQuestion& q : step.questions) steps_[step.id][q.id].revealed = true;
}

void PredictState::forget(const LessonStep& step) {
    steps_.erase(step.id);
}

const QuestionState& PredictState::question(const LessonStep& step, int q) const {
    static const QuestionState kNone;
    if (q < 0 || q >= static_cast<int>(step.questions.size())) return kNone;
    auto s = steps_.find(step.id);
    if (s == steps_.end()) return kNone;
    auto it = s->second.find(step.questions[q].id);
    return it == s->second.end() ? kNone : it->second;
}

void hide_measured_cells(std::vector<MetricRow>* rows, const std::string& hidden) {
    for (MetricRow& r : *rows) {
        for (int c = 0; c < static_cast<int>(MetricColumn::count_); ++c) {
            const MetricColumn mc = static_cast<MetricColumn>(c);
            if (mc == MetricColumn::kernel) continue;
            r.cells[c] = hidden;
        }
        r.pct_of_copy = 0;
        r.l2_resident = false;
    }
}

PredictAnswer predict_answer(const LessonStep& step, int q, const QuestionState& state,
                             const Session* session, const std::string& lang) {
    PredictAnswer a;
    if (q < 0 || q >= static_cast<int>(step.questions.size())) return a;
    const LessonQuestion& question = step.questions[q];
    a.question = question.question;
    LessonFill fill;
    fill.session = session;
    fill.lang = lang;
    a.explain = fill_lesson_text(question.explain, step, fill);
    const LessonClaim* claim = step.find_claim(question.claim);
    if (!claim) return a;
    Result<double> measured = session ? evaluate_claim(*claim, *session) : Error{};
    a.from_session = measured.ok();
    a.measured = claim_text(*claim, fill);
    a.measured_label = a.from_session ? ui_text("measured", lang)
                       : session
                           ? ui_text("promised by the lesson (not measured in this session)", lang)
                           : ui_text("promised by the lesson (no session open)", lang);
    if (state.guess) {
        // The guess reads back in the claim's own format ("4.00x", "79%", "101 M").
        a.guess = format_claim_value(*claim, *state.guess);
        if (measured) {
            const GuessScore g = score_guess(*claim, *state.guess, *measured);
            a.score = guess_score_text(g, lang);
            a.grade = static_cast<int>(g.grade);
        } else {
            // Nothing measured to score against: the lesson's range is the answer shown, so a
            // guess inside it is right, and one outside is as far off as the nearer end.
            const double nearest = std::min(std::max(*state.guess, claim->min), claim->max);
            const bool inside = nearest == *state.guess;
            a.grade = inside ? static_cast<int>(GuessScore::Grade::spot_on)
                             : static_cast<int>(score_guess(*claim, *state.guess, nearest).grade);
            a.score =
                ui_text(inside ? "within the lesson's range" : "outside the lesson's range", lang);
        }
    }
    return a;
}

}  // namespace sml::viewer
