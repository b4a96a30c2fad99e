// best's paths for rows too long to hold on chip: two passes over each block's slice of the row,
// a running (max, sum) on the first, the output on the second -- a cluster a row, or the whole
// grid on one row at a time so the second read finds the row in L2. And their launches.
#include "kernels/best/launch.cuh"
#include "kernels/best/reduce.cuh"
#include "kernels/best/slots.cuh"

namespace sml {
namespace best {

// A running (max, sum) per thread, updated as each pack arrives: step 6's merge rule, one value
// at a time.
__device__ __forceinline__ void absorb(MaxSum& acc, const float* x, int n) {
    float pm = acc.m;
    for (int k = 0; k < n; ++k) pm = fmaxf(pm, x[k]);  // fmaxf skips NaN; the sum catches it
    if (pm > acc.m) {  // rescale what is summed so far to the new max (0 if it was empty)
        acc.s *= ex2((acc.m - pm) * kLog2e);
        acc.m = pm;
    }
    const float shift = sum_shift(acc.m);  // all -inf so far: avoid -inf - -inf
    for (int k = 0; k < n; ++k) acc.s += ex2((x[k] - shift) * kLog2e);
}

template <typename T>
__device__ __forceinline__ void absorb_pack(MaxSum& acc, uint4 raw) {
    float x[Vec<T>::kSize];
    unpack<T>(raw, x);
    absorb(acc, x, Vec<T>::kSize);
}

// The normalised pack from raw input (the two-pass kernel's second read):
// exp(x - m) / sum, as exp2((x - m) * log2(e)) times one reciprocal.
template <typename T>
__device__ __forceinline__ void normalise(uint4 raw, float m, float inv,
                                          float (&y)[Vec<T>::kSize]) {
    unpack<T>(raw, y);
#pragma unroll
    for (int k = 0; k < Vec<T>::kSize; ++k) y[k] = ex2((y[k] - m) * kLog2e) * inv;
}

// @region two-pass-kernel: rows too long for on-chip -- online (max, sum), then write
// Pass 1 keeps a running (max, sum) per thread (step 6's merge rule, `absorb`). Pass 2 reads the
// slice again and writes it. The second read is cheap only if it comes from L2, and between the
// two reads of a line the whole GPU reads one slice per block in flight (8 rows of 4 MiB at
// N = 2^20 fp32: 32 MiB of a 50 MiB L2) while the output streams past. Two helps, as flags of
// kL2: kL2Policy marks the first read evict_last and the second evict_first (createpolicy,
// ld.global.L2::cache_hint), which the dispatcher uses; kL2Reverse runs pass 2 backwards over
// the slice, so the lines read last, the likeliest still in L2, are read again first (no better
// than the policies alone; kept for the tuning harness).
// Up to 1024 threads, so 64 registers per thread: kUnroll is sized to fit.
constexpr int kL2Policy = Config::kL2Policy, kL2Reverse = Config::kL2Reverse;
template <typename T, bool kClustered, int kL2>
__global__ void __launch_bounds__(1024)
    best_two_pass_kernel(const T* __restrict__ in, T* __restrict__ out, int64_t cols,
                         int64_t in_stride, int64_t out_stride) {
    using RowCluster = RowCluster<kClustered>;
    using FirstLoad =
        std::conditional_t<(kL2 & kL2Policy) != 0, LoadPolicy<L2Evict::kLast>, CacheGlobalLoad>;
    using SecondLoad =
        std::conditional_t<(kL2 & kL2Policy) != 0, LoadPolicy<L2Evict::kFirst>, PlainLoad>;
    constexpr int V = Vec<T>::kSize;
    constexpr int kUnroll = 4;  // 4 packs (64 bytes) in flight per thread
    __shared__ RowStats stats;
    const unsigned rank = RowCluster::rank(), blocks = RowCluster::size();
    const int threads = blockDim.x;
    const int64_t row = blockIdx.x / blocks;
    const T* src = in + row * in_stride;
    const int head = frame_head(src);
    const T* frame = src - head;
    const int64_t packs = (head + cols + V - 1) / V;
    const int64_t per_block = (packs + blocks - 1) / blocks;
    const int64_t begin = rank * per_block, end = min(packs, begin + per_block);
    const int64_t step = int64_t{threads} * kUnroll;  // packs per iteration of the block
    const int64_t chunks = end > begin ? (end - begin + step - 1) / step : 0;

    const FirstLoad first_load;
    MaxSum acc{kNegInf, 0.0f};
    for (int64_t c = 0; c < chunks; ++c) {
        const int64_t q0 = begin + c * step + threadIdx.x;
        uint4 raw[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const int64_t q = q0 + u * threads;
            raw[u] = load_raw(frame, q, head, q < end ? cols : 0, first_load);
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) absorb_pack<T>(acc, raw[u]);
    }
    const MaxSum rs = row_stats<kClustered>(acc, stats);
    RowCluster::arrive();
    const float inv = 1.0f / rs.s;

    const SecondLoad second_load;
    T* dst = out + row * out_stride;
    const bool same_frame = frame_head(dst) == head;
    for (int64_t i = 0; i < chunks; ++i) {
        const int64_t c = (kL2 & kL2Reverse) != 0 ? chunks - 1 - i : i;
        const int64_t q0 = begin + c * step + threadIdx.x;
        uint4 raw[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const int64_t q = q0 + u * threads;
            raw[u] = load_raw(frame, q, head, q < end ? cols : 0, second_load);
        }
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) {
            const int64_t q = q0 + u * threads;
            if (q >= end) break;
            float y[V];
            normalise<T>(raw[u], rs.m, inv, y);
            store_pack(dst, same_frame, q, head, cols, y);
        }
    }
    RowCluster::wait();
}
// @endregion two-pass-kernel

// @region grid-two-pass: the whole grid on one row at a time, so the second read hits L2
// The kernel above runs a row per cluster, 8 rows at once on an H100, and between a line's two
// reads the GPU streams 8 slices' worth past L2: rows over ~1M fp32 values mostly miss and read
// DRAM twice (55-72% of copy). Here, as on the grid path, every block holds a slice of *every*
// row and the blocks meet through slots (slots.cuh); the grid works on rows in order. In step i
// a block
//   1. reads its slice of row i (the first pass: a running (max, sum); lines marked evict_last)
//      and publishes the slice's (max, sum) in the row's slot, then adds one to the row's count,
//   2. waits until row f = i - LAG's count is full (one thread polls it), merges f's slots, and
//      reads its slice of row f again (the second pass, evict_first), writing f's output.
// So between a line's two reads the GPU reads LAG rows, and L2 keeps them while LAG + 1 rows fit
// in it. The wait is for the slowest block's first pass of row f, which ended a step ago.
// All blocks are resident (a cooperative launch), so every wait ends.
template <typename T, int LAG>
__global__ void __launch_bounds__(1024)
    best_grid_two_pass_kernel(const T* __restrict__ in, T* __restrict__ out, int64_t rows,
                              int64_t cols, int64_t in_stride, int64_t out_stride,
                              uint64_t* __restrict__ slots) {
    constexpr int V = Vec<T>::kSize;
    constexpr int kUnroll = 4;        // 4 packs (64 bytes) in flight per thread
    __shared__ MaxSum warp_part[2][32];  // row i: each warp's (max, sum), by row parity
    __shared__ MaxSum row_shared;     // row f's (max, sum)
    const int blocks = static_cast<int>(gridDim.x), rank = static_cast<int>(blockIdx.x);
    const int threads = static_cast<int>(blockDim.x);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = threads / 32;
    unsigned* counts = reinterpret_cast<unsigned*>(slots + rows * blocks);  // a word a row
    const int64_t step = int64_t{threads} * kUnroll;  // packs per iteration of the block
    // This block's slice of a row: packs [begin, end) of its aligned frame, an equal share.
    auto slice_of = [&](const T* row, int& head, int64_t& begin, int64_t& end) {
        head = frame_head(row);
        const int64_t packs = (head + cols + V - 1) / V;
        const int64_t size = (packs + blocks - 1) / blocks;
        begin = min(packs, rank * size);
        end = min(packs, begin + size);
    };
    for (int64_t i = 0; i < rows + LAG; ++i) {
        if (i < rows) {  // 1. the first pass over row i
            const T* src = in + i * in_stride;
            int head;
            int64_t begin, end;
            slice_of(src, head, begin, end);
            const T* frame = src - head;
            const LoadPolicy<L2Evict::kLast> first_load;
            MaxSum acc{kNegInf, 0.0f};
            for (int64_t q0 = begin + threadIdx.x; q0 < end; q0 += step) {
                uint4 raw[kUnroll];
#pragma unroll
                for (int u = 0; u < kUnroll; ++u) {
                    const int64_t q = q0 + u * threads;
                    raw[u] = load_raw(frame, q, head, q < end ? cols : 0, first_load);
                }
#pragma unroll
                for (int u = 0; u < kUnroll; ++u) absorb_pack<T>(acc, raw[u]);
            }
            const MaxSum w = warp_merge(acc);
            if (lane == 0) warp_part[i & 1][warp] = w;
            __syncthreads();
            if (warp == 0) {
                const MaxSum m =
                    warp_merge(lane < warps ? warp_part[i & 1][lane] : MaxSum{kNegInf, 0.0f});
                if (lane == 0) {
                    publish(&slots[i * blocks + rank], m);
                    arrive(&counts[i]);
                }
            }
        }
        const int64_t f = i - LAG;
        if (f < 0) continue;
        // 2. row f's (max, sum) once all its blocks have arrived, then its second pass
        if (warp == 0) {
            if (lane == 0) await_arrivals(&counts[f], blocks);
            __syncwarp();
            MaxSum v{kNegInf, 0.0f};
            for (int b = lane; b < blocks; b += 32) v = merge(v, await_slot(&slots[f * blocks + b]));
            v = warp_merge(v);
            if (lane == 0) row_shared = v;
        }
        __syncthreads();  // row_shared is written
        const MaxSum row = row_shared;
        const float inv = 1.0f / row.s;
        const T* src = in + f * in_stride;
        int head;
        int64_t begin, end;
        slice_of(src, head, begin, end);
        const T* frame = src - head;
        T* dst = out + f * out_stride;
        const bool same_frame = frame_head(dst) == head;
        const LoadPolicy<L2Evict::kFirst> second_load;
        for (int64_t q0 = begin + threadIdx.x; q0 < end; q0 += step) {
            uint4 raw[kUnroll];
#pragma unroll
            for (int u = 0; u < kUnroll; ++u) {
                const int64_t q = q0 + u * threads;
                raw[u] = load_raw(frame, q, head, q < end ? cols : 0, second_load);
            }
#pragma unroll
            for (int u = 0; u < kUnroll; ++u) {
                const int64_t q = q0 + u * threads;
                if (q >= end) break;
                float y[V];
                normalise<T>(raw[u], row.m, inv, y);
                store_pack(dst, same_frame, q, head, cols, y);
            }
        }
        __syncthreads();  // row_shared is read before the next row's is written
    }
}
// @endregion grid-two-pass

template <typename T, int L2>
static LaunchStep make_two_pass_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    return make_cluster_launch<T>("best_two_pass", best_two_pass_kernel<T, true, L2>,
                                  best_two_pass_kernel<T, false, L2>, c.threads, 0, a, c.cluster,
                                  err);
}

