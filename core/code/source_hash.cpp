// Source hashes and include closures. See source_hash.h.
#include "core/code/source_hash.h"

#include <cstdio>
#include <filesystem>
#include <set>
#include <sstream>

#include "core/common/safe_file.h"

namespace sml {

uint64_t fnv1a64(std::string_view bytes) {
    uint64_t h = 0xcbf29ce484222325ull;  // FNV offset basis
    for (unsigned char c : bytes) {
        h ^= c;
        h *= 0x100000001b3ull;  // FNV prime
    }
    return h;
}

std::string source_hash(std::string_view bytes) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv1a64(bytes)));
    return std::string("fnv1a64:") + hex;
}

Result<std::string> hash_file(const std::string& path) {
    Result<std::string> bytes = read_file_capped(path, kMaxTextFileBytes, "source file");
    if (!bytes) return bytes.error();
    return source_hash(*bytes);
}

namespace {

// The quoted includes of `text`, in order: `#include "a/b.h"` -> "a/b.h".
std::vector<std::string> quoted_includes(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        size_t i = line.find_first_not_of(" \t");
        if (i == std::string::npos || line[i] != '#') continue;
        i = line.find_first_not_of(" \t", i + 1);
        if (i == std::string::npos || line.compare(i, 7, "include") != 0) continue;
        size_t open = line.find('"', i + 7);
        if (open == std::string::npos) continue;
        size_t close = line.find('"', open + 1);
        if (close == std::string::npos) continue;
        out.push_back(line.substr(open + 1, close - open - 1));
    }
    return out;
}

bool is_regular(const std::filesystem::path& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec);
}

}  // namespace

std::vector<std::string> source_closure(const std::string& repo_root, const std::string& rel_path) {
    namespace fs = std::filesystem;
    std::vector<std::string> order;
    std::set<std::string> seen;
    std::vector<std::string> todo{fs::path(rel_path).lexically_normal().generic_string()};
    const fs::path root(repo_root);
    while (!todo.empty()) {
        const std::string rel = todo.front();
        todo.erase(todo.begin());
        if (!seen.insert(rel).second) continue;
        order.push_back(rel);
        Result<std::string> text =
            read_file_capped((root / rel).string(), kMaxTextFileBytes, "source file");
        if (!text) continue;  // the caller hashes it and reports the error
        for (const std::string& inc : quoted_includes(*text)) {
            // As the compiler looks: beside the including file first, then -I<repo root>.
            for (const fs::path& cand : {fs::path(rel).parent_path() / inc, fs::path(inc)}) {
                const std::string c = cand.lexically_normal().generic_string();
                if (c.rfind("../", 0) == 0) continue;  // outside the repository
                if (is_regular(root / c)) {
                    todo.push_back(c);
                    break;
                }
            }
        }
    }
    return order;
}

}  // namespace sml
