// best's memory side: 16-byte packs held raw in registers, loaded and stored whole wherever a row
// allows, and copied from global to shared memory without passing through registers.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "kernels/element_io.cuh"

namespace sml {
namespace best {

constexpr float kNegInf = -__builtin_huge_valf();

// @region element-io: 16-byte packs held raw in registers; fp32 compute for every dtype
// A pack is 4 fp32 or 8 fp16/bf16 values as they sit in memory. Registers hold packs raw (a
// uint4), so a thread keeps as many *bytes* of an fp16 row in flight as of an fp32 one; values
// are widened to fp32 only when used. (Widened on load, fp16 rows would take twice the registers
// per byte, and a memory-bound kernel needs bytes in flight.) to_float / from_float, the only
// dtype-specific code, come from kernels/element_io.cuh.
template <typename T>
struct Vec {
    static constexpr int kSize = 16 / sizeof(T);  // elements per 16-byte pack
};

// Elements between the 16-byte boundary below `p` and `p`: the row's offset in its aligned frame.
template <typename T>
__device__ __forceinline__ int frame_head(const T* p) {
    return static_cast<int>((reinterpret_cast<uintptr_t>(p) & 15u) / sizeof(T));
}

// How a 16-byte pack is read. PlainLoad: the row is read once (the on-chip kernels). The two-pass
// kernel reads each slice twice and tells L2 so (LoadPolicy): its first read marks the lines
// evict_last, its second evict_first, so lines still to be re-read outlive the output streaming
// past them. Plain loads measured faster than ld.global.cs (which marks lines evict-first), and
// streaming stores (st.global.cs) faster than plain ones: the output, never read again, then does
// not evict input that is still to be read.
struct PlainLoad {
    __device__ uint4 operator()(const uint4* src) const { return *src; }
};
struct CacheGlobalLoad {  // ld.global.cg: L2 only (the two-pass kernel without L2 policies)
    __device__ uint4 operator()(const uint4* src) const { return __ldcg(src); }
};
enum class L2Evict { kLast, kFirst };
template <L2Evict kEvict>
struct LoadPolicy {
    // L2 policies are sm_80 and newer; on Turing the loads are plain and L2 keeps what its own
    // replacement keeps.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    uint64_t policy;
    __device__ LoadPolicy() {
        if (kEvict == L2Evict::kLast)
            asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
        else
            asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
    }
    __device__ uint4 operator()(const uint4* src) const {
        uint4 v;
        asm("ld.global.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
            : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
            : "l"(src), "l"(policy));
        return v;
    }
#else
    __device__ uint4 operator()(const uint4* src) const { return *src; }
#endif
};
__device__ __forceinline__ void store16(uint4* dst, uint4 v) {
    __stcs(dst, v);
}

template <typename T>
__device__ __forceinline__ void unpack(uint4 raw, float (&x)[Vec<T>::kSize]) {
    constexpr int V = Vec<T>::kSize;
    alignas(16) T v[V];
    *reinterpret_cast<uint4*>(v) = raw;
#pragma unroll
    for (int k = 0; k < V; ++k) x[k] = to_float(v[k]);
}

template <typename T>
__device__ __forceinline__ uint4 pack(const float (&x)[Vec<T>::kSize]) {
    constexpr int V = Vec<T>::kSize;
    alignas(16) T v[V];
#pragma unroll
    for (int k = 0; k < V; ++k) v[k] = from_float<T>(x[k]);
    return *reinterpret_cast<uint4*>(v);
}

// A 4-byte word of shared memory as values: one fp32 or two fp16/bf16 (the tile path's unit, so
// that a 16-bit value costs half a load, half a store and half a max).
template <typename T>
struct Word {
    static constexpr int kSize = 4 / sizeof(T);  // values a word
};
template <typename T>
__device__ __forceinline__ void unpack_word(uint32_t w, float (&x)[Word<T>::kSize]) {
    alignas(4) T v[Word<T>::kSize];
    *reinterpret_cast<uint32_t*>(v) = w;
#pragma unroll
    for (int k = 0; k < Word<T>::kSize; ++k) x[k] = to_float(v[k]);
}
template <typename T>
__device__ __forceinline__ uint32_t pack_word(const float (&x)[Word<T>::kSize]) {
    if constexpr (std::is_same_v<T, __half>) {
        const __half2 h = __floats2half2_rn(x[0], x[1]);  // both rounded in one instruction
        return *reinterpret_cast<const uint32_t*>(&h);
    } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
        const __nv_bfloat162 h = __floats2bfloat162_rn(x[0], x[1]);
        return *reinterpret_cast<const uint32_t*>(&h);
    } else {
        return __float_as_uint(x[0]);
    }
}
// The larger of two words value by value (fp16/bf16 in pairs, exact; a NaN skipped as fmaxf does).
template <typename T>
__device__ __forceinline__ uint32_t word_max(uint32_t a, uint32_t b) {
    if constexpr (Word<T>::kSize == 2) {
        using H2 = std::conditional_t<std::is_same_v<T, __half>, __half2, __nv_bfloat162>;
        const H2 m = __hmax2(*reinterpret_cast<const H2*>(&a), *reinterpret_cast<const H2*>(&b));
        return *reinterpret_cast<const uint32_t*>(&m);
    } else {
        return __float_as_uint(fmaxf(__uint_as_float(a), __uint_as_float(b)));
    }
}
// -inf's bits in T; a word of -inf values; a word whose first value is replaced by -inf.
template <typename T>
__device__ __forceinline__ constexpr uint32_t neg_inf_bits() {
    if constexpr (std::is_same_v<T, __half>) return 0xfc00u;
    if constexpr (std::is_same_v<T, __nv_bfloat16>) return 0xff80u;
    return 0xff800000u;  // fp32
}
template <typename T>
__device__ __forceinline__ constexpr uint32_t neg_inf_word() {
    return Word<T>::kSize == 2 ? neg_inf_bits<T>() * 0x10001u : neg_inf_bits<T>();
}
template <typename T>
__device__ __forceinline__ uint32_t first_to_neg_inf(uint32_t w) {
    static_assert(Word<T>::kSize == 2, "a word of two values");
    return (w & 0xffff0000u) | neg_inf_bits<T>();
}

// Where the frame slots [f0, f0 + V) of one pack stand against a row at [head, head + cols):
// every slot the row's (an interior pack, one vector), or none (a lane past a short row's end).
template <int V, typename I>
__device__ __forceinline__ bool pack_inside(I f0, int head, I cols) {
    return f0 >= head && f0 + V <= head + cols;
}
template <int V, typename I>
__device__ __forceinline__ bool pack_outside(I f0, int head, I cols) {
    return f0 + V <= head || f0 >= head + cols;
}

// Pack `q` of the aligned frame of a row that occupies frame slots [head, head + cols).
// Slots outside the row read as -inf, which leaves both the max and the sum unchanged.
// I (the index type) is int where the row is known to be shorter than 2^31 values: half the
// registers of int64_t for every pack's index, which the unrolled kernels hold many of.
template <typename T, class Load = PlainLoad, typename I>
__device__ __forceinline__ uint4 load_raw(const T* frame, I q, int head, I cols,
                                          const Load& load = Load{}) {
    constexpr int V = Vec<T>::kSize;
    const I f0 = q * V;
    if (pack_inside<V>(f0, head, cols)) return load(reinterpret_cast<const uint4*>(frame + f0));
    alignas(16) T v[V];  // an edge pack, element by element
    // No value of the row (a lane past a short row's end): no value-by-value path, which a
    // warp whose other lanes load whole packs would run after them (group_sectors, fp32 N = 80).
    if (pack_outside<V>(f0, head, cols)) {
#pragma unroll
        for (int k = 0; k < V; ++k) v[k] = from_float<T>(kNegInf);
        return *reinterpret_cast<uint4*>(v);
    }
#pragma unroll
    for (int k = 0; k < V; ++k) {
        const I f = f0 + k;
        v[k] = (f >= head && f < head + cols) ? frame[f] : from_float<T>(kNegInf);
    }
    return *reinterpret_cast<uint4*>(v);
}

// Which of a row's two edge packs (the 16-byte packs its first and last values share with bytes
// that are not the row's) may be read whole: those whose other bytes still lie inside the
// tensor, which spans rows of `stride` elements from the first row's start. Every edge pack but
// the tensor's very first and very last qualifies: the bytes are the next or previous row's, or
// a stride's gap.
struct ReadableEdges {
    bool before = false, after = false;
    template <typename T>
    __device__ static ReadableEdges of(int64_t row, int64_t rows, int64_t stride) {
        return {row * stride >= Vec<T>::kSize, (rows - 1 - row) * stride >= Vec<T>::kSize};
    }
};

// Pack `raw`, at frame slots [f0, f0 + V), with its slots outside [head, head + cols) set to -inf.
template <typename T>
__device__ __forceinline__ uint4 mask_outside(uint4 raw, int f0, int head, int cols) {
    constexpr int V = Vec<T>::kSize;
    alignas(16) T v[V];
    *reinterpret_cast<uint4*>(v) = raw;
#pragma unroll
    for (int k = 0; k < V; ++k)
        if (f0 + k < head || f0 + k >= head + cols) v[k] = from_float<T>(kNegInf);
    return *reinterpret_cast<uint4*>(v);
}

// Stores pack `q` of the input's aligned frame into the output row `out_row` (element 0).
// When the output row sits at the same offset in its own frame, interior packs are vectors.
template <typename T, typename I>
__device__ __forceinline__ void store_pack(T* out_row, bool same_frame, I q, int head, I cols,
                                           const float (&y)[Vec<T>::kSize]) {
    constexpr int V = Vec<T>::kSize;
    const I f0 = q * V;
    if (same_frame && pack_inside<V>(f0, head, cols)) {
        store16(reinterpret_cast<uint4*>(out_row + (f0 - head)), pack<T>(y));
    } else if (!pack_outside<V>(f0, head, cols)) {
#pragma unroll
        for (int k = 0; k < V; ++k) {
            const I f = f0 + k;
            if (f >= head && f < head + cols) out_row[f - head] = from_float<T>(y[k]);
        }
    }
}
// @endregion element-io

// 16 bytes from global to shared memory without passing through registers (cp.async, sm_80+).
// Compiled for a GPU before Ampere (no cp.async), the copy is a plain load and store: correct,
// without the overlap.
__device__ __forceinline__ void copy_async16(uint4* dst, const void* src) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(to), "l"(src) : "memory");
#else
    *dst = *static_cast<const uint4*>(src);
#endif
}
__device__ __forceinline__ void copy_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}
// `bytes` from global memory into L2, a warp's lanes together, nothing waiting for them: one
// bulk prefetch on Hopper (sm_90+), else a line (128 bytes) a lane at a time.
__device__ __forceinline__ void prefetch_l2(const void* src, unsigned bytes, int lane) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if (lane == 0)  // bytes: a multiple of 16, from 16 bytes
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(src), "r"(bytes)
                     : "memory");
#else
    for (unsigned b = lane * 128u; b < bytes; b += 32u * 128u)
        asm volatile("prefetch.global.L2 [%0];" ::"l"(static_cast<const char*>(src) + b));
#endif
}
template <int kNewest>
__device__ __forceinline__ void copy_async_wait_all_but() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;" ::"n"(kNewest) : "memory");
#endif
}

}  // namespace best
}  // namespace sml
