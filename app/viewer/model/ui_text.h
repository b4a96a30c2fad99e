// The viewer's own words in every lesson language: menus, panel titles, buttons, tooltips, the
// predict card and the chart legends. The English text is the key, so the code reads as English
// and a missing translation falls back to it (tests/test_viewmodel_teach.cpp lists none missing).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/message.h"
#include "core/chart/chart_layout.h"
#include "core/chart/chart_model.h"

namespace sml::viewer {

// `en` in `lang` ("en" | "zh"): the Chinese text when there is one, else `en` itself. The
// returned pointer lives as long as the program.
const char* ui_text(const char* en, const std::string& lang);
// `en` with {0}, {1}, ... replaced by `parts` (common/message.h's fill_slots), in `lang`: the
// table's Chinese pattern when it has one (so a sentence may order its parts as Chinese does),
// else `en`.
std::string ui_format(const char* en, const std::string& lang,
                      const std::vector<std::string>& parts);
// A sentence of the core's (common/message.h: why counters are missing, why two sessions do not
// compare, why a kernel cannot run a problem, why a session file cannot be opened) in `lang`:
// the English from the core, the Chinese
// from this file's table keyed by the sentence's id, phrases through ui_text.
std::string message_text(const Message& m, const std::string& lang);
// An error in `lang`: its sentences through message_text where the code that found it said
// them (`said`), else its English as it is.
Error error_text(const Error& en, const std::optional<MessageError>& said, const std::string& lang);
// The Chinese template of a sentence id; nullptr when the table has none (for the tests).
const char* message_template_zh(Msg id);
// Every English key the table translates (for the tests).
std::vector<std::string> ui_text_keys();
// All Chinese text of the table, for building the font atlas's glyph set.
std::string ui_text_all_chinese();

// A lab run's status word ("ok", "wrong", "timeout", ...: core/lab/lab_job.h) in `lang`.
std::string lab_status_text(const std::string& status, const std::string& lang);
// A sentence the lab core wrote for the learner (a run's message and hint, an exercise check and
// its summary, core/lab/) in `lang`: matched against the core's sentence patterns, the parts
// they carry (sizes, numbers, names, and nested sentences) kept or translated in turn. A
// sentence no pattern knows stays as it is.
std::string lab_text(const std::string& en, const std::string& lang);

// A chart's words in `lang`: titles, axis labels, legend labels and notes; kernel series keep
// their id and get a Chinese short title. The numbers inside labels ("copy, same run: 3034
// GB/s") are kept. English charts are left as they are.
void translate_chart(chart::Chart* chart, const std::string& lang);
// Why a point's DRAM bytes may fall below its formula, as the session recorded it in English
// (core/plan/traffic.cpp), in `lang`; a sentence of another form stays as it is.
std::string l2_reason_text(const std::string& en, const std::string& lang);
// One chart string (legend entries the layout makes itself, such as "L2-resident: ..."; a
// point's L2 reason).
std::string chart_text(const std::string& en, const std::string& lang);
// The words the layout added itself (its legend's L2-resident and range-end entries), after
// layout_chart: the drawing ops' text and the legend entries' labels.
void translate_layout(chart::ChartLayout* layout, const std::string& lang);

}  // namespace sml::viewer
