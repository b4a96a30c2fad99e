// Which sources a recording of generated code (SASS, PTX) was built from.
//
// A kernel's SASS and PTX come from its .cu file and the repository headers it includes. A
// recording (bench/device_run.sh, `softmaxlab-cli record-code`) stores the hash of each of those
// files; the viewer hashes the checkout's files the same way and says so when they differ, so a
// learner never reads SASS as the output of code it did not come from.
//
// The hash is 64-bit FNV-1a over the file's bytes, written "fnv1a64:<16 hex digits>". It is not
// a defence against tampering, only a cheap way to notice an edit; it is defined here and
// nowhere else.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace sml {

uint64_t fnv1a64(std::string_view bytes);

// "fnv1a64:" followed by the 16 lower-case hex digits of fnv1a64(bytes).
std::string source_hash(std::string_view bytes);

// source_hash of the regular file at `path`; error names the path.
Result<std::string> hash_file(const std::string& path);

// The files `rel_path` (relative to `repo_root`) is built from: itself first, then every
// repository file it includes with #include "..." (resolved against the including file's folder,
// then the repository root, as nvcc -I<root> does), transitively, each once, in the order met.
// Includes that resolve to no file in the repository (CUDA's, the standard library's) are
// skipped. Paths are relative to `repo_root`, with '/' separators.
std::vector<std::string> source_closure(const std::string& repo_root, const std::string& rel_path);

}  // namespace sml
