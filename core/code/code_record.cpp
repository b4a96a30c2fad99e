// Recording generated code. See code_record.h.
#include "core/code/code_record.h"

#include <algorithm>
#include <set>
#include <utility>

#include "core/code/asm_listing.h"
#include "core/code/source_hash.h"
#include "core/common/safe_file.h"
#include "core/common/text_cap.h"
#include "core/lessons/annotated_source.h"
#include "kernels/registry.h"

namespace sml {

namespace {

bool mentions_fp32(const AsmEntry& e) {
    const std::string d = demangle_symbol(e.symbol);
    return d.find("float") != std::string::npos;
}

// The kept entries of `index`, in file order, and the rule that chose them.
std::vector<size_t> select_entries(const AsmIndex& index, const std::set<std::string>& launched,
                                   std::string* rule) {
    int kernels = 0;
    for (const AsmEntry& e : index.entries) kernels += e.kernel;
    std::vector<size_t> keep;
    for (size_t i = 0; i < index.entries.size(); ++i) {
        const AsmEntry& e = index.entries[i];
        bool k = !e.kernel;  // device functions: few, and kernels call them
        if (e.kernel) {
            if (!launched.empty())
                k = launched.count(e.key) > 0;
            else if (kernels > kRecordAllEntriesUpTo)
                k = mentions_fp32(e);
            else
                k = true;
        }
        if (k) keep.push_back(i);
    }
    *rule = !launched.empty()                 ? "launched by the session"
            : kernels > kRecordAllEntriesUpTo ? "fp32 instantiations"
                                              : "all";
    return keep;
}

// The recording's text: what precedes the first entry, the kept entries, and (PTX) the file
// table that their .loc lines name.
Result<std::string> filtered_text(const AsmIndex& index, const std::vector<size_t>& keep) {
    std::string out;
    const int64_t head_end = index.entries.empty() ? index.bytes : index.entries.front().begin;
    Result<std::string> head = read_asm_bytes(index, 0, head_end);
    if (!head) return head.error();
    out += *head;
    for (size_t i : keep) {
        Result<std::string> body =
            read_asm_bytes(index, index.entries[i].begin, index.entries[i].end);
        if (!body) return body.error();
        out += *body;
        if (!out.empty() && out.back() != '\n') out += '\n';
        out += '\n';
    }
    if (index.kind == AsmKind::ptx)
        for (size_t f = 0; f < index.files.size(); ++f)
            if (!index.files[f].empty())
                out += "\t.file\t" + std::to_string(f) + " \"" + index.files[f] + "\"\n";
    return out;
}

}  // namespace

Result<CodeManifest> record_code(const RecordCodeOptions& o, std::vector<std::string>* log) {
    CodeManifest m;
    m.created_utc = o.created_utc;
    m.git = o.git;
    m.device = o.device;
    m.arch = o.arch;
    m.software = o.software;
    // Every source file of every kernel, once, in registry order.
    std::vector<std::string> sources;
    for (const KernelInfo& k : registry())
        for (const char* src : k.sources)
            if (std::find(sources.begin(), sources.end(), src) == sources.end())
                sources.push_back(src);
    // A recording of nothing (a wrong folder, files named otherwise) is an error, not an empty
    // manifest: checked before any folder is made.
    std::string looked;
    bool found = false;
    for (const std::string& src : sources)
        for (const auto& [dir, ext] :
             {std::pair{o.ptx_dir, ".ptx"}, std::pair{o.sass_dir, ".sass"}})
            if (!dir.empty()) found |= path_exists(dir + "/" + code_file_stem(src) + ext);
    for (const auto& [dir, what] : {std::pair{o.ptx_dir, "PTX"}, std::pair{o.sass_dir, "SASS"}})
        if (!dir.empty())
            looked +=
                (looked.empty() ? "" : " or ") + std::string(what) + " in " + quote_short(dir);
    if (!found)
        return Error{"nothing to record: found no " + (looked.empty() ? "input" : looked) +
                         " for the kernels' " + std::to_string(sources.size()) + " source files",
                     "the files are named <stem>.ptx and <stem>.sass, e.g. " +
                         code_file_stem(sources.empty() ? "" : sources.front()) +
                         ".ptx; check the folders"};
    if (Status s = make_folders(o.out_dir + "/sass"); !s) return s.error();
    if (Status s = make_folders(o.out_dir + "/ptx"); !s) return s.error();
    std::set<std::string> rules;
    for (const std::string& src : sources) {
        CodeUnit u;
        u.source = src;
        u.built_from = source_closure(o.repo_root, src);
        for (const std::string& f : u.built_from) {
            Result<std::string> h = hash_file(o.repo_root + "/" + f);
            if (!h) return h.error();
            m.sources[f] = *h;
        }
        // Functions the session launched for the kernels built from this file.
        std::set<std::string> launched;
        if (o.session)
            for (const PointRecord& p : o.session->points) {
                const KernelInfo* k = find_kernel(p.kernel);
                if (!k || std::find_if(k->sources.begin(), k->sources.end(),
                                       [&](const char* s) { return src == s; }) == k->sources.end())
                    continue;
                for (const LaunchRecord& l : p.launches) {
                    if (l.function.empty()) continue;
                    launched.insert(function_key(l.function));
                    u.launched.push_back(
                        CodeLaunch{p.kernel, p.variant, p.dtype, p.rows, p.cols, l.function});
                }
            }
        const std::string stem = code_file_stem(src);
        std::string line = src + ":";
        for (AsmKind kind : {AsmKind::sass, AsmKind::ptx}) {
            const bool sass = kind == AsmKind::sass;
            const std::string& dir = sass ? o.sass_dir : o.ptx_dir;
            if (dir.empty()) continue;
            const std::string in = dir + "/" + stem + (sass ? ".sass" : ".ptx");
            if (!path_exists(in)) {
                line += std::string(sass ? " no SASS" : " no PTX") + " (" + in + ")";
                continue;
            }
            Result<AsmIndex> idx = index_asm_file(in, kind);
            if (!idx) return idx.error();
            std::string rule;
            std::vector<size_t> keep = select_entries(*idx, launched, &rule);
            Result<std::string> text = filtered_text(*idx, keep);
            if (!text) return text.error();
            const std::string rel =
                std::string(sass ? "sass/" : "ptx/") + stem + (sass ? ".sass" : ".ptx");
            if (Status s = write_file_atomic(o.out_dir + "/" + rel, *text, "recorded code"); !s)
                return s.error();
            int kept = 0, built = 0;
            for (const AsmEntry& e : idx->entries) built += e.kernel;
            for (size_t i : keep) kept += idx->entries[i].kernel;
            (sass ? u.sass : u.ptx) = rel;
            u.entries_kept = kept;
            u.entries_built = built;
            line += std::string(sass ? " SASS " : " PTX ") + std::to_string(kept) + " of " +
                    std::to_string(built) + " entries (" + rule + ")";
            rules.insert(rule);
        }
        if (log) log->push_back(line);
        m.units.push_back(std::move(u));
    }
    std::string sel;
    for (const std::string& r : rules) sel += (sel.empty() ? "" : "; ") + r;
    m.selection = "entry points kept per file: " + (sel.empty() ? std::string("none") : sel) +
                  (o.session ? " (session: " + o.session_label + ")" : " (no session)");
    if (Status s =
            write_file_atomic(o.out_dir + "/manifest.json", code_manifest_json(m), "code manifest");
        !s)
        return s.error();
    return m;
}

}  // namespace sml
