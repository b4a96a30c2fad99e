// Where the blocks of best's grid kernels meet (grid.cu, hold.cu): a (max, sum) slot in global
// memory per row and block, written once and read by every block of the row's team.
#pragma once

#include <cstdint>

#include "kernels/best/exp.cuh"
#include "kernels/best/launch.cuh"

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
// The grid kernels' blocks form `teams` independent teams of `blocks` blocks each (gridDim.x in
// all). Team t takes rows t, t + teams, t + 2 * teams, ...: join_team moves a kernel's row
// pointers, strides and slots to its team's rows, so the kernel then runs as if it were the only
// team. A team's slots sit at row * blocks + rank as with one team, `slot_stride` apart.
struct Team {
    int blocks, team, rank;
    int64_t slot_stride;  // between one of the team's rows' slots and the next's
};
// (The pointers' types are deduced: the kernels' are __restrict__-qualified.)
template <class In, class Out, class Slots>
__device__ __forceinline__ Team join_team(int teams, int& rows, In& in, Out& out,
                                          int64_t& in_stride, int64_t& out_stride, Slots& slots) {
    Team t;
    t.blocks = static_cast<int>(gridDim.x) / teams;
    t.team = static_cast<int>(blockIdx.x) / t.blocks;
    t.rank = static_cast<int>(blockIdx.x) % t.blocks;
    rows = rows > t.team ? (rows - t.team + teams - 1) / teams : 0;
    in += t.team * in_stride;
    out += t.team * out_stride;
    in_stride *= teams;
    out_stride *= teams;
    slots += int64_t{t.team} * t.blocks;
    t.slot_stride = int64_t{teams} * t.blocks;
    return t;
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

// The launch both grid kernels share: `c.cluster` blocks in each of `c.grid_teams()` teams, of
// `c.threads` threads and `smem` bytes of dynamic shared memory, launched cooperatively, so every
// block is resident at once and blocks may wait for each other's slots. Where the GPU cannot hold
// them all: cudaErrorCooperativeLaunchTooLarge (plan_chosen then takes two passes). Each launch
// poisons the slots first. The kernel takes (in, out, rows, cols, in_stride, out_stride, slots,
// teams), then `extra`.
template <typename T, typename... Extra>
LaunchStep slots_launch(const char* name,
                        void (*kernel)(const T*, T*, int, int64_t, int64_t, int64_t, uint64_t*, int,
                                       Extra...),
                        size_t smem, const LaunchArgs& a, const Config& c, cudaError_t* err,
                        Extra... extra) {
    const SoftmaxProblem& p = a.problem;
    const int blocks = c.cluster, teams = c.grid_teams();
    *err = allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem, a.limits);
    if (*err != cudaSuccess) return refused();
    int per_sm = 0;
    *err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, c.threads, smem);
    if (*err != cudaSuccess) return refused();
    if (int64_t{per_sm} * sms_here(a) < int64_t{blocks} * teams) {
        *err = cudaErrorCooperativeLaunchTooLarge;
        return {};
    }
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(static_cast<unsigned>(blocks * teams));
    cfg.blockDim = dim3(c.threads);
    cfg.dynamicSmemBytes = smem;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    LaunchStep s = step_for(name, reinterpret_cast<const void*>(kernel), cfg);
    const T* in = static_cast<const T*>(a.in);
    T* out = static_cast<T*>(a.out);
    auto* slots = static_cast<uint64_t*>(a.workspace);
    const size_t bytes = workspace_bytes(p, c);
    s.launch = [=](cudaStream_t st) mutable {
        if (cudaError_t e = cudaMemsetAsync(slots, kUnwrittenByte, bytes, st); e != cudaSuccess)
            return e;
        cfg.stream = st;
        cfg.attrs = attr;  // the copy's own attribute array
        return cudaLaunchKernelEx(&cfg, kernel, in, out, static_cast<int>(p.rows), p.cols,
                                  p.in_stride, p.out_stride, slots, teams, extra...);
    };
    *err = cudaSuccess;
    return s;
}

}  // namespace best
}  // namespace sml
