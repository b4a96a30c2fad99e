// The Run and Sweep jobs in a build without the CUDA toolkit: they fail at once, saying why.
#include "app/viewer/model/gpu_access.h"
#include "app/viewer/model/run_job.h"

namespace sml::viewer {

Worker::Job make_run_job(RunRequest r) {
    return [r](JobContext&) -> Status {
        if (Status v = validate_request(r); !v) return v;
        const GpuProbe g = probe_gpu();
        return Error{g.reason, g.hint};
    };
}

}  // namespace sml::viewer
