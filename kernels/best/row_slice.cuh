// A row's slice of one block: which 16-byte packs of the row each thread of the block holds, and
// their loads, exps and stores. The cluster and stash kernels hold one slice each; the grid kernel
// cuts its slices the same way (size_of).
#pragma once

#include "kernels/best/exp.cuh"

namespace sml {
namespace best {

// @region row-slice: which packs of the row a block and each of its threads hold
// The row's packs (of its aligned frame) are shared evenly between the blocks of the cluster, in
// slices of whole 128-byte lines: block `rank` owns [rank * S, (rank + 1) * S), S = ceil(packs /
// blocks) rounded up to 8 packs, and its thread t the packs t, t + T, t + 2T, ... (T = blockDim.x),
// so adjacent threads own adjacent packs and every load is coalesced. (Slices of a block's whole
// capacity, T * PACKS, would leave the last block of some clusters empty while the others carry
// its share.) Slots past the slice's end are neither loaded nor computed.
// That slice, [begin, end) of the frame, with its loads, its exps and its stores. The grid kernel
// cuts its slices the same way (packs_of, size_of), once for all rows.
template <typename T>
struct RowSlice {
    static constexpr int V = Vec<T>::kSize;
    const T* frame;
    int head, begin, end, n;
    // Packs of the frame that hold row values: one of two counts, by where the row starts.
    __device__ static int packs_of(int head, int cols) { return (head + cols + V - 1) / V; }
    __device__ static int size_of(int row_packs, unsigned blocks) {
        return static_cast<int>(((row_packs + blocks - 1) / blocks + 7) / 8 * 8);
    }
    __device__ RowSlice(const T* row_start, int cols, unsigned blocks, unsigned rank) : n(cols) {
        head = frame_head(row_start);
        frame = row_start - head;
        const int row_packs = packs_of(head, n);
        const int size = size_of(row_packs, blocks);
        begin = static_cast<int>(rank) * size;
        end = min(row_packs, begin + size);  // <= begin + T * PACKS
    }
    __device__ int pack_of(int p) const {
        return begin + static_cast<int>(threadIdx.x) + p * static_cast<int>(blockDim.x);
    }
    __device__ bool live(int p) const { return pack_of(p) < end; }
    // The row starts on 16 bytes and ends on a pack's end: no edge packs.
    __device__ bool whole_packs() const { return head == 0 && n % V == 0; }
    // Every value of the pack belongs to the row (the two edge packs may not).
    __device__ bool interior(int p) const { return pack_inside<V>(pack_of(p) * V, head, n); }
    // The pack may be read as one 16-byte vector: interior, or an edge pack whose other bytes
    // `edges` says lie inside the tensor.
    __device__ bool readable_whole(int p, ReadableEdges edges) const {
        const int f0 = pack_of(p) * V;
        return (f0 >= head || edges.before) && (f0 + V <= head + n || edges.after);
    }
    template <int PACKS>
    __device__ void load(uint4 (&x)[PACKS]) const {
#pragma unroll
        for (int p = 0; p < PACKS; ++p)
            if (live(p)) x[p] = load_raw(frame, pack_of(p), head, n);
    }
    // As load(), with every load issued before any value is used. An edge pack read element by
    // element waits for its loads, and a wait among the loads holds back the thread's later ones
    // by a whole memory latency; a cluster's reduction waits for its slowest warp, so unaligned
    // rows stalled at the cluster's barrier. Here edge packs are read whole where `edges`
    // allows, with the other loads, and masked after them; only the tensor's own two ends go
    // element by element. One block a row does the same, since its warps wait at the block's
    // barrier: with it, 16-bit rows past one warp ran 0.6-8 points faster side by side.
    template <int PACKS>
    __device__ void load_edges_last(uint4 (&x)[PACKS], ReadableEdges edges) const {
#pragma unroll
        for (int p = 0; p < PACKS; ++p) {
            if (!live(p)) continue;
            if (readable_whole(p, edges))
                x[p] = PlainLoad{}(reinterpret_cast<const uint4*>(frame + pack_of(p) * V));
            else
                x[p] = load_raw(frame, pack_of(p), head, n);
        }
#pragma unroll
        for (int p = 0; p < PACKS; ++p)
            if (live(p) && !interior(p)) x[p] = mask_outside<T>(x[p], pack_of(p) * V, head, n);
    }
    // This thread's max, then exp(x - max) in place of every value, and their sum.
    template <int PACKS>
    __device__ MaxSum exps(uint4 (&x)[PACKS]) const {
        return thread_exps<T>(x, [&](int p) { return live(p); });
    }
    // The output: the exps times this thread's factor, into the row that starts at out_row.
    template <int PACKS>
    __device__ void store(T* out_row, const uint4 (&x)[PACKS], float factor) const {
        const bool same_frame = frame_head(out_row) == head;
#pragma unroll
        for (int p = 0; p < PACKS; ++p) {
            if (!live(p)) continue;
            float y[V];
            scale_pack<T>(x[p], factor, y);
            store_pack(out_row, same_frame, pack_of(p), head, n, y);
        }
    }
};
// @endregion row-slice

}  // namespace best
}  // namespace sml
