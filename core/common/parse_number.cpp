// Whole-number parsing for command-line arguments. See parse_number.h.
#include "core/common/parse_number.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/common/text_cap.h"

namespace sml {

namespace {

std::string range_hint(const std::string& what, const std::string& lo, const std::string& hi) {
    return "give " + what + " a whole number from " + lo + " to " + hi;
}

bool all_digits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

// The shared checks: empty, not a number, a sign where none is allowed. `lo`/`hi` are the
// bounds as text for the hint. Returns the error, or nothing when `text` is [-]digits.
Result<bool> check_form(std::string_view text, const std::string& what, bool negative_allowed,
                        const std::string& lo, const std::string& hi) {
    const std::string shown = quote_short(text);
    if (text.empty())
        return Error{what + " is empty: it needs a whole number", range_hint(what, lo, hi)};
    const bool negative = text[0] == '-';
    if (!all_digits(negative ? text.substr(1) : text))
        return Error{what + " '" + shown + "' is not a whole number", range_hint(what, lo, hi)};
    if (negative && !negative_allowed)
        return Error{what + " " + shown + " is negative: it must be " +
                         (lo == "0" ? std::string("0 or more") : "at least " + lo),
                     range_hint(what, lo, hi)};
    return negative;
}

}  // namespace

Result<int64_t> parse_integer(std::string_view text, const std::string& what, int64_t min,
                              int64_t max) {
    const std::string lo = std::to_string(min), hi = std::to_string(max);
    Result<bool> form = check_form(text, what, min < 0, lo, hi);
    if (!form) return form.error();
    const std::string shown = quote_short(text);
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc::result_out_of_range)
        return Error{what + " " + shown + " is too " + (*form ? "small" : "large") + ": the " +
                         (*form ? "least is " + lo : "most is " + hi),
                     range_hint(what, lo, hi)};
    if (ec != std::errc() || end != text.data() + text.size())
        return Error{what + " '" + shown + "' is not a whole number", range_hint(what, lo, hi)};
    if (v > max)
        return Error{what + " " + shown + " is too large: the most is " + hi,
                     range_hint(what, lo, hi)};
    if (v < min)
        return Error{what + " " + shown + " is too small: the least is " + lo,
                     range_hint(what, lo, hi)};
    return v;
}

Result<uint64_t> parse_unsigned(std::string_view text, const std::string& what, uint64_t max) {
    const std::string lo = "0", hi = std::to_string(max);
    Result<bool> form = check_form(text, what, false, lo, hi);
    if (!form) return form.error();
    const std::string shown = quote_short(text);
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc::result_out_of_range || (ec == std::errc() && v > max))
        return Error{what + " " + shown + " is too large: the most is " + hi,
                     range_hint(what, lo, hi)};
    if (ec != std::errc() || end != text.data() + text.size())
        return Error{what + " '" + shown + "' is not a whole number", range_hint(what, lo, hi)};
    return v;
}

Result<double> parse_seconds(std::string_view text, const std::string& what, double max) {
    const std::string shown = quote_short(text);
    char max_text[32];
    std::snprintf(max_text, sizeof max_text, "%g", max);
    const std::string hint =
        "give " + what + " a number of seconds more than 0 and at most " + max_text;
    if (text.empty()) return Error{what + " is empty: it needs a number of seconds", hint};
    // Digits, one sign, a point and an exponent only: strtod alone would also take "nan",
    // "inf", hexadecimal and leading spaces.
    for (char c : text)
        if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'))
            return Error{what + " '" + shown + "' is not a number of seconds", hint};
    const std::string copy(text);
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || end == copy.c_str())
        return Error{what + " '" + shown + "' is not a number of seconds", hint};
    if (copy[0] == '-' || !(v > 0)) return Error{what + " " + shown + " is not more than 0", hint};
    if (errno == ERANGE && v < 1)  // underflow: 1e-999
        return Error{what + " " + shown + " is too small", hint};
    if (!std::isfinite(v) || v > max)
        return Error{what + " " + shown + " is too large: the most is " + max_text, hint};
    return v;
}

}  // namespace sml
