// Whole numbers from the command line, read whole: "12abc", "1.5", "" and "-1" where only
// positive numbers make sense are errors, and so is a number too large for its type. The
// messages quote the text exactly as the user typed it ("--cols 99999999999999999999999 is too
// large"), never a clamped or wrapped-around value.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "common/result.h"

namespace sml {

// All of `text` as a base-10 integer in [min, max]: optional '-', then digits, nothing else.
// `what` names the value in messages, e.g. "--cols".
Result<int64_t> parse_integer(std::string_view text, const std::string& what,
                              int64_t min = std::numeric_limits<int64_t>::min(),
                              int64_t max = std::numeric_limits<int64_t>::max());

// The same for unsigned values (seeds): no sign at all, up to 2^64 - 1.
Result<uint64_t> parse_unsigned(std::string_view text, const std::string& what,
                                uint64_t max = std::numeric_limits<uint64_t>::max());

// A time limit in seconds: all of `text` a decimal number ("120", "0.5", "1e2") more than 0 and
// at most `max`. "nan", "inf", "1e999", "-1" and "0" are errors that quote the text as typed.
Result<double> parse_seconds(std::string_view text, const std::string& what, double max);

}  // namespace sml
