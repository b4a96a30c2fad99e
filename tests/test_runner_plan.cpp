// The parts of measurement and the runner that need no GPU: sweep planning, statistics,
// row sampling, the L2-residency note and the DRAM peak formula.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/measure/accuracy.h"
#include "core/measure/build_info.h"
#include "core/measure/device_info.h"
#include "core/measure/input_gen.h"
#include "core/measure/timing.h"
#include "core/runner/runner.h"
#include "kernels/registry.h"

namespace sml {
namespace {

TEST(Stats, MinMedianMaxMean) {
    TimingStats t = summarize_samples({3.0, 1.0, 2.0, 10.0}, true);
    EXPECT_EQ(t.samples, 4);
    EXPECT_DOUBLE_EQ(t.min_ms, 1.0);
    EXPECT_DOUBLE_EQ(t.median_ms, 2.5);  // even count: mean of the middle two
    EXPECT_DOUBLE_EQ(t.max_ms, 10.0);
    EXPECT_DOUBLE_EQ(t.mean_ms, 4.0);
    EXPECT_TRUE(t.l2_flushed);
    t = summarize_samples({5.0, 1.0, 4.0}, false);
    EXPECT_DOUBLE_EQ(t.median_ms, 4.0);
    EXPECT_FALSE(t.l2_flushed);
    EXPECT_EQ(summarize_samples({}, true).samples, 0);
}

TEST(Stats, BandwidthIsBytesOverTime) {
    // 2 * 1 GiB moved in 0.715 ms is the H100's ~3 TB/s copy.
    EXPECT_NEAR(bandwidth_gbps(2.0 * (1 << 30), 0.715), 3003.4, 0.1);
    EXPECT_EQ(bandwidth_gbps(100, 0), 0.0);
}

TEST(DeviceInfo, PeakDramFromClockAndBus) {
    // H100 SXM HBM3: 2619 MHz, 5120-bit bus, double data rate -> 3352 GB/s.
    EXPECT_NEAR(peak_dram_gbps(2619000, 5120), 3352.3, 0.1);
    EXPECT_EQ(cuda_version_string(13000), "13.0");
    EXPECT_EQ(cuda_version_string(12060), "12.6");
}

TEST(DeviceInfo, NvccVersionIsTheToolkitsOwn) {
    const std::string v = nvcc_version();
    // "13.0.88": major.minor.build, and the same major.minor as the runtime headers.
    EXPECT_EQ(v.rfind(cuda_version_string(CUDART_VERSION) + ".", 0), 0u) << v;
    EXPECT_EQ(std::count(v.begin(), v.end(), '.'), 2) << v;
}

TEST(SessionHeader, RecordsWhenWhereAndWhat) {
    DeviceRecord d;
    d.name = "test GPU";
    d.runtime_version = "13.0";
    const Session s = new_session(d, "softmaxlab-cli sweep --out s.json");
    EXPECT_EQ(s.command, "softmaxlab-cli sweep --out s.json");
    ASSERT_EQ(s.created_utc.size(), 20u) << s.created_utc;  // 2026-11-22T09:41:00Z
    EXPECT_EQ(s.created_utc[10], 'T');
    EXPECT_EQ(s.created_utc.back(), 'Z');
    EXPECT_FALSE(s.host.empty());
    EXPECT_EQ(s.software.at("softmaxlab"), SML_VERSION);
    EXPECT_EQ(s.software.at("cuda_runtime"), "13.0");
    EXPECT_EQ(s.software.at("nvcc"), nvcc_version());
    EXPECT_EQ(s.device.name, "test GPU");
}

TEST(Sampling, SpreadIncludesFirstAndLast) {
    const std::vector<int64_t> r = sample_rows(262144, 64);
    ASSERT_EQ(r.size(), 64u);
    EXPECT_EQ(r.front(), 0);
    EXPECT_EQ(r.back(), 262143);
    EXPECT_TRUE(std::is_sorted(r.begin(), r.end()));
    EXPECT_EQ(std::set<int64_t>(r.begin(), r.end()).size(), r.size());
    EXPECT_EQ(sample_rows(3, 64), (std::vector<int64_t>{0, 1, 2}));
    EXPECT_EQ(sample_rows(1, 64), (std::vector<int64_t>{0}));
    EXPECT_TRUE(sample_rows(0, 64).empty());
}

TEST(Sampling, RowCountRespectsElementBudget) {
    EXPECT_EQ(sample_row_count(262144, 1024), 64);
    EXPECT_EQ(sample_row_count(256, 1 << 20), 4);  // 4 Mi elements at most
    EXPECT_EQ(sample_row_count(8, 1 << 26), 2);    // never fewer than first and last
    EXPECT_EQ(sample_row_count(1, 1 << 26), 1);
}

TEST(Tolerance, DependsOnDtype) {
    EXPECT_DOUBLE_EQ(tolerance_for(DType::f32), 1e-5);
    EXPECT_GT(tolerance_for(DType::f16), tolerance_for(DType::f32));
    EXPECT_GT(tolerance_for(DType::bf16), tolerance_for(DType::f16));
}

TEST(InputGen, DeterministicNormalValues) {
    EXPECT_EQ(normal_input_value(7, 3, 5), normal_input_value(7, 3, 5));
    EXPECT_NE(normal_input_value(7, 3, 5), normal_input_value(8, 3, 5));
    EXPECT_NE(normal_input_value(7, 3, 5), normal_input_value(7, 5, 3));
    // Roughly standard normal over many draws.
    double sum = 0, sq = 0;
    const int n = 200000;
    for (int i = 0; i < n; ++i) {
        const double v = normal_input_value(1, i / 1000, i % 1000);
        sum += v, sq += v * v;
    }
    EXPECT_NEAR(sum / n, 0.0, 0.02);
    EXPECT_NEAR(sq / n, 1.0, 0.02);
}

TEST(SweepPlan, SkipsOutOfRangeAndDerivesRows) {
    const DeviceLimits h100 = DeviceLimits::h100_reference();
    const KernelInfo* warp = find_kernel("warp");
    const KernelInfo* online = find_kernel("online");
    ASSERT_TRUE(warp && online);
    const SweepPlan plan =
        plan_sweep({warp, online}, {4096, 32, 1024, 32}, int64_t(1) << 20, DType::f32, h100);
    // warp: 32, 1024 (4096 is past its range); online: all three. Duplicates removed.
    ASSERT_EQ(plan.items.size(), 5u);
    EXPECT_EQ(plan.items[0].kernel, warp);
    EXPECT_EQ(plan.items[0].problem.cols, 32);
    EXPECT_EQ(plan.items[0].problem.rows, (int64_t(1) << 20) / 32);
    EXPECT_EQ(plan.items[1].problem.cols, 1024);
    EXPECT_EQ(plan.items[4].problem.cols, 4096);
    ASSERT_EQ(plan.skipped.size(), 1u);
    EXPECT_EQ(plan.skipped[0].kernel, "warp");
    EXPECT_EQ(plan.skipped[0].cols, 4096);
    EXPECT_NE(plan.skipped[0].reason.find("warp"), std::string::npos);
    // Fewer elements than N: at least one row.
    const SweepPlan tiny = plan_sweep({online}, {1000}, 10, DType::f32, h100);
    ASSERT_EQ(tiny.items.size(), 1u);
    EXPECT_EQ(tiny.items[0].problem.rows, 1);
}

TEST(SweepPlan, DefaultColsCoverCliffs) {
    const std::vector<int64_t> c = default_sweep_cols();
    EXPECT_GE(c.size(), 18u);
    EXPECT_LE(c.size(), 24u);
    EXPECT_EQ(c.front(), 32);
    EXPECT_EQ(c.back(), 1048576);
    for (int64_t n : {3000, 12288, 16384, 16385})
        EXPECT_NE(std::find(c.begin(), c.end(), n), c.end()) << n;
    EXPECT_TRUE(std::is_sorted(c.begin(), c.end()));
}

TEST(PredictPoint, L2ResidencyFlagAndReason) {
    const KernelInfo* naive = find_kernel("naive");
    ASSERT_TRUE(naive);
    const DeviceLimits l2 = DeviceLimits::h100_reference();  // its L2 sets the flag
    // Issue 3's example: naive at 4096 x 1024 fp32 (16 MiB tensors) stays in the 50 MiB L2.
    const SoftmaxProblem small = SoftmaxProblem::contiguous(4096, 1024);
    const PredictedTraffic s = predict_point(*naive, small, l2);
    EXPECT_TRUE(s.l2_resident);
    EXPECT_NE(s.l2_reason.find("16.00 MiB M x N tensor fits in the 50.00 MiB L2"),
              std::string::npos)
        << s.l2_reason;
    EXPECT_NE(s.l2_reason.find("below the formula"), std::string::npos);
    // The formula is kept as it is: residency never changes the prediction.
    const Traffic t = naive->predict(small, l2);
    EXPECT_DOUBLE_EQ(s.dram_read_bytes, t.dram_read_bytes);
    EXPECT_DOUBLE_EQ(s.dram_write_bytes, t.dram_write_bytes);
    EXPECT_EQ(s.per_launch.size(), t.steps.size());
    EXPECT_EQ(s.read_formula, t.read_formula);

    // 32 MiB: between half the L2 and all of it - not flagged, but the reason warns.
    const PredictedTraffic mid = predict_point(*naive, SoftmaxProblem::contiguous(8192, 1024), l2);
    EXPECT_FALSE(mid.l2_resident);
    EXPECT_NE(mid.l2_reason.find("close to"), std::string::npos) << mid.l2_reason;

    const PredictedTraffic big =
        predict_point(*naive, SoftmaxProblem::contiguous(262144, 1024), l2);
    EXPECT_FALSE(big.l2_resident);
    EXPECT_NE(big.l2_reason.find("larger than"), std::string::npos) << big.l2_reason;
    // fp16 halves the tensor: 8192 x 1024 is 32 MiB in fp32 (not resident), 16 MiB in fp16.
    const KernelInfo* online = find_kernel("online");
    ASSERT_TRUE(online);
    EXPECT_FALSE(predict_point(*online, SoftmaxProblem::contiguous(8192, 1024), l2).l2_resident);
    EXPECT_TRUE(
        predict_point(*online, SoftmaxProblem::contiguous(8192, 1024, DType::f16), l2).l2_resident);
}

TEST(SweepPlan, AllVariantsRunsEachVariantOfKernelsThatHaveThem) {
    const DeviceLimits h100 = DeviceLimits::h100_reference();
    const KernelInfo* smem = find_kernel("smem");
    const KernelInfo* warp = find_kernel("warp");
    ASSERT_TRUE(smem && warp);
    ASSERT_GE(smem->variants.size(), 2u);
    const SweepPlan plain = plan_sweep({smem, warp}, {1024}, 1 << 20, DType::f32, h100);
    const SweepPlan all = plan_sweep({smem, warp}, {1024}, 1 << 20, DType::f32, h100, true);
    EXPECT_EQ(plain.items.size(), 2u);
    ASSERT_EQ(all.items.size(), smem->variants.size() + 1);
    for (size_t v = 0; v < smem->variants.size(); ++v) {
        EXPECT_EQ(all.items[v].kernel, smem);
        EXPECT_EQ(all.items[v].variant, int(v));
    }
    EXPECT_EQ(all.items.back().kernel, warp);
    EXPECT_EQ(all.items.back().variant, 0);
}

TEST(SweepPlan, ExtraPointsParseKernelVariantAndSize) {
    const DeviceLimits h100 = DeviceLimits::h100_reference();
    Result<SweepItem> naive = parse_extra_point("naive:4096x1024", DType::f32, h100);
    ASSERT_TRUE(naive) << naive.error().message;
    EXPECT_STREQ(naive->kernel->id, "naive");
    EXPECT_EQ(naive->problem.rows, 4096);
    EXPECT_EQ(naive->problem.cols, 1024);
    EXPECT_EQ(naive->variant, 0);

    Result<SweepItem> smem = parse_extra_point("smem/bank-conflicted:8192x32768", DType::f32, h100);
    ASSERT_TRUE(smem) << smem.error().message;
    EXPECT_EQ(find_kernel("smem")->variants[size_t(smem->variant)], "bank-conflicted");

    // Each bad form names the problem.
    EXPECT_NE(parse_extra_point("nope:1x2", DType::f32, h100).error().message.find("nope"),
              std::string::npos);
    EXPECT_NE(parse_extra_point("smem/zigzag:1x32", DType::f32, h100)
                  .error()
                  .hint.find("bank-conflicted"),
              std::string::npos);
    EXPECT_FALSE(parse_extra_point("naive:4096", DType::f32, h100));
    EXPECT_FALSE(parse_extra_point("naive:4096x10z", DType::f32, h100));
    Result<SweepItem> out_of_range = parse_extra_point("warp:8x5000", DType::f32, h100);
    ASSERT_FALSE(out_of_range);
    EXPECT_NE(out_of_range.error().message.find("1024"), std::string::npos);
}

// Was: a duplicate --extra was recorded twice, and load_session then refused the session.
TEST(SweepPlan, ExtraPointAlreadyInThePlanIsRefused) {
    const DeviceLimits h100 = DeviceLimits::h100_reference();
    const KernelInfo* naive = find_kernel("naive");
    ASSERT_TRUE(naive);
    // 2^22 elements at N = 1024: the sweep's own naive point is 4096 x 1024.
    SweepPlan plan = plan_sweep({naive}, {1024}, int64_t(1) << 22, DType::f32, h100);
    ASSERT_EQ(plan.items.size(), 1u);
    ASSERT_EQ(plan.items[0].problem.rows, 4096);
    Result<SweepItem> same = parse_extra_point("naive:4096x1024", DType::f32, h100);
    ASSERT_TRUE(same);
    Status s = add_extra_point(&plan, *same, "naive:4096x1024");
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().message.find("'naive:4096x1024' is already in the sweep"),
              std::string::npos)
        << s.error().message;
    EXPECT_EQ(plan.items.size(), 1u);
    // Another size is added, and then refused the second time.
    Result<SweepItem> other = parse_extra_point("naive:64x1024", DType::f32, h100);
    ASSERT_TRUE(other);
    ASSERT_TRUE(add_extra_point(&plan, *other, "naive:64x1024"));
    EXPECT_EQ(plan.items.size(), 2u);
    EXPECT_FALSE(add_extra_point(&plan, *other, "naive:64x1024"));
    EXPECT_EQ(plan.items.size(), 2u);
    // The same size in another variant is another point; the default one is not.
    const KernelInfo* smem = find_kernel("smem");
    ASSERT_TRUE(smem);
    SweepPlan smem_plan = plan_sweep({smem}, {32768}, int64_t(8192) * 32768, DType::f32, h100);
    ASSERT_EQ(smem_plan.items.size(), 1u);
    Result<SweepItem> conflicted =
        parse_extra_point("smem/bank-conflicted:8192x32768", DType::f32, h100);
    ASSERT_TRUE(conflicted);
    EXPECT_TRUE(add_extra_point(&smem_plan, *conflicted, "smem/bank-conflicted:8192x32768"));
    Result<SweepItem> plain = parse_extra_point("smem:8192x32768", DType::f32, h100);
    ASSERT_TRUE(plain);
    EXPECT_FALSE(add_extra_point(&smem_plan, *plain, "smem:8192x32768"));
    EXPECT_EQ(smem_plan.items.size(), 2u);
}

TEST(SweepPlan, ExtraPointTooLargeForMemoryIsRefusedNotWrapped) {
    // online takes any N, so only the byte count can refuse 2^32 x 2^32 (2^66 bytes in fp32).
    const DeviceLimits h100 = DeviceLimits::h100_reference();
    Result<SweepItem> huge = parse_extra_point("online:4294967296x4294967296", DType::f32, h100);
    ASSERT_FALSE(huge);
    EXPECT_NE(huge.error().message.find("4294967296 rows"), std::string::npos)
        << huge.error().message;
    EXPECT_FALSE(huge.error().hint.empty());
}

TEST(DeviceMemory, MatrixBytesRefusesOverflowAndNegativeSizes) {
    Result<size_t> ok = matrix_bytes(1024, 262144, 4, "input");
    ASSERT_TRUE(ok);
    EXPECT_EQ(*ok, size_t(1) << 30);
    EXPECT_FALSE(matrix_bytes(int64_t(1) << 40, int64_t(1) << 30, 4, "input"));  // 2^72 bytes
    EXPECT_FALSE(matrix_bytes(int64_t(1) << 31, int64_t(1) << 31, 4, "input"));  // 2^64 bytes
    EXPECT_FALSE(matrix_bytes(-1, 1024, 4, "input"));
    EXPECT_NE(matrix_bytes(-1, 1024, 4, "softmax input").error().message.find("softmax input"),
              std::string::npos);
}

}  // namespace
}  // namespace sml
