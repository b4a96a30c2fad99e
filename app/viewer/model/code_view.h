// The PTX and SASS views' model, with no ImGui: for the kernel shown, the entry points of its PTX
// or SASS (or of a peer listing such as the Triton tutorial's PTX), the one selected, the source
// file beside it, how their lines link, where the listing came from, and per-line metrics.
//
// Files are indexed once (core/code/asm_listing.h) and kept while the viewer runs; one entry is
// loaded at a time. Entries are listed in the order a learner needs them:
//   1. the instantiation that ran at the N on screen (the session's launch records, or the
//      recording's own sweep when the session predates them and the sources still match);
//   2. those holding an instruction the lesson step anchors;
//   3. the others that ran in the session or recording;
//   4. the rest, hidden until "all" is ticked (best has 216) when something says what ran;
//      when nothing does, all of them, or in a file of many, those of the dtype on screen.
// Hovering a source line lights the instructions its chain reaches; hovering an instruction
// lights its source line and the instructions charged to it (core/code/line_map.h).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/viewer/model/source_doc.h"
#include "common/result.h"
#include "core/code/asm_listing.h"
#include "core/code/code_manifest.h"
#include "core/code/line_map.h"
#include "core/code/line_metrics.h"
#include "core/code/peer_listings.h"
#include "core/session/session.h"

namespace sml::viewer {

enum class CodeListing { ptx, sass, peer };

// What the model needs from the viewer's state.
struct CodeContext {
    std::string repo_root;  // SML_SOURCE_DIR
    std::string build_dir;  // SML_BUILD_DIR: build/ptx/, build/code/ (the unpacked recording)
    std::string kernel;     // registry id
    const Session* session = nullptr;
    int64_t cols = 0;  // the N on screen
    std::string dtype = "fp32";
    std::vector<std::string> ptx_anchors;  // the step's PTX patterns for this kernel
    std::string lang = "en";
};

struct EntryChoice {
    int file = 0;        // into the model's files
    int entry = 0;       // into that file's index
    std::string label;   // short name, and why it is listed
    std::string detail;  // tooltip: the demangled name, the file, the N it ran at
    bool ran_here = false;
    bool ran = false;
    bool anchored = false;
};

// A jump target in the listing: an anchor pattern, its note and the lines it matches.
struct ListingAnchor {
    std::string pattern, label, note;
    std::vector<int> lines;  // listing lines (0-based)
};

// Number of link colours (Palette::link).
constexpr int kLinkSlots = 6;

class CodeModel {
  public:
    // Shows `which` for ctx.kernel (peer: the first peer listing beside it). Keeps the selected
    // function when the new list has it; re-reads nothing already indexed.
    void set(const CodeContext& ctx, CodeListing which);
    // Peer listings beside ctx.kernel (assets/ptx/listings.json); empty for most kernels.
    const std::vector<PeerListing>& peers() const { return peers_here_; }
    CodeListing which() const { return which_; }

    const std::vector<EntryChoice>& choices() const { return choices_; }
    int selected() const { return selected_; }
    void select(int choice);
    // Entries left out of choices() until show_all is set.
    int hidden() const { return hidden_; }
    // Set when the session (or recording) says what ran but none of it is in these files: every
    // entry is then listed, and this says so ("" otherwise).
    const std::string& list_note() const { return list_note_; }
    bool show_all() const { return show_all_; }
    void set_show_all(bool on);
    // Selects the first entry that holds an instruction matching `ptx_pattern`; false if none.
    bool select_holding(const std::string& ptx_pattern);

    // The listing shown, or null with message() and hint() saying why (not recorded yet, ...).
    const AsmListing* listing() const { return listing_ ? &*listing_ : nullptr; }
    const SourceDoc* listing_doc() const { return listing_ ? &listing_doc_ : nullptr; }
    const std::string& message() const { return message_; }
    const std::string& hint() const { return hint_; }
    // Where the listing came from, in one line, and a note when its sources differ from the
    // checkout's or are unknown (empty when they match).
    const std::string& origin() const { return origin_; }
    const std::string& provenance_note() const { return provenance_note_; }

