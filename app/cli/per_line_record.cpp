// softmaxlab-cli: per-line counters for the built-in kernels (per_line_record.h).
#include "app/cli/per_line_record.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <set>

#include "core/lab/bytes.h"
#include "core/lab/edit_store.h"
#include "core/lab/lab_child.h"
#include "core/lab/lab_job.h"

namespace sml::cli {

namespace {

// The session's point of (kernel, variant) at the first N of `cols` it has one at.
PointRecord* point_at(Session* s, const std::string& kernel, const std::string& variant,
                      const std::vector<int64_t>& cols) {
    for (int64_t n : cols) {
        PointRecord* any = nullptr;
        for (PointRecord& p : s->points) {
            if (p.kernel != kernel || p.variant != variant || p.cols != n || p.edit) continue;
            if (p.dtype == "fp32") return &p;
            if (!any) any = &p;
        }
        if (any) return any;
    }
    return nullptr;
}

std::string join(const std::vector<int64_t>& v) {
    std::string s;
    for (int64_t n : v) s += (s.empty() ? "" : ",") + std::to_string(n);
    return s;
}

std::string utc_now() {
    const std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buf;
}

}  // namespace

Result<PerLineSummary> record_source_lines(Session* session,
                                           const std::vector<const KernelInfo*>& kernels,
                                           const PerLineOptions& options) {
    PerLineSummary summary;
    const std::string root = options.repo_root.empty() ? SML_SOURCE_DIR : options.repo_root;
    std::string device;
    int index = 0;
    const int total = static_cast<int>(kernels.size());
    for (const KernelInfo* k : kernels) {
        ++index;
        const std::string tag = "[" + std::to_string(index) + "/" + std::to_string(total) + "] " +
                                k->id;
        auto skip = [&](const std::string& what, const std::string& why) {
            std::printf("%s: no per-line counters: %s\n", what.c_str(), why.c_str());
            std::fflush(stdout);
            summary.problems.push_back(what + ": " + why);
        };
        if (!k->lab_editable) {
            skip(tag, "its source is not a single lesson file the lab bench can compile");
            continue;
        }
        Result<std::string> source = lab::read_file_capped(root + "/" + k->lesson_source(),
                                                           lab::EditStore::kMaxEditBytes);
        if (!source) {
            skip(tag, source.error().message);
            continue;
        }
        // The default form is variant 0 and has "" in sessions; the others go by name.
        const int variants = std::max<int>(1, static_cast<int>(k->variants.size()));
        for (int v = 0; v < variants; ++v) {
            const std::string name = v == 0 ? "" : k->variants[v];
            const std::string what = tag + (name.empty() ? "" : "/" + name);
            PointRecord* point = point_at(session, k->id, name, options.cols);
            if (!point) {
                skip(what, "the session has no point at N=" + join(options.cols));
                continue;
            }
            lab::LabJob job = lab::make_job(k->id, k->lesson_source(), *source);
            job.label = "per-line counters of the lesson file as it is";
            job.rows = point->rows;
            job.cols = point->cols;
            job.dtype = point->dtype;
            job.variant = v;
            job.metrics = "off";  // the point already has its whole-kernel counters
            job.per_line = true;
            job.samples = 3;
            job.warmup = 1;
            lab::ChildJobOptions child;
            child.time_limit_s = options.time_limit_s;
            child.locate_faults = false;
            const auto t0 = std::chrono::steady_clock::now();
            const lab::LabResult r = lab::run_job_in_child(job, child);
            const double secs =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (r.status == lab::status::kNoGpu)
                return Error{"per-line counters need a GPU: " + r.message, r.hint};
            const PointRecord* measured =
                r.session && !r.session->points.empty() ? &r.session->points.front() : nullptr;
            if (r.status != lab::status::kOk || !measured || !measured->source_lines) {
                skip(what, r.status + ": " + r.message);
                continue;
            }
            if (device.empty()) device = r.session->device.name;
            SourceLinesRecord lines = *measured->source_lines;
            lines.source_name = k->lesson_source();
            lines.source_sha256 = lab::sha256_hex(*source);
            point->source_lines = lines;
            if (!lines.available) {
                skip(what, lines.reason);
                continue;
            }
            ++summary.recorded;
            std::set<std::string> functions;
            for (const InstructionCounters& i : lines.instructions) functions.insert(i.function);
            std::printf(
                "%s %lld x %lld %s: %zu lines, %zu instructions in %zu kernel(s) of %zu launch(es), "
                "%.0f%% of copy (%.1f s)\n",
                what.c_str(), (long long)point->rows, (long long)point->cols, point->dtype.c_str(),
                lines.lines.size(), lines.instructions.size(), functions.size(),
                measured->launches.size(), measured->pct_of_copy, secs);
            if (functions.size() < measured->launches.size())
                std::printf("    (fewer kernels than launches: a kernel launched twice, or CUPTI "
                            "reported some kernels' instructions not at all)\n");
            std::fflush(stdout);
        }
    }
    if (summary.recorded > 0) {
        std::string note = "per-line counters (CUPTI SASS metrics, folded per source line) at the first N of " +
                           join(options.cols) + " each kernel has, on " + device + ", " + utc_now() +
                           ": each kernel's lesson file compiled by NVRTC with line info and run "
                           "as a lab job at its point's shape; the timings above are the sweep's";
        if (const char* commit = std::getenv("SML_GIT_COMMIT"); commit && *commit)
            note += "; softmaxlab commit " + std::string(commit);
        session->notes["source_lines"] = note;
    }
    return summary;
}

}  // namespace sml::cli
