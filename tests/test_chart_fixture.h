// A SYNTHETIC session for the chart and viewer tests: shaped like an H100 sweep (1 GiB fp32 per
// point, N = 32 .. 1M) with every kernel of the registry, each only inside its range on the
// reference H100 (KernelInfo::max_cols), its predicted traffic from the registry's own formulas
// (predict_point, as a sweep records it) and plausible counters. The timings and counters are
// invented to exercise the charts; they are not measurements, and the session says so
// (notes["synthetic"]), which every chart drawn from it prints as a footnote. Never commit charts
// drawn from it under assets/.
//
// Nothing here names a kernel: the kernels, their ranges and their traffic come from
// sml::registry(), so the fixture follows the registry when a kernel is added or a range moves.
#pragma once

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "core/chart/chart_build.h"
#include "core/plan/sweep_plan.h"
#include "core/session/session.h"
#include "kernels/registry.h"

namespace sml::test {

struct SyntheticKernel {
    const KernelInfo* info;
    int64_t max_cols;   // on DeviceLimits::h100_reference(), fp32
    double efficiency;  // share of copy it reaches where its traffic is the minimum
    double occupancy_pct, l2_hit_pct, bank_conflicts;
};

// The registry's kernels, each with made-up but distinct counter values (from its index).
inline std::vector<SyntheticKernel> synthetic_kernels() {
    const DeviceLimits h100 = DeviceLimits::h100_reference();
    std::vector<SyntheticKernel> out;
    const std::vector<KernelInfo>& reg = registry();
    for (size_t i = 0; i < reg.size(); ++i) {
        const double k = static_cast<double>(i);
        out.push_back(SyntheticKernel{
            &reg[i], reg[i].max_cols(h100, DType::f32), 0.88 + 0.03 * static_cast<double>(i % 4),
            40 + static_cast<double>((i * 37) % 55), 4 + static_cast<double>((i * 13) % 35),
            i % 3 == 1 ? 60 * (k + 1) : 0});
    }
    return out;
}

inline const DeviceLimits& synthetic_limits() {
    static const DeviceLimits h100 = DeviceLimits::h100_reference();
    return h100;
}

// Bandwidth shaped like the real thing: a kernel that must move more than one read and one
// write runs that much slower than copy (naive's five launches, online's second read), small
// rows lose to per-row overhead, long rows lose a little more.
inline double synthetic_gbps(const SyntheticKernel& k, const PredictedTraffic& t, int64_t rows,
                             int64_t n, double copy_gbps) {
    const double minimum = 2.0 * static_cast<double>(rows) * static_cast<double>(n) * 4;
    const double moved = t.dram_read_bytes + t.dram_write_bytes;
    double g = copy_gbps * k.efficiency * (moved > 0 ? std::min(1.0, minimum / moved) : 1.0);
    g *= 1.0 - 0.45 * std::exp(-static_cast<double>(n) / 160.0);
    if (n > 65536) g *= 0.96;
    return g;
}

inline PointRecord synthetic_point(const SyntheticKernel& k, int64_t rows, int64_t n,
                                   double copy_gbps, bool with_counters) {
    PointRecord p;
    p.kernel = k.info->id;
    p.rows = rows;
    p.cols = n;
    const SoftmaxProblem problem = SoftmaxProblem::contiguous(rows, n);
    p.predicted = predict_point(*k.info, problem, synthetic_limits());
    const double mn = static_cast<double>(rows) * static_cast<double>(n);
    p.gbps = synthetic_gbps(k, p.predicted, rows, n, copy_gbps);
    p.pct_of_copy = p.gbps / copy_gbps * 100;
    p.time.median_ms = 2 * mn * 4 / (p.gbps * 1e9) * 1e3;
    p.time.min_ms = p.time.median_ms * 0.98;
    p.time.max_ms = p.time.median_ms * 1.05;
    p.time.samples = 20;
    // A kernel of several launches gets one record per launch, in the formula's order.
    const Traffic traffic = k.info->predict(problem, synthetic_limits());
    for (const StepTraffic& s : traffic.steps) {
        LaunchRecord l;
        l.name = s.name;
        l.median_ms = (s.dram_read_bytes + s.dram_write_bytes) / (2900e9) * 1e3;
        p.launches.push_back(l);
    }
    if (with_counters) {
        p.metrics.available = true;
        p.metrics.set = "default";
        p.metrics.passes = 2;
        // What L2 keeps never reaches DRAM: a several-launch kernel's intermediates and a
        // second read of the input when the tensor fits, some second reads of rows short enough
        // to stay cached, nearly nothing else.
        const bool several_launches = p.launches.size() > 1;
        const bool rereads = p.predicted.dram_read_bytes > 1.5 * mn * 4;
        double seen = rereads && n <= 8192 ? 0.55 : 0.99;
        if (p.predicted.l2_resident) seen = several_launches ? 0.3 : (rereads ? 0.55 : 0.97);
        const double r = p.predicted.dram_read_bytes * seen;
        const double w = p.predicted.dram_write_bytes *
                         (p.predicted.l2_resident && several_launches ? 0.4 : 0.98);
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
    s.device.l2_bytes = synthetic_limits().l2_bytes;
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

// The largest sweep N every kernel of the registry can run: where the per-N charts default to.
inline int64_t synthetic_cols_all_kernels_run() {
    int64_t best = 0;
    for (int64_t n : synthetic_cols()) {
        bool all = true;
        for (const SyntheticKernel& k : synthetic_kernels()) all = all && n <= k.max_cols;
        if (all) best = n;
    }
    return best;
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

// A small problem (M = 4096, 16 MB at N = 1024): every tensor fits in the 50 MiB L2, so every
// point is L2-resident.
inline Session synthetic_l2_session() {
    Session s = synthetic_session_base();
    for (const SyntheticKernel& k : synthetic_kernels())
        for (int64_t n : {256, 1024})
            if (n <= k.max_cols)
                s.points.push_back(synthetic_point(k, 4096, n, s.device.copy_gbps, true));
    return s;
}

// A SYNTHETIC second session for the compare view: `base` as if recorded on another GPU
// (renamed, a later date, its own copy bandwidth) with every bandwidth scaled by `scale`. Made
// in the test from a session; its notes say it is synthetic, so charts drawn from it say so.
inline Session synthetic_other_gpu(Session base, const std::string& device_name, double scale,
                                   double copy_gbps) {
    base.device.name = device_name;
    base.created_utc = "2026-12-01T10:00:00Z";
    base.command = "synthetic compare fixture (tests/test_chart_fixture.h)";
    base.device.copy_gbps = copy_gbps;
    base.device.peak_dram_gbps = copy_gbps * 1.1;
    for (PointRecord& p : base.points) {
        p.gbps *= scale;
        p.pct_of_copy = p.gbps / copy_gbps * 100;
        p.time.median_ms /= scale;
        p.time.min_ms /= scale;
        p.time.max_ms /= scale;
    }
    std::ostringstream why;
    why << "made by tests/test_chart_fixture.h: " << device_name
        << " is a renamed copy with every bandwidth scaled by " << scale;
    base.notes["synthetic"] = why.str();
    return base;
}

}  // namespace sml::test
