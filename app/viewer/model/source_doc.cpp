// Source tokenizer and region markers. See source_doc.h.
#include "app/viewer/model/source_doc.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

#include "core/lessons/annotated_source.h"

namespace sml::viewer {

namespace {

// [SECTION] word lists --------------------------------------------------------------------------
const std::set<std::string>& cpp_keywords() {
    static const std::set<std::string> k = {"if",
                                            "else",
                                            "for",
                                            "while",
                                            "do",
                                            "return",
                                            "break",
                                            "continue",
                                            "switch",
                                            "case",
                                            "default",
                                            "const",
                                            "constexpr",
                                            "static",
                                            "inline",
                                            "template",
                                            "typename",
                                            "struct",
                                            "class",
                                            "namespace",
                                            "using",
                                            "auto",
                                            "true",
                                            "false",
                                            "nullptr",
                                            "sizeof",
                                            "static_cast",
                                            "reinterpret_cast",
                                            "__global__",
                                            "__device__",
                                            "__host__",
                                            "__shared__",
                                            "__restrict__",
                                            "__forceinline__",
                                            "__launch_bounds__",
                                            "extern",
                                            "enum",
                                            "public",
                                            "private",
                                            "operator",
                                            "volatile",
                                            "#pragma",
                                            "static_assert",
                                            "noexcept",
                                            "this"};
    return k;
}

const std::set<std::string>& cpp_types() {
    static const std::set<std::string> t = {"void",
                                            "bool",
                                            "char",
                                            "int",
                                            "unsigned",
                                            "long",
                                            "short",
                                            "float",
                                            "double",
                                            "size_t",
                                            "int64_t",
                                            "int32_t",
                                            "uint32_t",
                                            "uint64_t",
                                            "float2",
                                            "float4",
                                            "half",
                                            "__half",
                                            "__nv_bfloat16",
                                            "dim3",
                                            "cudaError_t",
                                            "cudaStream_t",
                                            "std",
                                            "KernelInfo",
                                            "LaunchArgs",
                                            "LaunchStep",
                                            "Traffic",
                                            "SoftmaxProblem",
                                            "DeviceLimits",
                                            "DType",
                                            "T"};
    return t;
}

bool is_cuda_builtin(const std::string& w) {
    static const std::set<std::string> b = {
        "threadIdx",     "blockIdx",   "blockDim",        "gridDim",     "warpSize",
        "__syncthreads", "__syncwarp", "__shfl_xor_sync", "__shfl_sync", "__shfl_down_sync",
        "__expf",        "expf",       "exp2f",           "__fdividef",  "fmaxf",
        "__ldg",         "__stcs",     "atomicAdd",       "INFINITY"};
    return b.count(w) > 0 || w.rfind("__shfl", 0) == 0 || w.rfind("cuda", 0) == 0;
}

bool is_ident_start(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool is_ident_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

void push(std::vector<Token>* out, int b, int e, TokenKind k) {
    if (e <= b) return;
    if (!out->empty() && out->back().kind == k && out->back().end == b) {
        out->back().end = e;  // merge neighbours of one kind: fewer draw calls
        return;
    }
    out->push_back(Token{b, e, k});
}

// [SECTION] CUDA / C++ -------------------------------------------------------------------------
std::vector<Token> tokenize_cuda(const std::string& s, bool* in_block) {
    std::vector<Token> out;
    const int n = static_cast<int>(s.size());
    int i = 0;
    if (*in_block) {
        size_t close = s.find("*/");
        if (close == std::string::npos) {
            push(&out, 0, n, TokenKind::comment);
            return out;
        }
        *in_block = false;
        i = static_cast<int>(close) + 2;
        push(&out, 0, i, TokenKind::comment);
    }
    size_t first = s.find_first_not_of(" \t");
    if (first != std::string::npos && s[first] == '#' && i == 0) {
        push(&out, 0, n, TokenKind::preprocessor);
        return out;
    }
    while (i < n) {
        const char c = s[i];
        if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            push(&out, i, n, TokenKind::comment);
            return out;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            size_t close = s.find("*/", i + 2);
            int e = close == std::string::npos ? n : static_cast<int>(close) + 2;
            if (close == std::string::npos) *in_block = true;
            push(&out, i, e, TokenKind::comment);
            i = e;
            continue;
        }
        if (c == '"' || c == '\'') {
            int j = i + 1;
            while (j < n && s[j] != c) j += (s[j] == '\\') ? 2 : 1;
            j = std::min(j + 1, n);
            push(&out, i, j, TokenKind::string);
            i = j;
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) ||
            (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
            int j = i + 1;
            while (j < n && (is_ident_char(s[j]) || s[j] == '.')) ++j;
            push(&out, i, j, TokenKind::number);
            i = j;
            continue;
        }
        if (is_ident_start(c)) {
            int j = i + 1;
            while (j < n && is_ident_char(s[j])) ++j;
            const std::string w = s.substr(i, j - i);
            TokenKind k = TokenKind::plain;
            if (cpp_keywords().count(w))
                k = TokenKind::keyword;
            else if (cpp_types().count(w))
                k = TokenKind::type;
            else if (is_cuda_builtin(w))
                k = TokenKind::cuda_builtin;
            push(&out, i, j, k);
            i = j;
            continue;
        }
        push(&out, i, i + 1, TokenKind::plain);
        ++i;
    }
    return out;
}

// [SECTION] PTX / SASS -------------------------------------------------------------------------
std::vector<Token> tokenize_asm(const std::string& s) {
    std::vector<Token> out;
    const int n = static_cast<int>(s.size());
    int i = 0;
    bool seen_opcode = false;
    while (i < n) {
        const char c = s[i];
        if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            push(&out, i, n, TokenKind::comment);
            return out;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '*') {  // SASS lines open with /*0070*/
            size_t close = s.find("*/", i + 2);
            const int e = close == std::string::npos ? n : static_cast<int>(close) + 2;
            push(&out, i, e, TokenKind::comment);
            i = e;
            continue;
        }
        if (c == '%') {  // %r1, %f12, %tid.x
            int j = i + 1;
            while (j < n && (is_ident_char(s[j]))) ++j;
            const std::string w = s.substr(i + 1, j - i - 1);
            const bool special = w == "tid" || w == "ntid" || w == "ctaid" || w == "nctaid" ||
                                 w == "laneid" || w == "warpid" || w == "clock";
            push(&out, i, j, special ? TokenKind::cuda_builtin : TokenKind::register_name);
            i = j;
            continue;
        }
        if (c == '.' && i + 1 < n && is_ident_start(s[i + 1])) {  // .f32, .entry, .loc
            int j = i + 1;
            while (j < n && is_ident_char(s[j])) ++j;
            const std::string w = s.substr(i + 1, j - i - 1);
            const bool type = w.size() <= 4 && (w[0] == 'f' || w[0] == 'b' || w[0] == 'u' ||
                                                w[0] == 's' || w == "pred" || w[0] == 'v');
            push(&out, i, j, (!seen_opcode && !type) ? TokenKind::preprocessor : TokenKind::type);
            i = j;
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) ||
            (c == '-' && i + 1 < n && std::isdigit(static_cast<unsigned char>(s[i + 1])))) {
            int j = i + 1;
            while (j < n && (std::isxdigit(static_cast<unsigned char>(s[j])) || s[j] == 'x' ||
                             s[j] == 'X' || s[j] == '.'))
                ++j;
            push(&out, i, j, TokenKind::number);
            i = j;
            continue;
        }
        if (is_ident_start(c) || c == '@') {
            int j = i + 1;
            while (j < n && (is_ident_char(s[j]) || s[j] == '$')) ++j;
            // The first word on a line is the opcode (ld, st, shfl, fma, ...), unless a label.
            const bool label = j < n && s[j] == ':';
            TokenKind k = TokenKind::plain;
            // SASS registers: R12, P0, UR4, RZ, PT.
            const std::string w = s.substr(i, j - i);
            const bool sass_reg =
                seen_opcode && w.size() >= 2 &&
                ((w[0] == 'R' || w[0] == 'P' || (w[0] == 'U' && w[1] == 'R')) &&
                 (std::isdigit(static_cast<unsigned char>(w.back())) || w == "RZ" || w == "PT"));
            if (sass_reg) k = TokenKind::register_name;
            if (!seen_opcode && !label && c != '@') {
                k = TokenKind::keyword;
                seen_opcode = true;
            }
            push(&out, i, j, k);
            i = j;
            continue;
        }
        push(&out, i, i + 1, TokenKind::plain);
        ++i;
    }
    return out;
}

