// What built this binary, for the session's "software" record.
#pragma once

#include <string>

namespace sml {

// nvcc's own version, "13.0.88" (from the macros nvcc defines while compiling build_info.cu).
std::string nvcc_version();

}  // namespace sml
