// PTX and SASS as a learner reads them: one entry point at a time, names demangled, SASS in
// aligned columns, and every instruction tied to the source lines it came from.
//
// A kernel file compiles to many entry points (best's to 216, 44 MB of PTX and 165 MB of SASS
// with encodings), so nothing here reads a whole file into a view. index_asm_file() streams the
// file once and notes where each entry point starts and ends (byte offsets), which source files
// its line info names, and which opcodes it uses; load_asm_entry() then reads one entry's bytes.
//
// Formats read:
//   PTX       nvcc -ptx -lineinfo, and Triton's PTX. `.loc F L C[, function_name X,
//             inlined_at F2 L2 C2]` lines give each following instruction its source line (and
//             the line it was inlined at); they are hidden from the listing. `.file N "path"`
//             names file N.
//   SASS      nvdisasm -c -gi (what bench/device_run.sh records): `//## File "p", line N
//             [inlined at "q", line M]` lines before an instruction form its inline chain,
//             innermost first. Also cuobjdump -sass (older recordings), which has no line info:
//             its encoding-only lines are dropped.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace sml {

enum class AsmKind { ptx, sass };

// The demangled form of a C++ symbol ("_ZN3sml..." -> "void sml::best::best_group_kernel<float,
// 4, 32, 1>(float const*, ...)"); the symbol itself when it is not a mangled C++ name.
std::string demangle_symbol(const std::string& symbol);

// What a listing calls a function: the demangled name without return type, parameters and
// namespaces ("best_group_kernel<float, 4, 32, 1>", "warp_softmax_kernel<32, 2, 4>").
std::string short_function_name(const std::string& symbol);

// The same function in PTX, SASS and a session's launch record, whatever the build: the
// demangled name, in which anonymous namespaces (whose mangled names hash the build's paths)
// all read "(anonymous namespace)".
std::string function_key(const std::string& symbol);

// True when PTX mnemonic `mnemonic` ("ld.global.nc.v4.f32") matches lesson pattern `pattern`
// ("ld.global.v4.f32"): the first dot-separated part equal, the pattern's other parts in order
// (core/lessons/annotated_source.h's find_ptx_lines rule).
bool ptx_opcode_matches(const std::string& mnemonic, const std::string& pattern);

struct AsmEntry {
    std::string symbol;      // as in the file (mangled)
    std::string key;         // function_key(symbol)
    std::string short_name;  // short_function_name(symbol)
    bool kernel = true;      // a __global__ entry point (false: a device function, .func)
    int64_t begin = 0;       // byte offset of its first line in the file
    int64_t end = 0;         // byte offset just past its last line
    int first_line = 0;      // 1-based line number of its first line
    int instructions = 0;
    std::vector<std::string> opcodes;  // distinct mnemonics, sorted

    bool uses(const std::string& ptx_pattern) const;  // some opcode matches (ptx_opcode_matches)
};

// One pass over a PTX or SASS file: its entry points and its file table.
struct AsmIndex {
    AsmKind kind = AsmKind::ptx;
    std::string origin;  // path, or a label for text indexed in memory
    std::string format;  // "ptx", "nvdisasm" or "cuobjdump"
    std::vector<AsmEntry> entries;
    std::vector<std::string> files;  // PTX: .file table, files[N] = file N ("" where unnamed)
    bool line_info = false;          // any .loc or //## line seen
    int64_t bytes = 0;
    std::shared_ptr<const std::string> text;  // set by index_asm_text only

    // Index of the entry with this symbol or function_key; -1 if none.
    int find(const std::string& symbol_or_key) const;
};

Result<AsmIndex> index_asm_file(const std::string& path, AsmKind kind);
AsmIndex index_asm_text(std::string text, AsmKind kind, const std::string& origin);

// One frame of an instruction's inline chain: a line of a source file.
struct AsmFrame {
    int file = 0;  // index into AsmListing::files
    int line = 0;  // 1-based
};

struct AsmLine {
    std::string text;   // as shown: names demangled; SASS in aligned columns
    int file_line = 0;  // 1-based line in the file it was read from
    bool instruction = false;
    std::string opcode;    // instructions: the mnemonic, without predicate
    int64_t address = -1;  // SASS instructions: the offset in the function ("/*0f50*/")
    int address_chars =
        0;                 // SASS instructions: how many leading characters of text are the address
    int frames_begin = 0;  // the inline chain, innermost first: frames[frames_begin, frames_end)
    int frames_end = 0;
};

struct AsmListing {
    AsmKind kind = AsmKind::ptx;
    std::string origin;              // file path
    AsmEntry entry;                  // which entry point
    std::vector<std::string> files;  // source paths as the compiler wrote them
    std::vector<AsmFrame> frames;
    std::vector<AsmLine> lines;
    bool line_info = false;  // some instruction has a frame

    // 0-based indices of the instruction lines whose opcode matches a PTX pattern.
    std::vector<int> lines_matching(const std::string& ptx_pattern) const;
};

// Bytes [begin, end) of the indexed file (or text); fails when the file changed size since.
Result<std::string> read_asm_bytes(const AsmIndex& index, int64_t begin, int64_t end);

// Reads and parses entry `i` of `index` (only that entry's bytes).
Result<AsmListing> load_asm_entry(const AsmIndex& index, size_t i);

// Parses one entry's text. `first_line` numbers its first line; `ptx_files` is the PTX file
// table (AsmIndex::files).
AsmListing parse_asm_entry(std::string_view text, AsmKind kind, const AsmEntry& entry,
                           const std::vector<std::string>& ptx_files, const std::string& origin);

}  // namespace sml
