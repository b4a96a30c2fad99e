// Device profiles: a named class of GPU restricts ranges and best's dispatch, on a real GPU or
// standing in for one. No GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "app/viewer/model/device_view.h"
#include "kernels/best/shapes.h"
#include "kernels/best_softmax.h"
#include "kernels/device_profiles.h"
#include "kernels/registry.h"

namespace sml {
namespace {

TEST(DeviceProfiles, KnownClassesWithSaneLimits) {
    int checked = 0;
    for (const DeviceProfile& p : device_profiles()) {
        SCOPED_TRACE(p.id);
        const DeviceLimits& d = p.limits;
        EXPECT_FALSE(d.name.empty());
        EXPECT_GE(d.cc(), 75) << "CUDA 13 builds nothing older than Turing";
        EXPECT_GT(d.sm_count, 0);
        EXPECT_GE(d.smem_per_sm, d.smem_per_block_optin);
        EXPECT_GE(d.max_threads_per_sm, 1024);
        EXPECT_EQ(d.has_clusters(), d.cc() >= 90);
        EXPECT_GT(d.peak_dram_gbps, 100) << "the datasheet's DRAM bandwidth";
        ++checked;
    }
    EXPECT_EQ(checked, int(device_profiles().size()));
    for (const char* id : {"t4", "a100", "l4", "rtx4090", "h100"})  // the classes
        EXPECT_NE(find_device_profile(id), nullptr) << id;
    EXPECT_EQ(DeviceLimits::h100_reference().sm_count, 132);
}

TEST(DeviceProfiles, AProfileOnlyRestrictsTheRealGpu) {
    DeviceLimits h100 = DeviceLimits::h100_reference();
    h100.from_device = true;
    h100.code_arch = 90;
    Result<DeviceLimits> a100 = apply_device_profile(h100, "a100");
    ASSERT_TRUE(a100.ok());
    EXPECT_EQ(a100->sm_count, 108);
    EXPECT_EQ(a100->smem_per_block_optin, 163 * 1024);
    EXPECT_FALSE(a100->has_clusters()) << "no clusters below sm_90";
    EXPECT_EQ(a100->arch_of_code(), 80);
    EXPECT_EQ(a100->l2_bytes, h100.l2_bytes) << "the real L2 caches the run";
    EXPECT_EQ(a100->profile, "a100");
    EXPECT_NE(a100->name.find("emulated on"), std::string::npos) << a100->name;
    // More SMs than the real GPU has are never granted.
    Result<DeviceLimits> big = apply_device_profile(h100, "rtx5090");
    ASSERT_TRUE(big.ok());
    EXPECT_EQ(big->sm_count, 132);
    // Without a GPU the profile stands as published.
    Result<DeviceLimits> t4 = apply_device_profile(DeviceLimits{}, "t4");
    ASSERT_TRUE(t4.ok());
    EXPECT_EQ(t4->sm_count, 40);
    EXPECT_EQ(t4->smem_per_block_optin, 64 * 1024);
    EXPECT_EQ(t4->peak_dram_gbps, 320);
    // The DRAM's bandwidth, as every limit, is the smaller of the two: so the h100 profile on a
    // GPU of more bandwidth an SM (an H200) dispatches as an H100 does, and a real GPU that does
    // not report it leaves the profile's.
    EXPECT_EQ(a100->peak_dram_gbps, 2039);
    DeviceLimits h200 = h100;
    h200.peak_dram_gbps = 4814.3;
    Result<DeviceLimits> as_h100 = apply_device_profile(h200, "h100");
    ASSERT_TRUE(as_h100.ok());
    EXPECT_EQ(as_h100->peak_dram_gbps, DeviceLimits::h100_reference().peak_dram_gbps);
    h200.peak_dram_gbps = 0;
    EXPECT_EQ(apply_device_profile(h200, "l4")->peak_dram_gbps, 300);
}

TEST(DeviceProfiles, UnknownProfileNamesTheKnownOnes) {
    Result<DeviceLimits> r = apply_device_profile(DeviceLimits{}, "gtx480");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("gtx480"), std::string::npos);
    EXPECT_NE(r.error().hint.find("a100"), std::string::npos);
}

// Under every profile, every N and dtype maps to a path that profile can run: no clusters below
// sm_90 (the grid only in teams of one block an SM, within the class's SMs and shared memory),
// blocks within its threads, and a row either on chip or read twice.
TEST(DeviceProfiles, BestChoosesOnlyWhatEachClassOffers) {
    int checked = 0;
    for (const DeviceProfile& p : device_profiles()) {
        for (DType t : {DType::f32, DType::f16, DType::bf16}) {
            for (int64_t n = 1; n <= (int64_t{1} << 24); n = n * 3 / 2 + 1) {
                const best::Config c = best::choose(n, t, (n % 7) != 0, p.limits);
                SCOPED_TRACE(std::string(p.id) + " N=" + std::to_string(n) + " " + c.describe());
                const bool held = c.held_grid();
                if (held) {  // the held grid: one or two blocks an SM, its stash within both
                    const int per_sm = best::hold_blocks_per_sm(c.threads);
                    EXPECT_LE(int64_t{c.cluster} * c.grid_teams(),
                              int64_t{p.limits.sm_count} * per_sm);
                    EXPECT_LE(
                        int64_t{c.stash} * c.threads * 16 + 2048,
                        std::min(p.limits.smem_per_block_optin, p.limits.smem_per_sm / per_sm));
                } else if (!p.limits.has_clusters() && c.path == best::Config::Path::kGrid) {
                    EXPECT_LE(int64_t{c.cluster} * c.grid_teams(), p.limits.sm_count);
                    EXPECT_LE(int64_t{c.ahead + 1} * c.packs * c.threads * 16,
                              p.limits.smem_per_block_optin);
                } else if (!p.limits.has_clusters()) {
                    EXPECT_LE(c.cluster, 1);
                    if (c.stash > 0)
                        EXPECT_LE(int64_t{c.stash} * c.threads * 16,
                                  p.limits.smem_per_block_optin);
                }
                EXPECT_LE(c.group_threads(), p.limits.max_threads_per_block);
                if (c.path != best::Config::Path::kGroup) EXPECT_LE(c.threads, 1024);
                ++checked;
            }
        }
    }
    int ns = 0;
    for (int64_t n = 1; n <= (int64_t{1} << 24); n = n * 3 / 2 + 1) ++ns;
    EXPECT_EQ(checked, int(device_profiles().size()) * 3 * ns);
    EXPECT_GT(ns, 30);
}

TEST(DeviceView, ProfileLimitsAndBestsChoiceForTheViewer) {
    const DeviceLimits h100 = DeviceLimits::h100_reference();
    Result<DeviceLimits> none = viewer::limits_for(h100, false, "");
    ASSERT_TRUE(none.ok());
    EXPECT_EQ(none->sm_count, 132);
    Result<DeviceLimits> t4 = viewer::limits_for(h100, false, "t4");
    ASSERT_TRUE(t4.ok());
    EXPECT_EQ(t4->sm_count, 40);
    EXPECT_FALSE(viewer::limits_for(h100, false, "nope").ok());
    const std::string on_h100 = viewer::best_choice_text(131072, DType::f32, h100);
    const std::string on_t4 = viewer::best_choice_text(131072, DType::f32, *t4);
    EXPECT_NE(on_h100.find("cluster"), std::string::npos) << on_h100;
    EXPECT_EQ(on_t4.find("cluster 2"), std::string::npos) << on_t4;
    EXPECT_NE(on_t4.find("no clusters"), std::string::npos) << on_t4;
    // Short rows that are not a power of two of 16-byte packs: the tile path on every class; a
    // power of two: the group kernel; past one block's registers without clusters: the stash
    // where the class's opt-in holds it (an A100), else the grid in teams of the blocks a row
    // needs (9 on a T4's 64 KB); once a row needs more blocks than the class has SMs (69 of a
    // T4's 40 at 2^19 values), the held grid while the class's registers and shared memory hold
    // one row a team, and past it one team holding what it can and reading the rest twice (2^21
    // fp32 values, 8 MB, on a T4).
    auto expect_choice = [](int64_t cols, const DeviceLimits& limits, const char* text) {
        const std::string line = viewer::best_choice_text(cols, DType::f32, limits);
        EXPECT_NE(line.find(text), std::string::npos) << "N = " << cols << ": " << line;
    };
    expect_choice(100, *t4, "best: tile 8 lanes");
    expect_choice(64, *t4, "best: group");
    Result<DeviceLimits> a100 = viewer::limits_for(h100, false, "a100");
    ASSERT_TRUE(a100.ok());
    expect_choice(65536, *a100, "+ 8 in shared memory");
    expect_choice(65536, *t4, "grid 9 blocks");
    expect_choice(524288, *t4, "held grid");
    expect_choice(2097152, *t4,
                  "held grid 40 blocks x 1024 threads x 6 packs + 3 in shared "
                  "memory, the rest read twice");
    // The smem kernel's range follows the class's shared memory.
    const KernelInfo& smem = *find_kernel("smem");
    EXPECT_LT(smem.max_cols(*t4, DType::f32), smem.max_cols(h100, DType::f32));
}

}  // namespace
}  // namespace sml
