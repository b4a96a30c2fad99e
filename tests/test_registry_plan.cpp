// Planning registry kernels without a GPU: a plan is built but never launched (CUDA toolkit
// builds only, since plans are CUDA code).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/launch.h"
#include "kernels/registry.h"

namespace sml {
namespace {

const DeviceLimits kH100 = DeviceLimits::h100_reference();

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

// Every plan refuses a problem past its kernel's range on its own, so even a caller that skips
// check_problem cannot launch one; launch_checked refuses before planning anything.
TEST(Registry, OutOfRangeNeverPlansOrLaunches) {
    float dummy[4];
    int checked = 0;
    for (const KernelInfo& k : registry()) {
        const int64_t hi = k.max_cols(kH100, DType::f32);
        if (hi == kUnlimitedCols) continue;
        SCOPED_TRACE(k.id);
        LaunchArgs a;
        a.problem = SoftmaxProblem::contiguous(3, hi + 1);
        a.in = dummy;
        a.out = dummy;
        a.workspace = dummy;
        a.limits = kH100;
        std::vector<LaunchStep> steps;
        EXPECT_NE(plan_launches(k, a, &steps), cudaSuccess);
        EXPECT_TRUE(steps.empty());
        const Status st = launch_checked(k, a, nullptr);
        ASSERT_FALSE(st.ok());
        EXPECT_TRUE(contains(st.error().message, k.id));
        EXPECT_TRUE(contains(st.error().message, std::to_string(hi)));
        ++checked;
    }
    EXPECT_GE(checked, 4) << "fused, warp, block and smem have a largest N";
}

TEST(Registry, NaivePlansFiveNamedLaunchesMatchingItsTraffic) {
    float dummy[4];
    LaunchArgs a;
    a.problem = SoftmaxProblem::contiguous(37, 1000);
    a.in = dummy;
    a.out = dummy;
    a.workspace = dummy;
    a.limits = kH100;
    const KernelInfo& naive = *find_kernel("naive");
    std::vector<LaunchStep> steps;
    ASSERT_EQ(plan_launches(naive, a, &steps), cudaSuccess);
    const Traffic t = naive.predict(a.problem, kH100);
    ASSERT_EQ(steps.size(), 5u);
    ASSERT_EQ(t.steps.size(), 5u);
    for (size_t i = 0; i < steps.size(); ++i) {
        EXPECT_EQ(steps[i].name, t.steps[i].name);
        EXPECT_NE(steps[i].func, nullptr);
        EXPECT_TRUE(bool(steps[i].launch));
    }
    EXPECT_EQ(steps[0].name, "row_max");
    EXPECT_EQ(steps[4].name, "divide");
    EXPECT_EQ(naive.workspace_bytes(a.problem, kH100), (37u * 1000u + 2u * 37u) * sizeof(float));
    a.workspace = nullptr;  // naive cannot run without its intermediate buffer
    steps.clear();
    EXPECT_NE(plan_launches(naive, a, &steps), cudaSuccess);
}

}  // namespace
}  // namespace sml
