// The manifest of a recording of generated code, and what it says about the checkout.
//
// bench/device_run.sh records, on the GPU machine, the SASS (nvdisasm, with line info) and the
// PTX of every kernel file, keeps the entry points that matter (`softmaxlab-cli record-code`),
// and writes beside them manifest.json:
//
//   { "schema": 1, "created_utc": "...", "git": "96c9c48", "device": "NVIDIA H100 80GB HBM3",
//     "arch": "sm_90", "software": {"nvcc": "...", "nvdisasm": "..."}, "hash": "fnv1a64",
//     "selection": "what was kept, in words",
//     "sources": {"kernels/warp_softmax.cu": "fnv1a64:...", "kernels/softmax_common.cuh": ...},
//     "units": [{"source": "kernels/warp_softmax.cu", "built_from": ["kernels/warp_softmax.cu",
//                 ...], "sass": "sass/warp_softmax.sass", "ptx": "ptx/warp_softmax.ptx",
//                "entries_kept": 2, "entries_built": 15,
//                "launched": [{"kernel": "warp", "variant": "", "dtype": "fp32", "rows": 262144,
//                              "cols": 1024, "function": "_ZN3sml..."}, ...]}] }
//
// The viewer compares a unit's `built_from` hashes with the checkout's (core/code/source_hash.h)
// and shows a note when they differ. A recording without a manifest (those made before hashes
// were kept) is of unknown provenance, and says so.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/result.h"

namespace sml {

// A function the recording's session launched for one of its points: the instantiation a
// kernel's dispatcher picks at that N, on the recording's device.
struct CodeLaunch {
    std::string kernel;  // registry id
    std::string variant;
    std::string dtype;
    int64_t rows = 0, cols = 0;
    std::string function;  // symbol (mangled)
};

struct CodeUnit {
    std::string source;                   // repo-relative .cu path
    std::vector<std::string> built_from;  // source_closure(source) at recording time
    std::string sass;                     // path relative to the manifest's folder; "" = none
    std::string ptx;                      // likewise
    int entries_kept = 0;                 // entry points kept in the recording
    int entries_built = 0;                // entry points the build had
    std::vector<CodeLaunch> launched;     // what the session ran from this file, point by point
};

struct CodeManifest {
    int schema = 1;
    std::string created_utc;
    std::string git;
    std::string device;
    std::string arch;
    std::map<std::string, std::string> software;
    std::string hash = "fnv1a64";
    std::string selection;
    std::map<std::string, std::string> sources;  // repo-relative path -> source_hash
    std::vector<CodeUnit> units;

    const CodeUnit* find_unit(const std::string& source) const;  // nullptr if absent
};

Result<CodeManifest> parse_code_manifest(const std::string& json_text, const std::string& origin);
Result<CodeManifest> load_code_manifest(const std::string& path);
std::string code_manifest_json(const CodeManifest& m);

// Whether the code recorded for `source` came from the checkout's files.
struct CodeProvenance {
    enum class State {
        matches,  // every file it was built from has the checkout's bytes
        differs,  // some file changed, appeared or went since the recording
        unknown,  // no manifest, or the manifest does not cover this source
    };
    State state = State::unknown;
    std::vector<std::string> changed;  // repo-relative paths that differ
    std::string note;                  // one line for the viewer; "" when it matches
};

// `manifest` may be null (a recording without one). `what` names the code ("SASS", "PTX").
CodeProvenance check_code_provenance(const CodeManifest* manifest, const std::string& repo_root,
                                     const std::string& source, const std::string& what);

}  // namespace sml
