// The Metrics panel's table as data: one row per kernel at one N, every cell already formatted.
//
// Built once when the session or the selection changes (never while drawing), so the panel only
// copies strings to the screen. Missing data is explicit: a cell is "n/a" with a reason, never 0.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/session/session.h"

namespace sml::viewer {

// The CUPTI metric names the table reads (see core/metrics/metric_table.h for their
// descriptions). Kept here as the one place the viewer spells them.
namespace metric {
inline constexpr const char* kDramRead = "dram__bytes_read.sum";
inline constexpr const char* kDramWrite = "dram__bytes_write.sum";
inline constexpr const char* kL2HitRate = "lts__t_sector_hit_rate.pct";
inline constexpr const char* kWarpsActive = "sm__warps_active.avg.pct_of_peak_sustained_active";
inline constexpr const char* kBankConflictsLd =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
inline constexpr const char* kBankConflictsSt =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
}  // namespace metric

enum class MetricColumn {
    kernel,
    time,
    gbps,
    pct_of_copy,
    dram_predicted,
    dram_measured,
    l2_hit,
    occupancy,
    bank_conflicts,
    count_
};

struct MetricColumnInfo {
    const char* header;       // short, fits the table
    const char* description;  // one line, the header's tooltip
};
const MetricColumnInfo& column_info(MetricColumn c);
// The column that shows a lesson claim's quantity (lesson_claims.h), so the table can bring the
// one a step's question asks about into view; MetricColumn::count_ where no column shows it
// (registers, blocks per SM, a raw metric: the step's text and the code panel show those).
MetricColumn column_for_quantity(const std::string& quantity);
// The header's tooltip: the column's description, then, for columns read from hardware counters,
// each counter's own one-line description from the metric table (core/metrics/metric_table.h),
// so the viewer and the CLI describe a counter in the same words.
// In `lang` ("en" | "zh"): the counters' names stay as CUPTI spells them.
std::string column_tooltip(MetricColumn c, const std::string& lang = "en");

struct MetricRow {
    std::string kernel;     // registry id (+ " / variant" when not the default)
    std::string kernel_id;  // registry id alone
    std::string variant;    // "" for the default
    // 0: a row of the open session; 1: of the compared session (build_compare_metric_rows).
    int side = 0;
    std::string cells[static_cast<int>(MetricColumn::count_)];
    double gbps = 0;
    double pct_of_copy = 0;    // for the bar drawn behind the cell
    bool l2_resident = false;  // measured DRAM < formula because the working set fits in L2
    std::string l2_reason;
    bool counters_available = false;
    std::string counters_reason;  // why the measured columns are empty
    int64_t rows = 0, cols = 0;
};

// Rows for every point at `cols` (and `dtype`), in registry order. Kernels in `only` first and
// only those, when `only` is non-empty.
// `lang`: the words in cells ("(theor.)") in "en" or "zh".
std::vector<MetricRow> build_metric_rows(const Session& session, int64_t cols,
                                         const std::string& dtype,
                                         const std::vector<std::string>& only = {},
                                         const std::string& lang = "en");

// The table with a second session (the "Compare GPUs" view): the open session's rows and the
// compared session's rows for the same N, each kernel's row of the open session followed by
// its row of the compared one. Every kernel cell names its session ("best (H100)",
// "best (RTX 4090)"; `labels` from chart::compare_labels), and the compared row's GB/s cell
// adds its ratio to the open session's ("2650 GB/s (0.87x)"). % copy is each session's own.
std::vector<MetricRow> build_compare_metric_rows(const Session& open, const Session& compared,
                                                 const std::string& open_label,
                                                 const std::string& compared_label, int64_t cols,
                                                 const std::string& dtype,
                                                 const std::vector<std::string>& only = {},
                                                 const std::string& lang = "en");

// Every N with at least one point, ascending.
std::vector<int64_t> session_cols(const Session& session);

// Measured DRAM bytes (read + write) of a point, when its counters were read.
bool measured_dram_bytes(const PointRecord& p, double* bytes);

}  // namespace sml::viewer
