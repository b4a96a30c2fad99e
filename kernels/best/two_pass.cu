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

// absorb over a chunk of packs (those live(p)): one max over all of them, so at most one rescale.
template <typename T, int PACKS, class Live>
__device__ __forceinline__ void absorb_packs(MaxSum& acc, const uint4 (&raw)[PACKS], Live live) {
    float pm = acc.m;
#pragma unroll
    for (int p = 0; p < PACKS; ++p)
        if (live(p)) pm = pack_max<T>(pm, raw[p]);
    if (pm > acc.m) {
        acc.s *= ex2((acc.m - pm) * kLog2e);
        acc.m = pm;
    }
    const float shift = sum_shift(acc.m);
#pragma unroll
    for (int p = 0; p < PACKS; ++p) {
        if (!live(p)) continue;
        float x[Vec<T>::kSize];
        unpack<T>(raw[p], x);
#pragma unroll
        for (int k = 0; k < Vec<T>::kSize; ++k) acc.s += ex2((x[k] - shift) * kLog2e);
    }
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
//      and publishes the slice's (max, sum) in the row's slot,
//   2. reads its slice of row f = i - LAG again (the second pass, evict_first) and writes f's
//      output, with f's (max, sum) merged from its slots: a thread a slot, one L2 round trip.
// So between a line's two reads the GPU reads LAG rows, and L2 keeps them while LAG + 1 rows fit.
// The loads never wait for a (max, sum): which packs a block reads, and when, is fixed in
// advance -- row 0, row 1, row 0 again, row 2, row 1 again, ... -- so each thread copies its own
// packs AHEAD chunks ahead into a shared-memory ring (cp.async; a chunk is PACKS packs a thread)
// and reads back only what it copied, with no barrier. A block at a barrier, or merging slots,
// keeps AHEAD chunks of loads in flight.
// All blocks are resident (a cooperative launch), so every wait ends.
template <typename T, int LAG, int PACKS, int AHEAD>
__global__ void __launch_bounds__(1024)
    best_grid_two_pass_kernel(const T* __restrict__ in, T* __restrict__ out, int64_t rows,
                              int64_t cols, int64_t in_stride, int64_t out_stride,
                              uint64_t* __restrict__ slots) {
    constexpr int V = Vec<T>::kSize;
    constexpr int kStages = AHEAD + 1;
    extern __shared__ uint4 ring[];      // [kStages][PACKS][blockDim.x]
    __shared__ MaxSum warp_part[2][32];  // row i: each warp's (max, sum), by row parity
    __shared__ MaxSum warp_row[2][32];   // row f: each warp's merge of its slots, by row parity
    const int blocks = static_cast<int>(gridDim.x), rank = static_cast<int>(blockIdx.x);
    const int threads = static_cast<int>(blockDim.x);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = threads / 32;
    // One slice size for every row, from the longest frame a row can have: [begin, begin + size)
    // of the frame's packs, cut at the row's own end. `chunks` chunks a pass.
    const int64_t size = ((cols + 2 * V - 2) / V + blocks - 1) / blocks;
    const int64_t begin = rank * size;
    const int64_t chunk_packs = int64_t{threads} * PACKS;
    const int chunks = static_cast<int>((size + chunk_packs - 1) / chunk_packs);
    // A position in the block's sequence of chunks: step i's first pass (row i), then its second
    // (row i - LAG); steps without one skip it.
    struct Cursor {
        int64_t step = 0;
        int pass = 0, chunk = 0;
    };
    auto row_of = [&](const Cursor& c) { return c.pass == 0 ? c.step : c.step - LAG; };
    auto valid = [&](const Cursor& c) {
        const int64_t r = row_of(c);
        return r >= 0 && r < rows;
    };
    auto advance = [&](Cursor& c) {
        if (++c.chunk < chunks) return;
        c.chunk = 0;
        do {  // the next pass that has a row
            if (++c.pass == 2) {
                c.pass = 0;
                ++c.step;
            }
        } while (c.step < rows + LAG && !valid(c));
    };
    // Where a chunk's packs are: the row's frame and head; the packs [in_lo, in_hi) that hold
    // only row values (the others are its edge packs); this thread's first pack q0 and how many
    // of its PACKS lie inside the slice.
    struct Place {
        const T* frame;
        int head, live;
        int64_t in_lo, in_hi, q0;
    };
    auto place_of = [&](const Cursor& c) {
        const T* src = in + row_of(c) * in_stride;
        Place pl;
        pl.head = frame_head(src);
        pl.frame = src - pl.head;
        const int64_t packs = (pl.head + cols + V - 1) / V;
        pl.in_lo = pl.head > 0 ? 1 : 0;
        pl.in_hi = (pl.head + cols) % V != 0 ? packs - 1 : packs;
        pl.q0 = begin + c.chunk * chunk_packs + threadIdx.x;
        const int64_t left = min(packs, begin + size) - pl.q0;
        const int64_t mine = (left + threads - 1) / threads;  // packs of this thread left
        pl.live = left <= 0 ? 0 : static_cast<int>(mine < PACKS ? mine : PACKS);
        return pl;
    };
    auto slot_of = [&](int stage, int p) {
        return &ring[(stage * PACKS + p) * threads + threadIdx.x];
    };
    // Chunk n's copies: whole packs by cp.async (the first read marked evict_last in L2, the
    // second evict_first), the edge packs too where the bytes around the row lie inside the
    // tensor (masked when read back); at the tensor's own two ends, by value. One commit group a
    // chunk, empty past the sequence's end.
    const LoadPolicy<L2Evict::kLast> first_read;
    const LoadPolicy<L2Evict::kFirst> second_read;
    auto start_copies = [&](int n, const Cursor& c) {  // n: the ring's stage
        if (c.step < rows + LAG) {
            const Place pl = place_of(c);
            const ReadableEdges edges = ReadableEdges::of<T>(row_of(c), rows, in_stride);
            const int64_t lo = edges.before ? 0 : pl.in_lo;  // packs [lo, hi) copy whole
            const int64_t hi = edges.after ? pl.in_hi + 1 : pl.in_hi;
#pragma unroll
            for (int p = 0; p < PACKS; ++p) {
                if (p >= pl.live) break;
                const int64_t q = pl.q0 + p * threads;
                if (q >= lo && q < hi) {
                    if (c.pass == 0)
                        first_read.copy_async(slot_of(n, p), pl.frame + q * V);
                    else
                        second_read.copy_async(slot_of(n, p), pl.frame + q * V);
                } else {
                    *slot_of(n, p) = load_raw(pl.frame, q, pl.head, cols);
                }
            }
        }
        copy_async_commit();
    };
    Cursor next, cur;
    if (!valid(next)) advance(next);
    cur = next;
    for (int k = 0; k < AHEAD; ++k, advance(next)) start_copies(k, next);
    int n = 0;  // the stage of the chunk consumed; the chunk AHEAD on goes to the one before it
    MaxSum acc{kNegInf, 0.0f};
    float m = 0.0f, inv = 0.0f;
    for (; cur.step < rows + LAG; n = n + 1 == kStages ? 0 : n + 1, advance(cur)) {
        start_copies(n == 0 ? kStages - 1 : n - 1, next);
        advance(next);
        copy_async_wait_all_but<AHEAD>();  // the chunk in stage n has landed
        const int64_t r = row_of(cur);
        const Place pl = place_of(cur);
        if (cur.pass == 0) {  // the first pass: a running (max, sum), 4 packs at a time
            constexpr int kGroup = PACKS < 4 ? PACKS : 4;
#pragma unroll
            for (int g = 0; g < PACKS; g += kGroup) {
                if (g >= pl.live) break;
                uint4 raw[kGroup];
#pragma unroll
                for (int j = 0; j < kGroup; ++j) {
                    if (g + j >= pl.live) break;
                    const int64_t q = pl.q0 + (g + j) * threads;
                    raw[j] = *slot_of(n, g + j);
                    if (q < pl.in_lo || q >= pl.in_hi)
                        raw[j] = mask_outside<T>(raw[j], q * V, pl.head, cols);
                }
                absorb_packs<T>(acc, raw, [&](int j) { return g + j < pl.live; });
            }
            if (cur.chunk == chunks - 1) {  // the slice is done: its (max, sum) into the slot
                const MaxSum w = warp_merge(acc);
                if (lane == 0) warp_part[r & 1][warp] = w;
                __syncthreads();
                if (warp == 0) {
                    const MaxSum b =
                        warp_merge(lane < warps ? warp_part[r & 1][lane] : MaxSum{kNegInf, 0.0f});
                    if (lane == 0) publish(&slots[r * blocks + rank], b);
                }
                acc = MaxSum{kNegInf, 0.0f};
            }
            continue;
        }
        if (cur.chunk == 0) {  // the second pass begins: row r's (max, sum) from its slots
            MaxSum v{kNegInf, 0.0f};
            for (int b = threadIdx.x; b < blocks; b += threads)  // one slot a thread
                v = merge(v, await_slot(&slots[r * blocks + b]));
            v = warp_merge(v);
            if (lane == 0) warp_row[r & 1][warp] = v;
            __syncthreads();
            const MaxSum row =
                warp_merge(lane < warps ? warp_row[r & 1][lane] : MaxSum{kNegInf, 0.0f});
            m = row.m;
            inv = 1.0f / row.s;
        }
        T* dst = out + r * out_stride;
        const bool same_frame = frame_head(dst) == pl.head;
#pragma unroll
        for (int p = 0; p < PACKS; ++p) {
            if (p >= pl.live) break;
            const int64_t q = pl.q0 + p * threads;
            float y[V];
            normalise<T>(*slot_of(n, p), m, inv, y);
            store_pack(dst, same_frame, q, pl.head, cols, y);
        }
    }
    copy_async_wait_all_but<0>();  // no copy outlives the block
}

// Shared memory of the grid two-pass kernel: its ring of AHEAD + 1 chunks.
constexpr size_t grid_two_pass_ring_bytes(int threads, int packs, int ahead) {
    return static_cast<size_t>(ahead + 1) * packs * threads * 16;
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

template <typename T, int LAG, int PACKS, int AHEAD>
static LaunchStep make_grid_two_pass_step(const LaunchArgs& a, const Config& c,
                                          cudaError_t* err) {
    const SoftmaxProblem& p = a.problem;
    auto* kernel = best_grid_two_pass_kernel<T, LAG, PACKS, AHEAD>;
    const int blocks = c.cluster;
    if (a.workspace == nullptr || blocks < 1 || !valid_threads(c.threads)) {
        *err = cudaErrorInvalidValue;
        return {};
    }
    const size_t smem = grid_two_pass_ring_bytes(c.threads, PACKS, AHEAD);
    *err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                static_cast<int>(smem));
    if (*err != cudaSuccess) return refused();
    int per_sm = 0;
    *err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, c.threads, smem);
    if (*err != cudaSuccess) return refused();
    if (int64_t{per_sm} * a.limits.sm_count < blocks) {
        *err = cudaErrorCooperativeLaunchTooLarge;
        return {};
    }
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(static_cast<unsigned>(blocks));
    cfg.blockDim = dim3(c.threads);
    cfg.dynamicSmemBytes = smem;
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

// The shapes built: lag 1 or 2; 4, 8 or 16 packs a thread a chunk, 2 chunks ahead.
template <typename T, int LAG>
static LaunchStep grid_two_pass_ring_step(const LaunchArgs& a, const Config& c,
                                          cudaError_t* err) {
    if (c.packs == 4 && c.ahead == 2) return make_grid_two_pass_step<T, LAG, 4, 2>(a, c, err);
    if (c.packs == 8 && c.ahead == 2) return make_grid_two_pass_step<T, LAG, 8, 2>(a, c, err);
    if (c.packs == 16 && c.ahead == 2) return make_grid_two_pass_step<T, LAG, 16, 2>(a, c, err);
    *err = cudaErrorInvalidConfiguration;
    return {};
}

template <typename T>
static LaunchStep grid_two_pass_step_of(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    if (c.lag == 1) return grid_two_pass_ring_step<T, 1>(a, c, err);
    if (c.lag == 2) return grid_two_pass_ring_step<T, 2>(a, c, err);
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
