// Evaluating and formatting lesson claims. See lesson_claims.h.
#include "core/lessons/lesson_claims.h"

#include <algorithm>
#include <cstdio>

namespace sml {

namespace {

const char kDramRead[] = "dram__bytes_read.sum";
const char kDramWrite[] = "dram__bytes_write.sum";
const char kRerecordHint[] =
    "re-record the session with a sweep that covers this point (softmaxlab-cli sweep ... "
    "--metrics default), or fix the claim in lessons/lessons.json";

std::string point_name(const LessonClaim& c, const std::string& kernel, int64_t cols) {
    std::string s = kernel + " at N = " + std::to_string(cols);
    if (c.rows > 0) s += ", M = " + std::to_string(c.rows);
    if (!c.variant.empty()) s += " (" + c.variant + ")";
    return s + " " + c.dtype;
}

const PointRecord* find_point(const Session& s, const LessonClaim& c, const std::string& kernel,
                              int64_t cols) {
    for (const PointRecord& p : s.points)
        if (p.kernel == kernel && p.cols == cols && p.dtype == c.dtype && p.variant == c.variant &&
            (c.rows == 0 || p.rows == c.rows))
            return &p;
    return nullptr;
}

Error missing(const LessonClaim& c, const std::string& what) {
    return Error{"claim '" + c.id + "': " + what, kRerecordHint};
}

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// Few digits: the text is read by people, and the range already says how precise it is.
std::string number(double v) {
    double a = v < 0 ? -v : v;
    if (a >= 100) return fmt("%.0f", v);
    if (a >= 10) return fmt("%.1f", v);
    if (a >= 1) return fmt("%.2f", v);
    return fmt("%.3g", v);
}

}  // namespace

bool is_claim_quantity(const std::string& q) {
    static const char* const kQuantities[] = {
        "gbps",   "pct_of_copy", "median_ms", "copy_gbps", "ratio_gbps",   "dram_ratio",
        "metric", "l2_resident", "rank_gbps", "registers", "blocks_per_sm"};
    for (const char* k : kQuantities)
        if (q == k) return true;
    return false;
}

Result<double> evaluate_claim(const LessonClaim& c, const Session& s) {
    if (!is_claim_quantity(c.quantity))
        return Error{"claim '" + c.id + "': unknown quantity '" + c.quantity + "'",
                     "use gbps, pct_of_copy, median_ms, copy_gbps, ratio_gbps, dram_ratio, "
                     "metric, l2_resident, rank_gbps, registers or blocks_per_sm"};
    if (c.quantity == "copy_gbps") {
        if (s.device.copy_gbps <= 0) return missing(c, "the session has no copy bandwidth");
        return s.device.copy_gbps;
    }
    const PointRecord* p = find_point(s, c, c.kernel, c.cols);
    if (!p) return missing(c, "the session has no point for " + point_name(c, c.kernel, c.cols));
    if (c.quantity == "gbps") return p->gbps;
    if (c.quantity == "pct_of_copy") return p->pct_of_copy;
    if (c.quantity == "median_ms") return p->time.median_ms;
    if (c.quantity == "l2_resident") return p->predicted.l2_resident ? 1.0 : 0.0;
    if (c.quantity == "registers" || c.quantity == "blocks_per_sm") {
        if (p->launches.empty())
            return missing(c, point_name(c, c.kernel, c.cols) + " has no launch record");
        const LaunchRecord& l = p->launches.front();
        return c.quantity == "registers" ? l.registers_per_thread : l.blocks_per_sm;
    }
    if (c.quantity == "ratio_gbps") {
        const std::string other = c.other.empty() ? c.kernel : c.other;
        const int64_t other_cols = c.other_cols > 0 ? c.other_cols : c.cols;
        const PointRecord* q = find_point(s, c, other, other_cols);
        const std::string qname = point_name(c, other, other_cols);
        if (!q) return missing(c, "the session has no point for " + qname);
        if (q->gbps <= 0) return missing(c, qname + " has no bandwidth");
        return p->gbps / q->gbps;
    }
    if (c.quantity == "rank_gbps") {
        // A rank against a field with missing runners would flatter the kernel: demand them all.
        for (const std::string& k : c.among)
            if (!find_point(s, c, k, c.cols))
                return missing(c, "the session has no point for " + point_name(c, k, c.cols) +
                                      ", which the ranking needs");
        int rank = 1;
        for (const PointRecord& q : s.points) {
            if (q.cols != c.cols || q.dtype != c.dtype || !q.variant.empty() ||
                (c.rows != 0 && q.rows != c.rows) || q.kernel == c.kernel)
                continue;
            bool counted = c.among.empty() ||
                           std::find(c.among.begin(), c.among.end(), q.kernel) != c.among.end();
            if (counted && q.gbps > p->gbps) ++rank;
        }
        return static_cast<double>(rank);
    }
    // The rest need hardware counters.
    if (!p->metrics.available)
        return missing(c, point_name(c, c.kernel, c.cols) + " has no hardware counters (" +
                              p->metrics.reason + ")");
    if (c.quantity == "metric") {
        std::optional<double> v = p->metrics.get(c.metric);
        if (!v) return missing(c, point_name(c, c.kernel, c.cols) + " has no metric " + c.metric);
        return *v;
    }
    // dram_ratio
    std::optional<double> rd = p->metrics.get(kDramRead), wr = p->metrics.get(kDramWrite);
    if (!rd || !wr) return missing(c, point_name(c, c.kernel, c.cols) + " has no DRAM byte counts");
    double predicted = p->predicted.dram_read_bytes + p->predicted.dram_write_bytes;
    if (predicted <= 0)
        return missing(c, point_name(c, c.kernel, c.cols) + " has no predicted traffic");
    return (*rd + *wr) / predicted;
}

std::string format_claim_value(const LessonClaim& c, double v) {
    if (c.quantity == "gbps" || c.quantity == "copy_gbps") return fmt("%.0f GB/s", v);
    if (c.quantity == "pct_of_copy") return fmt("%.0f%%", v);
    if (c.quantity == "median_ms") return number(v) + " ms";
    if (c.quantity == "ratio_gbps" || c.quantity == "dram_ratio") return number(v) + "x";
    if (c.quantity == "l2_resident") return v >= 0.5 ? "yes" : "no";
    if (c.quantity == "rank_gbps") return fmt("#%.0f", v);
    if (c.quantity == "registers" || c.quantity == "blocks_per_sm") return fmt("%.0f", v);
    return number(v);
}

std::string format_claim_range(const LessonClaim& c) {
    if (c.min == c.max) return format_claim_value(c, c.min);
    if (c.quantity == "rank_gbps" && c.min == 1) return fmt("#1-#%.0f", c.max);
    std::string lo = format_claim_value(c, c.min), hi = format_claim_value(c, c.max);
    // A yes/no quantity has no range: min 0, max 1 admits either answer, not "no-yes".
    if (c.quantity == "l2_resident") return lo == hi ? lo : "yes or no";
    // "3.5-4.5x" reads better than "3.5x-4.5x": keep a shared unit suffix once.
    const std::string unit = hi.substr(hi.find_last_of("0123456789") + 1);
    if (!unit.empty() && lo.size() > unit.size() &&
        lo.compare(lo.size() - unit.size(), unit.size(), unit) == 0)
        lo.resize(lo.size() - unit.size());
    return lo + "-" + hi;
}

std::string fill_lesson_text(const std::string& md, const LessonStep& step, const Session* session,
                             const std::function<std::string(const LessonAnchor&)>& anchor_text) {
    std::string out;
    size_t pos = 0;
    while (pos < md.size()) {
        size_t claim = md.find("{{claim:", pos);
        size_t anchor = anchor_text ? md.find("[[", pos) : std::string::npos;
        size_t next = std::min(claim, anchor);
        if (next == std::string::npos) break;
        out += md.substr(pos, next - pos);
        const bool is_claim = next == claim;
        size_t end = md.find(is_claim ? "}}" : "]]", next);
        if (end == std::string::npos) {  // parse_lesson_text rejects this; keep it as written
            out += md.substr(next, 2);
            pos = next + 2;
            continue;
        }
        std::string inner = md.substr(next + 2, end - next - 2);
        std::string repl = md.substr(next, end + 2 - next);  // unknown refs stay visible
        if (is_claim) {
            if (const LessonClaim* c = step.find_claim(inner.substr(6))) {
                Result<double> v = session ? evaluate_claim(*c, *session) : Error{};
                repl = v ? format_claim_value(*c, *v) : format_claim_range(*c);
            }
        } else if (const LessonAnchor* a = step.find_anchor(inner)) {
            repl = anchor_text(*a);
        }
        out += repl;
        pos = end + 2;
    }
    out += md.substr(std::min(pos, md.size()));
    return out;
}

}  // namespace sml
