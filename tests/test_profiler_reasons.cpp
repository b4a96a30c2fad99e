// The one-line reasons the CLI prints when counters cannot be read: each names the cause and
// the fix the issue asks for, and the errors that will repeat are the ones treated as permanent.
#include <gtest/gtest.h>

#include <string>

#include "core/metrics/counter_errors.h"

namespace sml {
namespace {

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

TEST(CounterErrors, PrivilegesPointAtTheDriverOption) {
    std::string r =
        counter_error_reason(cupti_code::insufficient_privileges,
                             "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES", "cuptiRangeProfilerEnable");
    EXPECT_TRUE(contains(r, "NVreg_RestrictProfilingToAdminUsers=0")) << r;
    EXPECT_TRUE(contains(r, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES")) << r;
    EXPECT_TRUE(contains(r, "cuptiRangeProfilerEnable")) << r;
}

TEST(CounterErrors, AnotherProfilerAttachedNamesTheToolsAndTheFix) {
    std::string r = counter_error_reason(cupti_code::multiple_subscribers_not_supported, "E39",
                                         "cuptiProfilerInitialize");
    for (const char* tool : {"ncu", "nsys", "compute-sanitizer", "cuda-gdb"})
        EXPECT_TRUE(contains(r, tool)) << r;
    EXPECT_TRUE(contains(r, "run without it")) << r;
}

TEST(CounterErrors, MigAndVgpuAreNamed) {
    EXPECT_TRUE(
        contains(counter_error_reason(cupti_code::mig_device_not_supported, "x", "y"), "MIG"));
    EXPECT_TRUE(contains(
        counter_error_reason(cupti_code::virtualized_device_not_supported, "x", "y"), "vGPU"));
    EXPECT_TRUE(contains(
        counter_error_reason(cupti_code::virtualized_device_insufficient_privileges, "x", "y"),
        "vGPU"));
}

TEST(CounterErrors, OldToolkitSaysToRebuildWithANewerOne) {
    std::string r = counter_error_reason(cupti_code::invalid_chip_name, "x", "y");
    EXPECT_TRUE(contains(r, "too old")) << r;
    EXPECT_TRUE(contains(r, "CUDA toolkit")) << r;
}

TEST(CounterErrors, EveryReasonIsOneLineWithAFix) {
    for (int code = 1; code <= 50; ++code) {
        std::string r = counter_error_reason(code, "CODE", "call");
        EXPECT_EQ(r.find('\n'), std::string::npos) << code;
        // "cause (code from call): fix" or "cause (...); fix": the fix follows the tag.
        const size_t tag = r.find("(CODE from call)");
        ASSERT_NE(tag, std::string::npos) << r;
        EXPECT_GT(r.size(), tag + 30) << "no fix after the cause: " << r;
    }
}

TEST(CounterErrors, MachineLevelErrorsArePermanentAndOthersAreNot) {
    EXPECT_TRUE(counter_error_is_permanent(cupti_code::insufficient_privileges));
    EXPECT_TRUE(counter_error_is_permanent(cupti_code::multiple_subscribers_not_supported));
    EXPECT_TRUE(counter_error_is_permanent(cupti_code::mig_device_not_supported));
    EXPECT_TRUE(counter_error_is_permanent(cupti_code::virtualized_device_not_supported));
    // A bad metric name or an unknown hiccup may be fixed by the next call or a code change.
    EXPECT_FALSE(counter_error_is_permanent(cupti_code::invalid_metric_name));
    EXPECT_FALSE(counter_error_is_permanent(999));
}

}  // namespace
}  // namespace sml
