// See sizes.h.
#include "core/plan/sizes.h"

#include <cstdint>
#include <cstdio>

namespace sml {

std::string format_bytes(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024.0 && u < 4) {
        bytes /= 1024.0;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.2f %s", bytes, units[u]);
    return buf;
}


Result<size_t> matrix_bytes(int64_t rows, int64_t stride, size_t element_bytes,
                            const std::string& what) {
    uint64_t elements = 0, bytes = 0;
    if (rows < 0 || stride < 0 ||
        __builtin_mul_overflow(uint64_t(rows), uint64_t(stride), &elements) ||
        __builtin_mul_overflow(elements, uint64_t(element_bytes), &bytes) ||
        bytes > uint64_t(SIZE_MAX))
        return Error{what + ": " + std::to_string(rows) + " rows x " + std::to_string(stride) +
                         " elements x " + std::to_string(element_bytes) +
                         " bytes is not a size any GPU can hold",
                     "use a smaller problem (--elements for sweep, --rows/--cols for run)"};
    return size_t(bytes);
}


}  // namespace sml
