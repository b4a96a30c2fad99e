// The PTX and SASS views' model. See code_view.h.
#include "app/viewer/model/code_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

#include "app/viewer/model/ui_text.h"
#include "core/code/code_record.h"
#include "core/common/safe_file.h"
#include "core/lessons/annotated_source.h"
#include "kernels/registry.h"

namespace sml::viewer {

namespace {

// The C++ type of a session dtype, as instantiations spell it.
std::string cpp_type_of(const std::string& dtype) {
    if (dtype == "fp16") return "__half";
    if (dtype == "bf16") return "__nv_bfloat16";
    return "float";
}

std::string join_cols(const std::set<int64_t>& cols) {
    std::string s;
    int n = 0;
    for (int64_t c : cols) {
        if (++n > 8) {
            s += ", ...";
            break;
        }
        s += (s.empty() ? "" : ", ") + std::to_string(c);
    }
    return s;
}

std::string rel_to(const std::string& path, const std::string& root) {
    if (path.rfind(root + "/", 0) == 0) return path.substr(root.size() + 1);
    return path;
}

}  // namespace

std::shared_ptr<const Result<AsmIndex>> CodeModel::index_of(const std::string& path, AsmKind kind) {
    auto it = indexed_.find(path);
    if (it != indexed_.end()) return it->second;
    auto idx = std::make_shared<const Result<AsmIndex>>(index_asm_file(path, kind));
    indexed_[path] = idx;
    return idx;
}

const CodeProvenance& CodeModel::provenance(const std::string& source, const std::string& what) {
    const std::string key = what + "\n" + source;
    auto it = provenance_.find(key);
    if (it == provenance_.end())
        it = provenance_
                 .emplace(key, check_code_provenance(manifest_.get(), ctx_.repo_root, source, what))
                 .first;
    return it->second;
}

void CodeModel::set(const CodeContext& ctx, CodeListing which) {
    // The listings catalogue, the recording's manifest and what was hashed belong to a
    // checkout and a build folder: read again only when those change.
    if (ctx.repo_root != ctx_.repo_root || ctx.build_dir != ctx_.build_dir) {
        peers_loaded_ = manifest_loaded_ = false;
        provenance_.clear();
    }
    ctx_ = ctx;
    which_ = which;
    if (!peers_loaded_) {
        peers_all_.clear();
        Result<std::vector<PeerListing>> p = load_peer_listings(ctx.repo_root + "/assets/ptx");
        if (p) peers_all_ = std::move(*p);
        peers_loaded_ = true;
    }
    peers_here_.clear();
    for (const PeerListing& p : peers_all_)
        if (p.kernel == ctx.kernel) peers_here_.push_back(p);
    if (which_ == CodeListing::peer && peers_here_.empty()) which_ = CodeListing::ptx;
    if (!manifest_loaded_) {
        manifest_.reset();
        Result<CodeManifest> m = load_code_manifest(ctx.build_dir + "/code/manifest.json");
        if (m) manifest_ = std::make_unique<CodeManifest>(std::move(*m));
        manifest_loaded_ = true;
    }
    collect_files();
    build_choices();
    load_selected();
}

void CodeModel::collect_files() {
    files_.clear();
    message_.clear();
    hint_.clear();
    const KernelInfo* k = find_kernel(ctx_.kernel);
    if (!k) {
        message_ = ui_format("No kernel '{0}' in the registry.", ctx_.lang, {ctx_.kernel});
        return;
    }
    if (which_ == CodeListing::peer) {
        const PeerListing& p = peers_here_.front();
        if (!path_exists(p.ptx)) {
            message_ = ui_format("{0}: not recorded yet.", ctx_.lang, {p.title_in(ctx_.lang)});
            hint_ = ui_format("On a GPU machine with Triton: {0}", ctx_.lang, {p.record});
            return;
        }
        files_.push_back(File{p.ptx, p.source, true, index_of(p.ptx, AsmKind::ptx)});
        return;
    }
    const bool sass = which_ == CodeListing::sass;
    for (const char* src : k->sources) {
        const std::string stem = code_file_stem(src);
        const std::string recorded = ctx_.build_dir + "/code/" + (sass ? "sass/" : "ptx/") + stem +
                                     (sass ? ".sass" : ".ptx");
        const std::string built = ptx_path_for_source(src, ctx_.build_dir);
        if (!sass && path_exists(built))
            files_.push_back(File{built, src, false, index_of(built, AsmKind::ptx)});
        else if (path_exists(recorded))
            files_.push_back(
                File{recorded, src, true, index_of(recorded, sass ? AsmKind::sass : AsmKind::ptx)});
    }
    if (files_.empty()) {
        message_ =
            ui_format(sass ? "No SASS is recorded for {0}." : "No PTX for {0} in this build.",
                      ctx_.lang, {k->id});
        hint_ = ui_text(sass ? "SASS is recorded on a GPU machine by bench/record_code.sh "
                               "(through bench/device_run.sh) and committed as "
                               "assets/code/*-code.tar.xz"
                             : "build the sml_ptx target (needs the CUDA toolkit), or unpack a "
                               "recording from assets/code/ (the build does)",
                        ctx_.lang);
    }
}

void CodeModel::build_choices() {
    // Which functions ran, and at which N: the session's launch records, else the recording's
    // sweep when the kernel's sources still match it.
    std::map<std::string, std::set<int64_t>> ran;  // function key -> N (dtype ctx_.dtype)
    std::set<std::string> ran_any_dtype;
    // The order the functions were first launched in (naive: row_max ... divide), which breaks
    // ties: the PTX lists a file's functions in source order, cuobjdump's SASS the other way
    // round, and both tabs must open on the same one, the first launched (the one CUPTI's
    // per-line counters cover).
    std::map<std::string, int> launch_order;
    auto launched = [&](const std::string& key) {
        launch_order.emplace(key, static_cast<int>(launch_order.size()));
    };
    bool from_recording = false;
    if (ctx_.session)
        for (const PointRecord& p : ctx_.session->points) {
            if (p.kernel != ctx_.kernel) continue;
            for (const LaunchRecord& l : p.launches) {
                if (l.function.empty()) continue;
                const std::string key = function_key(l.function);
                launched(key);
                ran_any_dtype.insert(key);
                if (p.dtype == ctx_.dtype) ran[key].insert(p.cols);
            }
        }
    if (ran_any_dtype.empty() && manifest_ && which_ != CodeListing::peer)
        for (const File& f : files_) {
            const CodeUnit* u = manifest_->find_unit(f.source);
            if (!u) continue;
            if (provenance(f.source, "code").state != CodeProvenance::State::matches) continue;
            for (const CodeLaunch& l : u->launched) {
                if (l.kernel != ctx_.kernel) continue;
                const std::string key = function_key(l.function);
                launched(key);
                ran_any_dtype.insert(key);
                if (l.dtype == ctx_.dtype) ran[key].insert(l.cols);
                from_recording = true;
            }
        }
    const bool ptx = which_ != CodeListing::sass;
    struct Ranked {
        EntryChoice c;
        int rank;
        int order;  // launch_order, or after every launched function
    };
    std::vector<Ranked> ranked;
    int kernels = 0;
    for (size_t fi = 0; fi < files_.size(); ++fi) {
        const File& f = files_[fi];
        if (!f.index || !f.index->ok()) continue;
        const AsmIndex& idx = f.index->value();
        for (size_t ei = 0; ei < idx.entries.size(); ++ei) {
            const AsmEntry& e = idx.entries[ei];
            EntryChoice c;
            c.file = static_cast<int>(fi);
            c.entry = static_cast<int>(ei);
            auto r = ran.find(e.key);
            c.ran_here = r != ran.end() && r->second.count(ctx_.cols) > 0;
            c.ran = ran_any_dtype.count(e.key) > 0;
            if (ptx)
                for (const std::string& a : ctx_.ptx_anchors) c.anchored |= e.uses(a);
            c.label = e.short_name;
            const std::string& lang = ctx_.lang;
            if (c.ran_here)
                c.label += ui_format("   runs at N = {0}", lang, {std::to_string(ctx_.cols)});
            else if (c.ran && r != ran.end())
                c.label += ui_format("   ran at N = {0}", lang, {join_cols(r->second)});
            else if (c.ran)
                c.label += ui_text("   ran (another dtype)", lang);
            if (!e.kernel) c.label += ui_text("   (device function)", lang);
            c.detail = demangle_symbol(e.symbol) + "\n" +
                       ui_format("{0}, line {1}, {2} instructions", lang,
                                 {rel_to(f.path, ctx_.repo_root), std::to_string(e.first_line),
                                  std::to_string(e.instructions)});
            if (c.ran)
                c.detail +=
                    ui_text(from_recording ? "\nran in the recording's sweep (bench/record_code.sh)"
                                           : "\nran in this session",
                            lang);
            if (c.anchored) c.detail += ui_text("\nholds an instruction this step points at", lang);
            int rank = c.ran_here ? 0 : c.anchored ? 1 : c.ran ? 2 : e.kernel ? 3 : 4;
            kernels += e.kernel;
            const auto lo = launch_order.find(e.key);
            ranked.push_back(Ranked{
                std::move(c), rank,
                lo == launch_order.end() ? static_cast<int>(launch_order.size()) : lo->second});
        }
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
        return a.rank != b.rank ? a.rank < b.rank : a.order < b.order;
    });
    const bool know_ran = !ran_any_dtype.empty();
    const std::string type = cpp_type_of(ctx_.dtype);
    choices_.clear();
    hidden_ = 0;
    list_note_.clear();
    // When what ran is known but none of it is in these files (the session launched the
    // repository's kernels, the Triton listing is another program's), the filter would leave
    // nothing to read: every entry is listed, and list_note() says why.
    const bool none_ran_here = know_ran && std::none_of(ranked.begin(), ranked.end(),
                                                        [](const Ranked& r) { return r.rank < 3; });
    if (none_ran_here && !show_all_ && !ranked.empty())
        list_note_ = ui_format(
            ranked.size() == 1
                ? "{0} did not launch this listing's entry point; it is listed anyway."
                : "{0} did not launch any of this listing's entry points; all {1} are listed.",
            ctx_.lang,
            {ui_text(from_recording ? "The recording's sweep" : "This session", ctx_.lang),
             std::to_string(ranked.size())});
    for (Ranked& r : ranked) {
        bool visible = true;
        if (!show_all_ && !none_ran_here) {
            if (r.rank == 4)
                visible = false;
            else if (r.rank == 3 && know_ran)
                visible = false;  // the session says what ran: the rest waits behind "all"
            else if (r.rank == 3 && kernels > kRecordAllEntriesUpTo) {
                const AsmEntry& e =
                    files_[r.c.file].index->value().entries[static_cast<size_t>(r.c.entry)];
                visible = demangle_symbol(e.symbol).find(type) != std::string::npos;
            }
        }
        if (visible)
            choices_.push_back(std::move(r.c));
        else
            ++hidden_;
    }
    selected_ = choices_.empty() ? -1 : 0;
    for (size_t i = 0; i < choices_.size(); ++i) {
        const EntryChoice& c = choices_[i];
        if (files_[c.file].index->value().entries[c.entry].key == selected_key_) {
            selected_ = static_cast<int>(i);
            break;
        }
    }
    if (choices_.empty() && message_.empty() && !files_.empty()) {
        const File& f = files_.front();
        if (f.index && !f.index->ok()) {
            message_ = f.index->error().message;
            hint_ = f.index->error().hint;
        } else {
            message_ =
                ui_format("{0} has no entry points.", ctx_.lang, {rel_to(f.path, ctx_.repo_root)});
        }
    }
}

