// The viewer's own words in every lesson language: menus, panel titles, buttons, tooltips, the
// predict card and the chart legends. The English text is the key, so the code reads as English
// and a missing translation falls back to it (tests/test_viewmodel_teach.cpp lists none missing).
#pragma once

#include <string>
#include <vector>

#include "core/chart/chart_layout.h"
#include "core/chart/chart_model.h"

namespace sml::viewer {

// `en` in `lang` ("en" | "zh"): the Chinese text when there is one, else `en` itself. The
// returned pointer lives as long as the program.
const char* ui_text(const char* en, const std::string& lang);
// Every English key the table translates (for the tests).
std::vector<std::string> ui_text_keys();
// All Chinese text of the table, for building the font atlas's glyph set.
std::string ui_text_all_chinese();

// A chart's words in `lang`: titles, axis labels, legend labels and notes; kernel series keep
// their id and get a Chinese short title. The numbers inside labels ("copy, same run: 3034
// GB/s") are kept. English charts are left as they are.
void translate_chart(chart::Chart* chart, const std::string& lang);
// One chart string (legend entries the layout makes itself, such as "L2-resident: ...").
std::string chart_text(const std::string& en, const std::string& lang);
// The words the layout added itself (its legend's L2-resident and range-end entries), after
// layout_chart: the drawing ops' text and the legend entries' labels.
void translate_layout(chart::ChartLayout* layout, const std::string& lang);

}  // namespace sml::viewer