// [SECTION] Python (the Triton tutorial's kernel beside its PTX)
// ------------------------------------
std::vector<Token> tokenize_python(const std::string& s) {
    static const std::set<std::string> keywords = {
        "def",   "return", "for",  "in",    "if",       "else", "elif",   "while", "import",
        "from",  "as",     "with", "class", "not",      "and",  "or",     "None",  "True",
        "False", "lambda", "pass", "break", "continue", "try",  "except", "raise", "yield"};
    std::vector<Token> out;
    const int n = static_cast<int>(s.size());
    int i = 0;
    while (i < n) {
        const char c = s[i];
        if (c == '#') {
            push(&out, i, n, TokenKind::comment);
            return out;
        }
        if (c == '@' && s.find_first_not_of(" \t") == static_cast<size_t>(i)) {
            push(&out, i, n, TokenKind::preprocessor);  // a decorator: @triton.jit
            return out;
        }
        if (c == '"' || c == '\'') {
            int j = i + 1;
            while (j < n && s[j] != c) j += (s[j] == '\\') ? 2 : 1;
            j = std::min(j + 1, n);
            push(&out, i, j, TokenKind::string);
            i = j;
            continue;
        }
        if (std::isdigit(static_cast<unsigned char>(c))) {
            int j = i + 1;
            while (j < n && (is_ident_char(s[j]) || s[j] == '.')) ++j;
            push(&out, i, j, TokenKind::number);
            i = j;
            continue;
        }
        if (is_ident_start(c)) {
            int j = i + 1;
            while (j < n && is_ident_char(s[j])) ++j;
            const std::string w = s.substr(i, j - i);
            TokenKind k = TokenKind::plain;
            if (keywords.count(w))
                k = TokenKind::keyword;
            else if (w == "tl" || w == "triton" || w == "torch")
                k = TokenKind::cuda_builtin;
            push(&out, i, j, k);
            i = j;
            continue;
        }
        push(&out, i, i + 1, TokenKind::plain);
        ++i;
    }
    return out;
}

}  // namespace

