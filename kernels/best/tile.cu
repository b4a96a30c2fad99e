// best's path for short rows of a contiguous tensor (rows back to back, input and output at the
// same offset from 16 bytes): a block moves a tile of whole rows between global and shared
// memory as 16-byte packs of the flat buffer, so a row's own start and length never make a
// global access narrow, and a group of lanes per row computes on the tile in shared memory.
#include <algorithm>

#include "kernels/best/exp.cuh"
#include "kernels/best/launch.cuh"
#include "kernels/best/reduce.cuh"

namespace sml {
namespace best {

// @region tile-kernel: short rows through shared memory -- the tile moves as packs, rows do not
// A row of 22 fp16 values is 44 bytes: loaded row by row it starts and ends inside 16-byte
// packs, and those edge packs are read and written value by value -- most of the row. The rows
// of a contiguous tensor are one flat run of memory, though, so a block takes `tile_rows` whole
// rows as one run: every pack of it but the run's two ends is a full 16-byte vector, copied to
// shared memory (cp.async), whatever N is. Then W lanes per row (W = 1..32, K values a lane at
// most) find the max and the sum with shuffles, write the outputs over the inputs in shared
// memory, and the block stores the run back as 16-byte packs. Short rows cost the SM many
// instructions a byte (each row's shuffles, and in 16 bits twice the values a byte), so lanes
// work in 4-byte words, two 16-bit values at a time.
template <typename T, int W, int K>
__global__ void __launch_bounds__(256)
    best_tile_kernel(const T* __restrict__ in, T* __restrict__ out, int64_t rows, int cols,
                     int tile_rows, int spread) {
    extern __shared__ uint4 tile[];  // the run's aligned frame, pack by pack
    constexpr int V = Vec<T>::kSize;
    const int64_t first = static_cast<int64_t>(blockIdx.x) * tile_rows;
    const int n_rows = static_cast<int>(min(static_cast<int64_t>(tile_rows), rows - first));
    const int len = n_rows * cols;  // values in this block's run
    const T* src = in + first * cols;
    const int head = frame_head(src);
    const T* frame = src - head;
    const int packs = (head + len + V - 1) / V;
    for (int q = threadIdx.x; q < packs; q += blockDim.x) {
        if (pack_inside<V>(q * V, head, len))
            copy_async16(&tile[q], frame + q * V);
        else
            tile[q] = load_raw(frame, q, head, len);  // a run's end: only its own values
    }
    copy_async_commit();
    copy_async_wait_all_but<0>();
    __syncthreads();

    // A lane's unit is a 4-byte word: one fp32 value or two 16-bit ones (P), so a 16-bit value
    // costs half a shared-memory load, half a store and half a max (HMNMX2 on the pair). A row
    // starts at value a of the tile, which for 16-bit rows may be the word's second value (o =
    // 1): its lanes then read from the word before, whose first value is not the row's.
    constexpr int P = Word<T>::kSize;
    uint32_t* words = reinterpret_cast<uint32_t*>(tile);
    const int lane = threadIdx.x % W;
    const int groups = blockDim.x / W;
    // Steps where every lane's word holds only the row's values, whatever its o (but the first
    // word's first value when o = 1); then one more step, the tail, wherever some row of this
    // block has values past them, whose words hold values of the neighbouring rows too, or
    // none of the row. Both the same for every lane, so the warp never splits on them.
    const int full = cols / (P * W);
    const bool tail = cols % (P * W) != 0 || head % P != 0 || cols % P != 0;
    // Group g starts at row g * spread (mod groups; spread is odd and groups a power of two, so
    // every row has one group): a warp's groups read rows `spread` apart, 1 unless the launch's
    // rule (tile_spread) found rows side by side piling onto the same shared-memory banks. The
    // same number of rounds in every warp, so all 32 lanes reach each shuffle; a group past the
    // last row computes on the last row and stores nothing.
    const int start = static_cast<int>(threadIdx.x) / W * spread % groups;
    // A round's own work (a row's address, its first and tail words, two reductions) is paid by
    // every row however short: a warp's 32 / W rows share it, and in short 16-bit rows it costs
    // as much as the steps. So what is the same every round is worked out once: which values of
    // its tail word are the row's (bit h for value h), for a row starting at o = 0 and o = 1.
    const int j = P * (full * W + lane);  // the tail word's first value, from the row's first word
    unsigned tail_bits[P];
#pragma unroll
    for (int o0 = 0; o0 < P; ++o0) {
        tail_bits[o0] = 0;
#pragma unroll
        for (int h = 0; h < P; ++h)
            if (tail && j + h >= o0 && j + h < o0 + cols) tail_bits[o0] |= 1u << h;
    }
    const bool first_lane = lane == 0;
    const int last = head + (n_rows - 1) * cols;  // the last row's first value
    int at = head + start * cols;                 // row r's first value in the tile
    for (int r = start; r - start < tile_rows; r += groups, at += groups * cols) {
        const bool live = r < n_rows;
        const unsigned a = min(at, last);    // a group past the last row computes on the last
        const unsigned o = a % P;            // 0, or 1: the row starts mid-word
        uint32_t* w = words + a / P + lane;  // this lane's first word of the row
        const bool split = P == 2 && o != 0 && first_lane;  // its first value is the row before's
        const unsigned bits = o != 0 ? tail_bits[P - 1] : tail_bits[0];
        // The max: words compared whole (value by value), the row's first value's word with
        // its other value set to -inf. K is a bound: steps past `full` are skipped, the same
        // for every lane.
        uint32_t raw[K / P];
        uint32_t mw = neg_inf_word<T>();
#pragma unroll
        for (int k = 0; k < K / P; ++k) {
            if (k >= full) break;
            raw[k] = w[k * W];
            if constexpr (P == 2)
                if (k == 0 && split) raw[0] = first_to_neg_inf<T>(raw[0]);
            mw = word_max<T>(mw, raw[k]);
        }
        float t[P];  // the tail's values: -inf where not the row's
#pragma unroll
        for (int h = 0; h < P; ++h) t[h] = kNegInf;
        if (bits != 0) {
            unpack_word<T>(w[full * W], t);
#pragma unroll
            for (int h = 0; h < P; ++h)
                if (!(bits >> h & 1u)) t[h] = kNegInf;
        }
        float m;
        {
            float x[P];
            unpack_word<T>(mw, x);
            m = x[0];
#pragma unroll
            for (int h = 0; h < P; ++h) m = fmaxf(fmaxf(m, x[h]), t[h]);
        }
        m = group_reduce<W>(m, MaxOp{});
        // exp(x - max), kept in registers; a value that is not the row's holds -inf, whose exp
        // is 0. A NaN reaches the sum, and an all -inf row gives -inf - -inf = NaN: the row is
        // NaN, as in torch.softmax.
        float x[K];
        float s = 0.0f;
#pragma unroll
        for (int k = 0; k < K / P; ++k) {
            if (k >= full) break;
            float v[P];
            unpack_word<T>(raw[k], v);
#pragma unroll
            for (int h = 0; h < P; ++h) {
                x[P * k + h] = ex2((v[h] - m) * kLog2e);
                s += x[P * k + h];
            }
        }
        if (tail) {
#pragma unroll
            for (int h = 0; h < P; ++h) {
                t[h] = ex2((t[h] - m) * kLog2e);
                s += t[h];
            }
        }
        // The sum lies in [1, N] (the max's own exp is 1): the SFU's reciprocal, without the
        // range checks of an IEEE division.
        const float inv = __fdividef(1.0f, group_reduce<W>(s, SumOp{}));
        if (live) {
            // Whole words back as words; the words the row shares with its neighbours (its
            // first when o = 1, the tail's) value by value, so that two groups never write the
            // same value.
#pragma unroll
            for (int k = 0; k < K / P; ++k) {
                if (k >= full) break;
                float y[P];
#pragma unroll
                for (int h = 0; h < P; ++h) y[h] = x[P * k + h] * inv;
                if (k == 0 && split)
                    reinterpret_cast<T*>(w)[P - 1] = from_float<T>(y[P - 1]);
                else
                    w[k * W] = pack_word<T>(y);
            }
            T* tail_vals = reinterpret_cast<T*>(w + full * W);
#pragma unroll
            for (int h = 0; h < P; ++h)
                if (bits >> h & 1u) tail_vals[h] = from_float<T>(t[h] * inv);
        }
    }
    __syncthreads();

    T* dst = out + first * cols - head;  // the output run sits at the input's offset (launch)
    const T* y = reinterpret_cast<const T*>(tile);
    for (int q = threadIdx.x; q < packs; q += blockDim.x) {
        if (pack_inside<V>(q * V, head, len)) {
            store16(reinterpret_cast<uint4*>(dst + q * V), tile[q]);
        } else {
#pragma unroll
            for (int k = 0; k < V; ++k) {
                const int f = q * V + k;
                if (f >= head && f < head + len) dst[f] = y[f];
            }
        }
    }
}
// @endregion tile-kernel

template <typename T, int W, int K>
static LaunchStep make_tile_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    auto* kernel = best_tile_kernel<T, W, K>;
    const SoftmaxProblem& p = a.problem;
    const int vec = vec_of(p.dtype);
    const int64_t blocks = (p.rows + c.rows - 1) / c.rows;
    if (blocks > 0x7fffffff || c.rows < 1 || c.rows * p.cols > (int64_t{1} << 30)) {
        *err = cudaErrorInvalidConfiguration;
        return {};
    }
    // The run's frame: its values, plus up to a pack's worth before them, in whole packs.
    const size_t smem = static_cast<size_t>((c.rows * p.cols + 2 * vec - 1) / vec) * 16;
    *err = allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem, a.limits);
    if (*err != cudaSuccess) return refused();
    LaunchStep s;
    s.name = "best_tile";
    s.func = reinterpret_cast<const void*>(kernel);
    s.grid = dim3(static_cast<unsigned>(blocks));
    s.block = dim3(c.threads);
    s.dynamic_smem = smem;
    const T* in = static_cast<const T*>(a.in);
    T* out = static_cast<T*>(a.out);
    const dim3 grid = s.grid;
    const int threads = c.threads, tile_rows = c.rows, cols = static_cast<int>(p.cols);
    const int spread = c.tile_spread();
    s.launch = [=](cudaStream_t st) {
        kernel<<<grid, threads, smem, st>>>(in, out, p.rows, cols, tile_rows, spread);
        return cudaGetLastError();
    };
    *err = cudaSuccess;
    return s;
}

