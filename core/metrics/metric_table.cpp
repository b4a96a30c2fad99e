// The metric trait table. To collect another counter, add one row here (and check the name on
// the device: an unknown name makes the whole config fail, and the profiler then reports why).
#include "core/metrics/metric_table.h"

#include <cmath>
#include <cstdio>

namespace sml {

const char* metric_unit_name(MetricUnit u) {
    switch (u) {
        case MetricUnit::bytes:
            return "bytes";
        case MetricUnit::percent:
            return "%";
        case MetricUnit::count:
            return "count";
        case MetricUnit::ratio:
            return "ratio";
    }
    return "?";
}

const std::vector<MetricInfo>& metric_table() {
    using U = MetricUnit;
    using H = DisplayHint;
    constexpr MetricSet kStd = MetricSet::standard;
    static const std::vector<MetricInfo> table = {
        // DRAM: what the lessons' traffic formulas predict.
        {"dram__bytes_read.sum", "DRAM read", U::bytes,
         "Bytes read from device memory (HBM); compare with the lesson's predicted reads", kStd,
         H::byte_size},
        {"dram__bytes_write.sum", "DRAM write", U::bytes,
         "Bytes written to device memory (HBM); compare with the lesson's predicted writes", kStd,
         H::byte_size},
        {"dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM %", U::percent,
         "Device-memory throughput as a percentage of its sustained peak over the kernel's time",
         kStd, H::percentage},
        // L2: explains why small problems measure under their DRAM formula.
        {"lts__t_bytes.sum", "L2 bytes", U::bytes,
         "Bytes moved through the L2 cache (hits and misses, reads and writes)", kStd,
         H::byte_size},
        {"lts__t_sector_hit_rate.pct", "L2 hit %", U::percent,
         "Share of L2 sector requests served from L2 without going to DRAM", kStd, H::percentage},
        // L1 / global: what the kernel asked for, before any cache.
        {"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum", "Global load", U::bytes,
         "Bytes requested by global-memory loads at L1 (re-reads count every time)", kStd,
         H::byte_size},
        {"l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum", "Global store", U::bytes,
         "Bytes requested by global-memory stores at L1", kStd, H::byte_size},
        // Shared memory: wavefronts are the passes the shared-memory pipe needs; a bank
        // conflict adds a wavefront, so conflicts show as extra wavefronts.
        {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "Smem ld wavefronts", U::count,
         "Shared-memory load wavefronts (one per conflict-free warp access, more with conflicts)",
         kStd, H::count},
        {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "Smem st wavefronts", U::count,
         "Shared-memory store wavefronts (one per conflict-free warp access, more with conflicts)",
         kStd, H::count},
        {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "Smem ld conflicts", U::count,
         "Shared-memory load bank conflicts: extra passes when lanes hit one bank", kStd, H::count},
        {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "Smem st conflicts", U::count,
         "Shared-memory store bank conflicts: extra passes when lanes hit one bank", kStd,
         H::count},
        // Occupancy as achieved, next to the theoretical occupancy from the CUDA runtime.
        {"sm__warps_active.avg.pct_of_peak_sustained_active", "Achieved occupancy", U::percent,
         "Average active warps per SM as a percentage of the maximum (achieved occupancy)", kStd,
         H::percentage},
        // Deep set: sm__throughput alone costs about 8 replay passes on GH100.
        {"sm__throughput.avg.pct_of_peak_sustained_elapsed", "SM %", U::percent,
         "Busiest SM pipeline's throughput as a percentage of its peak (costs ~8 replay passes)",
         MetricSet::deep, H::percentage},
    };
    return table;
}

const MetricInfo* find_metric(std::string_view name) {
    for (const MetricInfo& m : metric_table())
        if (name == m.name) return &m;
    return nullptr;
}

static bool set_includes(MetricSet set, MetricSet metric_set) {
    if (set == MetricSet::off) return false;
    if (set == MetricSet::deep) return true;  // deep = default + the expensive ones
    return metric_set == MetricSet::standard;
}

std::vector<const MetricInfo*> metrics_in_set(MetricSet set) {
    std::vector<const MetricInfo*> out;
    for (const MetricInfo& m : metric_table())
        if (set_includes(set, m.set)) out.push_back(&m);
    return out;
}

std::vector<std::string> metric_names_in_set(MetricSet set) {
    std::vector<std::string> out;
    for (const MetricInfo* m : metrics_in_set(set)) out.emplace_back(m->name);
    return out;
}

// "1234567" -> "1,234,567" (values are counts, so rounding to an integer loses nothing useful).
static std::string with_thousands(double v) {
    char digits[64];
    std::snprintf(digits, sizeof digits, "%.0f", std::fabs(v));
    std::string s = digits, out;
    int n = static_cast<int>(s.size());
    for (int i = 0; i < n; ++i) {
        out += s[i];
        if ((n - i - 1) % 3 == 0 && i != n - 1) out += ',';
    }
    return (v < 0 && out != "0" ? "-" : "") + out;
}

static std::string byte_size(double v) {
    static const char* kUnits[] = {"B", "KB", "MB", "GB", "TB"};
    int u = 0;
    double x = v;
    while (std::fabs(x) >= 1000.0 && u < 4) {
        x /= 1000.0;
        ++u;
    }
    char buf[64];
    if (u == 0)
        std::snprintf(buf, sizeof buf, "%.0f B", x);
    else
        std::snprintf(buf, sizeof buf, "%.1f %s", x, kUnits[u]);
    return buf;
}

std::string format_metric_value(const MetricInfo& m, double value) {
    if (!std::isfinite(value)) return "n/a";
    char buf[64];
    switch (m.hint) {
        case DisplayHint::byte_size:
            return byte_size(value);
        case DisplayHint::percentage:
            std::snprintf(buf, sizeof buf, "%.1f %%", value);
            return buf;
        case DisplayHint::count:
            return with_thousands(value);
        case DisplayHint::ratio:
            std::snprintf(buf, sizeof buf, "%.2f", value);
            return buf;
    }
    return "?";
}

}  // namespace sml
