#include "core/lab/line_fold.h"

#include <algorithm>

#include "core/lab/sass_roles.h"

namespace sml::lab {
namespace {

const PcLine* find_pc(const LineMaps& maps, const std::string& function, uint32_t pc) {
    auto it = maps.find(function);
    if (it == maps.end()) return nullptr;
    const std::vector<PcLine>& v = it->second;
    auto at = std::lower_bound(v.begin(), v.end(), pc,
                               [](const PcLine& a, uint32_t p) { return a.pc < p; });
    return at != v.end() && at->pc == pc ? &*at : nullptr;
}

}  // namespace

void derive_line_values(std::map<std::string, double>* v) {
    auto sectors = v->find(role::kGlobalSectors);
    auto ideal = v->find(role::kGlobalIdealSectors);
    if (sectors != v->end() && ideal != v->end() && sectors->second > 0)
        (*v)[role::kGlobalSectorEfficiencyPct] = 100.0 * ideal->second / sectors->second;
}

std::vector<LineCounters> fold_per_line(const std::vector<SassRecord>& records,
                                        const LineMaps& maps) {
    std::map<std::pair<std::string, int>, std::map<std::string, double>> sums;
    for (const SassRecord& r : records) {
        const PcLine* at = find_pc(maps, r.function, r.pc);
        auto& line =
            sums[at ? std::make_pair(at->file, at->line) : std::make_pair(std::string(), 0)];
        for (const auto& [k, v] : r.values) line[k] += v;
    }
    std::vector<LineCounters> out;
    for (auto& [key, values] : sums) {
        derive_line_values(&values);
        out.push_back(LineCounters{key.first, key.second, values});
    }
    return out;
}

std::vector<InstructionCounters> per_instruction(const std::vector<SassRecord>& records,
                                                 const LineMaps& maps) {
    std::vector<InstructionCounters> out;
    for (const SassRecord& r : records) {
        const PcLine* at = find_pc(maps, r.function, r.pc);
        InstructionCounters c{r.function, int64_t(r.pc), at ? at->line : 0, r.values};
        derive_line_values(&c.values);
        out.push_back(std::move(c));
    }
    std::sort(out.begin(), out.end(),
              [](const InstructionCounters& a, const InstructionCounters& b) {
                  return a.function != b.function ? a.function < b.function : a.pc < b.pc;
              });
    return out;
}

const LineCounters* find_line(const std::vector<LineCounters>& lines, const std::string& file,
                              int line) {
    for (const LineCounters& l : lines)
        if (l.line == line && l.file == file) return &l;
    return nullptr;
}

}  // namespace sml::lab
