// Every action the viewer offers, with its key: one table that the shortcut handler follows and
// the Help window lists, in English and Chinese. A test checks that every action has a key and
// no key does two things.
#pragma once

#include <string>
#include <vector>

namespace sml::viewer {

enum class Action {
    prev_step,
    next_step,
    focus_guess,     // put the cursor in the predict card's field
    reveal,          // show the step's numbers without (more) guessing
    toggle_predict,  // instructors: predict mode on or off
    show_answer,     // the check question's answer
    set_up,          // the experiment into the Run form
    chart_next_kind,
    chart_prev_kind,
    chart_all,  // all kernels in the chart, or back to the step's
    export_png,
    code_next_tab,     // CUDA -> PTX -> SASS
    line_metric_next,  // the heat gutter's counter: the next one, then off
    kernel_next,       // the code panel's kernel
    kernel_prev,
    cols_next,  // the table's and charts' N
    cols_prev,
    zoom_lessons,
    zoom_code,
    zoom_chart,
    zoom_metrics,
    zoom_off,
    text_larger,
    text_smaller,
    full_screen,
    open_session,
    save_session,
    help,
    quit,
    count_
};

struct KeyBinding {
    Action action;
    const char* keys;  // as the Help window writes them: "Right", "Ctrl+O", "Shift+C"
    const char* en;    // what it does
    const char* zh;
};

const std::vector<KeyBinding>& key_bindings();
const KeyBinding& binding_of(Action a);

}  // namespace sml::viewer
