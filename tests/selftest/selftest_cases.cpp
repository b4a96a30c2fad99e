// Cases for the test harness's self-test (tests/selftest/check_harness.cmake), never run on their
// own: one binary holding a pass, a skip for an allowed reason, a skip for another reason and a
// failure, as a real suite might.
#include <gtest/gtest.h>

TEST(HarnessSelfTest, Passes) {
    EXPECT_EQ(1 + 1, 2);
}

TEST(HarnessSelfTest, SkipsWithoutAGpu) {
    GTEST_SKIP() << "GPU test skipped: the self-test pretends there is no GPU";
}

TEST(HarnessSelfTest, SkipsForAReasonThatIsNotAllowed) {
    GTEST_SKIP() << "could not be planned";
}

TEST(HarnessSelfTest, Fails) {
    EXPECT_EQ(1 + 1, 3) << "this failure must be reported, next to the skipped case";
}
