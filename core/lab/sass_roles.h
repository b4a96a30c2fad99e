// The per-instruction counters the lab bench collects, by role, and the SASS metric names that
// can fill each role. Metric names differ between chips (bench/lab_device_check.sh lists the
// H100's first), so each role has candidates, tried in order, and a pattern to fall back on.
// The table doubles as the gutter's metric list: label, unit, one-line description (the tooltip).
#pragma once

#include <string>
#include <vector>

namespace sml::lab {

namespace role {
inline constexpr const char* kInstExecuted = "inst_executed";
inline constexpr const char* kGlobalSectors = "global_sectors";
inline constexpr const char* kGlobalIdealSectors = "global_ideal_sectors";
inline constexpr const char* kLocalSectors = "local_sectors";
inline constexpr const char* kSharedBankConflicts = "shared_bank_conflicts";
inline constexpr const char* kSharedWavefronts = "shared_wavefronts";
// Derived per line from the others (line_fold.h).
inline constexpr const char* kGlobalSectorEfficiencyPct = "global_sector_efficiency_pct";
}  // namespace role

struct SassRole {
    const char* role;
    const char* label;                    // short, for the gutter's metric picker
    const char* unit;                     // "count", "sectors", "%"
    const char* description;              // one line, the tooltip
    std::vector<const char*> candidates;  // exact SASS metric names, best first
    // Fallback when no candidate exists on the chip: every one of these substrings in the name,
    // and none of `exclude`.
    std::vector<const char*> must_contain;
    std::vector<const char*> exclude;
    bool derived = false;  // computed from other roles, not collected
};

const std::vector<SassRole>& sass_roles();
const SassRole* find_sass_role(const std::string& role);

// The chip's name for `r`, from the names the chip lists; "" when none fits.
std::string pick_sass_metric(const SassRole& r, const std::vector<std::string>& available);

}  // namespace sml::lab
