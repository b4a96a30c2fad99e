// Naming and checking two sessions for the compare view (see session_compare.h).
#include "core/chart/session_compare.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <set>
#include <sstream>

namespace sml::chart {

namespace {

bool is_memory_word(const std::string& w) {
    // "80GB", "24GB", "HBM3", "HBM2e", "GDDR6X": what the card carries, not which GPU it is.
    if (w.size() > 2 && w.compare(w.size() - 2, 2, "GB") == 0 &&
        std::all_of(w.begin(), w.end() - 2, [](unsigned char c) { return std::isdigit(c); }))
        return true;
    return w.rfind("HBM", 0) == 0 || w.rfind("GDDR", 0) == 0;
}

std::set<std::string> dtypes_of(const Session& s) {
    std::set<std::string> d;
    for (const PointRecord& p : s.points) d.insert(p.dtype);
    return d;
}

std::set<int64_t> cols_of(const Session& s, const std::string& dtype) {
    std::set<int64_t> c;
    for (const PointRecord& p : s.points)
        if (p.dtype == dtype) c.insert(p.cols);
    return c;
}

std::string joined(const std::set<std::string>& words) {
    std::string out;
    for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
    return out;
}

// "N = 32..1048576 (11 values)", or "N = 4096" for one.
Message cols_words(const std::set<int64_t>& cols) {
    using std::to_string;
    if (cols.size() == 1) return Message(Msg::cols_one, {to_string(*cols.begin())});
    return Message(Msg::cols_range,
                   {to_string(*cols.begin()), to_string(*cols.rbegin()), to_string(cols.size())});
}

// The labels compare_labels falls back to when nothing else names a session: words, not names,
// so a sentence carries them as phrases that a language's table translates.
constexpr const char* kUnknownDevice = "unknown device";
constexpr const char* kFirst = "first";
constexpr const char* kSecond = "second";

Message label_part(const std::string& label) {
    for (const char* word : {kUnknownDevice, kFirst, kSecond})
        if (label == word) return Message::phrase_of(label);
    return label;
}

}  // namespace

std::string short_device_name(const std::string& name) {
    static const std::set<std::string> kBrandWords = {"NVIDIA", "GeForce", "Tesla", "Quadro"};
    std::istringstream in(name);
    std::string out;
    for (std::string w; in >> w;) {
        if (kBrandWords.count(w) || is_memory_word(w)) continue;
        // "A100-SXM4-80GB": the memory size rides on the model name.
        if (const size_t dash = w.rfind('-');
            dash != std::string::npos && dash > 0 && is_memory_word(w.substr(dash + 1)))
            w.resize(dash);
        out += (out.empty() ? "" : " ") + w;
    }
    if (!out.empty()) return out;
    return name.empty() ? kUnknownDevice : name;
}

SessionLabels compare_labels(const Session& first, const Session& second) {
    const std::string a = short_device_name(first.device.name);
    const std::string b = short_device_name(second.device.name);
    if (a != b) return {a, b};
    if (first.device.name != second.device.name) return {first.device.name, second.device.name};
    // The same device: the sessions differ in when they were recorded.
    for (size_t len : {size_t{10}, size_t{16}}) {
        std::string da = first.created_utc.substr(0, len);
        std::string db = second.created_utc.substr(0, len);
        std::replace(da.begin(), da.end(), 'T', ' ');
        std::replace(db.begin(), db.end(), 'T', ' ');
        if (!da.empty() && !db.empty() && da != db) return {da, db};
    }
    return {kFirst, kSecond};
}

std::vector<int64_t> shared_cols(const Session& first, const Session& second,
                                 const std::string& dtype) {
    const std::set<int64_t> a = cols_of(first, dtype), b = cols_of(second, dtype);
    std::vector<int64_t> both;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
    return both;
}

std::optional<MessageError> compare_error(const Session& first, const Session& second,
                                          const std::string& dtype) {
    const SessionLabels names = compare_labels(first, second);
    if (second.points.empty())
        return MessageError{{Msg::compare_no_points, {label_part(names.second)}},
                            Msg::compare_no_points_hint};
    const std::set<int64_t> a = cols_of(first, dtype), b = cols_of(second, dtype);
    if (a.empty())
        return MessageError{{Msg::compare_open_lacks_dtype,
                             {label_part(names.first), dtype, joined(dtypes_of(first))}},
                            Msg::compare_open_lacks_dtype_hint};
    if (b.empty())
        return MessageError{{Msg::compare_other_lacks_dtype,
                             {label_part(names.second), dtype, joined(dtypes_of(second))}},
                            {Msg::compare_other_lacks_dtype_hint, {dtype}}};
    if (shared_cols(first, second, dtype).empty())
        return MessageError{{Msg::compare_no_shared_cols,
                             {dtype, label_part(names.first), cols_words(a),
                              label_part(names.second), cols_words(b)}},
                            Msg::compare_no_shared_cols_hint};
    return std::nullopt;
}

Status check_comparable(const Session& first, const Session& second, const std::string& dtype) {
    if (std::optional<MessageError> e = compare_error(first, second, dtype)) return e->en();
    return ok_status();
}

}  // namespace sml::chart
