// The CUPTI-off path: when counters cannot be read, the profiler says why in one line and every
// profile() call still returns a complete, clearly labelled record (the run goes on with timing
// and predicted traffic). Forced here with SML_DISABLE_CUPTI=1, so it runs on CI without a GPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "core/metrics/counter_errors.h"
#include "core/profiler/profiler.h"

namespace sml {
namespace {

// Sets an environment variable for one test and restores the old value afterwards.
class ScopedEnv {
  public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old, had_ = true;
        setenv(name, value, 1);
    }
    ~ScopedEnv() {
        if (had_)
            setenv(name_.c_str(), old_.c_str(), 1);
        else
            unsetenv(name_.c_str());
    }

  private:
    std::string name_, old_;
    bool had_ = false;
};

std::vector<NamedLaunch> one_launch(int* calls) {
    return {NamedLaunch{"kernel", [calls](cudaStream_t) {
                            ++*calls;
                            return cudaSuccess;
                        }}};
}

TEST(ProfilerFallback, EnvVarDisablesCountersWithAReasonNamingIt) {
    ScopedEnv env("SML_DISABLE_CUPTI", "1");
    CounterProfiler p(MetricSet::standard);
    EXPECT_FALSE(p.available());
    EXPECT_NE(p.unavailable_reason().find("SML_DISABLE_CUPTI=1"), std::string::npos)
        << p.unavailable_reason();
}

TEST(ProfilerFallback, EnvReasonIsSharedAndExact) {
    // One helper serves the CUPTI and the CUPTI-free build, so the line is the same in both.
    const std::string expected =
        "hardware counters disabled by SML_DISABLE_CUPTI=yes; unset it to collect them";
    {
        ScopedEnv env("SML_DISABLE_CUPTI", "yes");
        EXPECT_EQ(counters_disabled_by_env_reason(), expected);
        EXPECT_EQ(CounterProfiler(MetricSet::off).unavailable_reason(), expected)
            << "the variable takes precedence over --metrics off";
    }
    for (const char* v : {"", "0"}) {
        ScopedEnv env("SML_DISABLE_CUPTI", v);
        EXPECT_EQ(counters_disabled_by_env_reason(), "") << "value '" << v << "'";
    }
}

TEST(ProfilerFallback, ProfileReturnsALabelledRecordAndLaunchesNothing) {
    ScopedEnv env("SML_DISABLE_CUPTI", "1");
    for (MetricSet set : {MetricSet::standard, MetricSet::deep}) {
        CounterProfiler p(set);
        int calls = 0, flushes = 0;
        MetricsRecord r = p.profile(
            one_launch(&calls), [&flushes](cudaStream_t) { ++flushes; }, nullptr, true);
        EXPECT_FALSE(r.available);
        EXPECT_EQ(r.reason, p.unavailable_reason());
        EXPECT_FALSE(r.reason.empty());
        EXPECT_EQ(r.set, metric_set_name(set));
        EXPECT_TRUE(r.values.empty());
        EXPECT_TRUE(r.per_launch.empty());
        EXPECT_EQ(r.passes, 0);
        EXPECT_EQ(calls, 0) << "an unavailable profiler must not replay the kernel";
        EXPECT_EQ(flushes, 0);
    }
}

TEST(ProfilerFallback, ZeroMeansNotDisabled) {
    // SML_DISABLE_CUPTI=0 must not disable; whatever happens next depends on the machine, but the
    // reason, if any, is never the env var.
    ScopedEnv env("SML_DISABLE_CUPTI", "0");
    CounterProfiler p(MetricSet::standard);
    if (!p.available()) {
        EXPECT_EQ(p.unavailable_reason().find("SML_DISABLE_CUPTI"), std::string::npos)
            << p.unavailable_reason();
        EXPECT_FALSE(p.unavailable_reason().empty());
    }
}

TEST(ProfilerFallback, MetricsOffIsUnavailableWithTheFlagInTheReason) {
    CounterProfiler p(MetricSet::off);
    EXPECT_FALSE(p.available());
    EXPECT_NE(p.unavailable_reason().find("off"), std::string::npos) << p.unavailable_reason();
    int calls = 0;
    MetricsRecord r = p.profile(one_launch(&calls), nullptr, nullptr, false);
    EXPECT_FALSE(r.available);
    EXPECT_EQ(r.set, "off");
    EXPECT_EQ(calls, 0);
}

// Without a GPU (CI) the reason must say so and point at the fix, not at CUPTI internals.
TEST(ProfilerFallback, NoDeviceGivesAReasonWithAFix) {
    // tests/CMakeLists.txt runs this suite with CUDA_VISIBLE_DEVICES empty, also on a GPU machine.
    int n = 0;
    ASSERT_FALSE(cudaGetDeviceCount(&n) == cudaSuccess && n > 0)
        << "a CUDA device is visible; this test checks the no-device path";
    (void)cudaGetLastError();
    CounterProfiler p(MetricSet::standard);
    EXPECT_FALSE(p.available());
    const std::string& why = p.unavailable_reason();
    EXPECT_TRUE(why.find("no CUDA device") != std::string::npos ||
                why.find("without CUPTI") != std::string::npos)
        << why;
}

TEST(MetricSetNames, ParseAndNameRoundTrip) {
    for (MetricSet s : {MetricSet::off, MetricSet::standard, MetricSet::deep}) {
        MetricSet back = MetricSet::deep;
        ASSERT_TRUE(parse_metric_set(metric_set_name(s), &back)) << metric_set_name(s);
        EXPECT_EQ(back, s);
    }
    MetricSet out = MetricSet::off;
    EXPECT_FALSE(parse_metric_set("everything", &out));
    EXPECT_EQ(out, MetricSet::off) << "a failed parse leaves the value alone";
}

}  // namespace
}  // namespace sml
