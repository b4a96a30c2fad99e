// Chart builders: one function per chart kind, each turning a Session into a Chart (plain data).
//
//   bandwidth  GB/s vs N (log2), one line per kernel, copy and datasheet-peak reference lines
//   bytes      predicted vs measured DRAM bytes per kernel at one N (grouped bars)
//   pct        % of the same run's copy bandwidth vs N: sweet spots, cliffs, range ends
//   naive      naive's five launches at one N: time and DRAM bytes per launch
//   metrics    occupancy, L2 hit rate and bank conflicts per kernel at one N
//
// Kernels appear in registry order (kernels/registry.h) with a colour fixed by their registry
// index, so a kernel has the same colour in every chart. Errors name what is missing and list
// what the session has instead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/chart/chart_model.h"
#include "common/result.h"
#include "core/session/session.h"

namespace sml::chart {

struct ChartOptions {
    std::string kind = "bandwidth";
    int64_t cols = 0;            // N for the per-N charts; 0 picks one (see default_cols)
    std::string dtype = "fp32";  // points of other dtypes are left out
    std::string title;           // replaces the built title when not empty
};

// "bandwidth", "bytes", "pct", "naive", "metrics", in that order.
const std::vector<std::string>& chart_kinds();
std::string chart_kind_list();  // "bandwidth, bytes, pct, naive, metrics"

Result<Chart> build_chart(const Session& session, const ChartOptions& options);

Result<Chart> build_bandwidth_chart(const Session& session, const ChartOptions& options);
Result<Chart> build_bytes_chart(const Session& session, const ChartOptions& options);
Result<Chart> build_pct_chart(const Session& session, const ChartOptions& options);
Result<Chart> build_naive_chart(const Session& session, const ChartOptions& options);
Result<Chart> build_metrics_chart(const Session& session, const ChartOptions& options);

// The N the per-N charts use when --cols is not given: the N at which the most kernels have a
// point, the largest such N on a tie. 0 when the session has no point of `dtype`.
int64_t default_cols(const Session& session, const std::string& dtype);

// The distinct N of `dtype` points (of `kernel` when not empty), ascending.
std::vector<int64_t> available_cols(const Session& session, const std::string& dtype,
                                    const std::string& kernel = "");

// Legend label for a kernel: "fused: Triton tutorial port" (title shortened), or the id alone.
std::string kernel_label(const std::string& kernel_id, const std::string& variant);

// Building blocks the chart files share.
// The x axis of every chart over N: "N, columns per row (log2 scale)", ticks at powers of two.
Axis n_axis();
// The y axis of a "% of copy" chart (pct, peers), labelled `label`.
Axis pct_of_copy_axis(const std::string& label);
// Fits a "% of copy" panel's axes to its lines: N over the points, y 0-110% (taller only where a
// line beats copy). False when no line has a point.
bool fit_pct_of_copy_axes(Panel* panel);
// A horizontal reference line (copy bandwidth, 100%) across the whole plot.
Series reference_line(const std::string& label, const std::string& key, double y, bool dashed);
// A command line as a chart subtitle shows it: program name without its folder, no output paths.
std::string command_for_display(const std::string& command);

// The CUPTI metric names the charts read, in one place (descriptions:
// core/metrics/metric_table.h).
namespace metric {
constexpr const char* kDramRead = "dram__bytes_read.sum";
constexpr const char* kDramWrite = "dram__bytes_write.sum";
constexpr const char* kOccupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";
constexpr const char* kL2HitRate = "lts__t_sector_hit_rate.pct";
constexpr const char* kBankConflictsLd = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
constexpr const char* kBankConflictsSt = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
}  // namespace metric

}  // namespace sml::chart
