// Number formatting for every panel. See format.h.
#include "app/viewer/model/format.h"

#include <cmath>
#include <cstdio>

namespace sml::viewer {

namespace {

// Three significant digits: enough to compare kernels, few enough to read at a glance.
std::string three_digits(double v, const char* unit) {
    char buf[64];
    const double a = std::fabs(v);
    // Thresholds sit where rounding would add a digit: 9.996 prints "10.0", not "10.00".
    if (a >= 99.95 || a == 0)
        std::snprintf(buf, sizeof buf, "%.0f%s", v, unit);
    else if (a >= 9.995)
        std::snprintf(buf, sizeof buf, "%.1f%s", v, unit);
    else if (a >= 0.9995)
        std::snprintf(buf, sizeof buf, "%.2f%s", v, unit);
    else
        std::snprintf(buf, sizeof buf, "%.3f%s", v, unit);
    return buf;
}

std::string with_prefix(double v, const char* const prefixes[], int count, const char* unit) {
    if (!std::isfinite(v)) return "n/a";
    int i = 0;
    // Round first so 999.7 becomes "1.00 k", not "1000".
    while (i + 1 < count && std::fabs(v) >= 999.5) {
        v /= 1000.0;
        ++i;
    }
    std::string u = std::string(" ") + prefixes[i] + unit;
    return three_digits(v, u.c_str());
}

}  // namespace

std::string format_bytes(double bytes) {
    static const char* const p[] = {"", "k", "M", "G", "T", "P"};
    return with_prefix(bytes, p, 6, "B");
}

std::string format_pct(double pct) {
    if (!std::isfinite(pct)) return "n/a";
    char buf[32];
    const double a = std::fabs(pct);
    if (a >= 99.95 || a == 0)
        std::snprintf(buf, sizeof buf, "%.0f%%", pct);
    else if (a >= 1)
        std::snprintf(buf, sizeof buf, "%.1f%%", pct);
    else
        std::snprintf(buf, sizeof buf, "%.2f%%", pct);
    return buf;
}

std::string format_ms(double ms) {
    if (!std::isfinite(ms)) return "n/a";
    if (std::fabs(ms) < 0.1 && ms != 0) return three_digits(ms * 1000.0, " us");
    if (std::fabs(ms) >= 1000) return three_digits(ms / 1000.0, " s");
    return three_digits(ms, " ms");
}

std::string format_gbps(double gbps) {
    if (!std::isfinite(gbps)) return "n/a";
    if (std::fabs(gbps) >= 1000) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.0f GB/s", gbps);
        return buf;
    }
    return three_digits(gbps, " GB/s");
}

std::string format_count(double n) {
    if (!std::isfinite(n)) return "n/a";
    if (std::fabs(n) < 999.5) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.0f", n);
        return buf;
    }
    static const char* const p[] = {"", "k", "M", "G", "T"};
    return with_prefix(n, p, 5, "");
}

std::string format_ratio(double r) {
    if (!std::isfinite(r)) return "n/a";
    char buf[32];
    std::snprintf(buf, sizeof buf, r >= 10 ? "%.1fx" : "%.2fx", r);
    return buf;
}

std::string format_cols(long long n) {
    char buf[48];
    if (n >= 65536 && (n & (n - 1)) == 0) {
        int k = 0;
        while ((1LL << k) < n) ++k;
        if (n >= (1LL << 20))
            std::snprintf(buf, sizeof buf, "%lldM (2^%d)", n >> 20, k);
        else
            std::snprintf(buf, sizeof buf, "%lldk (2^%d)", n >> 10, k);
        return buf;
    }
    std::snprintf(buf, sizeof buf, "%lld", n);
    return buf;
}

}  // namespace sml::viewer
