// Helpers the lab bench's CPU tests share: reading repo files, finding a line by its text.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace sml::labtest {

inline std::string read_repo_file(const std::string& rel) {
    std::ifstream in(std::string(SML_SOURCE_DIR) + "/" + rel, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The 1-based line of the first occurrence of `needle`, or 0.
inline int line_of(const std::string& text, const std::string& needle) {
    const size_t at = text.find(needle);
    if (at == std::string::npos) return 0;
    int line = 1;
    for (size_t i = 0; i < at; ++i) line += text[i] == '\n';
    return line;
}

// `text` with the first `from` replaced by `to` (the test fails if `from` is absent).
inline std::string replace_once(std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << "not found: " << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

}  // namespace sml::labtest
