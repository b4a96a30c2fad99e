#include <cupti_pcsampling.h>

#include <cstdlib>
#include <set>

#include "core/lab/cubin.h"
#include "core/lab/line_map.h"

namespace sml::lab {

Result<std::vector<PcLine>> map_function_lines(const std::string& cubin,
                                               const std::string& function) {
    Result<std::vector<CubinFunction>> functions = cubin_functions(cubin);
    if (!functions) return functions.error();
    uint64_t size = 0;
    for (const CubinFunction& f : *functions)
        if (f.name == function) size = f.size;
    if (size == 0)
        return Error{"the cubin has no kernel named " + function,
                     "the records and the cubin must come from the same compile"};
    std::vector<PcLine> out;
    for (uint64_t pc = 0; pc < size; pc += kSassInstructionBytes) {
        CUpti_GetSassToSourceCorrelationParams p{};
        p.size = CUpti_GetSassToSourceCorrelationParamsSize;
        p.cubin = cubin.data();
        p.cubinSize = cubin.size();
        p.functionName = function.c_str();
        p.pcOffset = pc;
        PcLine l;
        l.pc = uint32_t(pc);
        if (cuptiGetSassToSourceCorrelation(&p) == CUPTI_SUCCESS) {
            l.line = int(p.lineNumber);
            if (p.fileName) l.file = p.fileName;
        }
        std::free(p.fileName);
        std::free(p.dirName);
        out.push_back(l);
    }
    return out;
}

Result<LineMaps> map_record_lines(const std::string& cubin,
                                  const std::vector<SassRecord>& records) {
    std::set<std::string> names;
    for (const SassRecord& r : records) names.insert(r.function);
    LineMaps maps;
    for (const std::string& n : names) {
        Result<std::vector<PcLine>> m = map_function_lines(cubin, n);
        if (!m) return m.error();
        maps[n] = *m;
    }
    return maps;
}

uint64_t cubin_crc(const std::string& cubin) {
    CUpti_GetCubinCrcParams p{};
    p.size = CUpti_GetCubinCrcParamsSize;
    p.cubin = cubin.data();
    p.cubinSize = cubin.size();
    return cuptiGetCubinCrc(&p) == CUPTI_SUCCESS ? p.cubinCrc : 0;
}

}  // namespace sml::lab
