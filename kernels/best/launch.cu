// best's launch side: a configuration planned into a launch (plan_with), and the dispatcher's
// choice with this GPU's occupancy and its fallbacks (plan_config, plan, launch_config). Each
// path's kernels and launch table are in their own unit (group.cu, cluster.cu, two_pass.cu,
// grid.cu); this one holds no kernel.
#include <algorithm>
#include <utility>

#include "kernels/best/launch.cuh"

namespace sml {
namespace best {

bool rows_aligned(const LaunchArgs& a) {
    const int vec = vec_of(a.problem.dtype);
    return reinterpret_cast<uintptr_t>(a.in) % 16 == 0 &&
           reinterpret_cast<uintptr_t>(a.out) % 16 == 0 && a.problem.in_stride % vec == 0 &&
           a.problem.out_stride % vec == 0;
}

bool same_frames(const LaunchArgs& a) {
    const int vec = vec_of(a.problem.dtype);
    const uintptr_t size = dtype_size(a.problem.dtype);
    return (reinterpret_cast<uintptr_t>(a.in) & 15u) / size ==
               (reinterpret_cast<uintptr_t>(a.out) & 15u) / size &&
           (a.problem.out_stride - a.problem.in_stride) % vec == 0;
}

bool contiguous_same_frames(const LaunchArgs& a) {
    const SoftmaxProblem& p = a.problem;
    return p.in_stride == p.cols && p.out_stride == p.cols &&
           (reinterpret_cast<uintptr_t>(a.in) & 15u) == (reinterpret_cast<uintptr_t>(a.out) & 15u);
}

int sms_here(const LaunchArgs& a) {
    if (a.limits.profile.empty()) return a.limits.sm_count;
    int device = 0, sms = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
        (void)cudaGetLastError();
        return a.limits.sm_count;
    }
    return sms;
}

// Values a configuration holds on chip per row; the two-pass path has no limit.
static int64_t capacity(const Config& c, DType t) {
    const int64_t vec = vec_of(t);
    switch (c.path) {
        case Config::Path::kGroup:
            return c.width * c.packs * vec;
        case Config::Path::kCluster:
            return int64_t{c.cluster} * c.threads * (c.packs + c.stash) * vec;
        case Config::Path::kGrid:  // the held grid: whole packs, and the values past them
            if (c.held_grid() && c.stream != 0) return kUnlimitedCols;  // the rest read twice
            return c.held_grid() ? int64_t{c.cluster} * c.threads * c.held_places() * vec + vec - 1
                                 : int64_t{c.cluster} * c.threads * c.packs * vec;
        case Config::Path::kTwoPass:
            return kUnlimitedCols;
        case Config::Path::kTile:  // values a row's lanes hold, wherever the row starts
            return int64_t{c.width} * c.packs + vec;
    }
    return 0;
}

cudaError_t plan_with(const LaunchArgs& args, const Config& config,
                      std::vector<LaunchStep>* steps) {
    // A forced configuration too small for the row would leave elements unwritten: refuse it.
    // (The held grid counts a row's packs from its first 128-byte line, and holds the values
    // outside them apart: no slack.)
    const int64_t slack =
        rows_aligned(args) || config.held_grid() ? 0 : vec_of(args.problem.dtype) - 1;
    if (capacity(config, args.problem.dtype) < args.problem.cols + slack)
        return cudaErrorInvalidValue;
    const DType t = args.problem.dtype;
    if (t != DType::f32 && t != DType::f16 && t != DType::bf16) return cudaErrorInvalidValue;
    cudaError_t err = cudaSuccess;
    LaunchStep s;
    switch (config.path) {
        case Config::Path::kGroup:
            s = group_step(args, config, &err);
            break;
        case Config::Path::kCluster:
            s = cluster_step(args, config, &err);
            break;
        case Config::Path::kTwoPass:
            s = two_pass_step(args, config, &err);
            break;
        case Config::Path::kGrid:
            s = grid_step(args, config, &err);
            break;
        case Config::Path::kTile:
            s = tile_step(args, config, &err);
            break;
    }
    if (err != cudaSuccess) return err;
    steps->push_back(std::move(s));
    return cudaSuccess;
}

// Resident blocks per SM of a cluster-path configuration (one block a row, or a cluster's
// blocks, which run the kernel that exchanges through DSMEM) or of a grid configuration, from
// the occupancy calculator.
static ResidentBlocks occupancy_of(const LaunchArgs& args) {
    return [args](const Config& c) {
        const DeviceLimits& limits = args.limits;
        const bool grid = c.path == Config::Path::kGrid;
        const GridKernel g = grid ? grid_kernel(args, c) : GridKernel{};
        const void* kernel = grid ? g.kernel : cluster_kernel(args.problem.dtype, c);
        if (grid && kernel == nullptr) return 0;  // no grid kernel is built for this shape
        int blocks = 0;
        const size_t smem = grid ? g.smem : stash_bytes(c);
        // A large stash needs the opt-in before the calculator counts it.
        if (kernel != nullptr && allow_dynamic_smem(kernel, smem, limits) != cudaSuccess) {
            (void)cudaGetLastError();
            return 0;  // this GPU cannot give a block that much
        }
        if (kernel == nullptr || cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                                     &blocks, kernel, c.threads, smem) != cudaSuccess) {
            (void)cudaGetLastError();
            return std::max(1, 2048 / c.threads);  // unknown: as if threads were the only limit
        }
        // The calculator asks this GPU; a device profile's class may have less shared memory an
        // SM (1 KB of it reserved a block), and a stash that fits twice here may fit once there.
        if (smem > 0 && !limits.profile.empty())
            blocks = std::min(blocks, static_cast<int>(limits.smem_per_sm / (smem + 1024)));
        return blocks;
    };
}

