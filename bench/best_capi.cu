// A tiny C entry point to the `best` kernel, so bench/peers.py can time it with ctypes in the
// same process, on the same tensors and with the same timing code as torch and Triton.
// Build: bash bench/build_libsmlbest.sh [OUTPUT] (nvcc, sm_90, into /tmp/libsmlbest.so).
// A configuration crosses as an array of ints whose field names the library itself reports
// (sml_best_config_fields), so peers.py keeps no list of its own.
// Launches go to the legacy default stream, which is the stream torch uses unless told otherwise.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/best_launch.h"
#include "kernels/best_softmax.h"
#include "kernels/launch.h"

namespace {

// Read once: cudaGetDeviceProperties is slow enough to show up in a timed call.
sml::DeviceLimits current_limits() {
    static const sml::DeviceLimits limits = [] {
        sml::DeviceLimits l = sml::DeviceLimits::h100_reference();
        int device = 0;
        if (cudaGetDevice(&device) == cudaSuccess) sml::query_device_limits(device, &l);
        return l;
    }();
    return limits;
}

// The last plan, reused while the call is the same: planning queries occupancy and sets function
// attributes, host work that should not sit inside the timed region on every call.
struct PlanCache {
    std::string key;
    std::vector<sml::LaunchStep> steps;
};
PlanCache& plan_cache() {
    static PlanCache cache;
    return cache;
}

sml::LaunchArgs make_args(const void* in, void* out, long long rows, long long cols, int dtype) {
    sml::LaunchArgs a;
    a.problem = sml::SoftmaxProblem::contiguous(rows, cols, static_cast<sml::DType>(dtype));
    a.in = in;
    a.out = out;
    a.limits = current_limits();
    return a;
}

// best's workspace (the grid path's slots), grown as calls need more and kept.
void* workspace(size_t bytes) {
    static void* ws = nullptr;
    static size_t size = 0;
    if (bytes > size) {
        cudaFree(ws);
        ws = nullptr;
        size = 0;
        if (cudaMalloc(&ws, bytes) != cudaSuccess) {
            (void)cudaGetLastError();
            return nullptr;  // the grid path then reports cudaErrorInvalidValue
        }
        size = bytes;
    }
    return ws;
}

int launch(const std::vector<sml::LaunchStep>& steps) {
    for (const sml::LaunchStep& s : steps)
        if (cudaError_t e = s.launch(cudaStreamLegacy); e != cudaSuccess) return e;
    return cudaGetLastError();
}

std::string cache_key(const void* in, void* out, long long rows, long long cols, int dtype,
                      const std::string& config) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%p %p %lld %lld %d ", in, out, rows, cols, dtype);
    return buf + config;
}

}  // namespace

extern "C" {

// The registry's `best`: the path it chooses by itself. Returns a cudaError_t (0 = success).
int sml_best_softmax(const void* in, void* out, long long rows, long long cols, int dtype) {
    PlanCache& cache = plan_cache();
    const std::string key = cache_key(in, out, rows, cols, dtype, "auto");
    if (cache.key != key) {
        sml::LaunchArgs a = make_args(in, out, rows, cols, dtype);
        a.workspace = workspace(sml::best::registry_workspace_bytes(a.problem, a.limits));
        cache.key.clear();
        cache.steps.clear();
        if (int e = sml::best::plan(a, &cache.steps); e != cudaSuccess) return e;
        cache.key = key;
    }
    return launch(cache.steps);
}

// The names of the fields of a configuration, in the order sml_best_softmax_with takes them:
// "path,width,packs,..." (sml::best::Config, kernels/best_softmax.h).
const char* sml_best_config_fields() {
    return sml::best::config_field_names();
}

// Writes a default configuration's values (Config{}) into values[0, count); returns the number
// of fields, or -1 (and writes nothing) when count is not that number.
int sml_best_config_defaults(int* values, int count) {
    if (count != sml::best::kConfigFieldCount) return -1;
    const sml::best::ConfigValues d = sml::best::config_values(sml::best::Config{});
    std::copy(d.begin(), d.end(), values);
    return count;
}

// Writes the configuration the registry's `best` runs for a contiguous [rows, cols] problem
// into values[0, count), in sml_best_config_fields()'s order: the dispatcher's pick, for tuning
// variants of it. Returns the number of fields, or -1 when count is not that number.
int sml_best_config_auto(long long rows, long long cols, int dtype, int* values, int count) {
    if (count != sml::best::kConfigFieldCount) return -1;
    const sml::LaunchArgs a = make_args(nullptr, nullptr, rows, cols, dtype);
    const sml::best::ConfigValues v = sml::best::config_values(sml::best::plan_config(a));
    std::copy(v.begin(), v.end(), values);
    return count;
}

// An explicit configuration, for tuning: `count` values in sml_best_config_fields()'s order
// (path 0 group, 1 cluster, 2 two-pass, 3 grid; sizes in 16-byte packs). Returns a cudaError_t
// (cudaErrorInvalidValue when count is not the number of fields).
int sml_best_softmax_with(const void* in, void* out, long long rows, long long cols, int dtype,
                          const int* values, int count) {
    if (count != sml::best::kConfigFieldCount) return cudaErrorInvalidValue;
    sml::best::ConfigValues v;
    std::copy(values, values + count, v.begin());
    const sml::best::Config c = sml::best::config_from_values(v);
    sml::LaunchArgs a = make_args(in, out, rows, cols, dtype);
    a.workspace = workspace(sml::best::workspace_bytes(a.problem, c));
    PlanCache& cache = plan_cache();
    std::string fields;  // every field, so two tuned variants never share a cached plan
    for (int x : v) fields += std::to_string(x) + " ";
    const std::string key = cache_key(in, out, rows, cols, dtype, fields);
    if (cache.key != key) {
        cache.key.clear();
        cache.steps.clear();
        if (cudaError_t e = sml::best::plan_with(a, c, &cache.steps); e != cudaSuccess) return e;
        cache.key = key;
    }
    return launch(cache.steps);
}

// Writes the configuration the registry's `best` runs for a contiguous [rows, cols] problem
// ("cluster 4 x 512 threads x 8 packs").
void sml_best_describe(long long cols, int dtype, char* buf, int len) {
    const sml::LaunchArgs a = make_args(nullptr, nullptr, 1, cols, dtype);
    std::snprintf(buf, len, "%s", sml::best::plan_config(a).describe().c_str());
}

const char* sml_error_string(int code) {
    return cudaGetErrorString(static_cast<cudaError_t>(code));
}
}
