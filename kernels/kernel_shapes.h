// Launch shapes that a kernel's plan (kernels/<id>_softmax.cu) and its registry entry (its N
// range and traffic model, kernels/registry.cpp) both depend on, written once. No CUDA here.
//
// The kernels' device code uses the constants too, and NVRTC (the lab bench, core/lab) compiles
// it with no host standard library: the host-only helpers sit in #ifndef __CUDACC_RTC__ blocks.
#pragma once

#ifndef __CUDACC_RTC__  // host headers: NVRTC has none, and the constants need none
#include <algorithm>
#include <cstdint>
#endif

namespace sml::shapes {

#ifndef __CUDACC_RTC__  // host-side sizes (the plans and the registry)
inline int64_t ceil_div(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}
inline int64_t next_pow2(int64_t n) {
    int64_t p = 1;
    while (p < n) p <<= 1;
    return p;
}
#endif

// naive: every launch uses blocks of 256 threads.
inline constexpr int kNaiveThreads = 256;

// fused: the Triton tutorial's num_warps = 8, and BLOCK = next_pow2(N) up to 16384 floats
// (64 register-held floats per thread).
inline constexpr int kFusedWarps = 8;
inline constexpr int kFusedThreads = kFusedWarps * 32;
inline constexpr int64_t kFusedMaxBlock = 16384;

// warp: 32 lanes x 32 floats a lane; blocks of 4 warps.
inline constexpr int kWarpThreads = 128;
inline constexpr int64_t kWarpMaxCols = 1024;

// block: 512 threads x 32 floats a thread.
inline constexpr int kBlockThreads = 512;
inline constexpr int kBlockValsPerThread = 32;
inline constexpr int64_t kBlockMaxCols = int64_t{kBlockThreads} * kBlockValsPerThread;  // 16384

// smem: 512 threads; the two block reductions' static shared memory is kept out of the row.
inline constexpr int kSmemThreads = 512;
inline constexpr int kSmemScratchBytes = 512;
#ifndef __CUDACC_RTC__
// The longest fp32 row a block's opt-in shared memory holds.
inline int64_t smem_max_cols(int smem_per_block_optin) {
    return std::max<int64_t>(0, (int64_t{smem_per_block_optin} - kSmemScratchBytes) / 4);
}
#endif

// online: about four bundles (16-byte packs, or single values) a thread, 32 to 512 threads.
inline constexpr int kOnlineMaxThreads = 512;
#ifndef __CUDACC_RTC__
inline int online_threads(int64_t cols, int vec) {
    const int64_t bundles = ceil_div(cols, vec);
    return int(std::clamp<int64_t>(next_pow2(ceil_div(bundles, 4)), 32, kOnlineMaxThreads));
}
#endif

// online_tiled: TILE x TILE = 1024 threads, 32 rows x 32 columns a step.
inline constexpr int kTile = 32;

}  // namespace sml::shapes
