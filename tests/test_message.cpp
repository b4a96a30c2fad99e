// Filling a template's {0}, {1}, ... (common/message.h): one pass, the one routine that the core's
// sentences, the viewer's ui_format and best's describe() all go through.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/message.h"

namespace sml {
namespace {

TEST(FillSlots, FillsEachSlotWithItsPart) {
    EXPECT_EQ(fill_slots("{0} of {1}", {"a", "b"}), "a of b");
    EXPECT_EQ(fill_slots("{1}, {0}, {1}", {"a", "b"}), "b, a, b");  // in any order, or twice
    EXPECT_EQ(fill_slots("none", {"a"}), "none");                   // a part left out
    EXPECT_EQ(fill_slots("{0}{1}", {"", "x"}), "x");
    std::vector<std::string> eleven(11, "-");
    eleven[10] = "ten";
    EXPECT_EQ(fill_slots("{10}", eleven), "ten");  // two digits
}

// A part is not read again: its own "{1}" stays, whatever part 1 is.
TEST(FillSlots, APartIsNotFilledAgain) {
    EXPECT_EQ(fill_slots("{0} and {1}", {"{1}", "b"}), "{1} and b");
    EXPECT_EQ(fill_slots("{0}", {"{0}"}), "{0}");
    EXPECT_EQ(fill_slots("{1} {0}", {"x", "{0}"}), "{0} x");
}

// What is not a slot of a part stays as it is: a slot past the parts, three digits, no digits.
TEST(FillSlots, WhatIsNotASlotStays) {
    EXPECT_EQ(fill_slots("{0} {1} {2}", {"a"}), "a {1} {2}");
    EXPECT_EQ(fill_slots("{100} {} {x} {0", {"a"}), "{100} {} {x} {0");
    EXPECT_EQ(fill_slots("{{0}}", {"a"}), "{a}");
    EXPECT_EQ(fill_slots("", {"a"}), "");
}

// The core's sentences fill the same way, each part rendered in turn.
TEST(FillSlots, SentencesFillInOnePass) {
    EXPECT_EQ(message_en(Message(Msg::cols_range, {"{1}", "9", "3"})), "N = {1}..9 (3 values)");
    EXPECT_EQ(message_en(Message(Msg::cols_range, {"1"})), "N = 1..{1} ({2} values)");
    // A part that is a sentence of its own.
    EXPECT_EQ(message_en(Message(Msg::compare_no_points, {Message(Msg::cols_one, {"{0}"})})),
              "the compared session (N = {0}) has no measured points");
}

}  // namespace
}  // namespace sml