void CodeModel::select(int choice) {
    if (choice < 0 || choice >= static_cast<int>(choices_.size())) return;
    selected_ = choice;
    const EntryChoice& c = choices_[choice];
    selected_key_ = files_[c.file].index->value().entries[c.entry].key;
    load_selected();
}

void CodeModel::set_show_all(bool on) {
    if (on == show_all_) return;
    show_all_ = on;
    if (selected_ >= 0) {
        const EntryChoice& c = choices_[selected_];
        selected_key_ = files_[c.file].index->value().entries[c.entry].key;
    }
    build_choices();
    load_selected();
}

bool CodeModel::select_holding(const std::string& ptx_pattern) {
    for (size_t i = 0; i < choices_.size(); ++i) {
        const EntryChoice& c = choices_[i];
        if (files_[c.file].index->value().entries[c.entry].uses(ptx_pattern)) {
            if (static_cast<int>(i) != selected_) select(static_cast<int>(i));
            return true;
        }
    }
    return false;
}

void CodeModel::load_selected() {
    listing_.reset();
    anchors_.clear();
    origin_.clear();
    provenance_note_.clear();
    source_path_.clear();
    source_doc_.reset();
    map_ = LineMap();
    if (selected_ < 0) {
        relink();
        return;
    }
    const EntryChoice& c = choices_[selected_];
    const File& f = files_[c.file];
    const AsmIndex& idx = f.index->value();
    selected_key_ = idx.entries[c.entry].key;
    Result<AsmListing> l = load_asm_entry(idx, static_cast<size_t>(c.entry));
    if (!l && !reindexed_ && indexed_.erase(f.path)) {
        // Rebuilt while the viewer ran (a new build's PTX): index it again, once.
        reindexed_ = true;
        collect_files();
        build_choices();
        load_selected();
        reindexed_ = false;
        return;
    }
    if (!l) {
        message_ = l.error().message;
        hint_ = l.error().hint;
        relink();
        return;
    }
    message_.clear();
    hint_.clear();
    listing_ = std::move(*l);
    listing_doc_ = SourceDoc::from_listing(*listing_);

    // Where it came from.
    const bool sass = which_ == CodeListing::sass;
    const std::string what = sass ? "SASS" : "PTX";
    int kernels = 0;
    for (const AsmEntry& e : idx.entries) kernels += e.kernel;
    if (which_ == CodeListing::peer) {
        const PeerListing& p = peers_here_.front();
        Result<std::string> line = peer_provenance_line(p.ptx + ".json");
        origin_ = rel_to(p.ptx, ctx_.repo_root) + ": " +
                  (line ? *line
                        : ui_format("no provenance file ({0})", ctx_.lang, {line.error().message}));
    } else if (!f.recorded) {
        origin_ =
            ui_format("{0} of {1} from this build ({2}), {3} entry points", ctx_.lang,
                      {what, f.source, rel_to(f.path, ctx_.repo_root), std::to_string(kernels)});
    } else {
        const CodeUnit* u = manifest_ ? manifest_->find_unit(f.source) : nullptr;
        std::string where;  // " for NVIDIA H100 (sm_90) at 1a2b3c4, 2026-11-25"
        if (manifest_) {
            if (!manifest_->device.empty())
                where += ui_format(" for {0}", ctx_.lang, {manifest_->device});
            if (!manifest_->arch.empty()) where += " (" + manifest_->arch + ")";
            if (!manifest_->git.empty()) where += ui_format(" at {0}", ctx_.lang, {manifest_->git});
            if (!manifest_->created_utc.empty())
                where += ui_text(", ", ctx_.lang) + manifest_->created_utc.substr(0, 10);
        }
        origin_ = ui_format("{0} of {1} recorded{2}: {3} entry points", ctx_.lang,
                            {what, f.source, where, std::to_string(kernels)});
        if (u && u->entries_built > kernels)
            origin_ += ui_format(" of the build's {0} (those that ran)", ctx_.lang,
                                 {std::to_string(u->entries_built)});
        provenance_note_ = provenance(f.source, what).note;
    }

    // The source the listing's lines link to: of the kernel's files, the one most of its
    // instructions come from (best's machinery lives in several).
    if (which_ == CodeListing::peer) {
        source_path_ = peers_here_.front().source;
    } else {
        source_path_ = f.source;
        int best = -1;
        if (const KernelInfo* k = find_kernel(ctx_.kernel))
            for (const char* src : k->sources) {
                const int mapped = LineMap::build(*listing_, src).instructions_mapped();
                if (mapped > best) {
                    best = mapped;
                    source_path_ = src;
                }
            }
    }

    // Anchors.
    if (which_ == CodeListing::peer) {
        for (const PeerAnchor& a : peers_here_.front().anchors)
            anchors_.push_back(ListingAnchor{a.ptx, a.label, a.note_in(ctx_.lang),
                                             listing_->lines_matching(a.ptx)});
    } else if (!sass) {
        for (const std::string& a : ctx_.ptx_anchors)
            anchors_.push_back(ListingAnchor{a, a, "", listing_->lines_matching(a)});
    }
    relink();
}

