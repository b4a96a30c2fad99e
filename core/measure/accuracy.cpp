#include "core/measure/accuracy.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/measure/timing.h"
#include "core/reference/reference.h"

namespace sml {

std::vector<int64_t> sample_rows(int64_t rows, int64_t count) {
    std::vector<int64_t> out;
    if (rows <= 0 || count <= 0) return out;
    count = std::min(count, rows);
    if (count == 1) return {0};
    for (int64_t i = 0; i < count; ++i) {
        // Evenly spaced, rounding to nearest, so i = 0 -> 0 and i = count - 1 -> rows - 1.
        const int64_t r = (i * (rows - 1) + (count - 1) / 2) / (count - 1);
        if (out.empty() || out.back() != r) out.push_back(r);
    }
    return out;
}

int64_t sample_row_count(int64_t rows, int64_t cols, int64_t max_rows, int64_t max_elements) {
    if (rows <= 0 || cols <= 0) return 0;
    int64_t n = std::min(rows, max_rows);
    n = std::min(n, std::max<int64_t>(max_elements / cols, 1));
    return std::min(rows, std::max<int64_t>(n, 2));
}

double tolerance_for(DType dtype) {
    switch (dtype) {
        case DType::f32:
            return 1e-5;
        case DType::f16:
            return 2e-3;  // 2^-11 = 4.9e-4 per rounding, plus input rounding
        case DType::bf16:
            return 1e-2;  // 2^-8 = 3.9e-3 per rounding (as tests/gpu_test_kernels)
    }
    return 1e-5;
}

// The one place that compares rows with the float64 reference (core/reference/reference.h):
// the same rule the GPU tests use, so a sweep's "max_rel_error" means what the tests mean.
// Raw rows are fp32 values or fp16/bf16 bits, exactly as the kernel read and wrote them.
static void compare_row(const std::vector<unsigned char>& raw_in,
                        const std::vector<unsigned char>& raw_out, const SoftmaxProblem& p,
                        AccuracyResult* acc) {
    const double floor = ref::default_floor(p.dtype);
    ref::Comparison c;
    if (p.dtype == DType::f32) {
        std::vector<float> x(size_t(p.cols)), y(size_t(p.cols));
        std::memcpy(x.data(), raw_in.data(), raw_in.size());
        std::memcpy(y.data(), raw_out.data(), raw_out.size());
        const std::vector<double> r = ref::softmax_reference(x.data(), 1, p.cols, p.cols);
        c = ref::compare_to_reference(r, y.data(), 1, p.cols, p.cols, floor);
    } else {
        std::vector<uint16_t> x(size_t(p.cols)), y(size_t(p.cols));
        std::memcpy(x.data(), raw_in.data(), raw_in.size());
        std::memcpy(y.data(), raw_out.data(), raw_out.size());
        const std::vector<double> r =
            ref::softmax_reference_bits(x.data(), p.dtype, 1, p.cols, p.cols);
        c = ref::compare_to_reference_bits(r, y.data(), p.dtype, 1, p.cols, p.cols, floor);
    }
    // A NaN where the reference is finite (an element never written: the output was poisoned)
    // must fail whatever the tolerance, so it counts as an infinite error.
    const bool unwritten = c.nan_where_finite > 0 || !c.expected_nan_rows_all_nan;
    acc->max_rel_error = std::max(acc->max_rel_error, unwritten ? INFINITY : c.max_rel_err);
    acc->max_rowsum_error =
        std::max(acc->max_rowsum_error, unwritten ? INFINITY : c.max_rowsum_err);
}

Result<AccuracyResult> check_rows(const void* in, const void* out, const SoftmaxProblem& p,
                                  const std::vector<int64_t>& rows) {
    const size_t esize = size_t(dtype_size(p.dtype));
    const size_t row_bytes = size_t(p.cols) * esize;
    std::vector<unsigned char> raw_in(row_bytes), raw_out(row_bytes);
    AccuracyResult acc;
    for (int64_t r : rows) {
        const auto* src_in =
            static_cast<const unsigned char*>(in) + size_t(r * p.in_stride) * esize;
        const auto* src_out =
            static_cast<const unsigned char*>(out) + size_t(r * p.out_stride) * esize;
        if (cudaError_t e = cudaMemcpy(raw_in.data(), src_in, row_bytes, cudaMemcpyDeviceToHost);
            e != cudaSuccess)
            return cuda_error(e, "copying input row " + std::to_string(r) + " back");
        if (cudaError_t e = cudaMemcpy(raw_out.data(), src_out, row_bytes, cudaMemcpyDeviceToHost);
            e != cudaSuccess)
            return cuda_error(e, "copying output row " + std::to_string(r) + " back");
        compare_row(raw_in, raw_out, p, &acc);
        ++acc.rows_checked;
    }
    return acc;
}

}  // namespace sml
