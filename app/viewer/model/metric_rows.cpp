// Builds the Metrics table. See metric_rows.h.
#include "app/viewer/model/metric_rows.h"

#include <algorithm>
#include <set>

#include "app/viewer/model/format.h"
#include "app/viewer/model/ui_text.h"
#include "core/metrics/metric_table.h"
#include "kernels/registry.h"

namespace sml::viewer {

const MetricColumnInfo& column_info(MetricColumn c) {
    static const MetricColumnInfo info[] = {
        {"kernel", "Registry id of the kernel (and its variant, when not the default)."},
        {"time", "Median kernel time over the timed samples, each from a cold L2 (CUDA events)."},
        {"GB/s",
         "Effective bandwidth: 2 x M x N x element size / median time (the Triton "
         "tutorial's convention)."},
        {"% copy",
         "Bandwidth as a share of the device-to-device copy measured in the same run: "
         "the practical speed of light."},
        {"DRAM pred.",
         "DRAM bytes (read + write) the algorithm must move, from the kernel's "
         "traffic formula. Cache effects are not in the formula."},
        {"DRAM meas.",
         "DRAM bytes read + written, measured by CUPTI (dram__bytes_read.sum + "
         "dram__bytes_write.sum), and the ratio to the prediction."},
        {"L2 hit", "Share of L2 sector lookups that hit (lts__t_sector_hit_rate.pct)."},
        {"occupancy",
         "Achieved occupancy: active warps as a share of the SM's maximum "
         "(sm__warps_active); theoretical occupancy when counters are off."},
        {"bank confl.",
         "Shared-memory bank conflicts, loads + stores "
         "(l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld/st.sum)."},
    };
    return info[static_cast<int>(c)];
}

MetricColumn column_for_quantity(const std::string& q) {
    if (q == "gbps" || q == "ratio_gbps" || q == "rank_gbps" || q == "copy_gbps")
        return MetricColumn::gbps;
    if (q == "pct_of_copy") return MetricColumn::pct_of_copy;
    if (q == "median_ms") return MetricColumn::time;
    if (q == "dram_ratio" || q == "dram_bytes" || q == "dram_bytes_ratio" || q == "l2_resident")
        return MetricColumn::dram_measured;  // its "[L2]" tag says L2-resident
    if (q == "bank_conflicts" || q == "conflict_share") return MetricColumn::bank_conflicts;
    return MetricColumn::count_;
}

std::string column_tooltip(MetricColumn c, const std::string& lang) {
    std::string tip = ui_text(column_info(c).description, lang);
    std::vector<const char*> counters;
    switch (c) {
        case MetricColumn::dram_measured:
            counters = {metric::kDramRead, metric::kDramWrite};
            break;
        case MetricColumn::l2_hit:
            counters = {metric::kL2HitRate};
            break;
        case MetricColumn::occupancy:
            counters = {metric::kWarpsActive};
            break;
        case MetricColumn::bank_conflicts:
            counters = {metric::kBankConflictsLd, metric::kBankConflictsSt};
            break;
        default:
            break;
    }
    for (const char* name : counters)
        if (const MetricInfo* m = find_metric(name))
            tip += std::string("\n\n") + m->name + ": " + ui_text(m->description, lang);
    return tip;
}

bool measured_dram_bytes(const PointRecord& p, double* bytes) {
    if (!p.metrics.available) return false;
    auto r = p.metrics.get(metric::kDramRead);
    auto w = p.metrics.get(metric::kDramWrite);
    if (!r || !w) return false;
    *bytes = *r + *w;
    return true;
}

std::vector<int64_t> session_cols(const Session& session) {
    std::set<int64_t> cols;
    for (const PointRecord& p : session.points) cols.insert(p.cols);
    return {cols.begin(), cols.end()};
}

namespace {

int registry_order(const std::string& id) {
    const auto& reg = registry();
    for (size_t i = 0; i < reg.size(); ++i)
        if (id == reg[i].id) return static_cast<int>(i);
    return static_cast<int>(reg.size());  // unknown kernels (an older session) go last
}

MetricRow make_row(const PointRecord& p, const std::string& lang) {
    MetricRow row;
    row.rows = p.rows;
    row.cols = p.cols;
    row.kernel = p.variant.empty() ? p.kernel : p.kernel + " / " + p.variant;
    row.kernel_id = p.kernel;
    row.variant = p.variant;
    row.gbps = p.gbps;
    auto cell = [&row](MetricColumn c) -> std::string& { return row.cells[static_cast<int>(c)]; };
    cell(MetricColumn::kernel) = row.kernel;
    cell(MetricColumn::time) = format_ms(p.time.median_ms);
    cell(MetricColumn::gbps) = format_gbps(p.gbps);
    cell(MetricColumn::pct_of_copy) = format_pct(p.pct_of_copy);
    row.pct_of_copy = p.pct_of_copy;
    const double predicted = p.predicted.dram_read_bytes + p.predicted.dram_write_bytes;
    cell(MetricColumn::dram_predicted) = format_bytes(predicted);
    row.l2_resident = p.predicted.l2_resident;
    row.l2_reason = l2_reason_text(p.predicted.l2_reason, lang);  // recorded in English
    row.counters_available = p.metrics.available;
    // The core's sentence in the lesson language where the session kept it (common/message.h).
    row.counters_reason = p.metrics.reason_message.is_sentence()
                              ? message_text(p.metrics.reason_message, lang)
                              : p.metrics.reason;

    double measured = 0;
    if (measured_dram_bytes(p, &measured)) {
        std::string s = format_bytes(measured);
        if (predicted > 0) s += " (" + format_ratio(measured / predicted) + ")";
        cell(MetricColumn::dram_measured) = s;
    } else {
        cell(MetricColumn::dram_measured) = "n/a";
    }
    auto metric_or = [&p](const char* name) { return p.metrics.get(name); };
    auto l2 = metric_or(metric::kL2HitRate);
    cell(MetricColumn::l2_hit) = l2 ? format_pct(*l2) : "n/a";
    if (auto occ = metric_or(metric::kWarpsActive)) {
        cell(MetricColumn::occupancy) = format_pct(*occ);
    } else if (!p.launches.empty()) {
        // Counters off: fall back to the occupancy API's answer, labelled as theoretical.
        double worst = p.launches.front().theoretical_occupancy_pct;
        for (const LaunchRecord& l : p.launches)
            worst = std::min(worst, l.theoretical_occupancy_pct);
        cell(MetricColumn::occupancy) = format_pct(worst) + ui_text(" (theor.)", lang);
    } else {
        cell(MetricColumn::occupancy) = "n/a";
    }
    auto ld = metric_or(metric::kBankConflictsLd);
    auto st = metric_or(metric::kBankConflictsSt);
    cell(MetricColumn::bank_conflicts) =
        (ld || st) ? format_count(ld.value_or(0) + st.value_or(0)) : "n/a";
    return row;
}

}  // namespace

std::vector<MetricRow> build_metric_rows(const Session& session, int64_t cols,
                                         const std::string& dtype,
                                         const std::vector<std::string>& only,
                                         const std::string& lang) {
    std::vector<const PointRecord*> picked;
    for (const PointRecord& p : session.points) {
        if (p.cols != cols || p.dtype != dtype) continue;
        if (!only.empty() && std::find(only.begin(), only.end(), p.kernel) == only.end()) continue;
        picked.push_back(&p);
    }
    std::stable_sort(picked.begin(), picked.end(), [](const PointRecord* a, const PointRecord* b) {
        return registry_order(a->kernel) < registry_order(b->kernel);
    });
    std::vector<MetricRow> rows;
    for (const PointRecord* p : picked) rows.push_back(make_row(*p, lang));
    // A session may hold the same kernel and N at two sizes (e.g. an extra small-M point that
    // fits in L2): then every row names its M, or the two rows would read as a contradiction.
    bool mixed_m = false;
    for (const MetricRow& r : rows) mixed_m |= r.rows != rows.front().rows;
    if (mixed_m)
        for (MetricRow& r : rows)
            r.cells[static_cast<int>(MetricColumn::kernel)] += "  M=" + format_cols(r.rows);
    return rows;
}

std::vector<MetricRow> build_compare_metric_rows(const Session& open, const Session& compared,
                                                 const std::string& open_label,
                                                 const std::string& compared_label, int64_t cols,
                                                 const std::string& dtype,
                                                 const std::vector<std::string>& only,
                                                 const std::string& lang) {
    std::vector<MetricRow> rows = build_metric_rows(open, cols, dtype, only, lang);
    std::vector<MetricRow> theirs = build_metric_rows(compared, cols, dtype, only, lang);
    auto kernel_cell = [](MetricRow& r) -> std::string& {
        return r.cells[static_cast<int>(MetricColumn::kernel)];
    };
    for (MetricRow& r : rows) kernel_cell(r) += " (" + open_label + ")";
    for (MetricRow& r : theirs) {
        r.side = 1;
        kernel_cell(r) += " (" + compared_label + ")";
        // The same kernel at the same N (and M, when the open session has that size too).
        const MetricRow* mine = nullptr;
        for (const MetricRow& o : rows) {
            if (o.kernel_id != r.kernel_id || o.variant != r.variant) continue;
            if (!mine || o.rows == r.rows) mine = &o;
        }
        if (mine && mine->gbps > 0 && r.gbps > 0)
            r.cells[static_cast<int>(MetricColumn::gbps)] +=
                " (" + format_ratio(r.gbps / mine->gbps) + ")";
    }
    rows.insert(rows.end(), theirs.begin(), theirs.end());
    // Each kernel's rows together, the open session's first (a stable sort keeps each side's
    // own order, the variants after the default).
    std::stable_sort(rows.begin(), rows.end(), [](const MetricRow& a, const MetricRow& b) {
        const int ra = registry_order(a.kernel_id), rb = registry_order(b.kernel_id);
        if (ra != rb) return ra < rb;
        if (a.kernel_id != b.kernel_id) return a.kernel_id < b.kernel_id;
        if (a.variant != b.variant) return a.variant < b.variant;
        return a.side < b.side;
    });
    return rows;
}

}  // namespace sml::viewer