void CodeModel::relink() {
    display_of_file_line_.clear();
    source_slots_.clear();
    listing_slots_.clear();
    if (!source_path_.empty()) {
        const std::string path = ctx_.repo_root + "/" + source_path_;
        auto it = source_docs_.find(path);
        if (it == source_docs_.end())
            it = source_docs_
                     .emplace(path, std::make_shared<const Result<SourceDoc>>(
                                        SourceDoc::load(path, source_lang_for_path(path))))
                     .first;
        source_doc_ = it->second;
    }
    if (listing_) map_ = LineMap::build(*listing_, source_path_);
    if (const SourceDoc* doc = source_doc()) {
        const std::vector<SourceLine>& lines = doc->lines();
        int max_line = lines.empty() ? 0 : lines.back().file_line;
        display_of_file_line_.assign(max_line + 1, -1);
        source_slots_.assign(lines.size(), -1);
        for (size_t d = 0; d < lines.size(); ++d) {
            display_of_file_line_[lines[d].file_line] = static_cast<int>(d);
            source_slots_[d] = map_.color_slot(lines[d].file_line, kLinkSlots);
        }
    }
    if (listing_) {
        listing_slots_.assign(listing_->lines.size(), -1);
        for (size_t i = 0; i < listing_->lines.size(); ++i)
            listing_slots_[i] = map_.color_slot(map_.source_line(static_cast<int>(i)), kLinkSlots);
    }
    hover_none();
    refresh_metric();
}