    // The source file the listing's lines are linked to (repo-relative) and its document.
    const std::string& source_path() const { return source_path_; }
    const SourceDoc* source_doc() const {
        return source_doc_ && source_doc_->ok() ? &source_doc_->value() : nullptr;
    }
    const LineMap& map() const { return map_; }

    // Link colours per display line (-1: none) and the lines a hover lights.
    const std::vector<int>& source_slots() const { return source_slots_; }
    const std::vector<int>& listing_slots() const { return listing_slots_; }
    const std::vector<char>& source_lit() const { return source_lit_; }
    const std::vector<char>& listing_lit() const { return listing_lit_; }
    void hover_source(int display_line);
    void hover_listing(int listing_line);
    void hover_none();
    // What the hover links, in words: "warp_softmax.cu:97 -> 10 instructions (click: go to
    // 0f50)" or "0fb0 SHFL.BFLY <- warp_softmax.cu:44, inlined at :97". Empty when nothing.
    const std::string& hover_text() const { return hover_text_; }
    // Where to start reading a newly loaded listing: its first anchored line, else its first
    // instruction; and the source line that one came from (display lines, -1 if none).
    int start_listing_line() const;
    int start_source_line() const;
    // Where to scroll the other pane after a click: its first linked line, or -1.
    int first_listing_line_of(int source_display_line) const;
    int source_display_line_of(int listing_line) const;

    // Anchors in this listing: the step's PTX anchors, or the peer listing's own.
    const std::vector<ListingAnchor>& anchors() const { return anchors_; }
    std::vector<int> anchor_lines() const;  // every anchored line, sorted

    // Per-line metrics (the lab bench's counters): the first that applies to the listing is
    // shown, per listing line and summed onto source lines. Values are NaN where there is none.
    void set_metrics(std::vector<LineMetric> metrics);
    const LineMetric* metric() const { return metric_ >= 0 ? &metrics_[metric_] : nullptr; }
    const std::vector<double>& listing_metric() const { return listing_metric_; }
    const std::vector<double>& source_metric() const { return source_metric_; }
    double listing_metric_max() const { return listing_metric_max_; }
    double source_metric_max() const { return source_metric_max_; }

  private:
    struct File {
        std::string path;
        std::string source;  // repo-relative source it was compiled from
        bool recorded = false;
        std::shared_ptr<const Result<AsmIndex>> index;
    };
    std::shared_ptr<const Result<AsmIndex>> index_of(const std::string& path, AsmKind kind);
    void collect_files();
    void build_choices();
    void load_selected();
    void relink();
    void refresh_metric();
    // check_code_provenance for a recorded file, hashed once per source while the viewer runs.
    const CodeProvenance& provenance(const std::string& source, const std::string& what);

    CodeContext ctx_;
    CodeListing which_ = CodeListing::ptx;
    std::map<std::string, std::shared_ptr<const Result<AsmIndex>>> indexed_;  // by path
    std::vector<PeerListing> peers_all_, peers_here_;
    bool peers_loaded_ = false;
    std::unique_ptr<CodeManifest> manifest_;
    std::map<std::string, CodeProvenance> provenance_;  // by what + source
    bool manifest_loaded_ = false;
    std::vector<File> files_;
    std::vector<EntryChoice> choices_;
    int selected_ = -1, hidden_ = 0;
    bool show_all_ = false;
    bool reindexed_ = false;  // load_selected is retrying after a file changed
    std::string selected_key_;
    std::optional<AsmListing> listing_;
    SourceDoc listing_doc_;
    std::string message_, hint_, origin_, provenance_note_, list_note_;
    std::string source_path_;
    std::map<std::string, std::shared_ptr<const Result<SourceDoc>>> source_docs_;  // by path
    std::shared_ptr<const Result<SourceDoc>> source_doc_;
    LineMap map_;
    std::vector<int> display_of_file_line_;  // source file line -> display line (-1 hidden)
    std::vector<int> source_slots_, listing_slots_;
    std::vector<char> source_lit_, listing_lit_;
    std::string hover_text_;
    std::vector<ListingAnchor> anchors_;
    std::vector<LineMetric> metrics_;
    int metric_ = -1;
    std::vector<double> listing_metric_, source_metric_;
    double listing_metric_max_ = 0, source_metric_max_ = 0;
};

}  // namespace sml::viewer
