// See driver_context.h.
#include "core/measure/driver_context.h"

#include <cuda_runtime.h>

namespace sml {

CUcontext current_cuda_context() {
    using GetCurrent = CUresult (*)(CUcontext*);
    static GetCurrent get = [] {
        void* fn = nullptr;
        cudaDriverEntryPointQueryResult q{};
        if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault,
                                             &q) != cudaSuccess ||
            q != cudaDriverEntryPointSuccess)
            fn = nullptr;
        return reinterpret_cast<GetCurrent>(fn);
    }();
    CUcontext ctx = nullptr;
    if (!get || get(&ctx) != CUDA_SUCCESS) return nullptr;
    return ctx;
}

}  // namespace sml