void CodeModel::hover_none() {
    source_lit_.assign(source_slots_.size(), 0);
    listing_lit_.assign(listing_slots_.size(), 0);
    hover_text_.clear();
}

namespace {
std::string file_name(const std::string& path) {
    return path.substr(path.find_last_of('/') + 1);
}
// "0fb0 SHFL.BFLY" / "shfl.sync.bfly.b32": how the hover line names an instruction.
std::string instruction_name(const AsmLine& a) {
    if (a.address >= 0) {
        char addr[32];
        std::snprintf(addr, sizeof addr, "%04llx ", static_cast<unsigned long long>(a.address));
        return addr + a.opcode;
    }
    return a.opcode;
}
}  // namespace

void CodeModel::hover_source(int display_line) {
    hover_none();
    const SourceDoc* doc = source_doc();
    if (!doc || display_line < 0 || display_line >= static_cast<int>(doc->lines().size())) return;
    const int file_line = doc->lines()[display_line].file_line;
    const std::vector<int>& reached = map_.reached_from(file_line);
    if (reached.empty()) return;
    source_lit_[display_line] = 1;
    for (int i : reached) listing_lit_[i] = 1;
    const size_t charged = map_.charged_to(file_line).size();
    const std::string& lang = ctx_.lang;
    hover_text_ = ui_format(
        reached.size() == 1 ? "{0}:{1} -> {2} instruction" : "{0}:{1} -> {2} instructions", lang,
        {file_name(source_path_), std::to_string(file_line), std::to_string(reached.size())});
    if (charged < reached.size())
        hover_text_ += ui_format(" ({0} inlined from calls)", lang,
                                 {std::to_string(reached.size() - charged)});
    hover_text_ +=
        ui_format("; click: go to {0}", lang, {instruction_name(listing_->lines[reached.front()])});
}