SourceLang source_lang_for_path(const std::string& path) {
    const size_t dot = path.find_last_of('.');
    return dot != std::string::npos && path.substr(dot) == ".py" ? SourceLang::python
                                                                 : SourceLang::cuda;
}

std::vector<Token> tokenize_line(const std::string& line, SourceLang lang, bool* in_block_comment) {
    if (lang == SourceLang::cuda) return tokenize_cuda(line, in_block_comment);
    if (lang == SourceLang::python) return tokenize_python(line);
    return tokenize_asm(line);
}

SourceDoc SourceDoc::from_listing(const AsmListing& listing) {
    SourceDoc doc;
    doc.lang_ = listing.kind == AsmKind::sass ? SourceLang::sass : SourceLang::ptx;
    doc.origin_ = listing.origin;
    doc.lines_.reserve(listing.lines.size());
    bool in_block = false;
    for (const AsmLine& a : listing.lines) {
        SourceLine sl;
        sl.file_line = a.file_line;
        sl.text = a.text;
        if (a.address_chars > 0 && static_cast<size_t>(a.address_chars) <= a.text.size()) {
            // "0f50  @P0 FMNMX ...": the address in the line numbers' colour, then the
            // instruction as any other.
            sl.tokens.push_back(Token{0, a.address_chars, TokenKind::comment});
            for (Token t : tokenize_line(a.text.substr(a.address_chars), doc.lang_, &in_block)) {
                t.begin += a.address_chars;
                t.end += a.address_chars;
                sl.tokens.push_back(t);
            }
        } else {
            sl.tokens = tokenize_line(a.text, doc.lang_, &in_block);
        }
        const int tabs = static_cast<int>(std::count(sl.text.begin(), sl.text.end(), '\t'));
        doc.max_columns_ = std::max(doc.max_columns_, static_cast<int>(sl.text.size()) + 3 * tabs);
        doc.lines_.push_back(std::move(sl));
    }
    return doc;
}

