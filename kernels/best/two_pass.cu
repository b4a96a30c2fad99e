// best's path for rows too long to hold on chip: two passes over a cluster's slices of the row,
// a running (max, sum) on the first, the output on the second. And its launch.
#include "kernels/best/launch.cuh"
#include "kernels/best/reduce.cuh"

namespace sml {
namespace best {

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
    return for_dtype(
        a.problem.dtype,
        [&](auto t) { return two_pass_step_of<typename decltype(t)::type>(a, c, err); },
        [&] { return rejected(err, cudaErrorInvalidValue); });
}

}  // namespace best
}  // namespace sml