void CodeModel::hover_listing(int listing_line) {
    hover_none();
    if (listing_line < 0 || listing_line >= static_cast<int>(listing_lit_.size())) return;
    const int s = map_.source_line(listing_line);
    if (s <= 0) return;
    for (int i : map_.charged_to(s)) listing_lit_[i] = 1;
    if (s < static_cast<int>(display_of_file_line_.size()) && display_of_file_line_[s] >= 0)
        source_lit_[display_of_file_line_[s]] = 1;
    // The inline chain, innermost first: "warp_softmax.cu:44, inlined at :97".
    const AsmLine& a = listing_->lines[listing_line];
    hover_text_ = instruction_name(a) + " <- ";
    std::string last_file;
    bool first = true;
    for (int k = a.frames_begin; k < a.frames_end; ++k) {
        const AsmFrame& f = listing_->frames[k];
        if (f.file < 0 || f.file >= static_cast<int>(listing_->files.size())) continue;
        const std::string name = file_name(listing_->files[f.file]);
        hover_text_ += (first ? "" : ui_text(", inlined at ", ctx_.lang)) +
                       (name == last_file ? "" : name) + ":" + std::to_string(f.line);
        last_file = name;
        first = false;
    }
}

int CodeModel::start_listing_line() const {
    if (!listing_) return -1;
    const std::vector<int> anchored = anchor_lines();
    if (!anchored.empty()) return anchored.front();
    for (size_t i = 0; i < listing_->lines.size(); ++i)
        if (listing_->lines[i].instruction) return static_cast<int>(i);
    return 0;
}