// 8 or 16 values a lane at every width; 32 at 32 lanes (rows of up to 1024 values).
template <typename T, int W>
static LaunchStep tile_width_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    if (c.packs == 8) return make_tile_step<T, W, 8>(a, c, err);
    if (c.packs == 16) return make_tile_step<T, W, 16>(a, c, err);
    if constexpr (W == 32)
        if (c.packs == 32) return make_tile_step<T, W, 32>(a, c, err);
    *err = cudaErrorInvalidConfiguration;
    return {};
}

template <typename T>
static LaunchStep tile_step_of(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    return for_width(
        c.width, [&](auto w) { return tile_width_step<T, decltype(w)::value>(a, c, err); },
        [&] { return rejected(err, cudaErrorInvalidConfiguration); });
}

LaunchStep tile_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    // The kernel stores the output run at the input's frame offset and indexes rows by cols.
    const SoftmaxProblem& p = a.problem;
    // An even spread would give two groups one row and leave another row unwritten.
    if (!contiguous_same_frames(a) || c.threads != 256 || p.cols > c.width * c.packs ||
        c.spread < 0 || c.tile_spread() % 2 == 0) {
        *err = cudaErrorInvalidValue;
        return {};
    }
    return for_dtype(
        p.dtype, [&](auto t) { return tile_step_of<typename decltype(t)::type>(a, c, err); },
        [&] { return rejected(err, cudaErrorInvalidValue); });
}

}  // namespace best
}  // namespace sml
