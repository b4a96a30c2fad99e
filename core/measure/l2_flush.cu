// L2Flusher: a read sweep over a zero-filled buffer twice the L2's size. See timing.h for why
// it reads instead of writing.
#include <algorithm>

#include "core/measure/timing.h"

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

Status L2Flusher::init(int64_t l2_bytes) {
    // Twice the L2 (and at least 32 MiB when the device reports none), whatever the replacement
    // policy keeps; a multiple of 16 bytes for the float4 reads.
    const size_t bytes =
        std::max<size_t>(size_t(2 * std::max<int64_t>(l2_bytes, 0)), size_t(32) << 20) / 16 * 16;
    if (buffer_.size() == bytes) return ok_status();
    if (Status s = buffer_.allocate(bytes, "the L2 flush buffer"); !s) return s;
    if (Status s = sink_.allocate(sizeof(float), "the L2 flush kernel's result sink"); !s) return s;
    if (cudaError_t e = cudaMemset(buffer_.get(), 0, bytes); e != cudaSuccess)
        return cuda_error(e, "zero-filling the L2 flush buffer");
    return ok_status();
}

void L2Flusher::flush(cudaStream_t stream) const {
    if (!buffer_.get()) return;
    int device = 0, sms = 0;
    (void)cudaGetDevice(&device);
    (void)cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    const unsigned blocks = unsigned((sms > 0 ? sms : 80) * 8);
    l2_read_sweep<<<blocks, 256, 0, stream>>>(static_cast<const float4*>(buffer_.get()),
                                              buffer_.size() / 16,
                                              static_cast<float*>(sink_.get()));
}

}  // namespace sml
