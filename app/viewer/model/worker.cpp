// The GPU work thread. See worker.h.
#include "app/viewer/model/worker.h"

#include <exception>

namespace sml::viewer {

void JobContext::progress(int done, int total, const std::string& label) {
    all_done_ = total > 0 && done >= total;
    WorkEvent e;
    e.kind = WorkEvent::Kind::progress;
    e.done = done;
    e.total = total;
    e.label = label;
    post_(std::move(e));
}

void JobContext::emit(PointRecord point) {
    WorkEvent e;
    e.kind = WorkEvent::Kind::point;
    e.point = std::move(point);
    post_(std::move(e));
}

void JobContext::emit_device(DeviceRecord device) {
    WorkEvent e;
    e.kind = WorkEvent::Kind::device;
    e.device = std::move(device);
    post_(std::move(e));
}

Error JobContext::fail(MessageError e) {
    return said_error(std::move(e), &failure_);
}

Worker::~Worker() {
    cancel();
    join();
}

void Worker::join() {
    if (thread_.joinable()) thread_.join();
}

bool Worker::start(Job job) {
    if (busy_.exchange(true)) return false;
    join();  // the previous job has finished (busy_ was false); reap its thread
    cancel_.store(false);
    thread_ = std::thread([this, job = std::move(job)] {
        JobContext ctx(&cancel_, [this](WorkEvent e) { post(std::move(e)); });
        WorkEvent last;
        try {
            Status s = job(ctx);
            if (!s.ok()) {
                last.kind = WorkEvent::Kind::failed;
                last.error = s.error();
                // The sentences of fail(), when the job returned the error they say.
                if (ctx.failure_) {
                    const Error en = ctx.failure_->en();
                    if (en.message == last.error.message && en.hint == last.error.hint)
                        last.error_message = ctx.failure_;
                }
            } else {
                // A cancel that came after the last point changed nothing: the run is complete.
                last.kind = cancel_.load() && !ctx.all_done() ? WorkEvent::Kind::cancelled
                                                              : WorkEvent::Kind::finished;
            }
        } catch (const std::exception& ex) {
            // A job must not take the viewer down with it; report and keep running.
            last.kind = WorkEvent::Kind::failed;
            last.error = Error{std::string("run failed: ") + ex.what(), "see the terminal output"};
        }
        // busy_ drops under the queue's lock, together with the last event: a UI that has
        // drained finished/cancelled/failed can start the next job at once, never refused by a
        // thread that is still on its way out.
        std::lock_guard<std::mutex> lock(mutex_);
        queue_.push_back(std::move(last));
        busy_.store(false);
    });
    return true;
}

void Worker::post(WorkEvent e) {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(e));
}

std::vector<WorkEvent> Worker::drain() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<WorkEvent> out;
    out.swap(queue_);
    return out;
}

}  // namespace sml::viewer
