// Reading a cubin (an ELF file) without the CUDA driver: which kernels it holds and how long
// each one's code is, so the per-line fold can walk every instruction (16 bytes each on every
// architecture CUDA 13 builds for) and ask for its source line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"

namespace sml::lab {

struct CubinFunction {
    std::string name;   // mangled
    uint64_t size = 0;  // bytes of code (its .text.<name> section)
};

inline constexpr uint64_t kSassInstructionBytes = 16;

Result<std::vector<CubinFunction>> cubin_functions(const std::string& cubin);

}  // namespace sml::lab
