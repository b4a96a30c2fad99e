// Byte counts: how they are printed, and M x N x element size without overflow. No CUDA.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "common/result.h"

namespace sml {

// "1.00 GiB", "16.0 MiB", "512 B": sizes in messages.
std::string format_bytes(double bytes);
// Bytes of `rows` rows of `stride` elements of `element_bytes` each, or an Error naming the size
// when that is negative or does not fit in 64 bits: an absurd --rows/--cols must be refused, not
// wrapped around to a small allocation that the kernel then overruns. `what` names the buffer.
Result<size_t> matrix_bytes(int64_t rows, int64_t stride, size_t element_bytes,
                            const std::string& what);
}  // namespace sml
