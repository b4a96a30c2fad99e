// The GPU work thread: runs one job at a time off the UI thread and streams what it produces.
//
// The UI thread calls start() and, once per frame, drain(); it never waits for the GPU. A job
// reports progress and hands over finished points through its JobContext; cancel() sets an
// atomic flag the job checks between points (a CUDA launch itself cannot be interrupted, so
// cancelling takes effect after the point in flight).
//
// No ImGui here: the same worker drives runs from tests and from a machine with no window.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/message.h"
#include "common/result.h"
#include "core/session/session.h"

namespace sml::viewer {

struct WorkEvent {
    enum class Kind { progress, point, device, finished, cancelled, failed };
    Kind kind = Kind::progress;
    int done = 0, total = 0;  // progress
    std::string label;        // progress: what is running now, e.g. "fused  N = 4096"
    PointRecord point;        // point
    DeviceRecord device;      // device: the measured device record (copy bandwidth etc.)
    Error error;              // failed
    // failed: the same error as sentences (common/message.h), when the job said it that way
    // (JobContext::fail), for the viewer to show in the lesson language.
    std::optional<MessageError> error_message;
};

// What a job sees of the worker.
class JobContext {
  public:
    bool cancelled() const { return cancel_->load(std::memory_order_relaxed); }
    // For code that polls the flag itself (the runner's sweep loop).
    const std::atomic<bool>* cancel_flag() const { return cancel_; }
    // done == total (total > 0) marks every unit of work as run: a cancel that arrives after
    // that reports the job finished, not cancelled.
    void progress(int done, int total, const std::string& label);
    bool all_done() const { return all_done_; }
    void emit(PointRecord point);
    void emit_device(DeviceRecord device);
    // Fails the job with an error that has sentences, such as check_problem's: return what this
    // returns (its English), and the failed event carries the sentences too.
    Error fail(MessageError e);

  private:
    friend class Worker;
    JobContext(std::atomic<bool>* cancel, std::function<void(WorkEvent)> post)
        : cancel_(cancel), post_(std::move(post)) {}
    std::atomic<bool>* cancel_;
    std::function<void(WorkEvent)> post_;
    bool all_done_ = false;
    std::optional<MessageError> failure_;  // fail()'s
};

class Worker {
  public:
    using Job = std::function<Status(JobContext&)>;

    Worker() = default;
    ~Worker();  // cancels and joins: never leaves a thread touching the GPU after exit
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    // Starts `job` on the worker thread; false (and nothing starts) while another job runs.
    // Once drain() has returned a job's last event, start() accepts the next job.
    bool start(Job job);
    void cancel() { cancel_.store(true); }
    bool busy() const { return busy_.load(); }

    // Everything posted since the last call, in order. The last event of a job is finished,
    // cancelled or failed.
    std::vector<WorkEvent> drain();

  private:
    void post(WorkEvent e);
    void join();

    std::thread thread_;
    std::atomic<bool> cancel_{false};
    std::atomic<bool> busy_{false};
    std::mutex mutex_;
    std::vector<WorkEvent> queue_;
};

}  // namespace sml::viewer
