// The viewer's Run and Sweep path on a real GPU, with no window: the same Worker and run jobs the
// Run panel starts (app/viewer/model/run_job.h), driving the same runner as the CLI.
// Relabelled "gpu" by tests/viewer.cmake; skips with a printed reason where there is no device.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "app/viewer/model/run_job.h"
#include "app/viewer/model/worker.h"
#include "core/runner/runner.h"
#include "tests/gpu_env.h"

namespace sml::viewer {
namespace {

std::vector<WorkEvent> run_to_end(Worker& w, int cancel_after_points = -1) {
    std::vector<WorkEvent> all;
    int points = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
    while (std::chrono::steady_clock::now() < deadline) {
        for (WorkEvent& e : w.drain()) {
            if (e.kind == WorkEvent::Kind::point && ++points == cancel_after_points) w.cancel();
            all.push_back(std::move(e));
        }
        if (!all.empty() && (all.back().kind == WorkEvent::Kind::finished ||
                             all.back().kind == WorkEvent::Kind::cancelled ||
                             all.back().kind == WorkEvent::Kind::failed))
            return all;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ADD_FAILURE() << "the run did not finish within 5 minutes";
    return all;
}

TEST(ViewerRunGpu, RunStreamsTheDeviceThenOneCorrectPointPerKernel) {
    SML_REQUIRE_GPU();
    RunRequest r;
    r.kernels = {"naive", "warp"};
    r.rows = 65536;  // 256 MB: far past the 50 MB L2, so naive really pays for its DRAM trips
    r.cols = 1024;
    Worker w;
    ASSERT_TRUE(w.start(make_run_job(r)));
    std::vector<WorkEvent> ev = run_to_end(w);
    ASSERT_FALSE(ev.empty());
    ASSERT_EQ(ev.back().kind, WorkEvent::Kind::finished) << ev.back().error.message;
    EXPECT_EQ(ev.front().kind, WorkEvent::Kind::device);  // the device record comes first
    EXPECT_FALSE(ev.front().device.name.empty());
    EXPECT_GT(ev.front().device.sm_count, 0);
    std::vector<PointRecord> points;
    for (const WorkEvent& e : ev)
        if (e.kind == WorkEvent::Kind::point) points.push_back(e.point);
    ASSERT_EQ(points.size(), 2u);
    EXPECT_EQ(points[0].kernel, "naive");
    EXPECT_EQ(points[1].kernel, "warp");
    for (const PointRecord& p : points) {
        EXPECT_EQ(p.rows, 65536);
        EXPECT_EQ(p.cols, 1024);
        EXPECT_GT(p.gbps, 0) << p.kernel;
        EXPECT_GT(p.time.median_ms, 0) << p.kernel;
        EXPECT_TRUE(point_is_correct(p)) << p.kernel << " max rel error " << p.max_rel_error;
    }
    // The one-warp-per-row kernel moves a quarter of naive's bytes; it must be clearly faster.
    EXPECT_GT(points[1].gbps, 1.5 * points[0].gbps);
}

TEST(ViewerRunGpu, CancelStopsASweepAndKeepsTheFinishedPoints) {
    SML_REQUIRE_GPU();
    RunRequest r;
    r.kernels = {"online"};
    r.sweep = true;
    r.sweep_cols = {256, 1024, 4096, 16384, 65536};
    r.sweep_elements = int64_t{1} << 24;
    r.metrics = MetricSet::off;
    Worker w;
    ASSERT_TRUE(w.start(make_run_job(r)));
    std::vector<WorkEvent> ev = run_to_end(w, /*cancel_after_points=*/1);
    ASSERT_FALSE(ev.empty());
    EXPECT_EQ(ev.back().kind, WorkEvent::Kind::cancelled) << ev.back().error.message;
    int points = 0;
    for (const WorkEvent& e : ev) points += e.kind == WorkEvent::Kind::point;
    EXPECT_GE(points, 1);
    EXPECT_LT(points, 5);  // cancelled between points, not after the whole sweep
}

TEST(ViewerRunGpu, OutOfRangeRequestFailsWithTheRegistryReason) {
    SML_REQUIRE_GPU();
    RunRequest r;
    r.kernels = {"warp"};
    r.rows = 8;
    r.cols = 4096;  // warp holds at most 1024 values per row
    Worker w;
    ASSERT_TRUE(w.start(make_run_job(r)));
    std::vector<WorkEvent> ev = run_to_end(w);
    ASSERT_EQ(ev.back().kind, WorkEvent::Kind::failed);
    EXPECT_NE(ev.back().error.message.find("warp"), std::string::npos) << ev.back().error.message;
}

}  // namespace
}  // namespace sml::viewer
