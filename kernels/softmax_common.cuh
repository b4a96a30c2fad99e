// Host plumbing shared by the kernel files: sizes, grids and launch steps. The device half (the
// two block reductions) is in softmax_device.cuh, which NVRTC can compile; this half is host C++
// and CUDA runtime calls, so kernel files include it only outside NVRTC (#ifndef __CUDACC_RTC__).
// Only .cu files include this header (it uses <<<>>>).
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "kernels/kernel_shapes.h"
#include "kernels/launch.h"
#include "kernels/softmax_device.cuh"

namespace sml::detail {

// ---------------------------------------------------------------------------------------------
// Host-side sizes.
using shapes::ceil_div;
using shapes::next_pow2;

// The limits a plan should size its grid with. Callers normally pass the launch device's limits;
// when they left them empty (sm_count == 0) we read the current device rather than guess.
inline DeviceLimits effective_limits(const DeviceLimits& given) {
    if (given.sm_count > 0) return given;
    DeviceLimits d = given;
    int dev = 0;
    if (cudaGetDevice(&dev) == cudaSuccess && query_device_limits(dev, &d)) return d;
    (void)cudaGetLastError();
    return DeviceLimits::h100_reference();
}

// Persistent grid: as many blocks as can be resident at once (occupancy API x SMs), but never
// more than there is work. Blocks then grid-stride over rows, so the launch size no longer grows
// with M (the Triton tutorial's "persistent" pattern, used by every kernel here but naive).
inline unsigned persistent_grid(const void* func, int threads, size_t dynamic_smem,
                                const DeviceLimits& lim, int64_t work_items) {
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, func, threads, dynamic_smem) !=
            cudaSuccess ||
        per_sm < 1) {
        (void)cudaGetLastError();
        per_sm = 1;
    }
    const int64_t resident = static_cast<int64_t>(per_sm) * (lim.sm_count > 0 ? lim.sm_count : 1);
    const int64_t grid = work_items < resident ? work_items : resident;
    return static_cast<unsigned>(grid < 1 ? 1 : grid);
}

// A LaunchStep that enqueues `kernel<<<grid, block, smem, stream>>>(args...)`. It also keeps the
// arguments, converted to the kernel's parameter types, so that `launch_as` can enqueue the same
// launch of another function with those exact bytes (the lab bench's edited kernels).
template <class... KArgs, class... Args>
LaunchStep make_step(std::string name, void (*kernel)(KArgs...), dim3 grid, dim3 block, size_t smem,
                     Args... args) {
    LaunchStep s;
    s.name = std::move(name);
    s.func = reinterpret_cast<const void*>(kernel);
    s.grid = grid;
    s.block = block;
    s.dynamic_smem = smem;
    s.launch = [=](cudaStream_t stream) {
        kernel<<<grid, block, smem, stream>>>(args...);
        return cudaGetLastError();
    };
    const std::tuple<std::decay_t<KArgs>...> params(args...);
    s.launch_as = [params](const void* func, dim3 g, dim3 b, size_t bytes, cudaStream_t stream) {
        return std::apply(
            [&](const auto&... p) {
                void* argv[] = {const_cast<void*>(static_cast<const void*>(&p))..., nullptr};
                return cudaLaunchKernel(func, g, b, argv, bytes, stream);
            },
            params);
    };
    return s;
}

// True when float4 (16-byte) accesses are legal for every row: 16-byte aligned base pointers,
// strides and N multiples of 4 elements.
inline bool float4_ok(const SoftmaxProblem& p, const void* in, const void* out) {
    return p.cols % 4 == 0 && p.in_stride % 4 == 0 && p.out_stride % 4 == 0 &&
           reinterpret_cast<uintptr_t>(in) % 16 == 0 && reinterpret_cast<uintptr_t>(out) % 16 == 0;
}

}  // namespace sml::detail
