// The float64 CPU reference every GPU kernel is checked against, and the comparison rule.
//
// softmax_reference computes safe softmax in double precision, row by row, with torch.softmax's
// rules for special values:
//   - a row that contains a NaN is all NaN;
//   - a row that is all -inf is all NaN (its max is -inf, and -inf - -inf is NaN);
//   - a row with +inf is all NaN (inf - inf), also like torch;
//   - -inf entries in a row with a finite max give exactly 0.
// Subtracting the row max first means magnitudes like 1e30 never overflow.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/kernel_api.h"

namespace sml::ref {

// Row-major [rows, cols] input with a row stride in elements; the result is contiguous
// [rows, cols] float64.
std::vector<double> softmax_reference(const float* in, int64_t rows, int64_t cols,
                                      int64_t in_stride);

// The same from fp16 or bf16 raw bits (what the online kernel reads for those dtypes). The input
// is decoded exactly, so the only differences left are the kernel's fp32 math and output rounding.
std::vector<double> softmax_reference_bits(const uint16_t* in, DType dtype, int64_t rows,
                                           int64_t cols, int64_t in_stride);

// IEEE conversions for fp16/bf16 raw bits (round to nearest even; NaN and inf preserved).
float half_bits_to_float(uint16_t h);
float bf16_bits_to_float(uint16_t b);
uint16_t float_to_half_bits(float f);
uint16_t float_to_bf16_bits(float f);
// Decodes `dtype` raw bits (fp16 or bf16) to float.
float bits_to_float(uint16_t bits, DType dtype);

// How a kernel's output compares with the reference.
//
// Relative error of one element is |got - ref| / max(|ref|, floor). Below `floor` the error is
// measured in absolute terms scaled by the floor: a probability of 1e-40 that fp32 flushes to 0
// is not a meaningful failure, while a 1e-5 relative slip on a probability of 1e-20 still is.
// The default floors (see default_floor) sit where the output type stops having full precision.
struct Comparison {
    double max_rel_err = 0;                  // over elements whose reference is finite
    int64_t worst_row = -1, worst_col = -1;  // where max_rel_err happened
    // max |sum(row) - sum(row of the reference rounded to the output type)| over rows whose
    // reference is finite: 1, up to what rounding to that type does to any output. (fp16 N =
    // 1000003 with 166667 equal maxima: each output, 6.0e-6, sits in fp16's subnormals and
    // rounds up by 0.7%, so even exact outputs sum to 1.0033.)
    double max_rowsum_err = 0;
    int64_t nan_where_finite = 0;   // elements that are NaN (or inf) but the reference is finite
    int64_t expected_nan_rows = 0;  // rows whose reference is NaN
    bool expected_nan_rows_all_nan = true;  // every element of each such row is NaN
    int64_t checked_elements = 0;

    // True when every rule holds with these tolerances.
    bool passed(double rel_tol, double rowsum_tol) const {
        return max_rel_err <= rel_tol && max_rowsum_err <= rowsum_tol && nan_where_finite == 0 &&
               expected_nan_rows_all_nan;
    }
};

// fp32: 1e-30 (far above where fp32 goes subnormal); fp16: 2^-14 (its smallest normal);
// bf16: 1e-30 (it has fp32's exponent range).
double default_floor(DType dtype);

// `ref` is contiguous [rows, cols]; `got` is row-major with `got_stride`.
Comparison compare_to_reference(const std::vector<double>& ref, const float* got, int64_t rows,
                                int64_t cols, int64_t got_stride, double floor);
// The same for fp16/bf16 output bits.
Comparison compare_to_reference_bits(const std::vector<double>& ref, const uint16_t* got,
                                     DType dtype, int64_t rows, int64_t cols, int64_t got_stride,
                                     double floor);

}  // namespace sml::ref
