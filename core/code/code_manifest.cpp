// Recording manifests and provenance checks. See code_manifest.h.
#include "core/code/code_manifest.h"

#include <nlohmann/json.hpp>
#include <set>

#include "core/code/source_hash.h"
#include "core/common/safe_file.h"

namespace sml {

using nlohmann::json;

const CodeUnit* CodeManifest::find_unit(const std::string& source) const {
    for (const CodeUnit& u : units)
        if (u.source == source) return &u;
    return nullptr;
}

Result<CodeManifest> parse_code_manifest(const std::string& json_text, const std::string& origin) {
    const std::string hint = "re-record with bench/device_run.sh on a GPU machine";
    json doc = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded() || !doc.is_object()) return Error{origin + ": not a JSON object", hint};
    CodeManifest m;
    try {
        m.schema = doc.value("schema", 0);
        if (m.schema != 1)
            return Error{origin + ": manifest schema " + std::to_string(m.schema) +
                             " is not the 1 this build reads",
                         hint};
        m.created_utc = doc.value("created_utc", "");
        m.git = doc.value("git", "");
        m.device = doc.value("device", "");
        m.arch = doc.value("arch", "");
        m.hash = doc.value("hash", "");
        m.selection = doc.value("selection", "");
        if (m.hash != "fnv1a64")
            return Error{origin + ": hash '" + m.hash + "' is not fnv1a64", hint};
        if (doc.contains("software") && doc["software"].is_object())
            for (auto& [k, v] : doc["software"].items())
                if (v.is_string()) m.software[k] = v.get<std::string>();
        if (doc.contains("sources") && doc["sources"].is_object())
            for (auto& [k, v] : doc["sources"].items())
                if (v.is_string()) m.sources[k] = v.get<std::string>();
        if (doc.contains("units") && doc["units"].is_array())
            for (const json& u : doc["units"]) {
                if (!u.is_object()) continue;
                CodeUnit cu;
                cu.source = u.value("source", "");
                cu.sass = u.value("sass", "");
                cu.ptx = u.value("ptx", "");
                cu.entries_kept = u.value("entries_kept", 0);
                cu.entries_built = u.value("entries_built", 0);
                if (u.contains("launched") && u["launched"].is_array())
                    for (const json& l : u["launched"]) {
                        if (!l.is_object()) continue;
                        CodeLaunch cl;
                        cl.kernel = l.value("kernel", "");
                        cl.variant = l.value("variant", "");
                        cl.dtype = l.value("dtype", "");
                        cl.rows = l.value("rows", int64_t(0));
                        cl.cols = l.value("cols", int64_t(0));
                        cl.function = l.value("function", "");
                        if (!cl.function.empty()) cu.launched.push_back(std::move(cl));
                    }
                if (u.contains("built_from") && u["built_from"].is_array())
                    for (const json& f : u["built_from"])
                        if (f.is_string()) cu.built_from.push_back(f.get<std::string>());
                if (!cu.source.empty()) m.units.push_back(std::move(cu));
            }
    } catch (const json::exception& e) {
        return Error{origin + ": " + e.what(), hint};
    }
    return m;
}

Result<CodeManifest> load_code_manifest(const std::string& path) {
    Result<std::string> text = read_file_capped(path, kMaxSessionFileBytes, "code manifest");
    if (!text) return text.error();
    return parse_code_manifest(*text, path);
}

std::string code_manifest_json(const CodeManifest& m) {
    json units = json::array();
    for (const CodeUnit& u : m.units) {
        json launched = json::array();
        for (const CodeLaunch& l : u.launched)
            launched.push_back({{"kernel", l.kernel},
                                {"variant", l.variant},
                                {"dtype", l.dtype},
                                {"rows", l.rows},
                                {"cols", l.cols},
                                {"function", l.function}});
        units.push_back({{"source", u.source},
                         {"built_from", u.built_from},
                         {"sass", u.sass},
                         {"ptx", u.ptx},
                         {"entries_kept", u.entries_kept},
                         {"entries_built", u.entries_built},
                         {"launched", launched}});
    }
    json doc = {{"schema", m.schema},   {"created_utc", m.created_utc},
                {"git", m.git},         {"device", m.device},
                {"arch", m.arch},       {"software", m.software},
                {"hash", m.hash},       {"selection", m.selection},
                {"sources", m.sources}, {"units", units}};
    return doc.dump(1) + "\n";
}

CodeProvenance check_code_provenance(const CodeManifest* manifest, const std::string& repo_root,
                                     const std::string& source, const std::string& what) {
    CodeProvenance p;
    if (!manifest) {
        p.note = "This " + what +
                 " was recorded before recordings kept the hashes of their sources: it may "
                 "come from other sources than the checkout's.";
        return p;
    }
    const CodeUnit* unit = manifest->find_unit(source);
    if (!unit) {
        p.note = "The recording's manifest does not list " + source + ": the " + what +
                 "'s sources are unknown.";
        return p;
    }
    std::set<std::string> files(unit->built_from.begin(), unit->built_from.end());
    for (const std::string& f : source_closure(repo_root, source)) files.insert(f);
    for (const std::string& f : files) {
        auto rec = manifest->sources.find(f);
        Result<std::string> now = hash_file(repo_root + "/" + f);
        const bool same = rec != manifest->sources.end() && now && *now == rec->second;
        if (!same) p.changed.push_back(f);
    }
    if (p.changed.empty()) {
        p.state = CodeProvenance::State::matches;
        return p;
    }
    p.state = CodeProvenance::State::differs;
    std::string list;
    for (size_t i = 0; i < p.changed.size() && i < 3; ++i) list += (i ? ", " : "") + p.changed[i];
    if (p.changed.size() > 3) list += " and " + std::to_string(p.changed.size() - 3) + " more";
    p.note = "This " + what + " was recorded" +
             (manifest->git.empty() ? "" : " at " + manifest->git) +
             (manifest->created_utc.empty() ? "" : " (" + manifest->created_utc + ")") +
             " from other sources than the checkout's: " + list +
             " changed since. Re-record it on a GPU machine (bench/device_run.sh).";
    return p;
}

}  // namespace sml
