// See device_view.h.
#include "app/viewer/model/device_view.h"

#include "app/viewer/model/ui_text.h"
#include "kernels/best_softmax.h"
#include "kernels/device_profiles.h"

namespace sml::viewer {

Result<DeviceLimits> limits_for(const DeviceLimits& real, bool have_gpu,
                                const std::string& profile) {
    if (profile.empty()) return have_gpu ? real : DeviceLimits::h100_reference();
    return apply_device_profile(have_gpu ? real : DeviceLimits{}, profile);
}

std::string best_path_zh(const best::Config& c) {
    using Path = best::Config::Path;
    using std::to_string;
    const std::string t = to_string(c.threads), n = to_string(c.cluster);
    // Each fragment through the table (ui_text.cpp), so its characters are in the font atlas.
    auto zh = [](const char* en, const std::vector<std::string>& parts = {}) {
        return ui_format(en, "zh", parts);
    };
    const std::string teams =
        c.grid_teams() > 1 ? zh(", {0} teams", {to_string(c.grid_teams())}) : "";
    switch (c.path) {
        case Path::kGroup:
            return zh("group {0} lanes x {1} packs x {2} rows, {3} threads",
                      {to_string(c.width), to_string(c.packs), to_string(c.rows_per_group()),
                       to_string(c.group_threads())});
        case Path::kCluster:
            return zh("cluster {0} x {1} threads x {2} packs", {n, t, to_string(c.packs)}) +
                   (c.stash > 0 ? zh(" + {0} in shared memory", {to_string(c.stash)}) : "");
        case Path::kTwoPass:
            return zh("two-pass cluster {0} x {1} threads", {n, t}) +
                   ((c.l2 & best::Config::kL2Policy) != 0 ? zh(", L2 evict_last/first") : "") +
                   ((c.l2 & best::Config::kL2Reverse) != 0 ? zh(", pass 2 backwards") : "");
        case Path::kTile:
            return zh("tile {0} lanes x {1} values, {2} rows, {3} threads",
                      {to_string(c.width), to_string(c.packs), to_string(c.rows), t}) +
                   (c.tile_spread() > 1 ? zh(", rows {0} apart", {to_string(c.tile_spread())})
                                        : "");
        case Path::kGrid:
            if (c.held_grid())
                return zh("held grid {0} blocks x {1} threads x {2} packs",
                          {n, t, to_string(c.packs)}) +
                       zh(" + {0} in shared memory", {to_string(c.stash)}) + teams +
                       (c.stream != 0 ? zh(", the rest read twice") : "") +
                       (c.prefetch > 0 ? zh(", {0} prefetched into L2", {to_string(c.prefetch)})
                                       : "");
            return zh("grid {0} blocks x {1} threads x {2} packs, lag {3}, {4} rows ahead",
                      {n, t, to_string(c.packs), to_string(c.lag), to_string(c.grid_ahead())}) +
                   teams +
                   (c.edges > 0   ? zh(", edge warp")
                    : c.edges < 0 ? zh(", no edge warp")
                                  : "");
    }
    return zh("unknown path: {0}", {c.fields()});
}

std::string best_choice_text(int64_t cols, DType dtype, const DeviceLimits& limits,
                             const std::string& lang) {
    const bool zh = lang == "zh";
    if (cols < 1) return ui_text("best: no path for N < 1", lang);
    // A contiguous tensor from cudaMalloc, as the Run panel runs it.
    const best::Config c = best::choose_for(cols, dtype, /*aligned=*/true, /*flat=*/true, limits);
    if (zh)
        return ui_format(
            limits.has_clusters() ? "best: {0} (on {1}, clusters)"
                                  : "best: {0} (on {1}, no clusters)",
            lang, {best_path_zh(c), limits.name.empty() ? ui_text("this GPU", lang) : limits.name});
    std::string where = limits.name.empty() ? std::string("this GPU") : limits.name;
    where += limits.has_clusters() ? ", clusters" : ", no clusters";
    return "best: " + c.describe() + " (on " + where + ")";
}

}  // namespace sml::viewer
