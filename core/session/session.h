// The session model: everything one measurement run produced, as plain data.
//
// A session is what the CLI's `sweep` writes, what the viewer opens and replays, what the charts
// are drawn from and what the lessons' "what you should see" claims are checked against.
// It is stored as versioned JSON (session_json.cpp); nothing else serialises it.
//
// Units are in the field names where they are not obvious: *_ms milliseconds, *_bytes bytes,
// *_gbps 1e9 bytes per second, *_pct percent (0..100).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/message.h"
#include "common/result.h"

namespace sml {

constexpr int kSessionSchemaVersion = 1;

struct DeviceRecord {
    std::string name;  // "NVIDIA H100 80GB HBM3"
    int cc_major = 0, cc_minor = 0;
    int sm_count = 0;
    int64_t l2_bytes = 0;
    int64_t memory_bytes = 0;
    int sm_clock_khz = 0;  // max SM clock from the device properties
    int memory_clock_khz = 0;
    int memory_bus_bits = 0;
    double peak_dram_gbps = 0;  // from clocks x bus width (a datasheet-style ceiling)
    double copy_gbps = 0;       // measured device-to-device copy, same run, (read+write)/time
    int smem_per_block_optin = 0;
    int regs_per_sm = 0;
    std::string driver_version;  // "13.0"
    std::string runtime_version;
    bool counters_available = false;
    std::string counters_reason;  // why not, and the fix, when unavailable
};

struct TimingStats {
    double min_ms = 0, median_ms = 0, max_ms = 0, mean_ms = 0;
    int samples = 0;
    bool l2_flushed = true;  // each sample started from a cold L2
};

// How one launch of a kernel was configured (from cudaFuncGetAttributes + occupancy API).
struct LaunchRecord {
    std::string name;  // "row_max", or the kernel id for single-launch kernels
    // The __global__ function that ran, as its symbol (cudaFuncGetName: mangled), so the code
    // views can show that instantiation's PTX and SASS; "" in sessions recorded before it was
    // kept (optional in the JSON).
    std::string function;
    int grid[3] = {1, 1, 1};
    int block[3] = {1, 1, 1};
    int64_t dynamic_smem_bytes = 0;
    int64_t static_smem_bytes = 0;
    int registers_per_thread = 0;
    int blocks_per_sm = 0;  // occupancy API
    double theoretical_occupancy_pct = 0;
    double median_ms = 0;  // this launch alone (naive breakdown); 0 when not measured
};

// One hardware counter value. `name` is the CUPTI metric name (see core/metrics/metric_table.h).
struct MetricValue {
    std::string name;
    double value = 0;
};

struct MetricsRecord {
    bool available = false;
    std::string reason;  // when unavailable: what happened and how to fix it
    // The same reason as a sentence (common/message.h) for the viewer's languages, where the
    // code that found it said one; empty() otherwise (older sessions, a reason from elsewhere).
    Message reason_message;
    std::string set;  // "default" | "deep" | "off"
    int passes = 0;
    std::vector<MetricValue> values;  // whole kernel (all launches, one range)
    std::map<std::string, std::vector<MetricValue>> per_launch;  // naive: launch name -> values