// choose() with this GPU's occupancy, planned; where the GPU cannot schedule the chosen cluster
// (16 blocks need a GPC with 16 free SMs; a MIG slice may have none), two passes over 8 blocks,
// and where it cannot keep the grid path's blocks resident at once or grant one block's stash,
// two passes.
// *chosen receives the configuration the steps run.
static cudaError_t plan_chosen(const LaunchArgs& args, Config* chosen,
                               std::vector<LaunchStep>* steps) {
    Config c = choose_for(args.problem.cols, args.problem.dtype, rows_aligned(args),
                          contiguous_same_frames(args), args.limits, occupancy_of(args));
    // In place of the grid: two passes, sized for the longest frame a row can have.
    const int vec = vec_of(args.problem.dtype);
    const Config two_passes = two_pass_for((args.problem.cols + vec - 1) / vec + 1, args.limits);
    // Output rows at other offsets from 16 bytes than the input's (a rare layout): the grid
    // stores whole packs where the input had them, so two passes.
    if (c.path == Config::Path::kGrid && !same_frames(args)) c = two_passes;
    // The grid in teams (GPUs without clusters) runs as many teams as fill the GPU it runs on. The
    // profile of a smaller GPU chose the path and a team's blocks from its class's limits; on the
    // H100 it emulates, a grid of that class's SMs would leave the rest idle while copy, which the
    // run is measured against, uses them all. On a GPU of the class itself nothing changes.
    if (c.path == Config::Path::kGrid && !args.limits.has_clusters()) {
        const int per_sm = c.held_grid() ? hold_blocks_per_sm(c.threads) : 1;
        c.teams = std::clamp(sms_here(args) * per_sm / c.cluster, 1, kMaxGridTeams);
        if (c.held_grid()) c.prefetch = held_prefetch(c, args.limits);  // for the grid launched
    }
    cudaError_t err = plan_with(args, c, steps);
    auto fall_back = [&](const Config& next) {
        (void)cudaGetLastError();
        steps->clear();
        c = next;
        err = plan_with(args, c, steps);
    };
    // Two passes where this GPU refuses a shape its limits allowed: the grid, where fewer blocks
    // fit at once than it has SMs (MPS, a MIG slice, another kernel's reservation; two passes
    // need no resident grid), and one block's stash, where it grants less shared memory (a limit
    // the profile did not know).
    const bool grid_not_resident =
        err == cudaErrorCooperativeLaunchTooLarge && c.path == Config::Path::kGrid;
    const bool stash_refused =
        err != cudaSuccess && c.path == Config::Path::kCluster && c.cluster == 1 && c.stash > 0;
    if (grid_not_resident || stash_refused) fall_back(two_passes);
    if (err == cudaErrorInvalidClusterSize && c.path == Config::Path::kCluster) {
        Config eight;  // two passes over 8 blocks: a portable cluster
        eight.path = Config::Path::kTwoPass;
        eight.cluster = 8;
        eight.threads = 1024;
        eight.l2 = Config::kL2Policy;
        fall_back(eight);
    }
    *chosen = c;
    return err;
}

Config plan_config(const LaunchArgs& args) {
    Config c;
    std::vector<LaunchStep> unused;
    if (plan_chosen(args, &c, &unused) != cudaSuccess) (void)cudaGetLastError();
    return c;
}

int plan(const LaunchArgs& args, std::vector<LaunchStep>* steps) {
    Config c;
    return plan_chosen(args, &c, steps);
}

Config launch_config(const SoftmaxProblem& p, const DeviceLimits& limits) {
    LaunchArgs a;  // no buffers: null counts as 16-byte aligned, as cudaMalloc's are
    a.problem = p;
    a.limits = limits;
    return plan_config(a);
}

}  // namespace best
}  // namespace sml
