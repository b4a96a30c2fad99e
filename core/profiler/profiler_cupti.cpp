// CounterProfiler on the CUPTI Range Profiler + Profiler Host APIs (CUDA 12.6+; the older
// Profiler API's session functions are deprecated in CUDA 13, so nothing here uses them).
//
// Every CUPTI type stays in this file. The sequence, as seen working on an H100 (GH100):
//   setup (once per device, in the constructor):
//     cuptiProfilerInitialize -> cuptiDeviceGetChipName -> cuptiProfilerGetCounterAvailability
//     -> host object (cuptiProfilerHostInitialize) -> config image from the metric names
//     -> cuptiRangeProfilerEnable on the current context
//   profile(), per range ("kernel" over all launches; with per_launch, then one per launch):
//     size + initialize a counter-data image -> SetConfig(CUPTI_UserRange, CUPTI_UserReplay)
//     -> repeat { flush L2 (caller); [launches before this one, unprofiled];
//                 Start; PushRange; launches; PopRange; Stop } until all passes are submitted
//     -> DecodeData -> name + EvaluateToGpuValues.
// With user replay CUPTI does not save or restore memory: each pass simply runs the launches
// again. Softmax writes its output from its input only, so re-running it is harmless.
//
// [SECTION] Error reasons: one line naming the cause and the fix
// [SECTION] Small helpers
// [SECTION] Impl: per-device setup and teardown
// [SECTION] Impl: one profiled range
// [SECTION] CounterProfiler
#include <cuda.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <cmath>
#include <functional>
#include <map>

#include "core/metrics/counter_errors.h"
#include "core/metrics/metric_table.h"
#include "core/measure/driver_context.h"
#include "core/profiler/profiler.h"

