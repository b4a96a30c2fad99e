#include "app/cli/report.h"

#include <cstdio>
#include <set>

#include "app/cli/cli_common.h"
#include "core/common/safe_file.h"
#include "core/measure/device_buffer.h"

namespace sml::cli {

namespace {
const char* const kDramRead = "dram__bytes_read.sum";
const char* const kDramWrite = "dram__bytes_write.sum";

std::string ratio(std::optional<double> measured, double predicted) {
    if (!measured || predicted <= 0) return "";
    return " (" + fmt(*measured / predicted, 2) + "x predicted)";
}
}  // namespace

void print_point(const PointRecord& p, const DeviceRecord& device) {
    std::printf("%s%s%s  %lld x %lld %s  on %s\n\n", p.kernel.c_str(),
                p.variant.empty() ? "" : " / ", p.variant.c_str(), (long long)p.rows,
                (long long)p.cols, p.dtype.c_str(), device.name.c_str());
    std::printf("  time       min %.4f  median %.4f  max %.4f ms  (%d samples%s)\n", p.time.min_ms,
                p.time.median_ms, p.time.max_ms, p.time.samples,
                p.time.l2_flushed ? ", L2 flushed before each" : "");
    std::printf(
        "  bandwidth  %.0f GB/s = %.1f%% of a device-to-device copy (%.0f GB/s, same run)\n",
        p.gbps, p.pct_of_copy, p.copy_gbps);
    std::printf("  accuracy   max rel error %s, worst |row sum - 1| %s, %lld rows checked: %s\n",
                fmt_sci(p.max_rel_error).c_str(), fmt_sci(p.max_rowsum_error).c_str(),
                (long long)p.rows_checked,
                p.within_tolerance ? ("within " + fmt_sci(p.tolerance)).c_str()
                                   : ("OUTSIDE tolerance " + fmt_sci(p.tolerance)).c_str());
    for (const LaunchRecord& l : p.launches) {
        std::printf(
            "  launch     %-10s grid %dx%dx%d block %dx%dx%d smem %lld+%lld B, %d regs, "
            "%d blocks/SM, %.0f%% occupancy",
            l.name.c_str(), l.grid[0], l.grid[1], l.grid[2], l.block[0], l.block[1], l.block[2],
            (long long)l.static_smem_bytes, (long long)l.dynamic_smem_bytes, l.registers_per_thread,
            l.blocks_per_sm, l.theoretical_occupancy_pct);
        if (l.median_ms > 0) std::printf(", %.4f ms alone", l.median_ms);
        std::printf("\n");
    }
    const PredictedTraffic& t = p.predicted;
    std::printf("  predicted  DRAM read %s (%s), write %s (%s)\n",
                format_bytes(t.dram_read_bytes).c_str(), t.read_formula.c_str(),
                format_bytes(t.dram_write_bytes).c_str(), t.write_formula.c_str());
    if (p.metrics.available) {
        const auto rd = p.metrics.get(kDramRead), wr = p.metrics.get(kDramWrite);
        std::printf("  measured   DRAM read %s%s, write %s%s  (CUPTI, %s set, %d passes)\n",
                    rd ? format_bytes(*rd).c_str() : "n/a", ratio(rd, t.dram_read_bytes).c_str(),
                    wr ? format_bytes(*wr).c_str() : "n/a", ratio(wr, t.dram_write_bytes).c_str(),
                    p.metrics.set.c_str(), p.metrics.passes);
    } else {
        std::printf("  counters   unavailable: %s\n", p.metrics.reason.c_str());
    }
    std::printf("  L2         %s%s\n", t.l2_resident ? "resident: " : "", t.l2_reason.c_str());
}

void print_sweep_table(const Session& s) {
    std::set<int64_t> cols;
    std::vector<std::string> kernels;
    for (const PointRecord& p : s.points) {
        cols.insert(p.cols);
        bool seen = false;
        for (const std::string& k : kernels) seen = seen || k == p.kernel;
        if (!seen) kernels.push_back(p.kernel);
    }
    std::printf("\nGB/s (%% of copy) on %s, copy %.0f GB/s\n", s.device.name.c_str(),
                s.device.copy_gbps);
    std::printf("%9s", "N");
    for (const std::string& k : kernels) std::printf(" %13s", k.c_str());
    std::printf("\n");
    for (int64_t n : cols) {
        std::printf("%9lld", (long long)n);
        for (const std::string& k : kernels) {
            const PointRecord* p = nullptr;
            for (const PointRecord& q : s.points)
                if (q.kernel == k && q.cols == n && !p) p = &q;
            if (!p) {
                std::printf(" %13s", "-");
                continue;
            }
            char cell[32];
            std::snprintf(cell, sizeof cell, "%.0f (%.0f%%)%s", p->gbps, p->pct_of_copy,
                          p->within_tolerance ? "" : "!");
            std::printf(" %13s", cell);
        }
        std::printf("\n");
    }
}

Status write_points_csv(const std::string& path, const Session& s) {
    std::string csv =
        "kernel,variant,dtype,rows,cols,min_ms,median_ms,max_ms,mean_ms,samples,gbps,"
        "copy_gbps,pct_of_copy,max_rel_error,max_rowsum_error,rows_checked,"
        "within_tolerance,predicted_dram_read_bytes,predicted_dram_write_bytes,"
        "measured_dram_read_bytes,measured_dram_write_bytes,l2_resident\n";
    for (const PointRecord& p : s.points) {
        const auto rd = p.metrics.get(kDramRead), wr = p.metrics.get(kDramWrite);
        char line[1024];
        std::snprintf(line, sizeof line,
                      "%s,%s,%s,%lld,%lld,%.6g,%.6g,%.6g,%.6g,%d,%.6g,%.6g,%.6g,%.3g,%.3g,%lld,%d,"
                      "%.0f,%.0f,%s,%s,%d\n",
                      p.kernel.c_str(), p.variant.c_str(), p.dtype.c_str(), (long long)p.rows,
                      (long long)p.cols, p.time.min_ms, p.time.median_ms, p.time.max_ms,
                      p.time.mean_ms, p.time.samples, p.gbps, p.copy_gbps, p.pct_of_copy,
                      p.max_rel_error, p.max_rowsum_error, (long long)p.rows_checked,
                      p.within_tolerance ? 1 : 0, p.predicted.dram_read_bytes,
                      p.predicted.dram_write_bytes, rd ? fmt(*rd, 0).c_str() : "",
                      wr ? fmt(*wr, 0).c_str() : "", p.predicted.l2_resident ? 1 : 0);
        csv += line;
    }
    // A fresh side file renamed into place (core/common/safe_file.h), like the session.
    return write_file_atomic(path, csv, "CSV");
}

}  // namespace sml::cli
