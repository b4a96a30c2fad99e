// Where the blocks of best's grid kernels meet (grid.cu, hold.cu): a (max, sum) slot in global
// memory per row and block, written once and read by every block of the row's team.
#pragma once

#include <cstdint>

#include "kernels/best/exp.cuh"

namespace sml {
namespace best {

// @region grid-slots: where the grid's blocks meet -- one 8-byte (max, sum) per row and block
// Each block stores its slice's (max, sum) of a row into a slot of the workspace, one per row and
// block, and reads the row's K slots to finish it. A slot is written in one 8-byte store: it
// carries its own data, so no fence is needed (a fence waits for every load in flight). The
// workspace is poisoned before each launch with a pattern whose sum is negative, which no real
// sum is, so a reader knows a slot not yet written.
constexpr unsigned char kUnwrittenByte = 0xBF;  // a slot of these bytes has sum -1.49...

__device__ __forceinline__ void publish(uint64_t* slot, MaxSum v) {
    const uint64_t bits = (uint64_t{__float_as_uint(v.s)} << 32) | __float_as_uint(v.m);
    asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" ::"l"(slot), "l"(bits) : "memory");
}
__device__ __forceinline__ uint64_t read_slot(const uint64_t* slot) {
    uint64_t bits;
    asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(bits) : "l"(slot) : "memory");
    return bits;
}
__device__ __forceinline__ MaxSum slot_value(uint64_t bits) {
    return MaxSum{__uint_as_float(static_cast<unsigned>(bits)),
                  __uint_as_float(static_cast<unsigned>(bits >> 32))};
}
__device__ __forceinline__ bool unwritten(MaxSum v) {
    return v.s < 0.0f;  // a real sum is >= 0 or NaN
}
// A slot's value once its block has written it: a block behind the others is waited for.
__device__ __forceinline__ MaxSum wait_for_slot(const uint64_t* slot) {
    MaxSum v = slot_value(read_slot(slot));
    while (unwritten(v)) {
        __nanosleep(64);
        v = slot_value(read_slot(slot));
    }
    return v;
}
// @endregion grid-slots

}  // namespace best
}  // namespace sml