template <typename T>
static LaunchStep two_pass_step_of(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    if (valid_threads(c.threads)) {
        switch (c.l2) {
            case 0:
                return make_two_pass_step<T, 0>(a, c, err);
            case kL2Policy:
                return make_two_pass_step<T, kL2Policy>(a, c, err);
            case kL2Reverse:
                return make_two_pass_step<T, kL2Reverse>(a, c, err);
            case kL2Policy | kL2Reverse:
                return make_two_pass_step<T, kL2Policy | kL2Reverse>(a, c, err);
        }
    }
    *err = cudaErrorInvalidConfiguration;
    return {};
}

LaunchStep two_pass_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    switch (a.problem.dtype) {
        case DType::f32:
            return two_pass_step_of<float>(a, c, err);
        case DType::f16:
            return two_pass_step_of<__half>(a, c, err);
        case DType::bf16:
            return two_pass_step_of<__nv_bfloat16>(a, c, err);
    }
    *err = cudaErrorInvalidValue;
    return {};
}

template <typename T, int LAG>
static LaunchStep make_grid_two_pass_step(const LaunchArgs& a, const Config& c,
                                          cudaError_t* err) {
    const SoftmaxProblem& p = a.problem;
    auto* kernel = best_grid_two_pass_kernel<T, LAG>;
    const int blocks = c.cluster;
    if (a.workspace == nullptr || blocks < 1 || !valid_threads(c.threads)) {
        *err = cudaErrorInvalidValue;
        return {};
    }
    int per_sm = 0;
    *err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, c.threads, 0);
    if (*err != cudaSuccess) return refused();
    if (int64_t{per_sm} * a.limits.sm_count < blocks) {
        *err = cudaErrorCooperativeLaunchTooLarge;
        return {};
    }
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(static_cast<unsigned>(blocks));
    cfg.blockDim = dim3(c.threads);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    LaunchStep s = step_for("best_grid_two_pass", reinterpret_cast<const void*>(kernel), cfg);
    const T* in = static_cast<const T*>(a.in);
    T* out = static_cast<T*>(a.out);
    auto* slots = static_cast<uint64_t*>(a.workspace);
    const size_t bytes = workspace_bytes(p, c);
    s.launch = [=](cudaStream_t st) mutable {
        if (cudaError_t e = cudaMemsetAsync(slots, kUnwrittenByte, bytes, st); e != cudaSuccess)
            return e;
        cfg.stream = st;
        cfg.attrs = attr;  // the copy's own attribute array
        return cudaLaunchKernelEx(&cfg, kernel, in, out, p.rows, p.cols, p.in_stride,
                                  p.out_stride, slots);
    };
    *err = cudaSuccess;
    return s;
}

template <typename T>
static LaunchStep grid_two_pass_step_of(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    if (c.lag == 1) return make_grid_two_pass_step<T, 1>(a, c, err);
    if (c.lag == 2) return make_grid_two_pass_step<T, 2>(a, c, err);
    *err = cudaErrorInvalidConfiguration;
    return {};
}

LaunchStep grid_two_pass_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    switch (a.problem.dtype) {
        case DType::f32:
            return grid_two_pass_step_of<float>(a, c, err);
        case DType::f16:
            return grid_two_pass_step_of<__half>(a, c, err);
        case DType::bf16:
            return grid_two_pass_step_of<__nv_bfloat16>(a, c, err);
    }
    *err = cudaErrorInvalidValue;
    return {};
}

}  // namespace best
}  // namespace sml
