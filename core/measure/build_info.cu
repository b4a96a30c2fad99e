// Compiled by nvcc on purpose: only there are the __CUDACC_VER_*__ macros defined.
#include "core/measure/build_info.h"

namespace sml {

std::string nvcc_version() {
#if defined(__CUDACC_VER_MAJOR__)
    return std::to_string(__CUDACC_VER_MAJOR__) + "." + std::to_string(__CUDACC_VER_MINOR__) + "." +
           std::to_string(__CUDACC_VER_BUILD__);
#else
    return "unknown";
#endif
}

}  // namespace sml
