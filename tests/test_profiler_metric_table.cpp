// The metric trait table: every metric the profiler asks CUPTI for is described well enough for
// the viewer's tooltip, names are unique, and the sets nest (deep adds to default, off is empty).
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "core/metrics/metric_table.h"

namespace sml {
namespace {

TEST(MetricTable, NamesAreUniqueAndLookupFindsEachOne) {
    std::set<std::string> seen;
    for (const MetricInfo& m : metric_table()) {
        EXPECT_TRUE(seen.insert(m.name).second) << "duplicate metric " << m.name;
        const MetricInfo* found = find_metric(m.name);
        ASSERT_NE(found, nullptr) << m.name;
        EXPECT_EQ(found, &m);
    }
    EXPECT_EQ(find_metric("dram__bytes_read.sum")->unit, MetricUnit::bytes);
    EXPECT_EQ(find_metric("not_a_metric.sum"), nullptr);
    EXPECT_EQ(find_metric(""), nullptr);
}

TEST(MetricTable, EveryMetricHasLabelUnitAndOneLineDescription) {
    for (const MetricInfo& m : metric_table()) {
        const std::string label = m.label, desc = m.description;
        EXPECT_FALSE(label.empty()) << m.name;
        EXPECT_LE(label.size(), 20u) << m.name << ": labels head table columns; keep them short";
        EXPECT_GE(desc.size(), 20u) << m.name << ": the tooltip should say what it measures";
        EXPECT_EQ(desc.find('\n'), std::string::npos) << m.name << ": one line";
        EXPECT_NE(std::string(metric_unit_name(m.unit)), "?") << m.name;
        EXPECT_TRUE(m.set == MetricSet::standard || m.set == MetricSet::deep) << m.name;
    }
}

// The default set is what the lessons compare against their predictions (FACTS.md lists the
// names checked on GH100); dropping one silently would blank a column in the viewer.
TEST(MetricTable, DefaultSetHoldsTheCountersTheLessonsUse) {
    const std::set<std::string> expected = {
        "dram__bytes_read.sum",
        "dram__bytes_write.sum",
        "dram__throughput.avg.pct_of_peak_sustained_elapsed",
        "lts__t_bytes.sum",
        "lts__t_sector_hit_rate.pct",
        "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        "sm__warps_active.avg.pct_of_peak_sustained_active",
    };
    const std::vector<std::string> names = metric_names_in_set(MetricSet::standard);
    EXPECT_EQ(std::set<std::string>(names.begin(), names.end()), expected);
    // 8 replay passes: never in the default set, which must stay at 1-2 passes.
    for (const std::string& n : names)
        EXPECT_NE(n, "sm__throughput.avg.pct_of_peak_sustained_elapsed");
}

TEST(MetricTable, DeepIsAStrictSupersetOfDefaultAndOffIsEmpty) {
    const std::vector<std::string> std_names = metric_names_in_set(MetricSet::standard);
    const std::vector<std::string> deep_names = metric_names_in_set(MetricSet::deep);
    const std::set<std::string> deep(deep_names.begin(), deep_names.end());
    for (const std::string& n : std_names) EXPECT_TRUE(deep.count(n)) << n << " missing from deep";
    EXPECT_GT(deep_names.size(), std_names.size());
    EXPECT_TRUE(deep.count("sm__throughput.avg.pct_of_peak_sustained_elapsed"));
    EXPECT_TRUE(metrics_in_set(MetricSet::off).empty());
    EXPECT_EQ(metrics_in_set(MetricSet::deep).size(), metric_table().size());
}

TEST(MetricTable, UnitsMatchWhatTheNamesCount) {
    // CUPTI's suffixes say what a value is: ".pct"/"pct_of_peak" are percentages, "bytes" are
    // bytes; a wrong unit would print "268 %" for a byte count.
    for (const MetricInfo& m : metric_table()) {
        const std::string n = m.name;
        if (n.find("pct") != std::string::npos) {
            EXPECT_EQ(m.unit, MetricUnit::percent) << n;
            EXPECT_EQ(m.hint, DisplayHint::percentage) << n;
        } else if (n.find("bytes") != std::string::npos) {
            EXPECT_EQ(m.unit, MetricUnit::bytes) << n;
            EXPECT_EQ(m.hint, DisplayHint::byte_size) << n;
        } else {
            EXPECT_EQ(m.unit, MetricUnit::count) << n;
        }
    }
}

TEST(MetricTable, FormatsValuesByDisplayHint) {
    const MetricInfo& bytes = *find_metric("dram__bytes_read.sum");
    EXPECT_EQ(format_metric_value(bytes, 268435456.0), "268.4 MB");
    EXPECT_EQ(format_metric_value(bytes, 1073741824.0), "1.1 GB");
    EXPECT_EQ(format_metric_value(bytes, 768.0), "768 B");
    const MetricInfo& pct = *find_metric("lts__t_sector_hit_rate.pct");
    EXPECT_EQ(format_metric_value(pct, 51.0975), "51.1 %");
    const MetricInfo& count =
        *find_metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
    EXPECT_EQ(format_metric_value(count, 1234567.0), "1,234,567");
    EXPECT_EQ(format_metric_value(count, 0.0), "0");
    EXPECT_EQ(format_metric_value(count, 999.0), "999");
    EXPECT_EQ(format_metric_value(count, 1000.0), "1,000");
    EXPECT_EQ(format_metric_value(count, std::nan("")), "n/a");
}

}  // namespace
}  // namespace sml
