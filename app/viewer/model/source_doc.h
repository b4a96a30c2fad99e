// A kernel source file as the Source panel shows it: marker lines removed, every line split
// into coloured tokens, and the named regions resolved to display lines.
//
// Region markers are parsed by the core (core/lessons/annotated_source.h), the same parser the
// lesson tests use, so the viewer and the tests can never disagree on where a region is. The
// marker lines are hidden here, so regions are counted in *display* lines; `file_line` keeps the
// real line number (shown in the gutter, so it matches an editor and compiler errors).
#pragma once

#include <string>
#include <vector>

#include "common/result.h"
#include "core/code/asm_listing.h"

namespace sml::viewer {

enum class SourceLang { cuda, ptx, sass, python };

// The language of a source file by its extension: .py is python, everything else CUDA.
SourceLang source_lang_for_path(const std::string& path);

enum class TokenKind {
    plain,
    keyword,       // C++ keywords; PTX opcodes
    type,          // int, float, float4, dim3, ...; PTX types (.f32, .b64)
    cuda_builtin,  // threadIdx, __shfl_xor_sync, __syncthreads; PTX special registers (%tid)
    number,
    string,
    comment,
    preprocessor,   // #include ...; PTX directives (.visible, .entry, .loc)
    register_name,  // PTX %r12, %f3
};

struct Token {
    int begin = 0;  // byte offsets into SourceLine::text
    int end = 0;
    TokenKind kind = TokenKind::plain;
};

struct SourceLine {
    int file_line = 0;  // 1-based line number in the file
    std::string text;
    std::vector<Token> tokens;  // cover text from start to end, in order
};

struct DisplayRegion {
    std::string name;
    std::string note;
    int first = 0;  // display line index (0-based, inclusive)
    int last = 0;   // inclusive; last < first for a region with no code in it
};

class SourceDoc {
  public:
    // Parses `text`. For CUDA, bad region markers are errors naming `origin` and the line.
    static Result<SourceDoc> parse(const std::string& text, SourceLang lang,
                                   const std::string& origin);
    static Result<SourceDoc> load(const std::string& path, SourceLang lang);
    // One entry point of PTX or SASS (core/code/asm_listing.h), line for line: display line i is
    // listing line i. SASS addresses are coloured as line numbers.
    static SourceDoc from_listing(const AsmListing& listing);

    const std::vector<SourceLine>& lines() const { return lines_; }
    const std::vector<DisplayRegion>& regions() const { return regions_; }
    const DisplayRegion* find_region(const std::string& name) const;  // nullptr if absent
    // Innermost region containing display line `line`, or nullptr.
    const DisplayRegion* region_at(int line) const;
    // Columns of the widest line, a tab counting as 4 (what the Source panel draws): the
    // scroll width, counted once here rather than over thousands of PTX lines every frame.
    int max_columns() const { return max_columns_; }
    SourceLang lang() const { return lang_; }
    const std::string& origin() const { return origin_; }

  private:
    std::vector<SourceLine> lines_;
    std::vector<DisplayRegion> regions_;
    SourceLang lang_ = SourceLang::cuda;
    std::string origin_;
    int max_columns_ = 0;
};

// Splits one line into tokens. `in_block_comment` carries a /* ... */ across lines.
std::vector<Token> tokenize_line(const std::string& line, SourceLang lang, bool* in_block_comment);

}  // namespace sml::viewer
