// PTX and SASS indexing and listings. See asm_listing.h.
//
// [SECTION] names: demangling and short names
// [SECTION] reading lines with byte offsets
// [SECTION] line classification shared by the index and the parser
// [SECTION] index
// [SECTION] PTX entry
// [SECTION] SASS entry
#include "core/code/asm_listing.h"

#include <cxxabi.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <set>

#include "core/common/text_cap.h"

namespace sml {

namespace {

std::string_view trim_view(std::string_view s) {
    size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string_view::npos) return {};
    size_t e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

bool starts_with(std::string_view s, std::string_view p) {
    return s.substr(0, p.size()) == p;
}

bool is_ident_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::vector<std::string> split_dots(const std::string& s) {
    std::vector<std::string> parts;
    size_t b = 0;
    for (;;) {
        size_t d = s.find('.', b);
        parts.push_back(s.substr(b, d == std::string::npos ? std::string::npos : d - b));
        if (d == std::string::npos) break;
        b = d + 1;
    }
    return parts;
}

}  // namespace

// [SECTION] names: demangling and short names -----------------------------------------------------

std::string demangle_symbol(const std::string& symbol) {
    if (symbol.rfind("_Z", 0) != 0) return symbol;
    int status = 0;
    char* out = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
    if (status != 0 || out == nullptr) {
        std::free(out);
        return symbol;
    }
    std::string s(out);
    std::free(out);
    return s;
}

namespace {

void replace_all(std::string* s, const std::string& from, const std::string& to) {
    for (size_t at = s->find(from); at != std::string::npos; at = s->find(from, at + to.size()))
        s->replace(at, from.size(), to);
}

}  // namespace

std::string short_function_name(const std::string& symbol) {
    std::string d = demangle_symbol(symbol);
    if (d == symbol && symbol.rfind("_Z", 0) == 0) return symbol;  // not demangled: as is
    replace_all(&d, "(anonymous namespace)::", "");
    replace_all(&d, "sml::best::", "");
    replace_all(&d, "sml::", "");
    // Drop the parameter list: the last '(' at template depth 0 whose ')' ends the name.
    int angle = 0, paren = 0;
    size_t params = std::string::npos, name_start = 0;
    for (size_t i = 0; i < d.size(); ++i) {
        const char c = d[i];
        if (c == '<') ++angle;
        if (c == '>') --angle;
        if (angle == 0 && c == '(' && paren == 0) params = i;
        if (c == '(') ++paren;
        if (c == ')') --paren;
        // A space at depth 0 before the name separates the return type ("void f<...>(...)").
        if (angle == 0 && paren == 0 && c == ' ' && params == std::string::npos) name_start = i + 1;
    }
    std::string name =
        d.substr(name_start, params == std::string::npos ? std::string::npos : params - name_start);
    // Any namespace or class still in front of the function's own name.
    angle = 0;
    size_t last_scope = std::string::npos;
    for (size_t i = 0; i + 1 < name.size(); ++i) {
        if (name[i] == '<') ++angle;
        if (name[i] == '>') --angle;
        if (angle == 0 && name[i] == ':' && name[i + 1] == ':') last_scope = i;
    }
    if (last_scope != std::string::npos) name = name.substr(last_scope + 2);
    return name.empty() ? d : name;
}

std::string function_key(const std::string& symbol) {
    return demangle_symbol(symbol);  // anonymous namespaces demangle alike whatever their hash
}

bool ptx_opcode_matches(const std::string& mnemonic, const std::string& pattern) {
    const std::string p(trim_view(pattern));
    if (p.empty()) return false;
    const std::vector<std::string> want = split_dots(p);
    const std::vector<std::string> have = split_dots(mnemonic);
    if (want[0].empty() || have[0] != want[0]) return false;
    size_t w = 1;
    for (size_t h = 1; h < have.size() && w < want.size(); ++h)
        if (have[h] == want[w]) ++w;
    return w == want.size();
}

bool AsmEntry::uses(const std::string& ptx_pattern) const {
    for (const std::string& op : opcodes)
        if (ptx_opcode_matches(op, ptx_pattern)) return true;
    return false;
}

int AsmIndex::find(const std::string& symbol_or_key) const {
    for (size_t i = 0; i < entries.size(); ++i)
        if (entries[i].symbol == symbol_or_key || entries[i].key == symbol_or_key)
            return static_cast<int>(i);
    // A symbol from another build of the same file differs only in its anonymous namespace.
    const std::string key = function_key(symbol_or_key);
    for (size_t i = 0; i < entries.size(); ++i)
        if (entries[i].key == key) return static_cast<int>(i);
    return -1;
}

std::vector<int> AsmListing::lines_matching(const std::string& ptx_pattern) const {
    std::vector<int> out;
    for (size_t i = 0; i < lines.size(); ++i)
        if (lines[i].instruction && ptx_opcode_matches(lines[i].opcode, ptx_pattern))
            out.push_back(static_cast<int>(i));
    return out;
}

namespace {

// [SECTION] reading lines with byte offsets
// --------------------------------------------------------

using LineFn = std::function<void(std::string_view line, int64_t offset, int lineno)>;

void for_each_line_in(std::string_view text, int64_t base, int first_lineno, const LineFn& fn) {
    size_t b = 0;
    int lineno = first_lineno;
    while (b < text.size()) {
        size_t e = text.find('\n', b);
        if (e == std::string_view::npos) e = text.size();
        fn(text.substr(b, e - b), base + static_cast<int64_t>(b), lineno++);
        b = e + 1;
    }
}

// Opens a regular file without blocking on a FIFO or device (as core/common/safe_file does).
Result<int> open_regular(const std::string& path, int64_t* size) {
    int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return Error{"cannot open " + quote_short(path) + ": " + std::strerror(errno),
                     "check the path"};
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return Error{quote_short(path) + " is not a regular file", "give the path of a file"};
    }
    *size = st.st_size;
    return fd;
}

// Streams `path` line by line in 1 MiB reads: a 165 MB SASS file is indexed without holding it.
Status for_each_line_of_file(const std::string& path, int64_t* bytes, const LineFn& fn) {
    Result<int> fd = open_regular(path, bytes);
    if (!fd) return fd.error();
    std::string carry;
    std::vector<char> buf(1 << 20);
    int64_t offset = 0;  // file offset of carry's first byte
    int lineno = 1;
    for (;;) {
        ssize_t n = ::read(*fd, buf.data(), buf.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            ::close(*fd);
            return Error{"cannot read " + quote_short(path) + ": " + std::strerror(errno), ""};
        }
        if (n == 0) break;
        carry.append(buf.data(), static_cast<size_t>(n));
        size_t last_nl = carry.rfind('\n');
        if (last_nl == std::string::npos) continue;
        std::string_view whole(carry.data(), last_nl + 1);
        size_t b = 0;
        while (b < whole.size()) {
            size_t e = whole.find('\n', b);
            fn(whole.substr(b, e - b), offset + static_cast<int64_t>(b), lineno++);
            b = e + 1;
        }
        offset += static_cast<int64_t>(last_nl + 1);
        carry.erase(0, last_nl + 1);
    }
    if (!carry.empty()) fn(carry, offset, lineno);
    ::close(*fd);
    return ok_status();
}

// [SECTION] line classification shared by the index and the parser ------------------------------

// ".visible .entry NAME(", ".func (.param .b32 r) NAME(", ".extern .func ...": the function's
// name, and whether it is a kernel. Empty name: not a function header.
std::string ptx_function_header(std::string_view t, bool* kernel) {
    size_t at = std::string_view::npos;
    for (std::string_view kw : {std::string_view(".entry"), std::string_view(".func")}) {
        size_t p = t.find(kw);
        while (p != std::string_view::npos) {
            const bool word_start = p == 0 || t[p - 1] == ' ' || t[p - 1] == '\t';
            const size_t after = p + kw.size();
            const bool word_end =
                after >= t.size() || t[after] == ' ' || t[after] == '\t' || t[after] == '(';
            if (word_start && word_end) break;
            p = t.find(kw, p + 1);
        }
        if (p == std::string_view::npos) continue;
        // Only linkage words may come before it.
        std::string_view before = trim_view(t.substr(0, p));
        bool linkage_only = true;
        size_t b = 0;
        while (b < before.size()) {
            size_t e = before.find_first_of(" \t", b);
            if (e == std::string_view::npos) e = before.size();
            std::string_view w = before.substr(b, e - b);
            if (!w.empty() && w != ".visible" && w != ".weak" && w != ".extern")
                linkage_only = false;
            b = e + 1;
        }
        if (!linkage_only) continue;
        *kernel = kw == ".entry";
        at = p + kw.size();
        break;
    }
    if (at == std::string_view::npos) return "";
    std::string_view rest = trim_view(t.substr(at));
    if (!rest.empty() && rest[0] == '(') {  // a return value: (.param .b32 func_retval0)
        int depth = 0;
        size_t i = 0;
        for (; i < rest.size(); ++i) {
            if (rest[i] == '(') ++depth;
            if (rest[i] == ')' && --depth == 0) break;
        }
        rest = trim_view(rest.substr(std::min(i + 1, rest.size())));
    }
    size_t e = 0;
    while (e < rest.size() && rest[e] != '(' && rest[e] != ' ' && rest[e] != '\t' && rest[e] != ';')
        ++e;
    return std::string(rest.substr(0, e));
}

// The PTX mnemonic of an instruction line (trimmed), without a predicate guard; "" when the
// line is no instruction (directive, label, brace, comment).
std::string_view ptx_mnemonic_view(std::string_view t);
std::string ptx_mnemonic(std::string_view t) {
    return std::string(ptx_mnemonic_view(t));
}

// The opcode of a SASS instruction line, as a view into `t`; empty when it is none. The
// indexer's fast path (no allocation): parse_sass_instruction below gives all the parts.
std::string_view sass_opcode_view(std::string_view t) {
    if (t.size() < 5 || t[0] != '/' || t[1] != '*' || t[2] == ' ') return {};
    size_t close = t.find("*/");
    if (close == std::string_view::npos) return {};
    std::string_view rest = trim_view(t.substr(close + 2));
    if (!rest.empty() && rest[0] == '@') {
        size_t sp = rest.find_first_of(" \t");
        if (sp == std::string_view::npos) return {};
        rest = trim_view(rest.substr(sp));
    }
    size_t e = rest.find_first_of(" \t;");
    return rest.substr(0, e);
}

// The PTX mnemonic of a trimmed line as a view (see ptx_mnemonic).
std::string_view ptx_mnemonic_view(std::string_view t) {
    if (!t.empty() && t[0] == '@') {
        size_t sp = t.find_first_of(" \t");
        if (sp == std::string_view::npos) return {};
        t = trim_view(t.substr(sp));
    }
    if (t.empty() || !(t[0] >= 'a' && t[0] <= 'z')) return {};
    std::string_view m = t.substr(0, t.find_first_of(" \t;"));
    if (!m.empty() && m.back() == ':') return {};
    return m;
}

// A SASS instruction line "/*0f50*/  @P0 FMNMX R4, R4, R45, !PT ;  /* 0x... */".
struct SassInstr {
    std::string address;  // hex digits, as written
    std::string predicate;
    std::string opcode;
    std::string operands;
};

bool parse_sass_instruction(std::string_view t, SassInstr* out) {
    if (!starts_with(t, "/*")) return false;
    size_t close = t.find("*/");
    if (close == std::string_view::npos || close <= 2) return false;
    std::string_view addr = t.substr(2, close - 2);
    for (char c : addr)
        if (!std::isxdigit(static_cast<unsigned char>(c))) return false;  // "/* 0x.. */" encoding
    out->address = std::string(addr);
    std::string_view rest = trim_view(t.substr(close + 2));
    // Drop the encoding comment and the ';'.
    size_t enc = rest.find("/*");
    if (enc != std::string_view::npos) rest = trim_view(rest.substr(0, enc));
    if (!rest.empty() && rest.back() == ';') rest = trim_view(rest.substr(0, rest.size() - 1));
    out->predicate.clear();
    if (!rest.empty() && rest[0] == '@') {
        size_t sp = rest.find_first_of(" \t");
        out->predicate = std::string(rest.substr(0, sp));
        rest = sp == std::string_view::npos ? std::string_view() : trim_view(rest.substr(sp));
    }
    size_t sp = rest.find_first_of(" \t");
    out->opcode = std::string(rest.substr(0, sp));
    out->operands = sp == std::string_view::npos ? "" : std::string(trim_view(rest.substr(sp)));
    return !out->opcode.empty();
}

// "//--------------------- .text.NAME --------------------------" (nvdisasm).
std::string nvdisasm_section_name(std::string_view t) {
    if (!starts_with(t, "//---------------------")) return "";
    size_t p = t.find(".text.");
    if (p == std::string_view::npos) return "";
    size_t b = p + 6;
    size_t e = t.find(' ', b);
    return std::string(t.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
}

// "Function : NAME" (cuobjdump).
std::string cuobjdump_function_name(std::string_view t) {
    if (!starts_with(t, "Function : ")) return "";
    return std::string(trim_view(t.substr(11)));
}

// PTX: `.file 3 "/dir/x.cu"` or `.file 3 "/dir" "x.cu"` -> (3, path).
bool parse_ptx_file(std::string_view t, int* index, std::string* path) {
    if (!starts_with(t, ".file")) return false;
    std::string_view rest = trim_view(t.substr(5));
    char* end = nullptr;
    const std::string num(rest.substr(0, rest.find_first_of(" \t")));
    long n = std::strtol(num.c_str(), &end, 10);
    if (num.empty() || *end != '\0' || n < 0 || n > 100000) return false;
    std::vector<std::string> quoted;
    size_t q = rest.find('"');
    while (q != std::string_view::npos) {
        size_t q2 = rest.find('"', q + 1);
        if (q2 == std::string_view::npos) break;
        quoted.emplace_back(rest.substr(q + 1, q2 - q - 1));
        q = rest.find('"', q2 + 1);
    }
    if (quoted.empty()) return false;
    *index = static_cast<int>(n);
    *path = quoted.size() >= 2 && !quoted[1].empty() && quoted[1][0] != '/'
                ? quoted[0] + "/" + quoted[1]
                : quoted[0];
    return true;
}

int count_braces(std::string_view line) {
    size_t cut = line.find("//");
    if (cut != std::string_view::npos) line = line.substr(0, cut);
    int d = 0;
    for (char c : line) d += (c == '{') - (c == '}');
    return d;
}

void finish_entry(AsmEntry* e, const std::set<std::string, std::less<>>& ops,
                  std::vector<AsmEntry>* out) {
    e->opcodes.assign(ops.begin(), ops.end());
    e->key = function_key(e->symbol);
    e->short_name = short_function_name(e->symbol);
    out->push_back(std::move(*e));
}

// Builds the index from lines delivered in order.
class Indexer {
  public:
    explicit Indexer(AsmKind kind, AsmIndex* out) : kind_(kind), out_(out) {}

    void line(std::string_view raw, int64_t offset, int lineno) {
        const int64_t next = offset + static_cast<int64_t>(raw.size()) + 1;
        std::string_view t = trim_view(raw);
        if (kind_ == AsmKind::ptx)
            ptx_line(t, raw, offset, next, lineno);
        else
            sass_line(t, offset, lineno);
    }

    void finish(int64_t file_end) {
        if (open_ && (kind_ == AsmKind::sass)) {
            cur_.end = std::max(cur_.begin, file_end);
            finish_entry(&cur_, ops_, &out_->entries);
        }
        open_ = false;
    }

  private:
    void start(std::string symbol, bool kernel, int64_t offset, int lineno) {
        cur_ = AsmEntry();
        cur_.symbol = std::move(symbol);
        cur_.kernel = kernel;
        cur_.begin = offset;
        cur_.first_line = lineno;
        ops_.clear();
        open_ = true;
        depth_ = 0;
        body_ = false;
    }

    void ptx_line(std::string_view t, std::string_view raw, int64_t offset, int64_t next,
                  int lineno) {
        if (!open_) {
            int idx = 0;
            std::string path;
            if (parse_ptx_file(t, &idx, &path)) {
                if (out_->files.size() <= static_cast<size_t>(idx)) out_->files.resize(idx + 1);
                out_->files[idx] = path;
                return;
            }
            if (t.empty() || t[0] != '.') return;
            bool kernel = false;
            std::string name = ptx_function_header(t, &kernel);
            if (name.empty()) return;
            start(std::move(name), kernel, offset, lineno);
        }
        depth_ += count_braces(raw);
        if (depth_ > 0) body_ = true;
        if (!body_ && depth_ == 0 && !t.empty() && t.back() == ';') {  // a declaration only
            open_ = false;
            return;
        }
        if (starts_with(t, ".loc")) out_->line_info = true;
        std::string_view m = body_ ? ptx_mnemonic_view(t) : std::string_view();
        if (!m.empty()) {
            if (ops_.find(m) == ops_.end()) ops_.emplace(m);
            ++cur_.instructions;
        }
        if (body_ && depth_ <= 0) {
            cur_.end = next;
            finish_entry(&cur_, ops_, &out_->entries);
            open_ = false;
        }
    }

    void sass_line(std::string_view t, int64_t offset, int lineno) {
        std::string name = nvdisasm_section_name(t);
        bool is_header = !name.empty();
        std::string format = "nvdisasm";
        if (!is_header) {
            name = cuobjdump_function_name(t);
            is_header = !name.empty();
            format = "cuobjdump";
        }
        const bool closes = is_header || starts_with(t, "//---------------------") ||
                            starts_with(t, "..........") || starts_with(t, "Fatbin ");
        if (closes && open_) {
            cur_.end = offset;
            finish_entry(&cur_, ops_, &out_->entries);
            open_ = false;
        }
        if (is_header) {
            if (out_->format.empty() || out_->format == "ptx") out_->format = format;
            // nvdisasm marks kernels with STO_CUDA_ENTRY a few lines down; cuobjdump lists only
            // kernels.
            start(std::move(name), format == "cuobjdump", offset, lineno);
            return;
        }
        if (!open_) return;
        if (starts_with(t, "//##")) {
            out_->line_info = true;
            return;
        }
        if (starts_with(t, ".other") && t.find("STO_CUDA_ENTRY") != std::string_view::npos)
            cur_.kernel = true;
        std::string_view op = sass_opcode_view(t);
        if (!op.empty()) {
            if (ops_.find(op) == ops_.end()) ops_.emplace(op);
            ++cur_.instructions;
        }
    }

    AsmKind kind_;
    AsmIndex* out_;
    AsmEntry cur_;
    std::set<std::string, std::less<>> ops_;
    bool open_ = false;
    int depth_ = 0;
    bool body_ = false;
};

}  // namespace

// [SECTION] index ---------------------------------------------------------------------------------

Result<AsmIndex> index_asm_file(const std::string& path, AsmKind kind) {
    AsmIndex idx;
    idx.kind = kind;
    idx.origin = path;
    idx.format = kind == AsmKind::ptx ? "ptx" : "";
    Indexer ix(kind, &idx);
    Status s = for_each_line_of_file(
        path, &idx.bytes,
        [&](std::string_view line, int64_t off, int no) { ix.line(line, off, no); });
    if (!s) return s.error();
    ix.finish(idx.bytes);
    return idx;
}

AsmIndex index_asm_text(std::string text, AsmKind kind, const std::string& origin) {
    AsmIndex idx;
    idx.kind = kind;
    idx.origin = origin;
    idx.format = kind == AsmKind::ptx ? "ptx" : "";
    idx.bytes = static_cast<int64_t>(text.size());
    idx.text = std::make_shared<const std::string>(std::move(text));
    Indexer ix(kind, &idx);
    for_each_line_in(*idx.text, 0, 1,
                     [&](std::string_view line, int64_t off, int no) { ix.line(line, off, no); });
    ix.finish(idx.bytes);
    return idx;
}

Result<std::string> read_asm_bytes(const AsmIndex& index, int64_t begin, int64_t end) {
    begin = std::max<int64_t>(0, begin);
    end = std::min(end, index.bytes);
    if (end <= begin) return std::string();
    if (index.text)
        return index.text->substr(static_cast<size_t>(begin), static_cast<size_t>(end - begin));
    int64_t size = 0;
    Result<int> fd = open_regular(index.origin, &size);
    if (!fd) return fd.error();
    if (size != index.bytes) {
        ::close(*fd);
        return Error{quote_short(index.origin) + " changed since it was indexed",
                     "open the kernel again to re-read it"};
    }
    std::string bytes(static_cast<size_t>(end - begin), '\0');
    size_t got = 0;
    while (got < bytes.size()) {
        ssize_t n = ::pread(*fd, bytes.data() + got, bytes.size() - got,
                            static_cast<off_t>(begin + static_cast<int64_t>(got)));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<size_t>(n);
    }
    ::close(*fd);
    if (got != bytes.size())
        return Error{"cannot read " + quote_short(index.origin) + ": it ended early",
                     "open the kernel again to re-read it"};
    return bytes;
}

Result<AsmListing> load_asm_entry(const AsmIndex& index, size_t i) {
    if (i >= index.entries.size())
        return Error{"no entry point " + std::to_string(i) + " in " + quote_short(index.origin),
                     ""};
    const AsmEntry& e = index.entries[i];
    Result<std::string> bytes = read_asm_bytes(index, e.begin, e.end);
    if (!bytes) return bytes.error();
    return parse_asm_entry(*bytes, index.kind, e, index.files, index.origin);
}

namespace {

// Replaces mangled C++ names in `s` by their short names; the entry's own parameters
// ("<entry>_param_3") read "param_3".
std::string demangle_in_text(std::string_view s, const AsmEntry& entry) {
    std::string out;
    out.reserve(s.size());
    size_t i = 0;
    while (i < s.size()) {
        const bool start = s[i] == '_' && i + 1 < s.size() && s[i + 1] == 'Z' &&
                           (i == 0 || !(is_ident_char(s[i - 1]) || s[i - 1] == '$'));
        if (!start) {
            out += s[i++];
            continue;
        }
        size_t j = i;
        while (j < s.size() && is_ident_char(s[j])) ++j;
        std::string word(s.substr(i, j - i));
        std::string suffix;
        if (word.rfind(entry.symbol, 0) == 0 && word.size() > entry.symbol.size() &&
            word.compare(entry.symbol.size(), 7, "_param_") == 0) {
            out += word.substr(entry.symbol.size() + 1);  // "param_3"
            i = j;
            continue;
        }
        size_t param = word.rfind("_param_");
        if (param != std::string::npos) {
            suffix = word.substr(param);
            word = word.substr(0, param);
        }
        std::string shorter = word == entry.symbol ? entry.short_name : short_function_name(word);
        out += shorter + suffix;
        i = j;
    }
    // A C entry point (Triton's) names its parameters "<entry>_param_N" too.
    if (!entry.symbol.empty() && entry.symbol.rfind("_Z", 0) != 0)
        replace_all(&out, entry.symbol + "_param_", "param_");
    return out;
}

int intern(std::vector<std::string>* files, const std::string& path) {
    for (size_t i = 0; i < files->size(); ++i)
        if ((*files)[i] == path) return static_cast<int>(i);
    files->push_back(path);
    return static_cast<int>(files->size()) - 1;
}

// Appends `chain` to listing->frames (reusing the previous chain when equal) and points `line`
// at it.
void attach_frames(const std::vector<AsmFrame>& chain, AsmListing* listing, AsmLine* line,
                   int* last_begin, int* last_end) {
    if (chain.empty()) return;
    bool same = *last_end - *last_begin == static_cast<int>(chain.size());
    for (size_t k = 0; same && k < chain.size(); ++k) {
        const AsmFrame& f = listing->frames[*last_begin + k];
        same = f.file == chain[k].file && f.line == chain[k].line;
    }
    if (!same) {
        *last_begin = static_cast<int>(listing->frames.size());
        listing->frames.insert(listing->frames.end(), chain.begin(), chain.end());
        *last_end = static_cast<int>(listing->frames.size());
    }
    line->frames_begin = *last_begin;
    line->frames_end = *last_end;
    listing->line_info = true;
}

std::string pad_right(const std::string& s, size_t w) {
    return s.size() >= w ? s : s + std::string(w - s.size(), ' ');
}

// Reads the integers of ".loc 1 44 9, function_name $L__info_string0, inlined_at 1 97 9".
std::vector<AsmFrame> parse_loc(std::string_view t) {
    std::vector<AsmFrame> chain;
    auto ints = [](std::string_view s, long* a, long* b) {
        char* end = nullptr;
        std::string str(s);
        *a = std::strtol(str.c_str(), &end, 10);
        if (end == str.c_str()) return false;
        const char* p = end;
        *b = std::strtol(p, &end, 10);
        return end != p;
    };
    long f = 0, l = 0;
    if (!ints(t.substr(4), &f, &l)) return chain;
    if (l > 0) chain.push_back(AsmFrame{static_cast<int>(f), static_cast<int>(l)});
    size_t in = t.find("inlined_at");
    if (in != std::string_view::npos && ints(t.substr(in + 10), &f, &l) && l > 0)
        chain.push_back(AsmFrame{static_cast<int>(f), static_cast<int>(l)});
    return chain;
}

// Triton writes the inline chain into a comment after the directive:
// ".loc 2 170 27  // standard.py:170:27 @[ standard.py:191:40 @[ triton_tutorial_softmax.py:27:29 ]
// ]". The frames after each "@[" (callers, innermost first), as (file name, line).
std::vector<std::pair<std::string, int>> loc_comment_callers(std::string_view t) {
    std::vector<std::pair<std::string, int>> out;
    size_t c = t.find("//");
    if (c == std::string_view::npos) return out;
    for (size_t at = t.find("@[", c); at != std::string_view::npos; at = t.find("@[", at + 2)) {
        std::string_view rest = trim_view(t.substr(at + 2));
        size_t sp = rest.find_first_of(" \t]");
        std::string_view loc = rest.substr(0, sp);  // "file.py:27:29"
        size_t c2 = loc.rfind(':');
        if (c2 == std::string_view::npos) continue;
        size_t c1 = loc.rfind(':', c2 - 1);
        if (c1 == std::string_view::npos) continue;
        const int line = std::atoi(std::string(loc.substr(c1 + 1, c2 - c1 - 1)).c_str());
        if (line > 0) out.emplace_back(std::string(loc.substr(0, c1)), line);
    }
    return out;
}

std::string base_name(const std::string& path) {
    return path.substr(path.find_last_of('/') + 1);
}

// Reads `File "p", line N` at the start of `s`; returns where it stopped (npos on failure).
size_t parse_file_line(std::string_view s, std::string* path, int* line) {
    size_t f = s.find("File \"");
    if (f == std::string_view::npos) return std::string_view::npos;
    size_t q = s.find('"', f + 6);
    if (q == std::string_view::npos) return std::string_view::npos;
    *path = std::string(s.substr(f + 6, q - f - 6));
    size_t ln = s.find("line ", q);
    if (ln == std::string_view::npos) return std::string_view::npos;
    *line = std::atoi(std::string(s.substr(ln + 5, 12)).c_str());
    size_t e = ln + 5;
    while (e < s.size() && std::isdigit(static_cast<unsigned char>(s[e]))) ++e;
    return e;
}

// [SECTION] PTX entry ---------------------------------------------------------------------------

void parse_ptx_entry(std::string_view text, const AsmEntry& entry,
                     const std::vector<std::string>& ptx_files, AsmListing* out) {
    out->files = ptx_files;
    std::vector<AsmFrame> chain;
    int last_begin = 0, last_end = 0;
    bool prev_blank = false;
    struct Parts {
        std::string indent_pred, mnemonic, operands;
    };
    std::vector<Parts> parts;  // per output line; filled for instructions
    for_each_line_in(text, 0, entry.first_line, [&](std::string_view raw, int64_t, int lineno) {
        std::string_view t = trim_view(raw);
        if (starts_with(t, ".loc")) {
            chain = parse_loc(t);
            for (const auto& [name, line] : loc_comment_callers(t))
                for (size_t f = 0; f < out->files.size(); ++f)
                    if (!out->files[f].empty() && base_name(out->files[f]) == name) {
                        chain.push_back(AsmFrame{static_cast<int>(f), line});
                        break;
                    }
            for (AsmFrame& f : chain)
                if (f.file < 0 || static_cast<size_t>(f.file) >= out->files.size())
                    out->files.resize(f.file + 1);
            return;
        }
        if (t.empty()) {
            if (prev_blank || out->lines.empty()) return;
            prev_blank = true;
            AsmLine blank;
            blank.file_line = lineno;
            out->lines.push_back(blank);
            parts.emplace_back();
            return;
        }
        prev_blank = false;
        AsmLine line;
        line.file_line = lineno;
        Parts p;
        const std::string m = ptx_mnemonic(t);
        if (!m.empty()) {
            line.instruction = true;
            line.opcode = m;
            std::string_view rest = t;
            if (rest[0] == '@') {
                size_t sp = rest.find_first_of(" \t");
                p.indent_pred = std::string(rest.substr(0, sp)) + " ";
                rest = trim_view(rest.substr(sp));
            }
            p.mnemonic = m;
            std::string ops = demangle_in_text(trim_view(rest.substr(m.size())), entry);
            // Collapse the tabs between operands: "%r1, \t%r2" -> "%r1, %r2".
            std::string flat;
            for (char c : ops) {
                if (c == '\t') c = ' ';
                if (c == ' ' && !flat.empty() && flat.back() == ' ') continue;
                flat += c;
            }
            p.operands = flat;
            attach_frames(chain, out, &line, &last_begin, &last_end);
        } else {
            line.text = demangle_in_text(raw, entry);
        }
        out->lines.push_back(std::move(line));
        parts.push_back(std::move(p));
    });
    while (!out->lines.empty() && out->lines.back().text.empty() && !out->lines.back().instruction)
        out->lines.pop_back();
    // Instructions in columns: guard, mnemonic padded to the entry's widest (up to 24), operands.
    size_t w = 0;
    for (size_t i = 0; i < out->lines.size(); ++i)
        if (out->lines[i].instruction)
            w = std::max(w, parts[i].indent_pred.size() + parts[i].mnemonic.size());
    w = std::min<size_t>(w, 24);
    for (size_t i = 0; i < out->lines.size(); ++i) {
        if (!out->lines[i].instruction) continue;
        const Parts& p = parts[i];
        out->lines[i].text = "    " + pad_right(p.indent_pred + p.mnemonic, w) +
                             (p.operands.empty() ? "" : " " + p.operands);
    }
}

// [SECTION] SASS entry --------------------------------------------------------------------------

void parse_sass_entry(std::string_view text, const AsmEntry& entry, AsmListing* out) {
    std::vector<AsmFrame> chain, group;
    bool group_open = false;
    AsmFrame group_tail{-1, 0};  // the last //## line's "inlined at" location, if any
    int last_begin = 0, last_end = 0;
    std::vector<SassInstr> instrs(1);
    std::vector<int> instr_of;  // per output line: index into instrs, or 0 for none
    for_each_line_in(text, 0, entry.first_line, [&](std::string_view raw, int64_t, int lineno) {
        std::string_view t = trim_view(raw);
        if (starts_with(t, "//##")) {
            if (!group_open) {
                group.clear();
                group_open = true;
            }
            std::string path, qpath;
            int line = 0, qline = 0;
            size_t at = parse_file_line(t, &path, &line);
            if (at == std::string_view::npos) return;
            group.push_back(AsmFrame{intern(&out->files, path), line});
            group_tail = AsmFrame{-1, 0};
            size_t in = t.find("inlined at", at);
            if (in != std::string_view::npos) {
                std::string_view rest = t.substr(in);
                // `inlined at "q", line M`: the same shape without the word File.
                std::string shaped = "File " + std::string(rest.substr(rest.find('"')));
                if (parse_file_line(shaped, &qpath, &qline) != std::string_view::npos)
                    group_tail = AsmFrame{intern(&out->files, qpath), qline};
            }
            return;
        }
        if (group_open) {
            chain = group;
            if (group_tail.file >= 0) chain.push_back(group_tail);
            group_open = false;
        }
        if (t.empty() || starts_with(t, "//") || starts_with(t, "Function :") ||
            starts_with(t, "..........") || starts_with(t, "/* 0x"))
            return;
        if (t[0] == '.' && t.back() != ':') return;  // .section, .type, .size, .other, .align...
        if (starts_with(t, ".text.") || t == entry.symbol + ":") return;
        SassInstr ins;
        AsmLine line;
        line.file_line = lineno;
        if (parse_sass_instruction(t, &ins)) {
            line.instruction = true;
            line.opcode = ins.opcode;
            line.address = std::strtoll(ins.address.c_str(), nullptr, 16);
            ins.operands = demangle_in_text(ins.operands, entry);
            attach_frames(chain, out, &line, &last_begin, &last_end);
            instrs.push_back(std::move(ins));
            instr_of.push_back(static_cast<int>(instrs.size()) - 1);
        } else {
            line.text = demangle_in_text(t, entry);  // a label: ".L_x_128:"
            instr_of.push_back(0);
        }
        out->lines.push_back(std::move(line));
    });
    // Trailing NOPs (and the label after them) are alignment padding: one line says how many.
    size_t last_real = out->lines.size();
    size_t nops = 0;
    for (size_t i = out->lines.size(); i-- > 0;) {
        const AsmLine& a = out->lines[i];
        if (!a.instruction) continue;
        if (a.opcode != "NOP") {
            last_real = i;
            break;
        }
        ++nops;
    }
    if (nops >= 2 && last_real < out->lines.size()) {
        const int first = out->lines[last_real + 1].file_line;
        out->lines.resize(last_real + 1);
        instr_of.resize(last_real + 1);
        AsmLine pad;
        pad.file_line = first;
        pad.text = "// " + std::to_string(nops) + " NOPs of padding";
        out->lines.push_back(pad);
        instr_of.push_back(0);
    }
    // Columns: address, guard, opcode, operands.
    size_t aw = 0, pw = 0, ow = 0;
    for (const SassInstr& s : instrs) {
        aw = std::max(aw, s.address.size());
        pw = std::max(pw, s.predicate.size());
        ow = std::max(ow, s.opcode.size());
    }
    ow = std::min<size_t>(ow, 22);
    for (size_t i = 0; i < out->lines.size(); ++i) {
        if (!instr_of[i]) continue;
        const SassInstr& s = instrs[instr_of[i]];
        std::string addr = s.address;
        addr = std::string(aw > addr.size() ? aw - addr.size() : 0, '0') + addr;
        AsmLine& l = out->lines[i];
        l.address_chars = static_cast<int>(aw);
        l.text = addr + "  " + (pw ? pad_right(s.predicate, pw) + " " : "") +
                 (s.operands.empty() ? s.opcode : pad_right(s.opcode, ow) + " " + s.operands);
    }
}

}  // namespace

AsmListing parse_asm_entry(std::string_view text, AsmKind kind, const AsmEntry& entry,
                           const std::vector<std::string>& ptx_files, const std::string& origin) {
    AsmListing l;
    l.kind = kind;
    l.origin = origin;
    l.entry = entry;
    if (kind == AsmKind::ptx)
        parse_ptx_entry(text, entry, ptx_files, &l);
    else
        parse_sass_entry(text, entry, &l);
    return l;
}

}  // namespace sml
