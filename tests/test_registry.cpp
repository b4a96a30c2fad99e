// The kernel registry: the one list of kernels, its ranges, and its refusal of bad problems.
// CPU only: plans are built without launching (they never touch the pointers they are given).
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "core/lessons/annotated_source.h"
#include "kernels/registry.h"

namespace sml {
namespace {

const DeviceLimits kH100 = DeviceLimits::h100_reference();

bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

TEST(Registry, IdsAreUniqueAndEntriesComplete) {
    std::set<std::string> ids;
    for (const KernelInfo& k : registry()) {
        SCOPED_TRACE(k.id);
        EXPECT_TRUE(ids.insert(k.id).second) << "duplicate id";
        EXPECT_TRUE(find_kernel(k.id) == &k);
        EXPECT_FALSE(std::string(k.title).empty());
        EXPECT_FALSE(std::string(k.summary).empty());
        EXPECT_FALSE(std::string(k.limit_reason).empty());
        EXPECT_TRUE(k.dtypes & dtype_bit(DType::f32)) << "every kernel runs fp32";
        EXPECT_GE(k.lesson_step, 1);
        EXPECT_LE(k.lesson_step, 8);
        EXPECT_NE(k.max_cols, nullptr);
        EXPECT_NE(k.plan, nullptr);
        EXPECT_NE(k.predict, nullptr);
    }
    for (const char* id : {"naive", "fused", "warp", "block", "smem", "online", "online_tiled"})
        EXPECT_NE(find_kernel(id), nullptr) << id;
    EXPECT_EQ(find_kernel("no-such-kernel"), nullptr);
    EXPECT_TRUE(contains(kernel_ids(), "online_tiled"));
}

TEST(Registry, EverySourceFileExistsAndDeclaresRegions) {
    for (const KernelInfo& k : registry()) {
        SCOPED_TRACE(k.id);
        const std::string path = std::string(SML_SOURCE_DIR) + "/" + k.source;
        ASSERT_TRUE(std::filesystem::exists(path)) << path;
        Result<AnnotatedSource> src = load_annotated_source(path);
        ASSERT_TRUE(src.ok()) << src.error().message;
        EXPECT_GE(src->regions.size(), 3u) << "a lesson needs regions to point at";
        EXPECT_LE(src->regions.size(), 8u);
        for (const SourceRegion& r : src->regions) EXPECT_FALSE(r.note.empty()) << r.name;
    }
}

TEST(Registry, RangesOnTheReferenceH100) {
    auto max_of = [](const char* id) { return find_kernel(id)->max_cols(kH100, DType::f32); };
    EXPECT_EQ(max_of("naive"), kUnlimitedCols);
    EXPECT_EQ(max_of("fused"), 16384);
    EXPECT_EQ(max_of("warp"), 1024);
    EXPECT_EQ(max_of("block"), 16384);
    EXPECT_EQ(max_of("smem"), (232448 - 512) / 4);  // 227 KB opt-in minus reduction scratch
    EXPECT_EQ(max_of("online"), kUnlimitedCols);
    EXPECT_EQ(max_of("online_tiled"), kUnlimitedCols);
    for (const KernelInfo& k : registry()) {
        EXPECT_GE(k.min_cols, 1) << k.id;
        EXPECT_GE(k.max_cols(kH100, DType::f32), 1024) << k.id;
    }
    // smem follows the device: a 48 KB-per-block part gets a smaller range.
    DeviceLimits small = kH100;
    small.smem_per_block_optin = 49152;
    EXPECT_EQ(find_kernel("smem")->max_cols(small, DType::f32), (49152 - 512) / 4);
}

TEST(Registry, EveryNHasAKernelAndHalfPrecisionHasOnline) {
    for (int64_t n : {1, 1024, 1025, 16385, 57985, 1 << 20, 100000000}) {
        const auto ks = kernels_for(SoftmaxProblem::contiguous(4, n), kH100);
        EXPECT_FALSE(ks.empty()) << n;
    }
    std::set<std::string> at_1025;
    for (const KernelInfo* k : kernels_for(SoftmaxProblem::contiguous(4, 1025), kH100))
        at_1025.insert(k->id);
    for (const char* id : {"naive", "fused", "block", "smem", "online", "online_tiled"})
        EXPECT_EQ(at_1025.count(id), 1u) << id;
    EXPECT_EQ(at_1025.count("warp"), 0u);
    for (DType t : {DType::f16, DType::bf16}) {
        const auto ks = kernels_for(SoftmaxProblem::contiguous(4, 4096, t), kH100);
        bool has_online = false;
        for (const KernelInfo* k : ks) has_online |= std::string(k->id) == "online";
        EXPECT_TRUE(has_online) << dtype_name(t);
    }
}

TEST(Registry, OutOfRangeErrorNamesKernelLimitAndAlternatives) {
    const Status st =
        check_problem(*find_kernel("warp"), SoftmaxProblem::contiguous(8, 2048), kH100);
    ASSERT_FALSE(st.ok());
    EXPECT_TRUE(contains(st.error().message, "warp")) << st.error().message;
    EXPECT_TRUE(contains(st.error().message, "2048"));
    EXPECT_TRUE(contains(st.error().message, "1024"));
    EXPECT_TRUE(contains(st.error().message, "registers")) << "the reason for the limit";
    const std::string& hint = st.error().hint;
    for (const char* alt : {"block", "smem", "online", "fused", "naive"})
        EXPECT_TRUE(contains(hint, alt)) << hint;
    EXPECT_FALSE(contains(hint, "warp")) << hint;

    const Status smem =
        check_problem(*find_kernel("smem"), SoftmaxProblem::contiguous(8, 65536), kH100);
    ASSERT_FALSE(smem.ok());
    EXPECT_TRUE(contains(smem.error().message, std::to_string((232448 - 512) / 4)));
    EXPECT_TRUE(contains(smem.error().hint, "online"));
    EXPECT_FALSE(contains(smem.error().hint, "fused"));
}

TEST(Registry, OtherBadProblemsAreRefused) {
    const KernelInfo& online = *find_kernel("online");
    EXPECT_FALSE(check_problem(online, SoftmaxProblem::contiguous(0, 8), kH100).ok());
    EXPECT_FALSE(check_problem(online, SoftmaxProblem::contiguous(8, 0), kH100).ok());
    SoftmaxProblem strided = SoftmaxProblem::contiguous(8, 100);
    strided.in_stride = 99;
    const Status st = check_problem(online, strided, kH100);
    ASSERT_FALSE(st.ok());
    EXPECT_TRUE(contains(st.error().message, "stride"));

    const Status dt = check_problem(*find_kernel("fused"),
                                    SoftmaxProblem::contiguous(8, 100, DType::bf16), kH100);
    ASSERT_FALSE(dt.ok());
    EXPECT_TRUE(contains(dt.error().message, "bf16"));
    EXPECT_TRUE(contains(dt.error().hint, "online"));
    EXPECT_TRUE(check_problem(online, SoftmaxProblem::contiguous(8, 100, DType::bf16), kH100).ok());
}

// Every plan refuses a problem past its kernel's range on its own, so even a caller that skips
// check_problem cannot launch one; launch_checked refuses before planning anything.
TEST(Registry, OutOfRangeNeverPlansOrLaunches) {
    float dummy[4];
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
        EXPECT_NE(k.plan(a, &steps), cudaSuccess);
        EXPECT_TRUE(steps.empty());
        const Status st = launch_checked(k, a, nullptr);
        ASSERT_FALSE(st.ok());
        EXPECT_TRUE(contains(st.error().message, k.id));
        EXPECT_TRUE(contains(st.error().message, std::to_string(hi)));
    }
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
    ASSERT_EQ(naive.plan(a, &steps), cudaSuccess);
    const Traffic t = naive.predict(a.problem);
    ASSERT_EQ(steps.size(), 5u);
    ASSERT_EQ(t.steps.size(), 5u);
    for (size_t i = 0; i < steps.size(); ++i) {
        EXPECT_EQ(steps[i].name, t.steps[i].name);
        EXPECT_NE(steps[i].func, nullptr);
        EXPECT_TRUE(bool(steps[i].launch));
    }
    EXPECT_EQ(steps[0].name, "row_max");
    EXPECT_EQ(steps[4].name, "divide");
    EXPECT_EQ(naive.workspace_bytes(a.problem), (37u * 1000u + 2u * 37u) * sizeof(float));
    a.workspace = nullptr;  // naive cannot run without its intermediate buffer
    steps.clear();
    EXPECT_NE(naive.plan(a, &steps), cudaSuccess);
}

TEST(Registry, SmemHasTheBankConflictToggle) {
    const KernelInfo& smem = *find_kernel("smem");
    ASSERT_EQ(smem.variants.size(), 2u);
    EXPECT_EQ(smem.variants[0], "conflict-free");
    EXPECT_EQ(smem.variants[1], "bank-conflicted");
}

}  // namespace
}  // namespace sml