int CodeModel::start_source_line() const {
    if (!listing_) return -1;
    const int first = start_listing_line();
    int d = source_display_line_of(first);
    if (d >= 0) return d;
    for (size_t i = 0; i < listing_->lines.size() && d < 0; ++i)
        d = source_display_line_of(static_cast<int>(i));
    return d;
}

int CodeModel::first_listing_line_of(int source_display_line) const {
    const SourceDoc* doc = source_doc();
    if (!doc || source_display_line < 0 ||
        source_display_line >= static_cast<int>(doc->lines().size()))
        return -1;
    const std::vector<int>& r = map_.reached_from(doc->lines()[source_display_line].file_line);
    return r.empty() ? -1 : r.front();
}

int CodeModel::source_display_line_of(int listing_line) const {
    const int s = map_.source_line(listing_line);
    if (s <= 0 || s >= static_cast<int>(display_of_file_line_.size())) return -1;
    return display_of_file_line_[s];
}

std::vector<int> CodeModel::anchor_lines() const {
    std::vector<int> out;
    for (const ListingAnchor& a : anchors_) out.insert(out.end(), a.lines.begin(), a.lines.end());
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

void CodeModel::set_metrics(std::vector<LineMetric> metrics) {
    metrics_ = std::move(metrics);
    refresh_metric();
}

void CodeModel::refresh_metric() {
    metric_ = -1;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    listing_metric_.assign(listing_ ? listing_->lines.size() : 0, nan);
    source_metric_.assign(source_slots_.size(), nan);
    listing_metric_max_ = source_metric_max_ = 0;
    if (!listing_) return;
    const LineMetric::Key listing_key =
        which_ == CodeListing::sass ? LineMetric::Key::sass_address : LineMetric::Key::ptx_line;
    for (size_t m = 0; m < metrics_.size() && metric_ < 0; ++m) {
        const LineMetric& lm = metrics_[m];
        const bool for_listing =
            lm.key == listing_key && (lm.function.empty() || lm.function == listing_->entry.key ||
                                      function_key(lm.function) == listing_->entry.key);
        if (for_listing) {
            metric_ = static_cast<int>(m);
            listing_metric_ = metric_per_listing_line(lm, *listing_);
            const LineMetric per_source = metric_per_source_line(lm, *listing_, map_);
            for (const auto& [line, v] : per_source.values)
                if (line < static_cast<int64_t>(display_of_file_line_.size()) &&
                    display_of_file_line_[line] >= 0)
                    source_metric_[display_of_file_line_[line]] = v;
        } else if (lm.key == LineMetric::Key::source_line) {
            metric_ = static_cast<int>(m);
            for (const auto& [line, v] : lm.values)
                if (line > 0 && line < static_cast<int64_t>(display_of_file_line_.size()) &&
                    display_of_file_line_[line] >= 0)
                    source_metric_[display_of_file_line_[line]] = v;
        }
    }
    listing_metric_max_ = sml::metric_max(listing_metric_);
    source_metric_max_ = sml::metric_max(source_metric_);
}

}  // namespace sml::viewer
