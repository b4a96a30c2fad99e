// PTX of other implementations shown beside a kernel's own (assets/ptx/listings.json): the
// Triton fused-softmax tutorial's PTX next to the CUDA port's, in step 2.
//
// Each listing names the kernel it sits beside, the PTX file (dumped on a GPU machine, e.g. by
// bench/dump_triton_ptx.py, with a <file>.json provenance sidecar), the source its .loc lines
// point into, the command that records it, and anchors: instruction patterns with a note in each
// language. Until the PTX is recorded, the viewer says so and shows that command.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/result.h"

namespace sml {

struct PeerAnchor {
    std::string ptx;                          // pattern (ptx_opcode_matches)
    std::string label;                        // short, for the anchor buttons
    std::map<std::string, std::string> note;  // language -> one paragraph

    const std::string& note_in(const std::string& lang) const;  // falls back to "en"
};

struct PeerListing {
    std::string id;
    std::string kernel;                        // registry id of the kernel it sits beside
    std::map<std::string, std::string> title;  // language -> "Triton tutorial's PTX"
    std::string ptx;                           // absolute path of the PTX file (may not exist yet)
    std::string source;                        // repo-relative path its .loc lines name
    std::string record;                        // the command that records it
    std::vector<PeerAnchor> anchors;

    const std::string& title_in(const std::string& lang) const;
};

// Reads <dir>/listings.json; `dir` is usually SML_SOURCE_DIR "/assets/ptx".
Result<std::vector<PeerListing>> load_peer_listings(const std::string& dir);

// One line from the provenance sidecar "<ptx>.json" (bench/dump_triton_ptx.py): software,
// device, date and the compiled kernel's shape. Error when it is missing or unreadable.
Result<std::string> peer_provenance_line(const std::string& json_path);

}  // namespace sml
