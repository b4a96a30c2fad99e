// Making a recording of generated code small and self-describing (`softmaxlab-cli
// record-code`, run by bench/device_run.sh on the GPU machine).
//
// In: the build's PTX (<ptx_dir>/<stem>.ptx) and the SASS dumped from its objects
// (<sass_dir>/<stem>.sass, nvdisasm -c -gi), for every source file of every registry kernel.
// Out, in <out_dir>: ptx/<stem>.ptx and sass/<stem>.sass holding only the entry points that
// matter, and manifest.json (core/code/code_manifest.h) with the hash of every file they were
// built from.
//
// Which entry points matter: those the session launched (LaunchRecord::function), when it
// records them for a kernel of the file; else, for a file with many, its fp32 instantiations
// (what the recorded sessions sweep); else all. Device functions (.func) are always kept.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/result.h"
#include "core/code/code_manifest.h"
#include "core/session/session.h"

namespace sml {

struct RecordCodeOptions {
    std::string repo_root;  // the checkout the build was made from
    std::string ptx_dir;    // "" = no PTX
    std::string sass_dir;   // "" = no SASS
    std::string out_dir;
    const Session* session = nullptr;  // which functions ran; null = keep by the fp32 rule
    std::string session_label;         // how the manifest names the session
    // Copied into the manifest.
    std::string created_utc, git, device, arch;
    std::map<std::string, std::string> software;
};

// Files with more entry points than this keep only their fp32 ones when the session names none.
constexpr int kRecordAllEntriesUpTo = 24;

// Writes the recording; `log` gets one line per file ("kernels/warp_softmax.cu: SASS 2 of 15
// entries, PTX 2 of 15"). Fails when a file cannot be read or written, and, before writing
// anything, when no source file has a PTX or SASS file at all; one missing is logged and skipped.
Result<CodeManifest> record_code(const RecordCodeOptions& options, std::vector<std::string>* log);

}  // namespace sml
