// The kernel registry: the one list of kernels, its ranges, and its refusal of bad problems.
// CPU only: plans are built without launching (they never touch the pointers they are given).
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "core/lessons/annotated_source.h"
#include "core/lessons/lesson_model.h"
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
        EXPECT_FALSE(k.sources.empty());
        EXPECT_NE(k.max_cols, nullptr);
        EXPECT_NE(k.predict, nullptr);
        // A build with the CUDA toolkit plans every kernel; one without plans none.
        EXPECT_EQ(k.plan != nullptr, bool(SML_HAVE_CUDA));
        EXPECT_TRUE(contains(kernel_ids(), k.id));
    }
    EXPECT_EQ(ids.size(), registry().size());
    EXPECT_FALSE(ids.empty());
    EXPECT_EQ(find_kernel("no-such-kernel"), nullptr);
}

// lessons/lessons.json is the one place that says which step teaches which kernel: every kernel
// of the registry is introduced by exactly one step, and every step names only registry kernels.
TEST(Registry, EveryKernelHasALessonStepAndEveryStepKernelIsRegistered) {
    Result<LessonBook> book = load_lessons(default_lessons_root(), "en");
    ASSERT_TRUE(book.ok()) << book.error().message;
    int checked = 0;
    for (const KernelInfo& k : registry()) {
        EXPECT_GE(lesson_step_of(*book, k.id), 1) << k.id << " is in no lesson step";
        ++checked;
    }
    EXPECT_EQ(checked, int(registry().size()));
    size_t introduced = 0;
    for (const LessonStep& st : book->steps) {
        for (const std::string& id : st.kernels) EXPECT_NE(find_kernel(id), nullptr) << id;
        introduced += st.introduces.size();
    }
    EXPECT_EQ(introduced, registry().size()) << "each kernel is introduced once";
}

TEST(Registry, EverySourceFileExistsAndDeclaresRegions) {
    size_t files = 0;
    for (const KernelInfo& k : registry()) {
        SCOPED_TRACE(k.id);
        size_t regions = 0;
        for (const char* source : k.sources) {
            const std::string path = std::string(SML_SOURCE_DIR) + "/" + source;
            ASSERT_TRUE(std::filesystem::exists(path)) << path;
            Result<AnnotatedSource> src = load_annotated_source(path);
            ASSERT_TRUE(src.ok()) << src.error().message;
            EXPECT_LE(src->regions.size(), 8u) << path;
            for (const SourceRegion& r : src->regions) EXPECT_FALSE(r.note.empty()) << r.name;
            regions += src->regions.size();
            ++files;
        }
        EXPECT_GE(regions, 3u) << "a lesson needs regions to point at";
    }
    EXPECT_GE(files, registry().size());
}

// Each kernel's range on the reference H100, from the registry itself: N = max is accepted,
// N = max + 1 is refused with a message naming the kernel, the limit and why it is there, and a
// hint naming exactly the kernels that can run it.
TEST(Registry, RangesOnTheReferenceH100AreWhatCheckProblemEnforces) {
    size_t checked = 0, bounded = 0;
    for (const KernelInfo& k : registry()) {
        SCOPED_TRACE(k.id);
        const int64_t hi = k.max_cols(kH100, DType::f32);
        EXPECT_GE(k.min_cols, 1);
        EXPECT_GE(hi, 1024) << "every kernel runs the lessons' N = 1024";
        ++checked;
        if (hi == kUnlimitedCols) continue;
        ++bounded;
        EXPECT_TRUE(check_problem(k, SoftmaxProblem::contiguous(8, hi), kH100).ok());
        const SoftmaxProblem past = SoftmaxProblem::contiguous(8, hi + 1);
        const Status st = check_problem(k, past, kH100);
        ASSERT_FALSE(st.ok());
        EXPECT_TRUE(contains(st.error().message, k.id)) << st.error().message;
        EXPECT_TRUE(contains(st.error().message, std::to_string(hi + 1)));
        EXPECT_TRUE(contains(st.error().message, std::to_string(hi)));
        EXPECT_TRUE(contains(st.error().message, k.limit_reason)) << "the reason for the limit";
        std::string alternatives;
        for (const KernelInfo& other : registry())
            if (other.min_cols <= hi + 1 && hi + 1 <= other.max_cols(kH100, DType::f32))
                alternatives += (alternatives.empty() ? "" : ", ") + std::string(other.id);
        EXPECT_EQ(st.error().hint,
                  "kernels that can run N = " + std::to_string(hi + 1) + ": " + alternatives);
        EXPECT_FALSE(alternatives.empty()) << "some kernel runs every N";
    }
    EXPECT_EQ(checked, registry().size());
    EXPECT_GT(bounded, 0u) << "some kernel has a range that ends";
}

// Ranges follow the device: a part with less opt-in shared memory never gets a larger range,
// and some kernel (the one that caches the row in shared memory) gets a smaller one.
TEST(Registry, RangesFollowTheDevicesSharedMemory) {
    DeviceLimits small = kH100;
    small.smem_per_block_optin = 49152;
    size_t checked = 0, shrunk = 0;
    for (const KernelInfo& k : registry()) {
        const int64_t big = k.max_cols(kH100, DType::f32), less = k.max_cols(small, DType::f32);
        EXPECT_LE(less, big) << k.id;
        shrunk += less < big;
        ++checked;
    }
    EXPECT_EQ(checked, registry().size());
    EXPECT_GT(shrunk, 0u);
}

TEST(Registry, EveryNHasAKernelAndHalfPrecisionHasOnline) {
    for (int64_t n : {1, 1024, 1025, 16385, 57985, 1 << 20, 100000000}) {
        const auto ks = kernels_for(SoftmaxProblem::contiguous(4, n), kH100);
        EXPECT_FALSE(ks.empty()) << n;
        // Exactly the kernels whose range holds n, in registry order.
        std::vector<const KernelInfo*> expected;
        for (const KernelInfo& k : registry())
            if (k.min_cols <= n && n <= k.max_cols(kH100, DType::f32)) expected.push_back(&k);
        EXPECT_EQ(ks, expected) << n;
    }
    for (DType t : {DType::f16, DType::bf16}) {
        const auto ks = kernels_for(SoftmaxProblem::contiguous(4, 4096, t), kH100);
        bool has_online = false;
        for (const KernelInfo* k : ks) has_online |= std::string(k->id) == "online";
        EXPECT_TRUE(has_online) << dtype_name(t);
    }
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

TEST(Registry, SmemHasTheBankConflictToggle) {
    const KernelInfo& smem = *find_kernel("smem");
    ASSERT_EQ(smem.variants.size(), 2u);
    EXPECT_EQ(smem.variants[0], "conflict-free");
    EXPECT_EQ(smem.variants[1], "bank-conflicted");
}

}  // namespace
}  // namespace sml
