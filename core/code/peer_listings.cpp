// Peer listings. See peer_listings.h.
#include "core/code/peer_listings.h"

#include <nlohmann/json.hpp>

#include "core/common/safe_file.h"

namespace sml {

using nlohmann::json;

namespace {

std::map<std::string, std::string> by_language(const json& j) {
    std::map<std::string, std::string> out;
    if (j.is_string()) out["en"] = j.get<std::string>();
    if (j.is_object())
        for (auto& [k, v] : j.items())
            if (v.is_string()) out[k] = v.get<std::string>();
    return out;
}

const std::string& pick(const std::map<std::string, std::string>& m, const std::string& lang) {
    static const std::string empty;
    auto it = m.find(lang);
    if (it == m.end()) it = m.find("en");
    return it == m.end() ? empty : it->second;
}

}  // namespace

const std::string& PeerAnchor::note_in(const std::string& lang) const {
    return pick(note, lang);
}

const std::string& PeerListing::title_in(const std::string& lang) const {
    return pick(title, lang);
}

Result<std::vector<PeerListing>> load_peer_listings(const std::string& dir) {
    const std::string path = dir + "/listings.json";
    Result<std::string> text = read_file_capped(path, kMaxSettingsFileBytes, "listings file");
    if (!text) return text.error();
    json doc = json::parse(*text, nullptr, /*allow_exceptions=*/false);
    const std::string hint = "see the format at the top of assets/ptx/listings.json";
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("listings") ||
        !doc["listings"].is_array())
        return Error{path + ": not a listings file", hint};
    std::vector<PeerListing> out;
    try {
        for (const json& l : doc["listings"]) {
            PeerListing p;
            p.id = l.value("id", "");
            p.kernel = l.value("kernel", "");
            p.title = by_language(l.value("title", json()));
            const std::string file = l.value("ptx", "");
            p.source = l.value("source", "");
            p.record = l.value("record", "");
            if (p.id.empty() || p.kernel.empty() || file.empty() || p.title.empty())
                return Error{path + ": a listing needs id, kernel, title and ptx", hint};
            p.ptx = dir + "/" + file;
            if (l.contains("anchors") && l["anchors"].is_array())
                for (const json& a : l["anchors"]) {
                    PeerAnchor pa;
                    pa.ptx = a.value("ptx", "");
                    pa.label = a.value("label", pa.ptx);
                    pa.note = by_language(a.value("note", json()));
                    if (pa.ptx.empty()) return Error{path + ": an anchor without \"ptx\"", hint};
                    p.anchors.push_back(std::move(pa));
                }
            out.push_back(std::move(p));
        }
    } catch (const json::exception& e) {
        return Error{path + ": " + e.what(), hint};
    }
    return out;
}

Result<std::string> peer_provenance_line(const std::string& json_path) {
    Result<std::string> text = read_file_capped(json_path, kMaxSettingsFileBytes, "provenance");
    if (!text) return text.error();
    json j = json::parse(*text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return Error{json_path + ": not a JSON object", "re-run the command that recorded it"};
    auto str = [&j](const char* k) {
        return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : std::string();
    };
    auto num = [&j](const char* k) {
        return j.contains(k) && j[k].is_number() ? std::to_string(j[k].get<int64_t>())
                                                 : std::string();
    };
    std::string sw;
    if (j.contains("software") && j["software"].is_object()) {
        const json& s = j["software"];
        const std::pair<const char*, const char*> names[] = {
            {"triton", "Triton"}, {"torch", "torch"}, {"cuda", "CUDA"}};
        for (const auto& [key, shown] : names)
            if (s.contains(key) && s[key].is_string())
                sw +=
                    (sw.empty() ? "" : ", ") + std::string(shown) + " " + s[key].get<std::string>();
    }
    std::string line = sw;
    if (!str("device").empty()) line += (line.empty() ? "" : " on ") + str("device");
    if (!str("created_utc").empty()) line += ", " + str("created_utc").substr(0, 10);
    std::string shape;
    auto add = [&shape](const std::string& v, const std::string& what) {
        if (!v.empty()) shape += (shape.empty() ? "" : ", ") + v + what;
    };
    add(num("block_size"), " BLOCK_SIZE");
    add(num("num_warps"), " warps");
    add(num("num_stages"), " stages");
    add(num("registers"), " registers");
    add(num("shared_bytes"), " B shared");
    if (!shape.empty()) line += ": " + shape;
    return line;
}

}  // namespace sml
