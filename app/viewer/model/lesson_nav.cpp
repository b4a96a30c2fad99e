// Step position and per-step learner state. See lesson_nav.h.
#include "app/viewer/model/lesson_nav.h"

#include <algorithm>

namespace sml::viewer {

namespace {
std::string question_key(const LessonStep& s) {
    return s.question_id.empty() ? s.id : s.question_id;
}
}  // namespace

bool LessonNav::go(int step) {
    if (empty()) return false;
    const int clamped = std::clamp(step, 0, count() - 1);
    if (clamped == index_) return false;
    index_ = clamped;
    return true;
}

bool LessonNav::answer_revealed() const {
    const LessonStep* s = current();
    return s && revealed_.count(question_key(*s)) > 0;
}

void LessonNav::reveal_answer(bool shown) {
    const LessonStep* s = current();
    if (!s) return;
    if (shown)
        revealed_.insert(question_key(*s));
    else
        revealed_.erase(question_key(*s));
}

void LessonNav::replace_book(LessonBook book) {
    const int keep = index_;
    book_ = std::move(book);
    index_ = 0;
    go(keep);
}

std::string LessonNav::position_text(const std::string& lang) const {
    if (empty()) return "";
    const std::string at = std::to_string(index_), last = std::to_string(count() - 1);
    return lang == "zh" ? "\xE7\xAC\xAC " + at + " / " + last + " \xE6\xAD\xA5"  // 第 3 / 8 步
                        : "Step " + at + " of " + last;
}

}  // namespace sml::viewer