    std::optional<double> get(const std::string& metric) const;
    // Sets the reason and its English together.
    void set_reason(Message why) {
        reason = message_en(why);
        reason_message = std::move(why);
    }
};

struct PredictedTraffic {
    double dram_read_bytes = 0, dram_write_bytes = 0;
    double global_load_bytes = 0, global_store_bytes = 0;
    double smem_load_bytes = 0, smem_store_bytes = 0;
    std::string read_formula, write_formula;
    std::map<std::string, std::pair<double, double>> per_launch;  // name -> (read, write) bytes
    // When the working set fits in L2, intermediates never reach DRAM, so measured DRAM bytes
    // fall below the formula. The formula stays as it is; this flag and reason explain the gap.
    bool l2_resident = false;
    std::string l2_reason;
};

// A point that measured an edited copy of a kernel (the lab bench, core/lab): `kernel` is then
// the original's id, and this says what ran instead.
struct EditRecord {
    std::string of;             // the registry kernel the edit was made from ("warp")
    std::string source_name;    // "kernels/warp_softmax.cu"
    std::string source_sha256;  // of the edited file's bytes
    std::string launch;         // the @launch overrides applied, "" for the plan's own launches
    std::string label;          // what the learner called it, e.g. "strided load" (may be "")
};

// Counters of one source line (or one instruction), from CUPTI's SASS metrics: values keyed by
// role ("inst_executed", "global_sectors", "global_ideal_sectors", ...; core/lab/sass_roles.h).
struct LineCounters {
    std::string file;
    int line = 0;  // 0: instructions with no line (no line info for them)
    std::map<std::string, double> values;
};
struct InstructionCounters {
    std::string function;  // mangled
    int64_t pc = 0;        // offset in the function, bytes
    int line = 0;
    std::map<std::string, double> values;
};
struct SourceLinesRecord {
    bool available = false;
    std::string reason;  // when unavailable: why, and the fix
    std::string chip;    // "GH100"
    // Optional (written only when set): the file the counters were measured on, by name and
    // SHA-256, so a viewer can tell whether the file on disk is still the one that ran. A sweep's
    // built-in kernels set them (`softmaxlab-cli lab lines`); a lab edit's EditRecord has its own.
    std::string source_name;    // "kernels/warp_softmax.cu"
    std::string source_sha256;  // of that file's bytes
    std::map<std::string, std::string> metric_names;  // role -> the chip's SASS metric name
    std::vector<LineCounters> lines;                  // folded per line, sorted by (file, line)
    std::vector<InstructionCounters> instructions;    // per instruction, for the PTX/SASS views
};

struct PointRecord {
    std::string kernel;   // registry id
    std::string variant;  // "" for the default variant
    int64_t rows = 0, cols = 0;
    std::string dtype = "fp32";
    TimingStats time;
    double gbps = 0;               // 2 * rows * cols * elem_bytes / median time
    double pct_of_copy = 0;        // gbps / DeviceRecord::copy_gbps * 100
    double max_rel_error = 0;      // against the float64 reference
    double max_rowsum_error = 0;   // |sum(row) - 1|, worst row
    int64_t rows_checked = 0;      // rows compared with the reference (a sample in sweeps)
    double tolerance = 0;          // both errors must be <= this (depends on dtype)
    bool within_tolerance = true;  // false: recorded anyway, flagged, and the CLI exits non-zero
    double copy_gbps = 0;          // D2D copy of this point's byte count, same run, same method
    std::vector<LaunchRecord> launches;
    PredictedTraffic predicted;
    MetricsRecord metrics;
    // Optional (JSON keys written only when present): the lab bench's edit, per-line counters.
    std::optional<EditRecord> edit;
    std::optional<SourceLinesRecord> source_lines;
};

struct Session {
    int schema_version = kSessionSchemaVersion;
    std::string created_utc;  // ISO 8601, e.g. "2026-11-22T09:41:00Z"
    std::string command;      // the exact command line that produced it
    std::string host;
    std::map<std::string, std::string> software;  // "softmaxlab", "cuda_runtime", "driver", ...
    DeviceRecord device;
    std::vector<PointRecord> points;
    std::map<std::string, std::string> notes;  // free-form, e.g. "recorded_by": "bench/..."

    // First point matching (kernel, cols, dtype, variant); nullptr if absent.
    const PointRecord* find(const std::string& kernel, int64_t cols,
                            const std::string& dtype = "fp32",
                            const std::string& variant = "") const;
};

// How many times one row length is the other (>= 1): their distance on a log scale, by which the
// viewer takes "the nearest N" (a session without 4096 shows 4000, not 32).
double cols_apart(int64_t a, int64_t b);
// The N of `cols` nearest to `want` on that scale (the first of equals); 0 when cols is empty.
int64_t nearest_cols(const std::vector<int64_t>& cols, int64_t want);

// JSON I/O. Errors name the file and the problem (truncated, not JSON, wrong schema version,
// missing field) and never throw. On failure `said`, when given, gets the error as sentences
// (common/message.h) whose English is the returned Error's: the viewer says them in its language.
Result<Session> load_session(const std::string& path, std::optional<MessageError>* said = nullptr);
Result<Session> parse_session(const std::string& json_text, const std::string& origin,
                              std::optional<MessageError>* said = nullptr);
Status save_session(const std::string& path, const Session& session);  // atomic: temp + rename
std::string session_to_json(const Session& session);

}  // namespace sml
