// The float64 reference and the comparison rule (CPU only).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "core/reference/reference.h"

namespace sml::ref {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

std::vector<double> softmax_of(const std::vector<float>& row) {
    return softmax_reference(row.data(), 1, static_cast<int64_t>(row.size()),
                             static_cast<int64_t>(row.size()));
}

TEST(Reference, RowsSumToOneAndFollowTheFormula) {
    const std::vector<float> row = {1.f, 2.f, 3.f, -1.f};
    const std::vector<double> y = softmax_of(row);
    double denom = 0;
    for (float v : row) denom += std::exp(double(v));
    double sum = 0;
    for (size_t i = 0; i < row.size(); ++i) {
        EXPECT_NEAR(y[i], std::exp(double(row[i])) / denom, 1e-15);
        sum += y[i];
    }
    EXPECT_NEAR(sum, 1.0, 1e-15);
    EXPECT_GT(y[2], y[1]);
    EXPECT_GT(y[1], y[0]);
}

TEST(Reference, ShiftInvariant) {
    std::mt19937 rng(7);
    std::normal_distribution<float> nd;
    std::vector<float> a(257), b(257);
    for (size_t i = 0; i < a.size(); ++i) {
        a[i] = nd(rng);
        b[i] = a[i] + 1000.f;  // exact in fp32 only approximately; compare loosely below
    }
    const std::vector<double> ya = softmax_of(a), yb = softmax_of(b);
    for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(ya[i], yb[i], 1e-4 * ya[i] + 1e-12);
}

TEST(Reference, StridedRowsIgnoreThePadding) {
    // 2 rows of 3 with a stride of 5: the padding holds values that would change the result.
    const std::vector<float> in = {0, 1, 2, 99, 99, 5, 5, 5, -99, 99};
    const std::vector<double> y = softmax_reference(in.data(), 2, 3, 5);
    ASSERT_EQ(y.size(), 6u);
    EXPECT_NEAR(y[3], 1.0 / 3, 1e-15);
    EXPECT_NEAR(y[0] + y[1] + y[2], 1.0, 1e-15);
    EXPECT_NEAR(y[2] / y[1], std::exp(1.0), 1e-12);
}

TEST(Reference, NegativeInfinityEntriesGiveZero) {
    const std::vector<double> y = softmax_of({-kInf, 0.f, -kInf, 0.f});
    EXPECT_EQ(y[0], 0.0);
    EXPECT_EQ(y[2], 0.0);
    EXPECT_DOUBLE_EQ(y[1], 0.5);
    EXPECT_DOUBLE_EQ(y[3], 0.5);
}

TEST(Reference, AllNegativeInfinityRowIsNaN) {
    for (double v : softmax_of({-kInf, -kInf, -kInf})) EXPECT_TRUE(std::isnan(v));
}

TEST(Reference, NaNMakesTheWholeRowNaN) {
    for (double v : softmax_of({1.f, kNaN, 2.f})) EXPECT_TRUE(std::isnan(v));
}

TEST(Reference, HugeMagnitudesDoNotOverflow) {
    const std::vector<double> y = softmax_of({1e30f, 1e30f, -1e30f, 0.f});
    EXPECT_DOUBLE_EQ(y[0], 0.5);
    EXPECT_DOUBLE_EQ(y[1], 0.5);
    EXPECT_EQ(y[2], 0.0);
    EXPECT_EQ(y[3], 0.0);
    const std::vector<double> z = softmax_of({-1e30f, -1e30f});  // all huge and negative
    EXPECT_DOUBLE_EQ(z[0], 0.5);
}

TEST(Reference, HalfAndBf16BitsRoundTrip) {
    // Exactly representable: zero, normals, the largest half, the smallest normal and subnormal.
    for (float f : {0.f, 1.f, -2.5f, 0.099975586f, 65504.f, 0x1p-14f, 0x1p-24f, 3 * 0x1p-24f})
        EXPECT_EQ(half_bits_to_float(float_to_half_bits(f)), f) << f;
    EXPECT_EQ(float_to_half_bits(1.f), 0x3c00);
    EXPECT_EQ(float_to_half_bits(-2.f), 0xc000);
    EXPECT_EQ(float_to_half_bits(1e6f), 0x7c00);            // overflow -> inf
    EXPECT_EQ(float_to_half_bits(1.f + 0x1p-11f), 0x3c00);  // a tie rounds to even
    EXPECT_TRUE(std::isnan(half_bits_to_float(float_to_half_bits(kNaN))));
    EXPECT_EQ(half_bits_to_float(float_to_half_bits(-kInf)), -kInf);
    for (float f : {0.f, 1.f, -3.f, 0x1p100f, -kInf})
        EXPECT_EQ(bf16_bits_to_float(float_to_bf16_bits(f)), f) << f;
    EXPECT_NEAR(bf16_bits_to_float(float_to_bf16_bits(1e30f)) / 1e30, 1.0, 0x1p-9);
    EXPECT_EQ(float_to_bf16_bits(1.f), 0x3f80);
    EXPECT_EQ(bf16_bits_to_float(float_to_bf16_bits(1.f + 0x1p-9f)), 1.f);  // tie to even
    EXPECT_NEAR(bf16_bits_to_float(float_to_bf16_bits(3.14159f)), 3.14159f, 0.0079);
}

TEST(Reference, BitsReferenceDecodesTheInput) {
    const std::vector<uint16_t> bits = {float_to_half_bits(0.f), float_to_half_bits(1.f)};
    const std::vector<double> y = softmax_reference_bits(bits.data(), DType::f16, 1, 2, 2);
    EXPECT_NEAR(y[1] / y[0], std::exp(1.0), 1e-12);
}

TEST(Compare, PerfectOutputPasses) {
    const std::vector<float> in = {0.f, 1.f, 2.f, -kInf, -kInf, -kInf};
    const std::vector<double> ref = softmax_reference(in.data(), 2, 3, 3);
    std::vector<float> got(ref.begin(), ref.end());
    const Comparison c = compare_to_reference(ref, got.data(), 2, 3, 3, 1e-30);
    EXPECT_LT(c.max_rel_err, 1e-7);
    EXPECT_LT(c.max_rowsum_err, 1e-6);
    EXPECT_EQ(c.expected_nan_rows, 1);
    EXPECT_TRUE(c.expected_nan_rows_all_nan);
    EXPECT_EQ(c.nan_where_finite, 0);
    EXPECT_TRUE(c.passed(1e-5, 1e-5));
}

TEST(Compare, CatchesEachKindOfFailure) {
    const std::vector<float> in = {0.f, 1.f, 2.f, -kInf, -kInf, -kInf};
    const std::vector<double> ref = softmax_reference(in.data(), 2, 3, 3);
    std::vector<float> good(ref.begin(), ref.end());

    std::vector<float> off = good;
    off[1] *= 1.001f;  // a 1e-3 relative error
    Comparison c = compare_to_reference(ref, off.data(), 2, 3, 3, 1e-30);
    EXPECT_NEAR(c.max_rel_err, 1e-3, 1e-5);
    EXPECT_EQ(c.worst_row, 0);
    EXPECT_EQ(c.worst_col, 1);
    EXPECT_FALSE(c.passed(1e-5, 1e-2));

    std::vector<float> poisoned = good;
    poisoned[0] = kNaN;  // e.g. an element the kernel never wrote
    c = compare_to_reference(ref, poisoned.data(), 2, 3, 3, 1e-30);
    EXPECT_EQ(c.nan_where_finite, 1);
    EXPECT_FALSE(c.passed(1, 1));

    std::vector<float> not_nan = good;
    not_nan[4] = 0.f;  // the all -inf row must be NaN everywhere
    c = compare_to_reference(ref, not_nan.data(), 2, 3, 3, 1e-30);
    EXPECT_FALSE(c.expected_nan_rows_all_nan);
    EXPECT_FALSE(c.passed(1, 1));
}

TEST(Compare, TinyProbabilitiesAreJudgedAgainstTheFloor) {
    // ref = [1 - tiny, tiny]; a kernel that flushes the tiny probability to 0 is fine when tiny is
    // far below the floor, and wrong when it is above.
    const std::vector<float> far = {0.f, -100.f};  // exp(-100) ~ 3.7e-44
    const std::vector<double> ref = softmax_reference(far.data(), 1, 2, 2);
    const std::vector<float> flushed = {1.f, 0.f};
    EXPECT_LT(compare_to_reference(ref, flushed.data(), 1, 2, 2, 1e-30).max_rel_err, 1e-12);
    const std::vector<float> near = {0.f, -10.f};  // exp(-10) ~ 4.5e-5
    const std::vector<double> ref2 = softmax_reference(near.data(), 1, 2, 2);
    EXPECT_GT(compare_to_reference(ref2, flushed.data(), 1, 2, 2, 1e-30).max_rel_err, 0.99);
}

TEST(Compare, HalfOutputBits) {
    const std::vector<float> in = {0.f, 1.f, 2.f};
    const std::vector<double> ref = softmax_reference(in.data(), 1, 3, 3);
    std::vector<uint16_t> bits;
    for (double v : ref) bits.push_back(float_to_half_bits(static_cast<float>(v)));
    const Comparison c =
        compare_to_reference_bits(ref, bits.data(), DType::f16, 1, 3, 3, default_floor(DType::f16));
    EXPECT_GT(c.max_rel_err, 0.0);      // fp16 rounding is visible...
    EXPECT_LE(c.max_rel_err, 0x1p-11);  // ...but within half an ulp
}

// A row of 166667 equal values: each exact output, 6.0e-6, is an fp16 subnormal and rounds up
// by 0.7%, so correctly rounded outputs sum to 1.0033. The row sum is held to that sum, not to
// 1; an output that is off by one ulp everywhere still fails.
TEST(Compare, RowSumAllowsForTheOutputTypesOwnRounding) {
    const int64_t n = 166667;
    const std::vector<float> in(n, 1.0f);
    const std::vector<double> ref = softmax_reference(in.data(), 1, n, n);
    const uint16_t exact = float_to_half_bits(static_cast<float>(ref[0]));
    std::vector<uint16_t> bits(n, exact);
    Comparison c =
        compare_to_reference_bits(ref, bits.data(), DType::f16, 1, n, n, default_floor(DType::f16));
    EXPECT_GT(std::fabs(half_bits_to_float(exact) * double(n) - 1.0), 3e-3);  // the trap
    EXPECT_LT(c.max_rowsum_err, 1e-9);
    EXPECT_TRUE(c.passed(2e-3, 2e-3));
    std::fill(bits.begin(), bits.end(), static_cast<uint16_t>(exact + 1));  // one ulp up
    c = compare_to_reference_bits(ref, bits.data(), DType::f16, 1, n, n, default_floor(DType::f16));
    EXPECT_FALSE(c.passed(2e-3, 2e-3));
}

}  // namespace
}  // namespace sml::ref
