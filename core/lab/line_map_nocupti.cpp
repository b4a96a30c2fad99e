// Without CUPTI there is no SASS-to-source correlation to read the cubin's line info with.
#include "core/lab/line_map.h"

namespace sml::lab {

Result<std::vector<PcLine>> map_function_lines(const std::string&, const std::string&) {
    return Error{"per-line counters need CUPTI, and this build has none (-DSML_WITH_CUPTI=OFF)",
                 "rebuild with CUPTI to map instructions to source lines"};
}
Result<LineMaps> map_record_lines(const std::string& cubin, const std::vector<SassRecord>& r) {
    if (r.empty()) return LineMaps{};
    return map_function_lines(cubin, "").error();
}
uint64_t cubin_crc(const std::string&) {
    return 0;
}

}  // namespace sml::lab
