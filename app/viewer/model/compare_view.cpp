// The compare view's logic. See compare_view.h.
#include "app/viewer/model/compare_view.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "app/viewer/model/format.h"
#include "app/viewer/model/ui_text.h"
#include "core/chart/chart_build.h"
#include "core/chart/session_compare.h"

namespace sml::viewer {

Result<ComparedSession> load_compared_session(const std::string& path, const Session& open,
                                              const std::string& dtype, const std::string& lang) {
    std::optional<MessageError> said;  // why the file cannot be read, in `lang` too
    Result<Session> s = load_session(path, &said);
    if (!s) return error_text(s.error(), said, lang);
    if (std::optional<MessageError> e = chart::compare_error(open, *s, dtype))
        return Error{message_text(e->what, lang), message_text(e->hint, lang)};
    return ComparedSession{std::move(*s), path};
}

std::vector<const chart::ChartKind*> viewer_chart_kinds() {
    std::vector<const chart::ChartKind*> out;
    for (const chart::ChartKind& k : chart::chart_kinds())
        if (k.source == chart::ChartSource::session) out.push_back(&k);
    return out;
}

chart::ChartInput chart_input(const chart::ChartKind& kind, const Session& open,
                              const ComparedSession* compared, const std::string& dtype) {
    chart::ChartInput in;
    in.session = &open;
    if (compared && kind.compares && chart::check_comparable(open, compared->session, dtype))
        in.compare = &compared->session;
    return in;
}

std::string compare_note(const Session& open, const ComparedSession* compared,
                         const std::string& dtype, int64_t cols, const std::string& lang) {
    if (!compared) return "";
    const chart::SessionLabels names = chart::compare_labels(open, compared->session);
    if (std::optional<MessageError> e = chart::compare_error(open, compared->session, dtype))
        return ui_format("Not compared here: {0}", lang, {message_text(e->what, lang)});
    std::string note = ui_format(
        "Comparing {0} (solid) with {1} (dashed, hollow markers; its copy {2}): {3}", lang,
        {names.first, names.second, format_gbps(compared->session.device.copy_gbps),
         std::filesystem::path(compared->path).filename().string()});
    const std::vector<int64_t> theirs = chart::available_cols(compared->session, dtype);
    if (std::find(theirs.begin(), theirs.end(), cols) == theirs.end())
        note +=
            ui_format("; {0} has no {1} point at N = {2} (the two share {3} N)", lang,
                      {names.second, dtype, format_cols(cols),
                       std::to_string(chart::shared_cols(open, compared->session, dtype).size())});
    return note;
}

std::string chart_compare_note(const chart::ChartKind& kind, const ComparedSession* compared,
                               const std::string& lang) {
    if (!compared || kind.compares) return "";
    std::vector<std::string> names;
    for (const chart::ChartKind* k : viewer_chart_kinds())
        if (k->compares) names.push_back(ui_text(k->short_label, lang));
    std::string list;
    for (size_t i = 0; i < names.size(); ++i)
        list += (i == 0 ? "" : ui_text(i + 1 == names.size() ? " and " : ", ", lang)) + names[i];
    return ui_format(
        "This chart shows the open session only; the {0} charts draw the compared one too.", lang,
        {list});
}

}  // namespace sml::viewer
