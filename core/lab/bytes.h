// Small byte utilities for the lab bench's documents: a SHA-256 to name an edit's source, and
// base64 to carry a cubin inside a JSON result.
#pragma once

#include <optional>
#include <string>

namespace sml::lab {

std::string sha256_hex(const std::string& bytes);  // 64 lowercase hex digits (FIPS 180-4)
std::string base64_encode(const std::string& bytes);
std::optional<std::string> base64_decode(const std::string& text);  // nullopt: not base64

}  // namespace sml::lab
