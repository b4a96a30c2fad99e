// best's path for short rows (up to 64 packs, fp32 N <= 256; fp32 rows of whole 32-byte sectors
// up to 126 packs, N <= 504, group_sectors): sub-warp groups of lanes, each holding whole rows in
// registers, and the launch of that kernel.
#include <algorithm>

#include "kernels/best/launch.cuh"
#include "kernels/best/reduce.cuh"

namespace sml {
namespace best {

// @region group-kernel: short rows -- WIDTH lanes per row, ROWS rows per group, in registers
// A warp holds 32 / WIDTH groups; the loop bound is the same for the whole warp, so every lane
// reaches the shuffles (a row past the end reads as -inf and is not stored). Launched with one
// group per ROWS rows and no grid-stride: a grid of all the rows measured faster here than a
// resident grid that loops over them.
template <typename T, int PACKS, int WIDTH, int ROWS>
__global__ void __launch_bounds__(512)
    best_group_kernel(const T* __restrict__ in, T* __restrict__ out, int64_t rows, int64_t cols,
                      int64_t in_stride, int64_t out_stride) {
    constexpr int V = Vec<T>::kSize;
    constexpr int kGroupsPerWarp = 32 / WIDTH;
    const int lane = threadIdx.x % WIDTH;
    const int group = (threadIdx.x % 32) / WIDTH;
    const int64_t warp = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    const int64_t warps = static_cast<int64_t>(gridDim.x) * blockDim.x / 32;
    const int64_t rows_per_warp = kGroupsPerWarp * ROWS;

    for (int64_t first = warp * rows_per_warp; first < rows; first += warps * rows_per_warp) {
        uint4 raw[ROWS][PACKS];
        int head[ROWS];
#pragma unroll
        for (int r = 0; r < ROWS; ++r) {
            // Row r of every group in the warp is adjacent: one load instruction covers them.
            const int64_t row = first + r * kGroupsPerWarp + group;
            const T* src = in + (row < rows ? row : 0) * in_stride;
            head[r] = frame_head(src);
            const int valid = row < rows ? static_cast<int>(cols) : 0;  // a short row
#pragma unroll
            for (int p = 0; p < PACKS; ++p)
                raw[r][p] = load_raw(src - head[r], p * WIDTH + lane, head[r], valid);
        }
#pragma unroll
        for (int r = 0; r < ROWS; ++r) {
            const int64_t row = first + r * kGroupsPerWarp + group;
            float m = kNegInf;
#pragma unroll
            for (int p = 0; p < PACKS; ++p) m = pack_max<T>(m, raw[r][p]);
            m = group_reduce<WIDTH>(m, MaxOp{});
            // Relative to the row's own max (an all -inf row: -inf - -inf = NaN, as torch).
            float s = 0.0f;
#pragma unroll
            for (int p = 0; p < PACKS; ++p) s = exp_in_place<T>(raw[r][p], m, s);
            const float inv = 1.0f / group_reduce<WIDTH>(s, SumOp{});
            if (row >= rows) continue;
            T* dst = out + row * out_stride;
            const bool same_frame = frame_head(dst) == head[r];
#pragma unroll
            for (int p = 0; p < PACKS; ++p) {
                float y[V];
                scale_pack<T>(raw[r][p], inv, y);
                store_pack(dst, same_frame, p * WIDTH + lane, head[r], static_cast<int>(cols), y);
            }
        }
    }
}
// @endregion group-kernel

template <typename T, int P, int W, int kRows>
static LaunchStep make_group_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    auto* kernel = best_group_kernel<T, P, W, kRows>;
    const int threads = c.group_threads();
    const SoftmaxProblem& p = a.problem;
    const int64_t rows_per_block = (threads / W) * kRows;
    // A group for every ROWS rows (the kernel loops only past 2^31 - 1 blocks).
    const int64_t blocks =
        std::min<int64_t>((p.rows + rows_per_block - 1) / rows_per_block, 0x7fffffff);
    LaunchStep s;
    s.name = "best_group";
    s.func = reinterpret_cast<const void*>(kernel);
    s.grid = dim3(static_cast<unsigned>(blocks));
    s.block = dim3(threads);
    const T* in = static_cast<const T*>(a.in);
    T* out = static_cast<T*>(a.out);
    const dim3 grid = s.grid;
    s.launch = [=](cudaStream_t st) {
        kernel<<<grid, threads, 0, st>>>(in, out, p.rows, p.cols, p.in_stride, p.out_stride);
        return cudaGetLastError();
    };
    *err = cudaSuccess;
    return s;
}

// One pack a lane: 2, 4 or 8 rows per group.
template <typename T, int W>
static LaunchStep group_rows_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    switch (c.rows_per_group()) {
        case 2:
            return make_group_step<T, 1, W, 2>(a, c, err);
        case 4:
            return make_group_step<T, 1, W, 4>(a, c, err);
        case 8:
            return make_group_step<T, 1, W, 8>(a, c, err);
    }
    *err = cudaErrorInvalidConfiguration;
    return {};
}

template <typename T>
static LaunchStep group_step_of(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    if (c.packs == 1)
        return for_width(
            c.width, [&](auto w) { return group_rows_step<T, decltype(w)::value>(a, c, err); },
            [&] { return rejected(err, cudaErrorInvalidConfiguration); });
    if (c.width == 32) {  // 2 or 4 packs a lane: only their default rows are compiled
        if (c.packs == 2 && c.rows_per_group() == 2) return make_group_step<T, 2, 32, 2>(a, c, err);
        if (c.packs == 4 && c.rows_per_group() == 1) return make_group_step<T, 4, 32, 1>(a, c, err);
    }
    *err = cudaErrorInvalidConfiguration;
    return {};
}

LaunchStep group_step(const LaunchArgs& a, const Config& c, cudaError_t* err) {
    return for_dtype(
        a.problem.dtype,
        [&](auto t) { return group_step_of<typename decltype(t)::type>(a, c, err); },
        [&] { return rejected(err, cudaErrorInvalidValue); });
}

}  // namespace best
}  // namespace sml
