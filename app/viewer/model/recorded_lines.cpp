// Recorded per-line counters for the code views. See recorded_lines.h.
#include "app/viewer/model/recorded_lines.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

#include "app/viewer/model/ui_text.h"
#include "core/code/line_map.h"
#include "core/lab/sass_roles.h"

namespace sml::viewer {
namespace {

bool has_counters(const PointRecord& p) {
    return p.source_lines && p.source_lines->available && !p.source_lines->lines.empty();
}

// The same function in NVRTC's and nvcc's builds: NVRTC mangles int64_t as `long long` where
// nvcc on Linux writes `long`, so the demangled names differ only there.
std::string same_function_key(const std::string& symbol) {
    std::string k = function_key(symbol);
    for (size_t at = k.find("long long"); at != std::string::npos; at = k.find("long long", at))
        k.replace(at, 9, "long");
    return k;
}

std::string shape(const PointRecord& p) {
    return std::to_string(p.rows) + " x " + std::to_string(p.cols) + " " + p.dtype;
}

// What the counters cover of the point: the share of instructions executed charged to other
// files (the shared device header), and the launches no record came back for.
std::string coverage(const PointRecord& p, const std::string& file, const std::string& lang,
                     bool* every_launch) {
    const SourceLinesRecord& r = *p.source_lines;
    double here = 0, all = 0;
    for (const LineCounters& l : r.lines) {
        auto it = l.values.find(lab::role::kInstExecuted);
        if (it == l.values.end()) continue;
        all += it->second;
        if (l.file == file) here += it->second;
    }
    std::string out;
    if (all > 0 && here < all) {
        const double other = 100.0 * (all - here) / all;
        char pct[32];
        std::snprintf(pct, sizeof pct, "%.0f", other);
        if (other >= 0.5)
            out = ui_format("{0}% of instructions executed are in other files", lang, {pct});
    }
    std::set<std::string> measured;
    for (const InstructionCounters& i : r.instructions)
        measured.insert(same_function_key(i.function));
    std::string missing;
    for (const LaunchRecord& l : p.launches)
        if (!l.function.empty() && !measured.count(same_function_key(l.function)))
            missing += (missing.empty() ? "" : ", ") + l.name;
    *every_launch = missing.empty();
    if (!missing.empty())
        out += std::string(out.empty() ? "" : ui_text("; ", lang)) +
               ui_format(
                   "no counters for {0} (CUPTI reported the first kernel of the module "
                   "only; docs/lab.md)",
                   lang, {missing});
    return out;
}

}  // namespace

RecordedLines find_recorded_lines(const Session& session, const std::string& kernel,
                                  const std::string& variant, const std::string& file, int64_t cols,
                                  const std::string& file_sha256, const std::string& lang) {
    RecordedLines out;
    const PointRecord* best = nullptr;
    double best_distance = std::numeric_limits<double>::infinity();
    for (const PointRecord& p : session.points) {
        if (p.kernel != kernel || p.variant != variant || !has_counters(p)) continue;
        if (!p.source_lines->source_name.empty() && p.source_lines->source_name != file) continue;
        bool in_file = false;
        for (const LineCounters& l : p.source_lines->lines) in_file = in_file || l.file == file;
        if (!in_file) continue;
        const double d = cols > 0 && p.cols > 0 ? cols_apart(p.cols, cols) : 1.0;
        if (d < best_distance) best_distance = d, best = &p;
    }
    if (!best) return out;
    const SourceLinesRecord& r = *best->source_lines;
    if (!r.source_sha256.empty() && !file_sha256.empty() && r.source_sha256 != file_sha256) {
        out.problem = ui_format(
            "{0} has changed since its per-line counters were measured ({1}, {2}): they are not "
            "shown on lines that may have moved. Re-record them with `softmaxlab-cli lab lines` "
            "on a GPU.",
            lang, {file, session.device.name, shape(*best)});
        return out;
    }
    out.point = best;
    out.note = ui_format("per-line counters: {0}, {1}", lang, {session.device.name, shape(*best)});
    if (!variant.empty()) out.note += ui_text(", ", lang) + variant;
    if (best->cols != cols && cols > 0)
        out.note +=
            ui_format(" (the nearest N to {0} that has them)", lang, {std::to_string(cols)});
    out.note += ui_text(", NVRTC build of this file", lang);
    const std::string cover = coverage(*best, file, lang, &out.every_launch);
    if (!cover.empty()) out.note += ui_text("; ", lang) + cover;
    return out;
}

std::vector<std::string> recorded_roles(const SourceLinesRecord& r, const std::string& file) {
    std::vector<std::string> out;
    for (const lab::SassRole& role : lab::sass_roles()) {
        bool any = false;
        for (const LineCounters& l : r.lines)
            any = any || (l.file == file && l.line > 0 && l.values.count(role.role));
        if (any) out.push_back(role.role);
    }
    return out;
}

namespace {

LineMetric labelled(const SourceLinesRecord& r, const std::string& role, LineMetric::Key key,
                    const std::string& lang) {
    LineMetric m;
    auto name = r.metric_names.find(role);
    m.id = name != r.metric_names.end() ? name->second : role;
    m.label = role;
    if (const lab::SassRole* def = lab::find_sass_role(role)) {
        m.label = ui_text(def->label, lang);
        m.unit = ui_text(def->unit, lang);
        m.description = ui_text(def->description, lang);
    }
    m.key = key;
    return m;
}

}  // namespace

LineMetric source_line_metric(const SourceLinesRecord& r, const std::string& file,
                              const std::string& role, const std::string& lang) {
    LineMetric m = labelled(r, role, LineMetric::Key::source_line, lang);
    for (const LineCounters& l : r.lines) {
        if (l.file != file || l.line <= 0) continue;
        auto it = l.values.find(role);
        if (it != l.values.end()) m.values[l.line] += it->second;
    }
    return m;
}

std::optional<LineMetric> instruction_metric(const SourceLinesRecord& r, const AsmListing& listing,
                                             const std::string& file, const std::string& role,
                                             std::string* why, const std::string& lang) {
    auto fail = [&](const std::string& reason) -> std::optional<LineMetric> {
        if (why) *why = ui_text(reason.c_str(), lang);
        return std::nullopt;
    };
    const lab::SassRole* def = lab::find_sass_role(role);
    if (def && def->derived) return fail("a derived metric is shown per source line only");
    if (listing.kind != AsmKind::sass) return fail("the counters are per SASS instruction");
    const std::string key = same_function_key(listing.entry.symbol);
    std::vector<const InstructionCounters*> mine;
    for (const InstructionCounters& i : r.instructions)
        if (same_function_key(i.function) == key) mine.push_back(&i);
    if (mine.empty()) return fail("no counters were recorded for this function");
    // The listing's instructions by address. nvdisasm leaves out the NOPs that pad a function
    // after its last branch; CUPTI reports them (never executed) and not the final self-branch.
    std::map<int64_t, int> row_of;  // address -> listing line
    for (size_t i = 0; i < listing.lines.size(); ++i)
        if (listing.lines[i].instruction && listing.lines[i].address >= 0)
            row_of[listing.lines[i].address] = static_cast<int>(i);
    if (row_of.empty()) return fail("the listing has no instruction addresses");
    const int64_t last = row_of.rbegin()->first;
    int unmatched = 0, moved = 0;
    std::set<int64_t> seen;
    for (const InstructionCounters* i : mine) {
        auto row = row_of.find(i->pc);
        if (row == row_of.end()) {
            auto ran = i->values.find(lab::role::kInstExecuted);
            if (i->pc <= last || (ran != i->values.end() && ran->second > 0)) ++unmatched;
            continue;
        }
        seen.insert(i->pc);
        // Both sides name the innermost line of an instruction's chain; compare where the
        // listing's innermost frame is in the file shown (the measured side names no file).
        const AsmLine& a = listing.lines[row->second];
        if (a.frames_end > a.frames_begin && i->line > 0) {
            const AsmFrame& f = listing.frames[a.frames_begin];
            if (f.file >= 0 && f.file < static_cast<int>(listing.files.size()) &&
                same_source_file(listing.files[f.file], file) && f.line != i->line)
                ++moved;
        }
    }
    const size_t missing = row_of.size() - seen.size();
    if (unmatched > 0 || missing > 1 || (missing == 1 && seen.count(last)))
        return fail(
            ui_format("the measured build's instructions are not this listing's ({0} "
                      "measured, {1} listed, {2} at other addresses)",
                      lang,
                      {std::to_string(mine.size()), std::to_string(row_of.size()),
                       std::to_string(unmatched + missing)}));
    if (moved > 0)
        return fail(ui_format("{0} instructions come from other lines than in the measured build",
                              lang, {std::to_string(moved)}));
    LineMetric m = labelled(r, role, LineMetric::Key::sass_address, lang);
    m.function = listing.entry.key;
    for (const InstructionCounters* i : mine) {
        auto it = i->values.find(role);
        if (it != i->values.end() && row_of.count(i->pc)) m.values[i->pc] = it->second;
    }
    if (why) why->clear();
    return m;
}

std::vector<double> per_display_line(const LineMetric& m, const SourceDoc& doc) {
    std::vector<double> out(doc.lines().size(), std::numeric_limits<double>::quiet_NaN());
    if (m.key != LineMetric::Key::source_line) return out;
    for (size_t i = 0; i < doc.lines().size(); ++i) {
        auto it = m.values.find(doc.lines()[i].file_line);
        if (it != m.values.end()) out[i] = it->second;
    }
    return out;
}

std::string describe_counters(const std::map<std::string, double>& values,
                              const std::string& lang) {
    std::string out;
    for (const lab::SassRole& r : lab::sass_roles()) {
        auto it = values.find(r.role);
        if (it == values.end()) continue;
        char b[160];
        const char* label = ui_text(r.label, lang);
        const char* unit = ui_text(r.unit, lang);
        if (std::string(r.unit) == "%")
            std::snprintf(b, sizeof b, "%s: %.1f%%", label, it->second);
        else if (it->second >= 1e6)
            std::snprintf(b, sizeof b, "%s: %.4g %s", label, it->second, unit);
        else
            std::snprintf(b, sizeof b, "%s: %.0f %s", label, it->second, unit);
        out += std::string(out.empty() ? "" : "\n") + b;
    }
    return out;
}

std::vector<std::string> per_display_line_details(const SourceLinesRecord& r,
                                                  const std::string& file, const SourceDoc& doc,
                                                  const std::string& lang) {
    std::map<int, const LineCounters*> by_line;
    for (const LineCounters& l : r.lines)
        if (l.file == file && l.line > 0) by_line[l.line] = &l;
    std::vector<std::string> out(doc.lines().size());
    for (size_t i = 0; i < doc.lines().size(); ++i) {
        auto it = by_line.find(doc.lines()[i].file_line);
        if (it != by_line.end()) out[i] = describe_counters(it->second->values, lang);
    }
    return out;
}

double recorded_global_bytes(const SourceLinesRecord& r) {
    double sectors = 0;
    for (const LineCounters& l : r.lines) {
        auto it = l.values.find(lab::role::kGlobalSectors);
        if (it != l.values.end()) sectors += it->second;
    }
    return sectors * 32.0;
}

}  // namespace sml::viewer