Result<SourceDoc> SourceDoc::parse(const std::string& text, SourceLang lang,
                                   const std::string& origin) {
    SourceDoc doc;
    doc.lang_ = lang;
    doc.origin_ = origin;
    std::vector<std::string> raw;
    std::vector<bool> hidden;
    std::vector<sml::SourceRegion> file_regions;
    if (lang == SourceLang::cuda || lang == SourceLang::python) {
        Result<AnnotatedSource> a = parse_annotated_source(text, origin);
        if (!a) return a.error();
        raw = std::move(a->lines);
        hidden = std::move(a->is_marker);
        file_regions = std::move(a->regions);
    } else {
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);) raw.push_back(std::move(line));
        hidden.assign(raw.size(), false);
    }
    // display_of[i]: the display line of file line i+1, or of the next visible line after it.
    std::vector<int> display_of(raw.size() + 1, 0);
    bool in_block = false;
    for (size_t i = 0; i < raw.size(); ++i) {
        display_of[i] = static_cast<int>(doc.lines_.size());
        if (hidden[i]) continue;
        std::string& line = raw[i];
        if (!line.empty() && line.back() == '\r') line.pop_back();
        SourceLine sl;
        sl.file_line = static_cast<int>(i) + 1;
        sl.tokens = tokenize_line(line, lang, &in_block);
        sl.text = std::move(line);
        const int tabs = static_cast<int>(std::count(sl.text.begin(), sl.text.end(), '\t'));
        doc.max_columns_ = std::max(doc.max_columns_, static_cast<int>(sl.text.size()) + 3 * tabs);
        doc.lines_.push_back(std::move(sl));
    }
    display_of[raw.size()] = static_cast<int>(doc.lines_.size());
    for (const sml::SourceRegion& r : file_regions) {
        // first_line/last_line are 1-based code lines; nested markers inside are hidden and
        // simply do not count.
        DisplayRegion d{r.name, r.note, display_of[r.first_line - 1], 0};
        d.last = display_of[r.last_line] - 1;
        doc.regions_.push_back(std::move(d));
    }
    return doc;
}

Result<SourceDoc> SourceDoc::load(const std::string& path, SourceLang lang) {
    Result<std::string> text = read_text_file(path);
    if (!text) {
        Error e = text.error();
        if (lang == SourceLang::ptx) e.hint = "build the sml_ptx target to generate PTX";
        if (lang == SourceLang::sass)
            e.hint =
                "SASS is recorded with cuobjdump on a GPU machine (assets/sass/*-sass.tar.gz); "
                "build the sml_sass target to unpack it";
        return e;
    }
    return parse(*text, lang, path);
}

const DisplayRegion* SourceDoc::find_region(const std::string& name) const {
    for (const DisplayRegion& r : regions_)
        if (r.name == name) return &r;
    return nullptr;
}

const DisplayRegion* SourceDoc::region_at(int line) const {
    const DisplayRegion* best = nullptr;
    for (const DisplayRegion& r : regions_)
        if (line >= r.first && line <= r.last &&
            (!best || r.last - r.first < best->last - best->first))
            best = &r;
    return best;
}

}  // namespace sml::viewer
