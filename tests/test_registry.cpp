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
    EXPECT_GE(ids.size(), 8u) << "naive, fused, warp, block, smem, online, online_tiled, best";
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

TEST(Registry, SmemHasTheBankConflictToggle) {
    const KernelInfo& smem = *find_kernel("smem");
    ASSERT_EQ(smem.variants.size(), 2u);
    EXPECT_EQ(smem.variants[0], "conflict-free");
    EXPECT_EQ(smem.variants[1], "bank-conflicted");
}

}  // namespace
}  // namespace sml
