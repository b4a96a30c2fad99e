// The CUDA context current on this thread, as a driver-API handle (CUPTI's APIs take one),
// without linking libcuda: the runtime hands out the driver's entry points. nullptr if none.
#pragma once

#include <cuda.h>

namespace sml {

CUcontext current_cuda_context();

}  // namespace sml