namespace sml {

// =============================================================================================
// [SECTION] Error reasons: one line naming the cause and the fix
// =============================================================================================
namespace {

const char* cupti_error_name(CUptiResult r) {
    const char* s = nullptr;
    if (cuptiGetResultString(r, &s) == CUPTI_SUCCESS && s) return s;
    return "CUPTI_ERROR_UNKNOWN";
}

// counter_errors.cpp maps codes to reasons without CUPTI headers; hold it to the real values.
static_assert(cupti_code::invalid_device == CUPTI_ERROR_INVALID_DEVICE);
static_assert(cupti_code::not_compatible == CUPTI_ERROR_NOT_COMPATIBLE);
static_assert(cupti_code::invalid_metric_name == CUPTI_ERROR_INVALID_METRIC_NAME);
static_assert(cupti_code::hardware_busy == CUPTI_ERROR_HARDWARE_BUSY);
static_assert(cupti_code::not_supported == CUPTI_ERROR_NOT_SUPPORTED);
static_assert(cupti_code::virtualized_device_not_supported ==
              CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED);
static_assert(cupti_code::insufficient_privileges == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES);
static_assert(cupti_code::old_profiler_api_initialized == CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED);
static_assert(cupti_code::legacy_profiler_not_supported ==
              CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED);
static_assert(cupti_code::multiple_subscribers_not_supported ==
              CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
static_assert(cupti_code::virtualized_device_insufficient_privileges ==
              CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES);
static_assert(cupti_code::confidential_computing_not_supported ==
              CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED);
static_assert(cupti_code::cmp_device_not_supported == CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED);
static_assert(cupti_code::mig_device_not_supported == CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED);
static_assert(cupti_code::sli_device_not_supported == CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED);
static_assert(cupti_code::wsl_device_not_supported == CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED);
static_assert(cupti_code::invalid_chip_name == CUPTI_ERROR_INVALID_CHIP_NAME);

bool is_environment_error(CUptiResult r) {
    return counter_error_is_permanent(int(r));
}

Message cupti_reason(CUptiResult r, const char* call) {
    return counter_error_message(int(r), cupti_error_name(r), call);
}

// The support check answers per feature; turn the first blocking one into a reason.
Message support_reason(const CUpti_Profiler_DeviceSupported_Params& p) {
    auto blocked = [](CUpti_Profiler_Support_Level l) {
        return l != CUPTI_PROFILER_CONFIGURATION_SUPPORTED &&
               l != CUPTI_PROFILER_CONFIGURATION_UNKNOWN;
    };
    if (blocked(p.architecture)) return Msg::counters_old_architecture;
    if (blocked(p.vGpu)) return Msg::counters_vgpu_not_enabled;
    if (blocked(p.confidentialCompute)) return Msg::counters_confidential_on;
    if (blocked(p.sli)) return Msg::counters_sli;
    if (blocked(p.cmp)) return Msg::counters_cmp;
    if (blocked(p.wsl)) return Msg::counters_wsl;
    return Msg::counters_device_unsupported;
}

// =============================================================================================
// [SECTION] Small helpers
// =============================================================================================

// A CUPTI call that failed: which call and which code. Empty `call` means success.
struct CuptiFailure {
    const char* call = nullptr;
    CUptiResult code = CUPTI_SUCCESS;
    explicit operator bool() const { return call != nullptr; }
};

#define SML_CUPTI_TRY(expr)                                              \
    do {                                                                 \
        CUptiResult sml_r_ = (expr);                                     \
        if (sml_r_ != CUPTI_SUCCESS) return CuptiFailure{#expr, sml_r_}; \
    } while (0)

// The first identifier of "cuptiFoo(&p)" is what an error message should name.
std::string call_name(const char* expr) {
    std::string s = expr;
    return s.substr(0, s.find('('));
}

// A runaway replay loop would hang a sweep; GH100 needs at most ~10 passes for the deep set.
constexpr int kMaxPasses = 64;

}  // namespace

// =============================================================================================
// [SECTION] Impl: per-device setup and teardown
// =============================================================================================
struct CounterProfiler::Impl {
    MetricSet set = MetricSet::standard;
    std::vector<std::string> metric_names;
    std::vector<const char*> metric_cstrs;  // points into metric_names

    bool available = false;
    Message reason_message;
    std::string reason;  // its English

    // Cached per device and context (rebuilt when the current context changes).
    bool cupti_initialized = false;
    int device = -1;
    CUcontext ctx = nullptr;
    std::string chip;
    std::vector<uint8_t> availability_image;
    CUpti_Profiler_Host_Object* host = nullptr;
    std::vector<uint8_t> config_image;
    CUpti_RangeProfiler_Object* ranges = nullptr;  // range profiler enabled on `ctx`
    std::vector<uint8_t> counter_data;

    void mark_unavailable(Message why) {
        available = false;
        reason = message_en(why);
        reason_message = std::move(why);
    }

    // Brings up everything for the current device; sets available/reason.
    void setup() {
        if (Message why = counters_disabled_by_env_message(); !why.empty()) {
            mark_unavailable(std::move(why));
            return;
        }
        if (set == MetricSet::off) {
            mark_unavailable(Msg::counters_off_use_default);
            return;
        }
        int count = 0;
        cudaError_t ce = cudaGetDeviceCount(&count);
        if (ce != cudaSuccess || count == 0) {
            (void)cudaGetLastError();
            mark_unavailable(
                Message(Msg::counters_no_device,
                        {ce != cudaSuccess ? Message(cudaGetErrorString(ce))
                                           : Message(Msg::counters_no_devices_found)}));
            return;
        }
        ce = cudaGetDevice(&device);
        if (ce == cudaSuccess) ce = cudaFree(nullptr);  // makes the primary context current
        CUcontext c = current_cuda_context();
        if (ce != cudaSuccess || !c) {
            (void)cudaGetLastError();
            mark_unavailable(Message(Msg::counters_no_context, {cudaGetErrorString(ce)}));
            return;
        }
        if (CuptiFailure f = bring_up(c)) {
            teardown();
            mark_unavailable(reason_for(f));
            return;
        }
        available = true;
        reason.clear();
        reason_message = {};
    }

    CuptiFailure check_support() {
        CUpti_Profiler_DeviceSupported_Params p{CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
        p.cuDevice = device;
        p.api = CUPTI_PROFILER_RANGE_PROFILING;
        SML_CUPTI_TRY(cuptiProfilerDeviceSupported(&p));
        if (p.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
            support_text = support_reason(p);
            return CuptiFailure{"cuptiProfilerDeviceSupported", CUPTI_ERROR_NOT_SUPPORTED};
        }
        return {};
    }
    Message support_text;  // set when check_support() refused the device

    Message reason_for(const CuptiFailure& f) const {
        if (f.code == CUPTI_ERROR_NOT_SUPPORTED && !support_text.empty()) return support_text;
        return cupti_reason(f.code, call_name(f.call).c_str());
    }

    CuptiFailure bring_up(CUcontext c) {
        if (!cupti_initialized) {
            CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
            SML_CUPTI_TRY(cuptiProfilerInitialize(&init));
            cupti_initialized = true;
        }
        if (CuptiFailure f = check_support()) return f;

        CUpti_Device_GetChipName_Params chip_p{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
        chip_p.deviceIndex = static_cast<size_t>(device);
        SML_CUPTI_TRY(cuptiDeviceGetChipName(&chip_p));
        chip = chip_p.pChipName ? chip_p.pChipName : "";

        CUpti_Profiler_GetCounterAvailability_Params avail{
            CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
        avail.ctx = c;
        SML_CUPTI_TRY(cuptiProfilerGetCounterAvailability(&avail));
        availability_image.assign(avail.counterAvailabilityImageSize, 0);
        avail.pCounterAvailabilityImage = availability_image.data();
        SML_CUPTI_TRY(cuptiProfilerGetCounterAvailability(&avail));

        CUpti_Profiler_Host_Initialize_Params hp{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
        hp.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
        hp.pChipName = chip.c_str();
        hp.pCounterAvailabilityImage = availability_image.data();
        SML_CUPTI_TRY(cuptiProfilerHostInitialize(&hp));
        host = hp.pHostObject;

        CUpti_Profiler_Host_ConfigAddMetrics_Params add{
            CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
        add.pHostObject = host;
        add.ppMetricNames = metric_cstrs.data();
        add.numMetrics = metric_cstrs.size();
        SML_CUPTI_TRY(cuptiProfilerHostConfigAddMetrics(&add));

        CUpti_Profiler_Host_GetConfigImageSize_Params sz{
            CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
        sz.pHostObject = host;
        SML_CUPTI_TRY(cuptiProfilerHostGetConfigImageSize(&sz));
        config_image.assign(sz.configImageSize, 0);
        CUpti_Profiler_Host_GetConfigImage_Params img{
            CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
        img.pHostObject = host;
        img.configImageSize = config_image.size();
        img.pConfigImage = config_image.data();
        SML_CUPTI_TRY(cuptiProfilerHostGetConfigImage(&img));

        // Enabling here (not per profile() call) makes privilege and attached-profiler errors
        // show up at construction, so available() is honest before the first run.
        CUpti_RangeProfiler_Enable_Params en{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
        en.ctx = c;
        SML_CUPTI_TRY(cuptiRangeProfilerEnable(&en));
        ranges = en.pRangeProfilerObject;
        ctx = c;
        return {};
    }

    // Safe to call at any point of a partial setup; errors are ignored because there is nothing
    // left to do about them when tearing down.
    void teardown() {
        if (ranges) {
            CUpti_RangeProfiler_Disable_Params d{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
            d.pRangeProfilerObject = ranges;
            (void)cuptiRangeProfilerDisable(&d);
            ranges = nullptr;
        }
        if (host) {
            CUpti_Profiler_Host_Deinitialize_Params d{
                CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
            d.pHostObject = host;
            (void)cuptiProfilerHostDeinitialize(&d);
            host = nullptr;
        }
        ctx = nullptr;
        config_image.clear();
        counter_data.clear();
    }

    void shutdown() {
        teardown();
        if (cupti_initialized) {
            CUpti_Profiler_DeInitialize_Params d{CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
            (void)cuptiProfilerDeInitialize(&d);
            cupti_initialized = false;
        }
    }

    // Re-targets the profiler if the caller switched device or context since setup.
    bool ensure_current_context(Message* why) {
        (void)cudaFree(nullptr);
        CUcontext c = current_cuda_context();
        if (!c) {
            *why = Msg::counters_no_current_context;
            return false;
        }
        if (c == ctx && ranges) return true;
        teardown();
        int dev = 0;
        if (cudaGetDevice(&dev) != cudaSuccess) {
            *why = Msg::counters_no_current_device;
            return false;
        }
        device = dev;
        if (CuptiFailure f = bring_up(c)) {
            teardown();
            *why = reason_for(f);
            if (is_environment_error(f.code)) mark_unavailable(*why);
            return false;
        }
        return true;
    }

    // =========================================================================================
    // [SECTION] Impl: one profiled range
    // =========================================================================================

    // Runs `body` under user replay until CUPTI has every pass, flushing L2 before each pass,
    // then decodes and evaluates each range into `out` (range name -> values).
    // `num_ranges` is how many PushRange calls `body` makes per pass.
    // `prefix` (may be empty) runs after the flush and before Start, unprofiled: it puts the
    // cache in the state the profiled launch sees in a real run.
    CuptiFailure replay(const std::function<void(cudaStream_t)>& flush_l2, cudaStream_t stream,
                        const std::function<cudaError_t()>& prefix,
                        const std::function<cudaError_t()>& body,
                        std::map<std::string, std::vector<MetricValue>>* out, int* passes,
                        cudaError_t* launch_error) {
        const size_t num_ranges = 1;  // one PushRange per pass (see profile())
        CUpti_RangeProfiler_GetCounterDataSize_Params cs{
            CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
        cs.pRangeProfilerObject = ranges;
        cs.pMetricNames = metric_cstrs.data();
        cs.numMetrics = metric_cstrs.size();
        cs.maxNumOfRanges = num_ranges;
        cs.maxNumRangeTreeNodes = static_cast<uint32_t>(num_ranges);
        SML_CUPTI_TRY(cuptiRangeProfilerGetCounterDataSize(&cs));
        counter_data.assign(cs.counterDataSize, 0);

        CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci{
            CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
        ci.pRangeProfilerObject = ranges;
        ci.counterDataSize = counter_data.size();
        ci.pCounterData = counter_data.data();
        SML_CUPTI_TRY(cuptiRangeProfilerCounterDataImageInitialize(&ci));

        CUpti_RangeProfiler_SetConfig_Params sc{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
        sc.pRangeProfilerObject = ranges;
        sc.configSize = config_image.size();
        sc.pConfig = config_image.data();
        sc.counterDataImageSize = counter_data.size();
        sc.pCounterDataImage = counter_data.data();
        sc.range = CUPTI_UserRange;
        sc.replayMode = CUPTI_UserReplay;
        sc.maxRangesPerPass = num_ranges;
        sc.numNestingLevels = 1;
        sc.minNestingLevel = 1;
        sc.passIndex = 0;
        sc.targetNestingLevel = 1;
        SML_CUPTI_TRY(cuptiRangeProfilerSetConfig(&sc));

        *passes = 0;
        bool all_submitted = false;
        while (!all_submitted && *passes < kMaxPasses) {
            // Flush outside Start/Stop, so the flush's own traffic is never counted.
            if (flush_l2) flush_l2(stream);
            if (prefix) {
                cudaError_t e = prefix();
                if (e != cudaSuccess) {
                    *launch_error = e;
                    return {};  // caller reports the launch error
                }
            }
            (void)cudaStreamSynchronize(stream);

            CUpti_RangeProfiler_Start_Params st{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
            st.pRangeProfilerObject = ranges;
            SML_CUPTI_TRY(cuptiRangeProfilerStart(&st));
            cudaError_t e = body();
            cudaError_t se = cudaStreamSynchronize(stream);
            if (e == cudaSuccess) e = se;
            if (e != cudaSuccess && *launch_error == cudaSuccess) *launch_error = e;

            CUpti_RangeProfiler_Stop_Params sp{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
            sp.pRangeProfilerObject = ranges;
            SML_CUPTI_TRY(cuptiRangeProfilerStop(&sp));
            all_submitted = sp.isAllPassSubmitted != 0;
            ++*passes;
            if (*launch_error != cudaSuccess) return {};  // caller reports the launch error
        }
        if (!all_submitted)
            return CuptiFailure{"cuptiRangeProfilerStop", CUPTI_ERROR_MAX_LIMIT_REACHED};

        CUpti_RangeProfiler_DecodeData_Params dd{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
        dd.pRangeProfilerObject = ranges;
        SML_CUPTI_TRY(cuptiRangeProfilerDecodeData(&dd));
        if (dd.numOfRangeDropped != 0)
            return CuptiFailure{"cuptiRangeProfilerDecodeData (ranges dropped)",
                                CUPTI_ERROR_MAX_LIMIT_REACHED};

        CUpti_RangeProfiler_GetCounterDataInfo_Params info{
            CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
        info.pCounterDataImage = counter_data.data();
        info.counterDataImageSize = counter_data.size();
        SML_CUPTI_TRY(cuptiRangeProfilerGetCounterDataInfo(&info));

        std::vector<double> values(metric_cstrs.size());
        for (size_t i = 0; i < info.numTotalRanges; ++i) {
            CUpti_RangeProfiler_CounterData_GetRangeInfo_Params ri{
                CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE};
            ri.pCounterDataImage = counter_data.data();
            ri.counterDataImageSize = counter_data.size();
            ri.rangeIndex = i;
            ri.rangeDelimiter = "/";
            SML_CUPTI_TRY(cuptiRangeProfilerCounterDataGetRangeInfo(&ri));
            std::string name = ri.rangeName ? ri.rangeName : "range" + std::to_string(i);

            CUpti_Profiler_Host_EvaluateToGpuValues_Params ev{
                CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
            ev.pHostObject = host;
            ev.pCounterDataImage = counter_data.data();
            ev.counterDataImageSize = counter_data.size();
            ev.rangeIndex = i;
            ev.ppMetricNames = metric_cstrs.data();
            ev.numMetrics = metric_cstrs.size();
            ev.pMetricValues = values.data();
            SML_CUPTI_TRY(cuptiProfilerHostEvaluateToGpuValues(&ev));

            std::vector<MetricValue>& dst = (*out)[name];
            dst.clear();
            for (size_t m = 0; m < metric_names.size(); ++m)
                if (std::isfinite(values[m])) dst.push_back({metric_names[m], values[m]});
        }
        return {};
    }

    // A launch failed mid-replay. The replay loop stopped before CUPTI had all its passes, and
    // the next SetConfig would resume from that half-done state (seen on GH100: the next
    // profile() came back with one pass and a third of the metrics). Re-enabling the range
    // profiler on the next call starts clean.
    MetricsRecord launch_failed(MetricsRecord* r, cudaError_t e) {
        teardown();
        r->available = false;
        r->values.clear();
        r->per_launch.clear();
        r->set_reason(Message(Msg::counters_launch_failed, {cudaGetErrorString(e)}));
        return *r;
    }

    // A CUPTI failure inside profile(): the record says why, and errors that will repeat turn
    // the profiler off so the rest of a sweep does not pay for them again.
    void fail(MetricsRecord* r, const CuptiFailure& f) {
        r->available = false;
        r->values.clear();
        r->per_launch.clear();
        r->set_reason(reason_for(f));
        teardown();  // the next call re-enables from scratch rather than from a half-done replay
        if (is_environment_error(f.code)) mark_unavailable(r->reason_message);
    }
};

#undef SML_CUPTI_TRY

// =============================================================================================
// [SECTION] CounterProfiler
// =============================================================================================
CounterProfiler::CounterProfiler(MetricSet set) : impl_(std::make_unique<Impl>()) {
    impl_->set = set;
    impl_->metric_names = metric_names_in_set(set);
    for (const std::string& n : impl_->metric_names) impl_->metric_cstrs.push_back(n.c_str());
    impl_->setup();
}

CounterProfiler::~CounterProfiler() {
    impl_->shutdown();
}

bool CounterProfiler::available() const {
    return impl_->available;
}
const std::string& CounterProfiler::unavailable_reason() const {
    return impl_->reason;
}
const Message& CounterProfiler::unavailable_message() const {
    return impl_->reason_message;
}

MetricsRecord CounterProfiler::profile(const std::vector<NamedLaunch>& launches,
                                       const std::function<void(cudaStream_t)>& flush_l2,
                                       cudaStream_t stream, bool per_launch) {
    Impl& im = *impl_;
    MetricsRecord r;
    r.set = metric_set_name(im.set);
    if (!im.available) {
        r.set_reason(im.reason_message);
        return r;
    }
    if (launches.empty()) {
        r.set_reason(Msg::counters_nothing_to_profile);
        return r;
    }
    Message why;
    if (!im.ensure_current_context(&why)) {
        r.set_reason(why);
        return r;
    }

    cudaError_t launch_error = cudaSuccess;
    auto launch_range = [&](const char* name, size_t first, size_t last) -> cudaError_t {
        CUpti_RangeProfiler_PushRange_Params push{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
        push.pRangeProfilerObject = im.ranges;
        push.pRangeName = name;
        if (cuptiRangeProfilerPushRange(&push) != CUPTI_SUCCESS) return cudaErrorUnknown;
        cudaError_t e = cudaSuccess;
        for (size_t i = first; i < last && e == cudaSuccess; ++i) e = launches[i].launch(stream);
        if (e == cudaSuccess) e = cudaGetLastError();
        CUpti_RangeProfiler_PopRange_Params pop{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
        pop.pRangeProfilerObject = im.ranges;
        (void)cuptiRangeProfilerPopRange(&pop);  // always balance the push
        return e;
    };

    // 1) The whole kernel, all launches in one range: what the lesson's formula predicts.
    std::map<std::string, std::vector<MetricValue>> whole;
    auto all = [&] { return launch_range("kernel", 0, launches.size()); };
    if (CuptiFailure f =
            im.replay(flush_l2, stream, nullptr, all, &whole, &r.passes, &launch_error)) {
        im.fail(&r, f);
        return r;
    }
    if (launch_error != cudaSuccess) return im.launch_failed(&r, launch_error);
    if (whole.count("kernel")) r.values = whole["kernel"];

    // 2) Each launch as its own range. Launch k gets replay passes of its own, each one
    //    flushing, running launches 0..k-1 unprofiled and then launch k in the range, so it sees
    //    exactly the cache state it sees in a real run (including write-backs of what the
    //    earlier launches left dirty). One range per pass keeps to the path checked on GH100:
    //    five ranges pushed in one pass came back as two.
    if (per_launch && launches.size() > 1) {
        for (size_t k = 0; k < launches.size(); ++k) {
            auto prefix = [&, k]() -> cudaError_t {
                for (size_t i = 0; i < k; ++i)
                    if (cudaError_t e = launches[i].launch(stream); e != cudaSuccess) return e;
                return cudaGetLastError();
            };
            auto one = [&, k] { return launch_range(launches[k].name.c_str(), k, k + 1); };
            std::map<std::string, std::vector<MetricValue>> got;
            int passes = 0;
            if (CuptiFailure f =
                    im.replay(flush_l2, stream, prefix, one, &got, &passes, &launch_error)) {
                im.fail(&r, f);
                return r;
            }
            if (launch_error != cudaSuccess) return im.launch_failed(&r, launch_error);
            if (got.count(launches[k].name)) r.per_launch[launches[k].name] = got[launches[k].name];
        }
    }
    r.available = !r.values.empty();
    if (!r.available) r.set_reason(Msg::counters_no_values);
    return r;
}

}  // namespace sml
