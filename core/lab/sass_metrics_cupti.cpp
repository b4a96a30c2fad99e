// SassMetricsCollector on CUPTI. Every CUPTI type stays in this file.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_profiler_target.h>
#include <cupti_result.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include <cstdlib>
#include <map>
#include <sstream>

#include "core/measure/driver_context.h"
#include "core/lab/sass_metrics.h"
#include "core/lab/sass_roles.h"
#include "core/metrics/counter_errors.h"

namespace sml::lab {
namespace {

const char* result_name(CUptiResult r) {
    const char* s = nullptr;
    if (cuptiGetResultString(r, &s) == CUPTI_SUCCESS && s) return s;
    return "CUPTI_ERROR_UNKNOWN";
}

Error cupti_error(CUptiResult r, const std::string& call) {
    return Error{"per-line counters unavailable: " +
                     counter_error_reason(int(r), result_name(r), call.c_str()),
                 "the run's timing and whole-kernel counters are unaffected"};
}

#define SML_SASS_TRY(expr)                                              \
    do {                                                                \
        CUptiResult sml_r_ = (expr);                                    \
        if (sml_r_ != CUPTI_SUCCESS) return cupti_error(sml_r_, #expr); \
    } while (0)

Status init_profiler(int device) {
    CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    SML_SASS_TRY(cuptiProfilerInitialize(&init));
    CUpti_Profiler_DeviceSupported_Params sup{CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
    sup.cuDevice = device;
    sup.api = CUPTI_PROFILER_SASS_METRICS;
    SML_SASS_TRY(cuptiProfilerDeviceSupported(&sup));
    if (sup.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return Error{
            "per-line counters unavailable: this GPU or its setup does not support "
            "CUPTI SASS metrics (vGPU, MIG, confidential computing or an old GPU)",
            "the run's timing and whole-kernel counters are unaffected"};
    return ok_status();
}

Result<std::string> chip_name(int device) {
    CUpti_Device_GetChipName_Params p{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    p.deviceIndex = size_t(device);
    SML_SASS_TRY(cuptiDeviceGetChipName(&p));
    return std::string(p.pChipName ? p.pChipName : "");
}

// $SML_SASS_METRICS="role=name,role=name".
std::map<std::string, std::string> env_overrides() {
    std::map<std::string, std::string> out;
    const char* v = std::getenv("SML_SASS_METRICS");
    if (!v) return out;
    std::stringstream in(v);
    for (std::string item; std::getline(in, item, ',');) {
        const size_t eq = item.find('=');
        if (eq != std::string::npos) out[item.substr(0, eq)] = item.substr(eq + 1);
    }
    return out;
}

}  // namespace

Result<std::vector<SassMetricInfo>> list_sass_metrics(int device, std::string* chip) {
    if (cudaError_t e = cudaFree(nullptr); e != cudaSuccess)
        return Error{std::string("no CUDA device: ") + cudaGetErrorString(e),
                     "SASS metrics need a GPU"};
    if (Status s = init_profiler(device); !s) return s.error();
    Result<std::string> name = chip_name(device);
    if (!name) return name.error();
    if (chip) *chip = *name;
    CUpti_SassMetrics_GetNumOfMetrics_Params n{
        CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE};
    n.pChipName = name->c_str();
    SML_SASS_TRY(cuptiSassMetricsGetNumOfMetrics(&n));
    std::vector<CUpti_SassMetrics_MetricDetails> details(n.numOfMetrics);
    CUpti_SassMetrics_GetMetrics_Params g{CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE};
    g.pChipName = name->c_str();
    g.numOfMetrics = details.size();
    g.pMetricsList = details.data();
    SML_SASS_TRY(cuptiSassMetricsGetMetrics(&g));
    std::vector<SassMetricInfo> out;
    for (const auto& d : details)
        out.push_back(SassMetricInfo{d.pMetricName ? d.pMetricName : "",
                                     d.pMetricDescription ? d.pMetricDescription : ""});
    return out;
}

struct SassMetricsCollector::Impl {
    int device = 0;
    CUcontext ctx = nullptr;
    std::string chip;
    std::map<std::string, std::string> names;  // role -> metric
    std::map<uint64_t, std::string> role_of;   // metric id -> role
    std::vector<std::string> missing;
    bool configured = false, enabled = false;
};

SassMetricsCollector::SassMetricsCollector() : impl_(new Impl) {}

SassMetricsCollector::~SassMetricsCollector() {
    if (impl_->enabled) (void)disable();
    if (impl_->configured) {
        CUpti_SassMetricsUnsetConfig_Params u{CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE};
        u.deviceIndex = uint32_t(impl_->device);
        (void)cuptiSassMetricsUnsetConfig(&u);
    }
}

Result<std::unique_ptr<SassMetricsCollector>> SassMetricsCollector::create(int device) {
    std::string chip;
    Result<std::vector<SassMetricInfo>> all = list_sass_metrics(device, &chip);
    if (!all) return all.error();
    std::vector<std::string> available;
    for (const SassMetricInfo& m : *all) available.push_back(m.name);
    std::unique_ptr<SassMetricsCollector> c(new SassMetricsCollector());
    Impl& im = *c->impl_;
    im.device = device;
    im.chip = chip;
    im.ctx = current_cuda_context();
    if (!im.ctx)
        return Error{"per-line counters unavailable: no current CUDA context",
                     "make a CUDA runtime call on this thread first"};
    const std::map<std::string, std::string> forced = env_overrides();
    std::vector<CUpti_SassMetrics_Config> configs;
    for (const SassRole& r : sass_roles()) {
        if (r.derived) continue;
        auto f = forced.find(r.role);
        const std::string name = f != forced.end() ? f->second : pick_sass_metric(r, available);
        if (name.empty()) {
            im.missing.push_back(r.role);
            continue;
        }
        CUpti_SassMetrics_GetProperties_Params p{
            CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
        p.pChipName = chip.c_str();
        p.pMetricName = name.c_str();
        if (CUptiResult rr = cuptiSassMetricsGetProperties(&p); rr != CUPTI_SUCCESS) {
            im.missing.push_back(r.role);
            continue;
        }
        im.names[r.role] = name;
        im.role_of[p.metric.metricId] = r.role;
        configs.push_back(
            CUpti_SassMetrics_Config{p.metric.metricId, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU});
    }
    if (configs.empty())
        return Error{"per-line counters unavailable: chip " + chip +
                         " lists none of the SASS metrics softmaxlab knows",
                     "list them with `softmaxlab-cli lab sass-metrics` and name them in "
                     "SML_SASS_METRICS=role=name,..."};
    CUpti_SassMetricsSetConfig_Params s{CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
    s.pConfigs = configs.data();
    s.numOfMetricConfig = configs.size();
    s.deviceIndex = uint32_t(device);
    SML_SASS_TRY(cuptiSassMetricsSetConfig(&s));
    im.configured = true;
    return c;
}

Status SassMetricsCollector::enable() {
    CUpti_SassMetricsEnable_Params e{CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
    e.ctx = impl_->ctx;
    e.enableLazyPatching = 1;  // patch each kernel at its first launch in the range
    SML_SASS_TRY(cuptiSassMetricsEnable(&e));
    impl_->enabled = true;
    return ok_status();
}

Result<std::vector<SassRecord>> SassMetricsCollector::flush() {
    CUpti_SassMetricsGetDataProperties_Params p{
        CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
    p.ctx = impl_->ctx;
    SML_SASS_TRY(cuptiSassMetricsGetDataProperties(&p));
    std::vector<SassRecord> out;
    if (p.numOfPatchedInstructionRecords == 0 || p.numOfInstances == 0) return out;
    std::vector<CUpti_SassMetrics_Data> data(p.numOfPatchedInstructionRecords);
    std::vector<CUpti_SassMetrics_InstanceValue> values(p.numOfPatchedInstructionRecords *
                                                        p.numOfInstances);
    for (size_t i = 0; i < data.size(); ++i) {
        data[i] = CUpti_SassMetrics_Data{};
        data[i].structSize = sizeof(CUpti_SassMetrics_Data);
        data[i].pInstanceValues = values.data() + i * p.numOfInstances;
    }
    CUpti_SassMetricsFlushData_Params f{CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
    f.ctx = impl_->ctx;
    f.numOfPatchedInstructionRecords = data.size();
    f.numOfInstances = p.numOfInstances;
    f.pMetricsData = data.data();
    SML_SASS_TRY(cuptiSassMetricsFlushData(&f));
    // A record may carry one metric or several; merge by instruction and sum the instances.
    std::map<std::tuple<uint32_t, std::string, uint32_t>, size_t> index;
    for (const CUpti_SassMetrics_Data& d : data) {
        const std::string fn = d.functionName ? d.functionName : "";
        auto key = std::make_tuple(d.cubinCrc, fn, d.pcOffset);
        auto it = index.find(key);
        if (it == index.end()) {
            it = index.emplace(key, out.size()).first;
            out.push_back(SassRecord{d.cubinCrc, fn, d.pcOffset, {}});
        }
        SassRecord& rec = out[it->second];
        for (size_t k = 0; k < p.numOfInstances; ++k) {
            const CUpti_SassMetrics_InstanceValue& v = d.pInstanceValues[k];
            auto role = impl_->role_of.find(v.metricId);
            if (role != impl_->role_of.end()) rec.values[role->second] += double(v.value);
        }
        std::free(const_cast<char*>(d.functionName));  // CUPTI allocates it for us
    }
    return out;
}

Status SassMetricsCollector::disable() {
    if (!impl_->enabled) return ok_status();
    CUpti_SassMetricsDisable_Params d{CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
    d.ctx = impl_->ctx;
    impl_->enabled = false;
    SML_SASS_TRY(cuptiSassMetricsDisable(&d));
    return ok_status();
}

const std::string& SassMetricsCollector::chip() const {
    return impl_->chip;
}
const std::map<std::string, std::string>& SassMetricsCollector::metric_names() const {
    return impl_->names;
}
std::vector<std::string> SassMetricsCollector::missing_roles() const {
    return impl_->missing;
}

}  // namespace sml::lab
