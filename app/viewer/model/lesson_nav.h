// Which lesson step is on screen, and what moving between steps may do.
//
// The book itself (text, anchors, experiments) is the core's lesson model
// (core/lessons/lesson_model.h); this class only keeps the position and the learner's
// per-step state, so it can be tested without a window.
#pragma once

#include <set>
#include <string>

#include "core/lessons/lesson_model.h"

namespace sml::viewer {

class LessonNav {
  public:
    LessonNav() = default;
    explicit LessonNav(LessonBook book) : book_(std::move(book)) {}

    const LessonBook& book() const { return book_; }
    int count() const { return static_cast<int>(book_.steps.size()); }
    int index() const { return index_; }
    bool empty() const { return book_.steps.empty(); }
    const LessonStep* current() const { return empty() ? nullptr : &book_.steps[index_]; }

    bool can_prev() const { return index_ > 0; }
    bool can_next() const { return index_ + 1 < count(); }
    // Each returns true when the step changed. Moving past either end is a no-op, not a wrap:
    // a presenter pressing -> once too often must not jump back to step 0.
    bool prev() { return go(index_ - 1); }
    bool next() { return go(index_ + 1); }
    bool go(int step);  // clamped to [0, count()-1]

    // Where the learner is, as the header says it: "Step 3 of 8" / "第 3 / 8 步". Steps are
    // numbered from 0 (the memory-bound introduction), as the lesson titles are ("Step 3: one
    // warp per row"), so the last step's number is count() - 1. "" for an empty book.
    std::string position_text(const std::string& lang) const;

    // The check question's answer stays hidden until the learner asks for it, per step.
    bool answer_revealed() const;
    void reveal_answer(bool shown);

    // Swaps the book (e.g. the language changed) and keeps the same step where it exists.
    void replace_book(LessonBook book);

  private:
    LessonBook book_;
    int index_ = 0;
    std::set<std::string> revealed_;  // question ids (or step ids) whose answer is shown
};

}  // namespace sml::viewer
