// A SYNTHETIC session for the chart tests: shaped like an H100 sweep (1 GiB fp32 per point,
// N = 32 .. 1M), with every kernel only inside its range, predicted traffic from the seeds'
// formulas and plausible counters. The numbers are invented to exercise the charts; they are
// not measurements, and the session says so (notes["synthetic"]), which every chart drawn from
// it prints as a footnote. Never commit charts drawn from it under assets/.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/chart/chart_build.h"
#include "core/session/session.h"

namespace sml::test {

struct SyntheticKernel {
    const char* id;
    int64_t max_cols;
    double peak_gbps;  // plateau inside its sweet spot
    double occupancy_pct, l2_hit_pct, bank_conflicts;
};

inline const std::vector<SyntheticKernel>& synthetic_kernels() {
    static const std::vector<SyntheticKernel> k = {
        {"naive", 1 << 30, 690, 88, 38, 0},
        {"fused", 16384, 2860, 46, 6, 0},
        {"warp", 1024, 2950, 91, 4, 0},
        {"block", 8192, 2890, 72, 5, 210},
        {"smem", 49152, 2820, 41, 7, 12},
        {"online", 1 << 30, 2520, 81, 33, 0},
        {"online_tiled", 1 << 30, 2260, 63, 35, 96},
    };
    return k;
}

// Bandwidth shaped like the real thing: small rows lose to per-row overhead, fused pays for
// next_pow2 padding just past each power of two, long rows lose a little to the second pass.
inline double synthetic_gbps(const SyntheticKernel& k, int64_t n) {
    const double small = 1.0 - 0.45 * std::exp(-static_cast<double>(n) / 160.0);
    double g = k.peak_gbps * small;
    if (std::string(k.id) == "fused") {
        const double pow2 = std::exp2(std::ceil(std::log2(static_cast<double>(n))));
        g *= 0.35 + 0.65 * (static_cast<double>(n) / pow2);  // masked lanes do no useful work
        if (n <= 64) g *= 0.25;  // one program per row: far too little work per program
    }
    if (n > 65536) g *= 0.96;
    return g;
}

inline PointRecord synthetic_point(const SyntheticKernel& k, int64_t rows, int64_t n,
                                   double copy_gbps, bool with_counters) {
    PointRecord p;
    p.kernel = k.id;
    p.rows = rows;
    p.cols = n;
    const double mn = static_cast<double>(rows) * static_cast<double>(n);
    const double m = static_cast<double>(rows);
    p.gbps = synthetic_gbps(k, n);
    p.pct_of_copy = p.gbps / copy_gbps * 100;
    p.time.median_ms = 2 * mn * 4 / (p.gbps * 1e9) * 1e3;
    p.time.min_ms = p.time.median_ms * 0.98;
    p.time.max_ms = p.time.median_ms * 1.05;
    p.time.samples = 20;
    const bool naive = std::string(k.id) == "naive";
    const bool online = std::string(k.id).rfind("online", 0) == 0;
    p.predicted.dram_read_bytes = naive ? (5 * mn + 2 * m) * 4 : (online ? 2 : 1) * mn * 4;
    p.predicted.dram_write_bytes = naive ? (3 * mn + 2 * m) * 4 : mn * 4;
    p.predicted.read_formula = naive ? "5MN + 2M elements" : (online ? "2MN elements" : "MN");
    p.predicted.write_formula = naive ? "3MN + 2M elements" : "MN elements";
    // Intermediates stay in the 50 MB L2 when the whole problem is well under it.
    p.predicted.l2_resident = naive && mn * 4 <= 25e6;
    if (p.predicted.l2_resident)
        p.predicted.l2_reason = "M·N·4 B fits in the 50 MB L2: intermediates never reach DRAM";
    if (naive) {
        const double b = 1.0 / (2900e9) * 1e3;  // ms per byte at a near-copy rate
        const std::vector<std::pair<const char*, std::pair<double, double>>> steps = {
            {"row_max", {mn, m}}, {"subtract", {mn + m, mn}}, {"exp", {mn, mn}},
            {"row_sum", {mn, m}}, {"divide", {mn + m, mn}},
        };
        for (const auto& [name, rw] : steps) {
            LaunchRecord l;
            l.name = name;
            l.median_ms = (rw.first + rw.second) * 4 * b;
            p.launches.push_back(l);
            p.predicted.per_launch[name] = {rw.first * 4, rw.second * 4};
        }
    }
    if (with_counters) {
        p.metrics.available = true;
        p.metrics.set = "default";
        p.metrics.passes = 2;
        // Online's second read often hits L2 for short rows; naive's intermediates do when small.
        const double seen = p.predicted.l2_resident ? 0.3 : (online && n <= 8192 ? 0.55 : 0.99);
        const double r = p.predicted.dram_read_bytes * (online ? seen + 0.45 * (1 - seen) : seen);
        const double w = p.predicted.dram_write_bytes * (p.predicted.l2_resident ? 0.4 : 1.0);
        p.metrics.values = {
            {chart::metric::kDramRead, r},
            {chart::metric::kDramWrite, w},
            {chart::metric::kOccupancy, k.occupancy_pct},
            {chart::metric::kL2HitRate, k.l2_hit_pct},
            {chart::metric::kBankConflictsLd, k.bank_conflicts * 0.75},
            {chart::metric::kBankConflictsSt, k.bank_conflicts * 0.25},
        };
        for (const auto& [name, rw] : p.predicted.per_launch) {
            const double f = p.predicted.l2_resident ? 0.35 : 0.99;
            p.metrics.per_launch[name] = {{chart::metric::kDramRead, rw.first * f},
                                          {chart::metric::kDramWrite, rw.second * f}};
        }
    } else {
        p.metrics.available = false;
        p.metrics.reason = "CUPTI turned off at build time (-DSML_WITH_CUPTI=OFF)";
    }
    return p;
}

inline Session synthetic_session_base() {
    Session s;
    s.created_utc = "2026-11-22T09:00:00Z";
    s.command = "synthetic fixture (tests/test_chart_fixture.h)";
    s.host = "ci";
    s.device.name = "NVIDIA H100 80GB HBM3";
    s.device.cc_major = 9;
    s.device.sm_count = 132;
    s.device.l2_bytes = 50 * 1024 * 1024;
    s.device.copy_gbps = 3004;
    s.device.peak_dram_gbps = 3352;
    s.device.counters_available = true;
    s.notes["synthetic"] = "generated by tests/test_chart_fixture.h";
    return s;
}

// The sweep: N = 32 .. 1M (powers of two plus a few 3·2^k), M·N = 2^28 fp32 elements (1 GiB).
inline std::vector<int64_t> synthetic_cols() {
    std::vector<int64_t> cols;
    for (int64_t n = 32; n <= (1 << 20); n *= 2) {
        cols.push_back(n);
        if (n >= 1024 && n <= 16384) cols.push_back(n + n / 2);
    }
    return cols;
}

inline Session synthetic_session(bool with_counters = true) {
    Session s = synthetic_session_base();
    if (!with_counters) {
        s.device.counters_available = false;
        s.device.counters_reason = "CUPTI turned off at build time (-DSML_WITH_CUPTI=OFF)";
    }
    for (const SyntheticKernel& k : synthetic_kernels())
        for (int64_t n : synthetic_cols())
            if (n <= k.max_cols)
                s.points.push_back(synthetic_point(k, (int64_t{1} << 28) / n, n, s.device.copy_gbps,
                                                   with_counters));
    return s;
}

// A small problem (M = 4096, 16 MB at N = 1024) where naive's intermediates stay in L2.
inline Session synthetic_l2_session() {
    Session s = synthetic_session_base();
    for (const SyntheticKernel& k : synthetic_kernels())
        for (int64_t n : {256, 1024})
            if (n <= k.max_cols)
                s.points.push_back(synthetic_point(k, 4096, n, s.device.copy_gbps, true));
    return s;
}

}  // namespace sml::test
