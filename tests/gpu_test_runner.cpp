// The runner on a real GPU: a small sweep over every kernel must produce sane, correct points,
// stream them with progress, honour cancel, and refuse bad requests without launching.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <vector>

#include "core/measure/device_buffer.h"
#include "core/measure/input_gen.h"
#include "core/runner/runner.h"
#include "kernels/registry.h"
#include "tests/gpu_env.h"

namespace sml {
namespace {

RunOptions quick_options() {
    RunOptions o;
    o.timing.samples = 5;
    o.timing.warmup = 1;
    return o;
}

std::vector<const KernelInfo*> all_kernels() {
    std::vector<const KernelInfo*> ks;
    for (const KernelInfo& k : registry()) ks.push_back(&k);
    return ks;
}

TEST(GpuRunner, SmallSweepGivesSanePoints) {
    SML_REQUIRE_GPU();
    DeviceLimits limits;
    ASSERT_TRUE(query_device_limits(0, &limits));
    const SweepPlan plan =
        plan_sweep(all_kernels(), {32, 1000, 4097}, int64_t(1) << 20, DType::f32, limits);
    ASSERT_GE(plan.items.size(), registry().size());

    int progress_calls = 0, last_done = -1, streamed = 0;
    SweepCallbacks cb;
    cb.progress = [&](int done, int total, const std::string& label) {
        ++progress_calls;
        EXPECT_EQ(total, int(plan.items.size()));
        EXPECT_GE(done, last_done);
        EXPECT_FALSE(label.empty());
        last_done = done;
    };
    cb.point_done = [&](const PointRecord&) { ++streamed; };
    Result<SweepResult> r = run_sweep(plan, quick_options(), "gpu_test_runner", cb, nullptr);
    ASSERT_TRUE(r.ok()) << r.error().message;
    for (const PointFailure& f : r->failures)
        ADD_FAILURE() << f.kernel << " N=" << f.cols << ": " << f.error.message;
    const Session& s = r->session;
    EXPECT_FALSE(r->cancelled);
    EXPECT_EQ(s.points.size(), plan.items.size());
    EXPECT_EQ(streamed, int(s.points.size()));
    EXPECT_EQ(progress_calls, int(plan.items.size()) + 1);
    EXPECT_EQ(last_done, int(plan.items.size()));
    EXPECT_FALSE(s.device.name.empty());
    EXPECT_GT(s.device.copy_gbps, 0);
    EXPECT_GT(s.device.peak_dram_gbps, 0);
    EXPECT_EQ(s.command, "gpu_test_runner");
    EXPECT_FALSE(s.created_utc.empty());

    for (const PointRecord& p : s.points) {
        SCOPED_TRACE(p.kernel + " N=" + std::to_string(p.cols));
        EXPECT_EQ(p.time.samples, 5);
        EXPECT_GT(p.time.min_ms, 0);
        EXPECT_LE(p.time.min_ms, p.time.median_ms);
        EXPECT_LE(p.time.median_ms, p.time.max_ms);
        EXPECT_GT(p.gbps, 0);
        EXPECT_GT(p.copy_gbps, 0);
        EXPECT_NEAR(p.pct_of_copy, 100.0 * p.gbps / p.copy_gbps, 1e-9);
        EXPECT_TRUE(p.within_tolerance)
            << "rel " << p.max_rel_error << " rowsum " << p.max_rowsum_error;
        EXPECT_LE(p.max_rel_error, 1e-5);
        EXPECT_LE(p.max_rowsum_error, 1e-5);
        EXPECT_GE(p.rows_checked, 2);
        ASSERT_FALSE(p.launches.empty());
        for (const LaunchRecord& l : p.launches) {
            EXPECT_GT(l.registers_per_thread, 0) << l.name;
            EXPECT_GT(l.blocks_per_sm, 0) << l.name;
            EXPECT_GT(l.theoretical_occupancy_pct, 0) << l.name;
            if (p.launches.size() > 1) EXPECT_GT(l.median_ms, 0) << l.name;
            // The function that ran, for the code views: a mangled C++ symbol.
            EXPECT_EQ(l.function.rfind("_Z", 0), 0u) << l.name << ": '" << l.function << "'";
        }
        EXPECT_GT(p.predicted.dram_read_bytes, 0);
        // 2^20 fp32 elements: 4 MiB in + 4 MiB out, far under any datacenter GPU's L2 half.
        EXPECT_TRUE(p.predicted.l2_resident) << p.predicted.l2_reason;
        EXPECT_FALSE(p.metrics.set.empty());
        if (!p.metrics.available) EXPECT_FALSE(p.metrics.reason.empty());
    }
    // The recorded session survives the JSON round trip.
    Result<Session> back = parse_session(session_to_json(s), "gpu sweep");
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->points.size(), s.points.size());
    for (size_t i = 0; i < s.points.size() && i < back->points.size(); ++i)
        for (size_t k = 0; k < s.points[i].launches.size(); ++k)
            EXPECT_EQ(back->points[i].launches[k].function, s.points[i].launches[k].function);
}

TEST(GpuRunner, CancelStopsBetweenPoints) {
    SML_REQUIRE_GPU();
    DeviceLimits limits;
    ASSERT_TRUE(query_device_limits(0, &limits));
    const SweepPlan plan =
        plan_sweep({find_kernel("online")}, {32, 64, 128, 256}, 1 << 16, DType::f32, limits);
    std::atomic<bool> cancel{false};
    SweepCallbacks cb;
    cb.point_done = [&](const PointRecord&) { cancel = true; };
    RunOptions o = quick_options();
    o.metrics = MetricSet::off;
    Result<std::unique_ptr<RunContext>> ctx = RunContext::create(o);
    ASSERT_TRUE(ctx.ok()) << ctx.error().message;
    // The overload that reuses a context (the viewer's worker keeps one).
    SweepResult r = run_sweep(plan, o, "cancel", cb, &cancel, **ctx);
    EXPECT_TRUE(r.cancelled);
    ASSERT_EQ(r.session.points.size(), 1u);
    EXPECT_EQ(r.session.points[0].metrics.set, "off");
    EXPECT_EQ(r.session.notes.count("cancelled"), 1u);
}

TEST(GpuRunner, RefusesBadRequestsWithoutLaunching) {
    SML_REQUIRE_GPU();
    Result<std::unique_ptr<RunContext>> ctx = RunContext::create(quick_options());
    ASSERT_TRUE(ctx.ok()) << ctx.error().message;
    // Outside warp's range: check_problem's message, nothing launched.
    Result<PointRecord> p = run_point(*find_kernel("warp"), SoftmaxProblem::contiguous(4, 5000),
                                      quick_options(), **ctx);
    ASSERT_FALSE(p.ok());
    EXPECT_NE(p.error().message.find("outside warp's range"), std::string::npos);
    // More memory than any GPU has: refused before cudaMalloc with the sizes and a hint.
    Status s = check_fits(size_t(1) << 50, "a test request");
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.error().message.find("not enough GPU memory for a test request"),
              std::string::npos);
    EXPECT_NE(s.error().hint.find("--elements"), std::string::npos);
    const int64_t huge_rows = (int64_t(1) << 40) / 1024;
    p = run_point(*find_kernel("online"), SoftmaxProblem::contiguous(huge_rows, 1024),
                  quick_options(), **ctx);
    ASSERT_FALSE(p.ok());
    EXPECT_NE(p.error().message.find("not enough GPU memory"), std::string::npos);
    // The context still works afterwards.
    p = run_point(*find_kernel("online"), SoftmaxProblem::contiguous(33, 1000), quick_options(),
                  **ctx);
    ASSERT_TRUE(p.ok()) << p.error().message;
    EXPECT_TRUE(p->within_tolerance);
}

TEST(GpuRunner, InputGeneratorMatchesHostFormula) {
    SML_REQUIRE_GPU();
    const int64_t rows = 7, cols = 33, stride = 40;
    DeviceBuffer buf;
    ASSERT_TRUE(buf.allocate(size_t(rows * stride) * 4, "test input").ok());
    ASSERT_EQ(generate_normal_input(buf.get(), DType::f32, rows, cols, stride, 42, nullptr),
              cudaSuccess);
    std::vector<float> host(size_t(rows * stride));
    ASSERT_EQ(cudaMemcpy(host.data(), buf.get(), host.size() * 4, cudaMemcpyDeviceToHost),
              cudaSuccess);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c)
            EXPECT_NEAR(host[size_t(r * stride + c)], normal_input_value(42, r, c), 1e-4)
                << r << "," << c;
}

}  // namespace
}  // namespace sml
