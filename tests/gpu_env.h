// Shared by every GPU test: skip, with a printed reason, when there is no usable CUDA device.
// A skipped GPU test is reported by ctest as "Skipped", never as a silent pass.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>

namespace sml::test {

// Empty string when a device is usable; otherwise why not.
inline std::string gpu_unavailable_reason() {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return std::string("no usable CUDA device (") + cudaGetErrorString(e) + ")";
    }
    if (n == 0) return "no CUDA device found";
    return "";
}

}  // namespace sml::test

#define SML_REQUIRE_GPU()                                                \
    do {                                                                 \
        std::string why_ = ::sml::test::gpu_unavailable_reason();        \
        if (!why_.empty()) GTEST_SKIP() << "GPU test skipped: " << why_; \
    } while (0)
