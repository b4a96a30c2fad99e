// See l2_sweep.h.
#include "core/profiler/l2_sweep.h"

namespace sml {
namespace {

// Grid-stride 16-byte reads. The store happens only if the zero-filled buffer sums to a value it
// never can, which keeps the loads alive without writing anything.
__global__ void l2_read_sweep(const float4* __restrict__ buf, size_t n4, float* sink) {
    float acc = 0.f;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n4;
         i += size_t(gridDim.x) * blockDim.x) {
        const float4 v = buf[i];
        acc += v.x + v.y + v.z + v.w;
    }
    if (acc == 123456.75f) *sink = acc;
}

}  // namespace

L2Sweep::~L2Sweep() {
    cudaFree(buf_);
    cudaFree(sink_);
}

bool L2Sweep::init(int64_t l2_bytes) {
    if (buf_) return true;
    const size_t bytes = size_t(2 * (l2_bytes > 0 ? l2_bytes : (32 << 20))) / 16 * 16;
    if (cudaMalloc(&buf_, bytes) != cudaSuccess ||
        cudaMalloc(&sink_, sizeof(float)) != cudaSuccess ||
        cudaMemset(buf_, 0, bytes) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
        (void)cudaGetLastError();
        cudaFree(buf_);
        cudaFree(sink_);
        buf_ = sink_ = nullptr;
        return false;
    }
    count_ = bytes / sizeof(float);
    return true;
}

cudaError_t L2Sweep::run(cudaStream_t stream) const {
    if (!buf_) return cudaSuccess;
    const size_t n4 = count_ / 4;
    int sms = 0, dev = 0;
    (void)cudaGetDevice(&dev);
    (void)cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    const unsigned blocks = unsigned((sms > 0 ? sms : 80) * 8);
    l2_read_sweep<<<blocks, 256, 0, stream>>>(reinterpret_cast<const float4*>(buf_), n4, sink_);
    return cudaGetLastError();
}

}  // namespace sml
