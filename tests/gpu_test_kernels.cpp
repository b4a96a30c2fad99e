// Every registry kernel against the float64 reference, on a real GPU.
//
// For each kernel, variant and shape inside the kernel's range: fill the input on the host
// (random normal data plus special rows), poison the output with NaN (and its stride padding
// too), run, copy back and check EVERY element: relative error, row sums, NaN rules, and that the
// padding between rows was not touched. Out-of-range problems must be refused without a launch.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/reference/reference.h"
#include "gpu_env.h"
#include "kernels/launch.h"
#include "kernels/registry.h"

namespace sml {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// Minimal owning device buffer, so a failed ASSERT cannot leak.
struct DeviceMem {
    void* p = nullptr;
    explicit DeviceMem(size_t bytes) {
        if (bytes && cudaMalloc(&p, bytes) != cudaSuccess) p = nullptr;
    }
    ~DeviceMem() { cudaFree(p); }
    DeviceMem(const DeviceMem&) = delete;
    DeviceMem& operator=(const DeviceMem&) = delete;
};

struct Shape {
    int64_t rows, cols, in_stride, out_stride;
    std::string label() const {
        return std::to_string(rows) + "x" + std::to_string(cols) + " strides " +
               std::to_string(in_stride) + "/" + std::to_string(out_stride);
    }
};

// Tolerances, from what the output type can represent. fp32: the 1e-5 for both.
// fp16/bf16: twice half an ulp of relative error (2^-11 and 2^-8 per element), and a row sum
// that may drift by the sum of those per-element bounds. For fp16 that sum has a term growing with
// N: probabilities below 2^-14 are subnormal halves, each off by up to 2^-25 in absolute terms.
struct Tolerance {
    double rel, rowsum;
};
Tolerance tolerance(DType t, int64_t cols) {
    switch (t) {
        case DType::f16:
            return {0x1p-10, 0x1p-10 + double(cols) * 0x1p-25};
        case DType::bf16:
            return {0x1p-7, 0x1p-7};
        default:
            return {1e-5, 1e-5};
    }
}

// Random normal rows, with special rows when there are enough rows to spare:
//   1: +-1e4 magnitudes      2: +-1e30 magnitudes (fp16: +-3e4, its range ends at 65504)
//   3: every third entry -inf, starting at column 0    4: all -inf    5: one NaN
//   6: normal data with one 1e30 spike (fp16: 6e4)
// Stride padding holds 1e30, which would wreck any row that read it.
std::vector<float> make_input(const Shape& s, DType t, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> nd(0.f, 1.f);
    const float huge = t == DType::f16 ? 3e4f : 1e30f;
    const float spike = t == DType::f16 ? 6e4f : 1e30f;
    std::vector<float> x(static_cast<size_t>(s.rows * s.in_stride), 1e30f);
    for (int64_t r = 0; r < s.rows; ++r) {
        float* row = x.data() + r * s.in_stride;
        const int special = s.rows >= 8 ? static_cast<int>(r) : 0;
        for (int64_t c = 0; c < s.cols; ++c) {
            float v = nd(rng);
            if (special == 1) v *= 1e4f;
            if (special == 2) v *= huge;
            if (special == 3 && c % 3 == 0) v = -kInf;
            if (special == 4) v = -kInf;
            if (t == DType::f16 && std::isfinite(v)) v = std::fmax(-6e4f, std::fmin(6e4f, v));
            row[c] = v;
        }
        if (special == 5) row[s.cols / 2] = std::numeric_limits<float>::quiet_NaN();
        if (special == 6) row[(s.cols * 2) / 3] = spike;
    }
    return x;
}

// Input and reference for one shape and dtype, shared by every kernel that can run it.
struct Problem {
    Shape shape;
    DType dtype;
    std::vector<float> f32;      // fp32 input (with padding)
    std::vector<uint16_t> bits;  // fp16/bf16 input (with padding)
    std::vector<double> ref;     // contiguous [rows, cols]
};

Problem make_problem(const Shape& s, DType t, uint32_t seed) {
    Problem p{s, t, make_input(s, t, seed), {}, {}};
    if (t == DType::f32) {
        p.ref = ref::softmax_reference(p.f32.data(), s.rows, s.cols, s.in_stride);
    } else {
        p.bits.resize(p.f32.size());
        for (size_t i = 0; i < p.f32.size(); ++i)
            p.bits[i] = t == DType::f16 ? ref::float_to_half_bits(p.f32[i])
                                        : ref::float_to_bf16_bits(p.f32[i]);
        p.ref = ref::softmax_reference_bits(p.bits.data(), t, s.rows, s.cols, s.in_stride);
    }
    return p;
}

DeviceLimits device_limits() {
    DeviceLimits lim;
    int dev = 0;
    cudaGetDevice(&dev);
    query_device_limits(dev, &lim);
    return lim;
}

// Runs `k` (variant `variant`) on `p` and checks every element (gtest assertions).
void run_and_check(const KernelInfo& k, int variant, const Problem& p, const DeviceLimits& lim) {
    const Shape& s = p.shape;
    const size_t elem = dtype_size(p.dtype);
    const size_t in_bytes = s.rows * s.in_stride * elem, out_bytes = s.rows * s.out_stride * elem;
    SoftmaxProblem sp{s.rows, s.cols, s.in_stride, s.out_stride, p.dtype};
    const size_t ws_bytes = k.workspace_bytes ? k.workspace_bytes(sp, lim) : 0;
    DeviceMem in(in_bytes), out(out_bytes), ws(ws_bytes);
    ASSERT_TRUE(in.p && out.p && (ws_bytes == 0 || ws.p)) << "cudaMalloc failed";
    const void* host_in = p.dtype == DType::f32 ? static_cast<const void*>(p.f32.data())
                                                : static_cast<const void*>(p.bits.data());
    ASSERT_EQ(cudaMemcpy(in.p, host_in, in_bytes, cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaMemset(out.p, 0xff, out_bytes), cudaSuccess);  // all-ones bits: NaN

    LaunchArgs a;
    a.problem = sp;
    a.in = in.p;
    a.out = out.p;
    a.workspace = ws.p;
    a.variant = variant;
    a.limits = lim;
    const Status st = launch_checked(k, a, nullptr);
    ASSERT_TRUE(st.ok()) << st.error().message << " / " << st.error().hint;
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess) << cudaGetErrorString(cudaGetLastError());

    std::vector<uint8_t> host_out(out_bytes);
    ASSERT_EQ(cudaMemcpy(host_out.data(), out.p, out_bytes, cudaMemcpyDeviceToHost), cudaSuccess);
    ref::Comparison c;
    if (p.dtype == DType::f32) {
        c = ref::compare_to_reference(p.ref, reinterpret_cast<const float*>(host_out.data()),
                                      s.rows, s.cols, s.out_stride, ref::default_floor(p.dtype));
    } else {
        c = ref::compare_to_reference_bits(
            p.ref, reinterpret_cast<const uint16_t*>(host_out.data()), p.dtype, s.rows, s.cols,
            s.out_stride, ref::default_floor(p.dtype));
    }
    // The padding after each row must still hold the poison: a kernel must not write past N.
    int64_t padding_touched = 0;
    for (int64_t r = 0; r < s.rows; ++r)
        for (int64_t c2 = s.cols; c2 < s.out_stride; ++c2)
            for (size_t b = 0; b < elem; ++b)
                padding_touched += host_out[(r * s.out_stride + c2) * elem + b] != 0xff;

    const Tolerance tol = tolerance(p.dtype, s.cols);
    std::printf("  %-13s %-15s %-5s %-32s max_rel_err %.2e  max_rowsum_err %.2e  nan_rows %lld\n",
                k.id, k.variants.empty() ? "" : k.variants[variant].c_str(), dtype_name(p.dtype),
                s.label().c_str(), c.max_rel_err, c.max_rowsum_err,
                static_cast<long long>(c.expected_nan_rows));
    const std::string where = std::string(k.id) + " variant " + std::to_string(variant) + " " +
                              dtype_name(p.dtype) + " " + s.label();
    EXPECT_LE(c.max_rel_err, tol.rel)
        << where << " worst at row " << c.worst_row << " col " << c.worst_col;
    EXPECT_LE(c.max_rowsum_err, tol.rowsum) << where;
    EXPECT_EQ(c.nan_where_finite, 0) << where << ": NaN/inf (or never written) elements";
    EXPECT_TRUE(c.expected_nan_rows_all_nan) << where << ": all -inf / NaN rows must be NaN";
    EXPECT_EQ(c.checked_elements + c.expected_nan_rows * s.cols, s.rows * s.cols) << where;
    EXPECT_EQ(padding_touched, 0) << where << ": wrote into the row-stride padding";
}

std::vector<std::string> kernel_ids_list() {
    std::vector<std::string> ids;
    for (const KernelInfo& k : registry()) ids.push_back(k.id);
    return ids;
}

class KernelCorrectness : public ::testing::TestWithParam<std::string> {};

TEST_P(KernelCorrectness, MatchesFloat64EverywhereInRange) {
    SML_REQUIRE_GPU();
    const KernelInfo& k = *find_kernel(GetParam());
    const DeviceLimits lim = device_limits();
    // SML_GPU_TEST_QUICK=1 keeps the small shapes only, for compute-sanitizer runs (~100x slower).
    const bool quick = std::getenv("SML_GPU_TEST_QUICK") != nullptr;
    std::vector<Shape> shapes;
    for (int64_t n : {1, 2, 7, 31, 32, 33, 1000, 1024, 1025, 4097, 16385, 100003})
        if (!quick || n <= 4097) shapes.push_back({37, n, n, n});  // odd M, contiguous
    shapes.push_back({1, 1000, 1000, 1000});                       // a single row
    if (!quick) shapes.push_back({20011, 64, 64, 64});  // more rows than one grid sweep covers
    shapes.push_back({37, 33, 35, 38});                 // strides, nothing aligned
    shapes.push_back({37, 1000, 1004, 1008});           // strides that keep float4 alignment
    shapes.push_back({37, 1000, 1001, 1003});           // N % 4 == 0 but strides break alignment
    shapes.push_back({37, 4096, 4100, 4104});
    int ran = 0;
    uint32_t seed = 1;
    for (DType t : {DType::f32, DType::f16, DType::bf16}) {
        if (!(k.dtypes & dtype_bit(t))) continue;
        for (const Shape& s : shapes) {
            ++seed;
            SoftmaxProblem sp{s.rows, s.cols, s.in_stride, s.out_stride, t};
            if (!check_problem(k, sp, lim).ok()) continue;  // outside this kernel's range
            const Problem p = make_problem(s, t, seed);
            const int variants = k.variants.empty() ? 1 : static_cast<int>(k.variants.size());
            for (int v = 0; v < variants; ++v) {
                run_and_check(k, v, p, lim);
                ++ran;
                if (HasFatalFailure()) return;
            }
        }
    }
    EXPECT_GE(ran, 8) << k.id << " ran too few shapes to mean anything";
}

INSTANTIATE_TEST_SUITE_P(AllKernels, KernelCorrectness, ::testing::ValuesIn(kernel_ids_list()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                             return info.param;
                         });

// A problem past a kernel's range is refused by launch_checked and nothing runs: the poisoned
// output stays poisoned, and the device reports no error.
TEST(KernelRange, OutOfRangeIsRefusedWithoutLaunching) {
    SML_REQUIRE_GPU();
    const DeviceLimits lim = device_limits();
    int checked = 0;
    for (const KernelInfo& k : registry()) {
        const int64_t hi = k.max_cols(lim, DType::f32);
        if (hi == kUnlimitedCols) continue;
        SCOPED_TRACE(k.id);
        const SoftmaxProblem sp = SoftmaxProblem::contiguous(3, hi + 1);
        const size_t bytes = size_t(sp.elements()) * 4;
        DeviceMem in(bytes), out(bytes), ws(k.workspace_bytes ? k.workspace_bytes(sp, lim) : 0);
        ASSERT_TRUE(in.p && out.p);
        ASSERT_EQ(cudaMemset(in.p, 0, bytes), cudaSuccess);
        ASSERT_EQ(cudaMemset(out.p, 0xff, bytes), cudaSuccess);
        LaunchArgs a;
        a.problem = sp;
        a.in = in.p;
        a.out = out.p;
        a.workspace = ws.p;
        a.limits = lim;
        const Status st = launch_checked(k, a, nullptr);
        ASSERT_FALSE(st.ok());
        EXPECT_NE(st.error().message.find(k.id), std::string::npos) << st.error().message;
        EXPECT_NE(st.error().message.find(std::to_string(hi)), std::string::npos);
        EXPECT_NE(st.error().hint.find("online"), std::string::npos) << st.error().hint;
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        std::vector<uint8_t> host(bytes);
        ASSERT_EQ(cudaMemcpy(host.data(), out.p, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
        int64_t written = 0;
        for (uint8_t b : host) written += b != 0xff;
        EXPECT_EQ(written, 0) << "the refused kernel wrote to its output";
        ++checked;
    }
    EXPECT_GE(checked, 4) << "fused, warp, block and smem all have finite ranges";
}

}  // namespace
}  // namespace sml
