// float64 softmax and the comparison rule. See reference.h.
#include "core/reference/reference.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace sml::ref {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One row, any input type, through a decoder to double.
template <class Decode>
void softmax_row(Decode x, int64_t cols, double* y) {
    double m = -std::numeric_limits<double>::infinity();
    bool has_nan = false;
    for (int64_t c = 0; c < cols; ++c) {
        const double v = x(c);
        if (std::isnan(v))
            has_nan = true;
        else if (v > m)
            m = v;
    }
    // All -inf (m = -inf) and any +inf (m = +inf) both produce inf - inf = NaN below, exactly as
    // a direct evaluation would; only NaN needs handling by hand, since the max skipped it.
    if (has_nan) {
        for (int64_t c = 0; c < cols; ++c) y[c] = kNaN;
        return;
    }
    double s = 0;
    for (int64_t c = 0; c < cols; ++c) {
        y[c] = std::exp(x(c) - m);
        s += y[c];
    }
    for (int64_t c = 0; c < cols; ++c) y[c] /= s;
}

// Shared by the float and the fp16/bf16 comparisons. `round` maps a reference value to the
// output type's nearest value: the row sum is held to the sum of those.
template <class Read, class Round>
Comparison compare(const std::vector<double>& ref, Read got, int64_t rows, int64_t cols,
                   double floor, Round round) {
    Comparison r;
    for (int64_t row = 0; row < rows; ++row) {
        const double* e = ref.data() + row * cols;
        bool row_finite = true;
        for (int64_t c = 0; c < cols; ++c)
            if (!std::isfinite(e[c])) row_finite = false;
        if (!row_finite) {  // the reference rules make such a row all NaN
            ++r.expected_nan_rows;
            for (int64_t c = 0; c < cols; ++c)
                if (!std::isnan(got(row, c))) r.expected_nan_rows_all_nan = false;
            continue;
        }
        double sum = 0, rounded_sum = 0;
        for (int64_t c = 0; c < cols; ++c) {
            const double g = got(row, c);
            ++r.checked_elements;
            rounded_sum += round(e[c]);
            if (!std::isfinite(g)) {
                ++r.nan_where_finite;
                continue;
            }
            sum += g;
            const double err = std::fabs(g - e[c]) / std::fmax(std::fabs(e[c]), floor);
            if (err > r.max_rel_err) {
                r.max_rel_err = err;
                r.worst_row = row;
                r.worst_col = c;
            }
        }
        r.max_rowsum_err = std::fmax(r.max_rowsum_err, std::fabs(sum - rounded_sum));
    }
    return r;
}

}  // namespace

std::vector<double> softmax_reference(const float* in, int64_t rows, int64_t cols,
                                      int64_t in_stride) {
    std::vector<double> out(static_cast<size_t>(rows * cols));
    for (int64_t r = 0; r < rows; ++r) {
        const float* x = in + r * in_stride;
        softmax_row([x](int64_t c) { return static_cast<double>(x[c]); }, cols,
                    out.data() + r * cols);
    }
    return out;
}

std::vector<double> softmax_reference_bits(const uint16_t* in, DType dtype, int64_t rows,
                                           int64_t cols, int64_t in_stride) {
    std::vector<double> out(static_cast<size_t>(rows * cols));
    for (int64_t r = 0; r < rows; ++r) {
        const uint16_t* x = in + r * in_stride;
        softmax_row(
            [x, dtype](int64_t c) { return static_cast<double>(bits_to_float(x[c], dtype)); }, cols,
            out.data() + r * cols);
    }
    return out;
}

float half_bits_to_float(uint16_t h) {
    const uint32_t sign = (h >> 15) & 1u, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
    float v;
    if (exp == 0)
        v = std::ldexp(static_cast<float>(mant), -24);  // zero or subnormal
    else if (exp == 31)
        v = mant ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
    else
        v = std::ldexp(static_cast<float>(mant | 0x400u), static_cast<int>(exp) - 25);
    return sign ? -v : v;
}

float bf16_bits_to_float(uint16_t b) {
    const uint32_t u = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
}

uint16_t float_to_bf16_bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x40u);  // keep it a quiet NaN
    u += 0x7fffu + ((u >> 16) & 1u);  // round to nearest, ties to even
    return static_cast<uint16_t>(u >> 16);
}

uint16_t float_to_half_bits(float f) {
    const uint16_t sign = std::signbit(f) ? 0x8000u : 0u;
    if (std::isnan(f)) return static_cast<uint16_t>(sign | 0x7e00u);
    const float a = std::fabs(f);
    if (a >= 65520.f) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to inf
    // Scale so the representable step becomes 1, round to nearest even, then re-encode.
    if (a < 0x1p-14f) {  // zero or subnormal: the step is 2^-24
        const float q = std::nearbyint(std::ldexp(a, 24));
        return static_cast<uint16_t>(sign | static_cast<uint16_t>(q));  // q == 1024 -> min normal
    }
    int e;
    std::frexp(a, &e);                                  // a = m * 2^e, m in [0.5, 1)
    const int exp = e - 1;                              // a in [2^exp, 2^(exp+1))
    float q = std::nearbyint(std::ldexp(a, 10 - exp));  // in [1024, 2048]
    int biased = exp + 15;
    if (q >= 2048.f) {
        q /= 2;
        ++biased;
    }
    if (biased >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
    return static_cast<uint16_t>(sign | (biased << 10) | (static_cast<uint16_t>(q) & 0x3ffu));
}

float bits_to_float(uint16_t bits, DType dtype) {
    return dtype == DType::bf16 ? bf16_bits_to_float(bits) : half_bits_to_float(bits);
}

double default_floor(DType dtype) {
    return dtype == DType::f16 ? 0x1p-14 : 1e-30;
}

Comparison compare_to_reference(const std::vector<double>& ref, const float* got, int64_t rows,
                                int64_t cols, int64_t got_stride, double floor) {
    return compare(
        ref, [=](int64_t r, int64_t c) { return static_cast<double>(got[r * got_stride + c]); },
        rows, cols, floor, [](double e) { return static_cast<double>(static_cast<float>(e)); });
}

Comparison compare_to_reference_bits(const std::vector<double>& ref, const uint16_t* got,
                                     DType dtype, int64_t rows, int64_t cols, int64_t got_stride,
                                     double floor) {
    return compare(
        ref,
        [=](int64_t r, int64_t c) {
            return static_cast<double>(bits_to_float(got[r * got_stride + c], dtype));
        },
        rows, cols, floor,
        [dtype](double e) {
            const float f = static_cast<float>(e);
            const uint16_t bits =
                dtype == DType::bf16 ? float_to_bf16_bits(f) : float_to_half_bits(f);
            return static_cast<double>(bits_to_float(bits, dtype));
        });
}

}  // namespace sml::ref
