// The correctness check run before every timing: copy a sample of rows back and compare them with
// the float64 reference. A sweep at 1 GiB cannot afford to check every row on the host, so the
// sample is spread over M and always includes the first and the last row (where indexing bugs
// at the grid's edges show up).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "common/result.h"
#include "kernels/kernel_api.h"

namespace sml {

struct AccuracyResult {
    int64_t rows_checked = 0;
    double max_rel_error = 0;     // worst element, against float64 softmax of the same input
    double max_rowsum_error = 0;  // worst |sum(row) - 1|
};

// Rows to check: `count` indices spread evenly over [0, rows), first and last included, sorted,
// no duplicates (fewer than count when rows < count).
std::vector<int64_t> sample_rows(int64_t rows, int64_t count);

// How many rows to check: up to max_rows, but no more than max_elements in total (the host
// reference costs time), and at least 2 (first and last) when rows >= 2.
int64_t sample_row_count(int64_t rows, int64_t cols, int64_t max_rows = 64,
                         int64_t max_elements = int64_t(1) << 22);

// The tolerance a dtype's output is held to (relative error and row-sum error alike):
// fp32 1e-5; fp16 and bf16 a few units in the last place of their 11- and 8-bit mantissas.
double tolerance_for(DType dtype);

// Copies the given rows of input and output back (synchronous) and compares them.
Result<AccuracyResult> check_rows(const void* in, const void* out, const SoftmaxProblem& p,
                                  const std::vector<int64_t>& rows);

}  // namespace sml
