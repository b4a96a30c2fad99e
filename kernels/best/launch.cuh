// What best's launch units share (kernels/best/*.cu, host side): each path's planner, defined in
// the unit that holds its kernels, and the helpers they build a LaunchStep with.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/best/shapes.h"
#include "kernels/best_launch.h"
#include "kernels/best_softmax.h"
#include "kernels/launch.h"

namespace sml {
namespace best {

// One launch of a path's kernel for `c`, or *err says why not. The dtype picks the instantiation.
LaunchStep group_step(const LaunchArgs& a, const Config& c, cudaError_t* err);     // group.cu
LaunchStep cluster_step(const LaunchArgs& a, const Config& c, cudaError_t* err);   // cluster.cu
LaunchStep two_pass_step(const LaunchArgs& a, const Config& c, cudaError_t* err);  // two_pass.cu
LaunchStep grid_step(const LaunchArgs& a, const Config& c, cudaError_t* err);      // grid.cu
LaunchStep hold_step(const LaunchArgs& a, const Config& c, cudaError_t* err);      // hold.cu
LaunchStep tile_step(const LaunchArgs& a, const Config& c, cudaError_t* err);      // tile.cu

// The kernel a cluster-path configuration runs, for the occupancy calculator (cluster.cu).
const void* cluster_kernel(DType dtype, const Config& c);
// The kernel a grid configuration launches for these rows and its shared memory, for the
// occupancy calculator (grid.cu); `kernel` is nullptr where none is built for it (and for the
// held grid, which the dispatcher sizes itself).
struct GridKernel {
    const void* kernel = nullptr;
    size_t smem = 0;
};
GridKernel grid_kernel(const LaunchArgs& a, const Config& c);

// True when every row of in and out starts on a 16-byte boundary (vector loads need no slack).
bool rows_aligned(const LaunchArgs& a);  // launch.cu
// True when every output row sits at its input row's offset from 16 bytes, so the two share
// their packs' boundaries.
bool same_frames(const LaunchArgs& a);  // launch.cu
// True when the rows sit back to back in both tensors (strides equal to N) and the two tensors
// start at the same offset from 16 bytes: one flat run each, with the same pack boundaries.
bool contiguous_same_frames(const LaunchArgs& a);  // launch.cu
// The SMs of the GPU this runs on: a.limits.sm_count on a real GPU, the real GPU's where a device
// profile restricts the limits (a profile's SM count chooses paths; a cooperative grid is sized
// to, and must be resident on, the GPU that runs it).
int sms_here(const LaunchArgs& a);  // launch.cu

// An empty step for a launch the runtime refused (an attribute, an occupancy query): the
// runtime's last error is cleared, so the refusal does not surface again at the next launch's
// cudaGetLastError() as that launch's failure. The caller has the error in *err.
inline LaunchStep refused() {
    (void)cudaGetLastError();
    return {};
}

// An empty step and *err = why: a configuration this launch does not build.
inline LaunchStep rejected(cudaError_t* err, cudaError_t why) {
    *err = why;
    return {};
}

// A dtype's element type as a value a generic lambda can take (Element<float>{}, ...).
template <typename T>
struct Element {
    using type = T;
};
// Each path's launch picks its kernel's instantiation through these two: f(Element<T>{}) for
// the element type of `dtype` (float, __half, __nv_bfloat16), and f(std::integral_constant<int,
// W>{}) for a sub-warp width W of 1, 2, 4, 8, 16 or 32 lanes; otherwise() for anything else.
template <class F, class G>
auto for_dtype(DType dtype, F&& f, G&& otherwise) {
    switch (dtype) {
        case DType::f32:
            return f(Element<float>{});
        case DType::f16:
            return f(Element<__half>{});
        case DType::bf16:
            return f(Element<__nv_bfloat16>{});
    }
    return otherwise();
}
template <class F, class G>
auto for_width(int width, F&& f, G&& otherwise) {
    switch (width) {
        case 1:
            return f(std::integral_constant<int, 1>{});
        case 2:
            return f(std::integral_constant<int, 2>{});
        case 4:
            return f(std::integral_constant<int, 4>{});
        case 8:
            return f(std::integral_constant<int, 8>{});
        case 16:
            return f(std::integral_constant<int, 16>{});
        case 32:
            return f(std::integral_constant<int, 32>{});
    }
    return otherwise();
}

inline bool valid_threads(int t, int max_threads = 1024) {
    return t >= 32 && t <= max_threads && t % 32 == 0;
}

// Bytes of shared memory a stash configuration's blocks take for their stash.
inline size_t stash_bytes(const Config& c) {
    return static_cast<size_t>(c.stash) * static_cast<size_t>(c.threads) * sizeof(uint4);
}

// A LaunchStep's description of a cudaLaunchKernelEx launch (its `launch` is set by the caller).
inline LaunchStep step_for(const char* name, const void* func, const cudaLaunchConfig_t& cfg) {
    LaunchStep s;
    s.name = name;
    s.func = func;
    s.grid = cfg.gridDim;
    s.block = cfg.blockDim;
    s.dynamic_smem = cfg.dynamicSmemBytes;
    return s;
}

// Lets `kernel` launch with `smem` bytes of dynamic shared memory. Past 48 KB less the kernel's
// own static shared memory a block needs the kernel's opt-in (a stash of exactly 48 KB beside a
// few static bytes is refused without it). The opt-in asked for is the GPU's whole limit, not
// this launch's size, so planning one shape never lowers the limit another planned shape of
// the same kernel launches under. Larger than the GPU grants: the runtime's refusal.
inline cudaError_t allow_dynamic_smem(const void* kernel, size_t smem, const DeviceLimits& limits) {
    if (smem == 0) return cudaSuccess;
    cudaFuncAttributes f{};
    if (cudaError_t e = cudaFuncGetAttributes(&f, kernel); e != cudaSuccess) return e;
    const int64_t most =
        int64_t{limits.smem_per_block_optin} - static_cast<int64_t>(f.sharedSizeBytes);
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                static_cast<int>(std::max<int64_t>(most, smem)));
}

// Launches with a cluster of `cluster` blocks along x (cudaLaunchKernelEx). Clusters above 8
// blocks are "non-portable": they need an opt-in per kernel, and a GPU (or a MIG slice) may have
// no GPC that holds one -- then this returns cudaErrorInvalidClusterSize and plan_chosen
// (launch.cu) falls back.
template <typename T>
using RowKernel = void (*)(const T*, T*, int64_t, int64_t, int64_t);

// `single` (one block per row, launched plainly) runs when cluster == 1.
template <typename T>
LaunchStep make_cluster_launch(const char* name, RowKernel<T> clustered, RowKernel<T> single,
                               int threads, size_t smem, const LaunchArgs& a, int cluster,
                               cudaError_t* err) {
    const SoftmaxProblem& p = a.problem;
    const bool clusters = cluster > 1;
    RowKernel<T> kernel = clusters ? clustered : single;
    if (clusters && !a.limits.has_clusters()) {
        *err = cudaErrorNotSupported;
        return {};
    }
    *err = allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem, a.limits);
    if (*err != cudaSuccess) return refused();
    if (cluster > 8) {
        *err = cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
        if (*err != cudaSuccess) return refused();
    }
    const int64_t blocks = p.rows * cluster;
    if (blocks > 0x7fffffff) {
        *err = cudaErrorInvalidConfiguration;
        return {};
    }
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(static_cast<unsigned>(blocks));
    cfg.blockDim = dim3(threads);
    cfg.dynamicSmemBytes = smem;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = cluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = clusters ? 1 : 0;
    if (cluster > 8) {
        int fits = 0;
        *err = cudaOccupancyMaxActiveClusters(&fits, kernel, &cfg);
        if (*err != cudaSuccess) return refused();
        if (fits < 1) {
            *err = cudaErrorInvalidClusterSize;
            return {};
        }
    }
    LaunchStep s = step_for(name, reinterpret_cast<const void*>(kernel), cfg);
    const T* in = static_cast<const T*>(a.in);
    T* out = static_cast<T*>(a.out);
    s.launch = [=](cudaStream_t st) mutable {
        cfg.stream = st;
        cfg.attrs = attr;  // the copy's own attribute array
        return cudaLaunchKernelEx(&cfg, kernel, in, out, p.cols, p.in_stride, p.out_stride);
    };
    *err = cudaSuccess;
    return s;
}

}  // namespace best
}  // namespace sml
