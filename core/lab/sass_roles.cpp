#include "core/lab/sass_roles.h"

#include <algorithm>

namespace sml::lab {

const std::vector<SassRole>& sass_roles() {
    static const std::vector<SassRole> roles = {
        {role::kInstExecuted,
         "instructions",
         "count",
         "warp-level instructions executed by this line's SASS",
         {"smsp__sass_inst_executed"},
         {"sass_inst_executed"},
         {"_op_", "pred", "thread"}},
        {role::kGlobalSectors,
         "global sectors",
         "sectors",
         "32-byte sectors this line's global loads and stores touched",
         {"smsp__sass_sectors_mem_global"},
         {"sectors_mem_global"},
         {"ideal", "_op_"}},
        {role::kGlobalIdealSectors,
         "ideal sectors",
         "sectors",
         "sectors a perfectly coalesced access of the same bytes would touch",
         {"smsp__sass_sectors_mem_global_ideal"},
         {"sectors_mem_global", "ideal"},
         {"_op_"}},
        {role::kGlobalSectorEfficiencyPct,
         "coalescing",
         "%",
         "ideal sectors / sectors: 100% is perfectly coalesced, 12.5% is one useful float in 8",
         {},
         {},
         {},
         true},
        {role::kLocalSectors,
         "local (spills)",
         "sectors",
         "sectors of local memory: register spills and stack arrays",
         {"smsp__sass_sectors_mem_local"},
         {"sectors_mem_local"},
         {"ideal", "_op_"}},
        {role::kSharedBankConflicts,
         "bank conflicts",
         "count",
         "extra shared-memory wavefronts caused by bank conflicts, where the chip counts them "
         "per instruction",
         {"smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared",
          "smsp__sass_data_bank_conflicts_pipe_lsu_mem_shared"},
         {"bank_conflicts", "shared"},
         {"_op_"}},
        {role::kSharedWavefronts,
         "shared wavefronts",
         "count",
         "shared-memory wavefronts (passes through the banks); above 1 per access means "
         "conflicts",
         {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared"},
         {"wavefronts", "shared"},
         {"_op_", "ideal"}},
    };
    return roles;
}

const SassRole* find_sass_role(const std::string& name) {
    for (const SassRole& r : sass_roles())
        if (name == r.role) return &r;
    return nullptr;
}

std::string pick_sass_metric(const SassRole& r, const std::vector<std::string>& available) {
    if (r.derived) return "";
    for (const char* c : r.candidates)
        if (std::find(available.begin(), available.end(), c) != available.end()) return c;
    if (r.must_contain.empty()) return "";
    for (const std::string& name : available) {
        bool ok = true;
        for (const char* s : r.must_contain) ok = ok && name.find(s) != std::string::npos;
        for (const char* s : r.exclude) ok = ok && name.find(s) == std::string::npos;
        if (ok) return name;
    }
    return "";
}

}  // namespace sml::lab
