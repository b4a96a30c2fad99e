// Predicted DRAM traffic of every kernel: the formulas the lessons and the CUPTI comparison use.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "kernels/registry.h"

namespace sml {
namespace {

// Shapes from tiny to a 1 GiB fp32 input (where int32 arithmetic would overflow).
const std::vector<std::pair<int64_t, int64_t>> kShapes = {
    {1, 1}, {37, 1000}, {4096, 1024}, {1823, 781}, {262144, 1024}, {256, 1 << 20}};

Traffic predict(const char* id, int64_t m, int64_t n, DType t = DType::f32) {
    return find_kernel(id)->predict(SoftmaxProblem::contiguous(m, n, t), DeviceLimits::h100_reference());
}

TEST(Traffic, NaiveIsFiveReadsAndThreeWritesPerElement) {
    for (auto [m, n] : kShapes) {
        SCOPED_TRACE(std::to_string(m) + " x " + std::to_string(n));
        const double M = double(m), MN = double(m) * double(n);
        const Traffic t = predict("naive", m, n);
        EXPECT_DOUBLE_EQ(t.dram_read_bytes, (5 * MN + 2 * M) * 4);
        EXPECT_DOUBLE_EQ(t.dram_write_bytes, (3 * MN + 2 * M) * 4);
        EXPECT_EQ(t.read_formula, "5MN + 2M elements");
        EXPECT_EQ(t.write_formula, "3MN + 2M elements");
        // The per-launch split adds up to the total, launch by launch as the seeds list it.
        ASSERT_EQ(t.steps.size(), 5u);
        const char* names[] = {"row_max", "subtract", "exp", "row_sum", "divide"};
        const double reads[] = {MN, MN + M, MN, MN, MN + M};
        const double writes[] = {M, MN, MN, M, MN};
        double r = 0, w = 0;
        for (int i = 0; i < 5; ++i) {
            EXPECT_EQ(t.steps[i].name, names[i]);
            EXPECT_DOUBLE_EQ(t.steps[i].dram_read_bytes, reads[i] * 4);
            EXPECT_DOUBLE_EQ(t.steps[i].dram_write_bytes, writes[i] * 4);
            r += t.steps[i].dram_read_bytes;
            w += t.steps[i].dram_write_bytes;
        }
        EXPECT_DOUBLE_EQ(r, t.dram_read_bytes);
        EXPECT_DOUBLE_EQ(w, t.dram_write_bytes);
        EXPECT_GE(t.global_load_bytes, t.dram_read_bytes) << "max/sum re-fetched per element";
    }
}

TEST(Traffic, OnChipKernelsReadOnceAndWriteOnce) {
    for (const char* id : {"fused", "warp", "block", "smem"}) {
        for (auto [m, n] : kShapes) {
            SCOPED_TRACE(std::string(id) + " " + std::to_string(m) + " x " + std::to_string(n));
            const double MN = double(m) * double(n);
            const Traffic t = predict(id, m, n);
            EXPECT_DOUBLE_EQ(t.dram_read_bytes, MN * 4);
            EXPECT_DOUBLE_EQ(t.dram_write_bytes, MN * 4);
            EXPECT_DOUBLE_EQ(t.global_load_bytes, MN * 4);
            EXPECT_DOUBLE_EQ(t.global_store_bytes, MN * 4);
            EXPECT_EQ(t.read_formula, "MN elements");
            EXPECT_EQ(t.write_formula, "MN elements");
            EXPECT_TRUE(t.steps.empty());
        }
    }
}

TEST(Traffic, OnlineReadsTwiceAndScalesWithDtype) {
    for (const char* id : {"online", "online_tiled"}) {
        for (auto [m, n] : kShapes) {
            SCOPED_TRACE(std::string(id) + " " + std::to_string(m) + " x " + std::to_string(n));
            const double MN = double(m) * double(n);
            const Traffic t = predict(id, m, n);
            EXPECT_DOUBLE_EQ(t.dram_read_bytes, 2 * MN * 4);
            EXPECT_DOUBLE_EQ(t.dram_write_bytes, MN * 4);
            EXPECT_EQ(t.read_formula, "2MN elements");
        }
    }
    const Traffic h = predict("online", 37, 1000, DType::f16);
    EXPECT_DOUBLE_EQ(h.dram_read_bytes, 2 * 37 * 1000 * 2.0);
    EXPECT_DOUBLE_EQ(h.dram_write_bytes, 37 * 1000 * 2.0);
    const Traffic b = predict("online", 37, 1000, DType::bf16);
    EXPECT_DOUBLE_EQ(b.dram_read_bytes, h.dram_read_bytes);
}

// best reads a row once while the GPU holds it (132 SMs x 1024 threads x 22 packs = 11894784 fp32
// values on an H100), and past that, in the streamed form (6 packs in registers, not 8: 20 packs
// a thread, 10813440 values), the rest of each row twice; the formula says how much.
TEST(Traffic, BestReadsTwiceOnlyWhatTheGpuCannotHold) {
    const double held = 10813440;
    const Traffic fits = predict("best", 4, 11894784);
    EXPECT_DOUBLE_EQ(fits.dram_read_bytes, 4 * 11894784.0 * 4);
    EXPECT_EQ(fits.read_formula, "MN elements");
    const double n = 16777216;
    const Traffic past = predict("best", 4, 16777216);
    EXPECT_NEAR(past.dram_read_bytes, 4 * (n + (n - held)) * 4, 1e-9 * past.dram_read_bytes);
    EXPECT_DOUBLE_EQ(past.dram_write_bytes, 4 * n * 4);
    EXPECT_EQ(past.read_formula,
              "MN + 35.5% of MN elements (the part of each row past what one team holds on chip, "
              "read twice)");
    EXPECT_EQ(past.write_formula, "MN elements");
}

TEST(Traffic, NaiveMovesAboutFourTimesAFusedKernel) {
    const Traffic naive = predict("naive", 4096, 4096), fused = predict("fused", 4096, 4096);
    const double ratio = (naive.dram_read_bytes + naive.dram_write_bytes) /
                         (fused.dram_read_bytes + fused.dram_write_bytes);
    EXPECT_NEAR(ratio, 4.0, 0.01);  // (8MN + 4M) / 2MN
}

TEST(Traffic, SharedMemoryIsCountedWhereItIsUsed) {
    const double MN = 37.0 * 4096;
    EXPECT_EQ(predict("warp", 37, 4096).smem_load_bytes, 0.0) << "shuffles only";
    EXPECT_EQ(predict("warp", 37, 4096).smem_store_bytes, 0.0);
    const Traffic smem = predict("smem", 37, 4096);
    EXPECT_GE(smem.smem_store_bytes, 2 * MN * 4) << "the row copy and the exp write-back";
    EXPECT_GE(smem.smem_load_bytes, 2 * MN * 4);
    const Traffic block = predict("block", 37, 4096);
    EXPECT_GT(block.smem_store_bytes, 0.0);
    EXPECT_LT(block.smem_store_bytes, MN) << "only per-warp partials go through shared memory";
    EXPECT_GT(predict("online_tiled", 37, 4096).smem_store_bytes, MN * 8)
        << "every element's (max, sum) pair enters the tree";
}

}  // namespace
}  // namespace sml
