// Caps on text that comes from outside: session and results files, settings, the command line.
//
// Dear ImGui aborts when one piece of text needs more than 65536 vertices (about 16000 glyphs),
// and every text measurement costs time in proportion to the text. So every string softmaxlab
// reads is capped here before it reaches the viewer or the chart layout: cut at a character
// boundary, ended with "…", and made valid UTF-8. Each function runs in time linear in the
// input; nothing measures or copies the text more than once.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sml {

// The most bytes any one string from a file or the command line keeps (device name, a reason,
// a command line, a title, a path in a message). Recorded sessions stay far below it (their
// longest string is the command line, about 160 bytes); 4096 glyphs draw fine in ImGui.
constexpr size_t kMaxTextBytes = 4096;

namespace text_cap_detail {
// Length of the valid UTF-8 sequence starting at s[i], or 0 when the bytes there are not one.
inline size_t utf8_sequence(std::string_view s, size_t i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = 0;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4;
    else
        return 0;
    if (i + n > s.size()) return 0;
    for (size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
    const unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
    if (c == 0xE0 && c1 < 0xA0) return 0;  // overlong
    if (c == 0xED && c1 > 0x9F) return 0;  // UTF-16 surrogate
    if (c == 0xF0 && c1 < 0x90) return 0;  // overlong
    if (c == 0xF4 && c1 > 0x8F) return 0;  // beyond U+10FFFF
    return n;
}
}  // namespace text_cap_detail

// `text` as valid UTF-8 of at most `max_bytes` bytes (max_bytes >= 3): bytes that are not UTF-8
// become U+FFFD, and a longer text is cut at a character boundary and ends with "…".
inline std::string cap_text(std::string_view text, size_t max_bytes = kMaxTextBytes) {
    static constexpr std::string_view kEllipsis = "\xE2\x80\xA6";     // …
    static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD
    std::string out;
    out.reserve(text.size() < max_bytes ? text.size() : max_bytes);
    size_t cut = 0;  // the longest prefix of `out` that still leaves room for the ellipsis
    for (size_t i = 0; i < text.size();) {
        const size_t n = text_cap_detail::utf8_sequence(text, i);
        if (out.size() + kEllipsis.size() <= max_bytes) cut = out.size();
        out += n ? text.substr(i, n) : kReplacement;
        i += n ? n : 1;
        if (out.size() > max_bytes) {
            out.resize(cut);
            out += kEllipsis;
            return out;
        }
    }
    return out;
}

// In place: the same as s = cap_text(s, max_bytes), without a copy when s already fits.
inline void cap_text_in_place(std::string& s, size_t max_bytes = kMaxTextBytes) {
    bool clean = s.size() <= max_bytes;
    for (size_t i = 0; clean && i < s.size();) {
        const size_t n = text_cap_detail::utf8_sequence(s, i);
        clean = n != 0;
        i += n;
    }
    if (!clean) s = cap_text(s, max_bytes);
}

// For messages that quote a path or a value the user typed: at most 200 bytes, so an error
// about a 100000-character argument is still one readable line.
inline std::string quote_short(std::string_view text) {
    return cap_text(text, 200);
}

}  // namespace sml
