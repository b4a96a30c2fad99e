// A minimal ELF64 little-endian reader: section headers and their names, nothing else. A cubin
// keeps each kernel's code in a section named ".text.<mangled name>".
#include "core/lab/cubin.h"

#include <cstring>

namespace sml::lab {
namespace {

template <class T>
bool read_at(const std::string& b, uint64_t off, T* out) {
    if (off > b.size() || b.size() - off < sizeof(T)) return false;
    std::memcpy(out, b.data() + off, sizeof(T));
    return true;
}

}  // namespace

Result<std::vector<CubinFunction>> cubin_functions(const std::string& b) {
    const Error bad{"not a cubin (ELF64) file", "pass the cubin the lab compile produced"};
    if (b.size() < 64 ||
        std::memcmp(b.data(),
                    "\x7f"
                    "ELF",
                    4) != 0 ||
        b[4] != 2 || b[5] != 1)
        return bad;
    uint64_t shoff = 0;
    uint16_t shentsize = 0, shnum = 0, shstrndx = 0;
    if (!read_at(b, 0x28, &shoff) || !read_at(b, 0x3A, &shentsize) || !read_at(b, 0x3C, &shnum) ||
        !read_at(b, 0x3E, &shstrndx) || shentsize < 64 || shstrndx >= shnum)
        return bad;
    struct Section {
        uint32_t name = 0;
        uint64_t offset = 0, size = 0;
    };
    std::vector<Section> sections(shnum);
    for (uint16_t i = 0; i < shnum; ++i) {
        const uint64_t h = shoff + uint64_t(i) * shentsize;
        if (!read_at(b, h, &sections[i].name) || !read_at(b, h + 0x18, &sections[i].offset) ||
            !read_at(b, h + 0x20, &sections[i].size))
            return bad;
    }
    const Section& names = sections[shstrndx];
    if (names.offset > b.size() || b.size() - names.offset < names.size) return bad;
    std::vector<CubinFunction> out;
    for (const Section& s : sections) {
        if (s.name >= names.size) continue;
        const char* n = b.data() + names.offset + s.name;
        const size_t max = names.size - s.name;
        const std::string name(n, strnlen(n, max));
        if (name.rfind(".text.", 0) == 0 && name.size() > 6)
            out.push_back(CubinFunction{name.substr(6), s.size});
    }
    return out;
}

}  // namespace sml::lab
