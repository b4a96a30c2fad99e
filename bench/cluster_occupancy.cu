// How many thread-block clusters of each shape the GPU holds at once
// (cudaOccupancyMaxActiveClusters), and so how many SMs a one-block-per-SM cluster path can use.
// A 16-block cluster needs 16 free SMs in one GPC, and not every GPC of an H100 has 16.
// NVIDIA H100 80GB HBM3, 2026-11-22 (bench/results/nvidia-h100-80gb-hbm3-2026-11-22-tune-4.txt,
// device call 4): clusters of 1 or 2 blocks fill all 132 SMs; of 4 or 8, 120; of 7, 105;
// of 16, 112 (7 clusters at once), for 512 and 1024 threads alike.
// Build and run on the GPU machine:
//   nvcc -O3 -arch=sm_90 -std=c++17 bench/cluster_occupancy.cu -o /tmp/cluster_occupancy
//   /tmp/cluster_occupancy
#include <cuda_runtime.h>

#include <cstdio>

__global__ void one_block_per_sm(float* out) {  // a stand-in: only its launch shape matters
    if (out != nullptr) out[blockIdx.x] = 0.0f;
}

int main() {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
        std::fprintf(stderr, "error: no CUDA device\n");
        return 1;
    }
    std::printf("%s: %d SMs\n", prop.name, prop.multiProcessorCount);
    cudaFuncSetAttribute(one_block_per_sm, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    const int smem = 200 * 1024;  // forces one block per SM whatever the thread count
    cudaFuncSetAttribute(one_block_per_sm, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    std::printf("cluster  threads  one block per SM  clusters at once  SMs busy\n");
    for (int cluster : {1, 2, 4, 7, 8, 16}) {
        for (int threads : {512, 1024}) {
            cudaLaunchConfig_t cfg{};
            cfg.gridDim = dim3(cluster);
            cfg.blockDim = dim3(threads);
            cfg.dynamicSmemBytes = smem;
            cudaLaunchAttribute attr{};
            attr.id = cudaLaunchAttributeClusterDimension;
            attr.val.clusterDim.x = cluster;
            attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
            cfg.attrs = &attr;
            cfg.numAttrs = 1;
            int fits = 0;
            const cudaError_t e = cudaOccupancyMaxActiveClusters(&fits, one_block_per_sm, &cfg);
            if (e != cudaSuccess) {
                std::printf("%7d  %7d  %s\n", cluster, threads, cudaGetErrorString(e));
                (void)cudaGetLastError();
                continue;
            }
            std::printf("%7d  %7d  %16s  %16d  %8d\n", cluster, threads, "yes", fits,
                        fits * cluster);
        }
    }
    return 0;
}
