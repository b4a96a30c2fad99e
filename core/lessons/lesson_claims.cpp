// Evaluating and formatting lesson claims. See lesson_claims.h.
#include "core/lessons/lesson_claims.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/lessons/lesson_values.h"

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
                              int64_t cols, const std::string& variant) {
    for (const PointRecord& p : s.points)
        if (p.kernel == kernel && p.cols == cols && p.dtype == c.dtype && p.variant == variant &&
            (c.rows == 0 || p.rows == c.rows))
            return &p;
    return nullptr;
}

const PointRecord* find_point(const Session& s, const LessonClaim& c, const std::string& kernel,
                              int64_t cols) {
    return find_point(s, c, kernel, cols, c.variant);
}

// Sum of two counters of a point; nullopt when neither was read.
std::optional<double> metric_sum(const PointRecord& p, const char* a, const char* b) {
    std::optional<double> x = p.metrics.get(a), y = p.metrics.get(b);
    if (!x && !y) return std::nullopt;
    return x.value_or(0) + y.value_or(0);
}

const char kConflictsLd[] = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
const char kConflictsSt[] = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
const char kWavefrontsLd[] = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
const char kWavefrontsSt[] = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";

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
        "gbps",           "pct_of_copy", "median_ms",        "copy_gbps",      "ratio_gbps",
        "dram_ratio",     "metric",      "l2_resident",      "rank_gbps",      "registers",
        "blocks_per_sm",  "dram_bytes",  "dram_bytes_ratio", "bank_conflicts", "conflict_share",
        "masked_fraction"};
    for (const char* k : kQuantities)
        if (q == k) return true;
    return false;
}

Result<double> evaluate_claim(const LessonClaim& c, const Session& s) {
    if (!is_claim_quantity(c.quantity))
        return Error{"claim '" + c.id + "': unknown quantity '" + c.quantity + "'",
                     "use gbps, pct_of_copy, median_ms, copy_gbps, ratio_gbps, dram_ratio, "
                     "metric, l2_resident, rank_gbps, registers, blocks_per_sm, dram_bytes, "
                     "dram_bytes_ratio, bank_conflicts, conflict_share or masked_fraction"};
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
    if (c.quantity == "masked_fraction") {
        // BLOCK = next_pow2(N) lanes, N of them real: the rest is padding.
        int64_t block = 1;
        while (block < p->cols) block *= 2;
        return 1.0 - static_cast<double>(p->cols) / static_cast<double>(block);
    }
    if (c.quantity == "registers" || c.quantity == "blocks_per_sm") {
        if (p->launches.empty())
            return missing(c, point_name(c, c.kernel, c.cols) + " has no launch record");
        const LaunchRecord& l = p->launches.front();
        return c.quantity == "registers" ? l.registers_per_thread : l.blocks_per_sm;
    }
    // The denominator of a ratio: `other` (default the same kernel) at `other_cols` (default
    // the same N), in `other_variant` (default the claim's variant).
    const std::string other = c.other.empty() ? c.kernel : c.other;
    const int64_t other_cols = c.other_cols > 0 ? c.other_cols : c.cols;
    const std::string other_variant = c.other_variant.empty() ? c.variant : c.other_variant;
    std::string qname = other + " at N = " + std::to_string(other_cols);
    if (!other_variant.empty()) qname += " (" + other_variant + ")";
    if (c.quantity == "ratio_gbps") {
        const PointRecord* q = find_point(s, c, other, other_cols, other_variant);
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
    if (c.quantity == "bank_conflicts" || c.quantity == "conflict_share") {
        std::optional<double> conflicts = metric_sum(*p, kConflictsLd, kConflictsSt);
        if (!conflicts)
            return missing(c, point_name(c, c.kernel, c.cols) + " has no bank-conflict counters");
        if (c.quantity == "bank_conflicts") return *conflicts;
        std::optional<double> waves = metric_sum(*p, kWavefrontsLd, kWavefrontsSt);
        if (!waves || *waves <= 0)
            return missing(
                c, point_name(c, c.kernel, c.cols) + " has no shared-memory wavefront counters");
        return *conflicts / *waves;
    }
    if (c.quantity == "dram_bytes" || c.quantity == "dram_bytes_ratio") {
        std::optional<double> mine = metric_sum(*p, kDramRead, kDramWrite);
        if (!mine) return missing(c, point_name(c, c.kernel, c.cols) + " has no DRAM byte counts");
        if (c.quantity == "dram_bytes") return *mine;
        const PointRecord* q = find_point(s, c, other, other_cols, other_variant);
        if (!q) return missing(c, "the session has no point for " + qname);
        std::optional<double> theirs =
            q->metrics.available ? metric_sum(*q, kDramRead, kDramWrite) : std::nullopt;
        if (!theirs || *theirs <= 0) return missing(c, qname + " has no DRAM byte counts");
        return *mine / *theirs;
    }
    // dram_ratio
    std::optional<double> rd = p->metrics.get(kDramRead), wr = p->metrics.get(kDramWrite);
    if (!rd || !wr) return missing(c, point_name(c, c.kernel, c.cols) + " has no DRAM byte counts");
    double predicted = p->predicted.dram_read_bytes + p->predicted.dram_write_bytes;
    if (predicted <= 0)
        return missing(c, point_name(c, c.kernel, c.cols) + " has no predicted traffic");
    return (*rd + *wr) / predicted;
}

// Counts as people say them: 101 M, 72.2 k, 950.
std::string count_text(double v) {
    const double a = std::fabs(v);
    if (a >= 1e9) return number(v / 1e9) + " G";
    if (a >= 1e6) return number(v / 1e6) + " M";
    if (a >= 1e4) return number(v / 1e3) + " k";
    return fmt("%.0f", v);
}

std::string format_claim_value(const LessonClaim& c, double v) {
    if (c.quantity == "gbps" || c.quantity == "copy_gbps") return fmt("%.0f GB/s", v);
    if (c.quantity == "pct_of_copy") return fmt("%.0f%%", v);
    if (c.quantity == "median_ms") return number(v) + " ms";
    if (c.quantity == "ratio_gbps" || c.quantity == "dram_ratio" ||
        c.quantity == "dram_bytes_ratio")
        return number(v) + "x";
    if (c.quantity == "l2_resident") return v >= 0.5 ? "yes" : "no";
    if (c.quantity == "rank_gbps") return fmt("#%.0f", v);
    if (c.quantity == "registers" || c.quantity == "blocks_per_sm") return fmt("%.0f", v);
    if (c.quantity == "conflict_share" || c.quantity == "masked_fraction")
        return fmt(v != 0 && std::fabs(v) < 0.1 ? "%.1f%%" : "%.0f%%", v * 100);
    if (c.quantity == "bank_conflicts") return count_text(v);
    if (c.quantity == "dram_bytes") return number(v / 1e9) + " GB";
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

const char kHiddenClaimText[] = "` ? `";

std::string claim_text(const LessonClaim& c, const LessonFill& fill) {
    const bool zh = fill.lang == "zh";
    if (!claim_applies(c, fill.session)) return zh ? "（此 GPU 上没有）" : "(not on this GPU)";
    if (fill.hide_claims) return kHiddenClaimText;
    Result<double> v = fill.session ? evaluate_claim(c, *fill.session) : Error{};
    if (!v) return format_claim_range(c);
    std::string out = format_claim_value(c, *v);
    // The open session disagrees with the text (another GPU, a re-recorded run): say what the
    // text promised rather than let the sentence claim something the screen does not show.
    if (!(*v >= c.min && *v <= c.max))
        out += zh ? "（本课预期 " + format_claim_range(c) + "）"
                  : " (the lesson expects " + format_claim_range(c) + ")";
    return out;
}

std::string fill_lesson_text(const std::string& md, const LessonStep& step,
                             const LessonFill& fill) {
    std::string out;
    size_t pos = 0;
    while (pos < md.size()) {
        size_t value = md.find("{{", pos);
        size_t anchor = fill.anchor_text ? md.find("[[", pos) : std::string::npos;
        size_t next = std::min(value, anchor);
        if (next == std::string::npos) break;
        out += md.substr(pos, next - pos);
        const bool is_value = next == value;
        size_t end = md.find(is_value ? "}}" : "]]", next);
        if (end == std::string::npos) {  // parse_lesson_text rejects this; keep it as written
            out += md.substr(next, 2);
            pos = next + 2;
            continue;
        }
        std::string inner = md.substr(next + 2, end - next - 2);
        std::string repl = md.substr(next, end + 2 - next);  // unknown refs stay visible
        if (is_value && inner.rfind("claim:", 0) == 0) {
            if (const LessonClaim* c = step.find_claim(inner.substr(6)))
                repl = claim_text(*c, fill);
        } else if (is_value) {
            if (is_lesson_value_ref(inner)) repl = lesson_value_text(inner, fill.session);
        } else if (const LessonAnchor* a = step.find_anchor(inner)) {
            repl = fill.anchor_text(*a);
        }
        out += repl;
        pos = end + 2;
    }
    out += md.substr(std::min(pos, md.size()));
    return out;
}

std::string fill_lesson_text(const std::string& md, const LessonStep& step, const Session* session,
                             const std::function<std::string(const LessonAnchor&)>& anchor_text) {
    LessonFill fill;
    fill.session = session;
    fill.anchor_text = anchor_text;
    return fill_lesson_text(md, step, fill);
}

GuessScore score_guess(const LessonClaim& c, double guess, double value) {
    GuessScore g;
    if (!std::isfinite(guess) || !std::isfinite(value)) return g;
    const bool points = c.quantity == "pct_of_copy";
    const bool shares = c.quantity == "conflict_share" || c.quantity == "masked_fraction";
    if (points || shares) {
        // Percentages: how many points off. Shares are shown as percentages too.
        g.in_points = true;
        g.off = std::fabs(guess - value) * (shares ? 100 : 1);
        g.grade = g.off <= 5    ? GuessScore::Grade::spot_on
                  : g.off <= 15 ? GuessScore::Grade::close
                                : GuessScore::Grade::far;
        return g;
    }
    if (guess <= 0 || value <= 0) {
        // A ratio needs two positive numbers; 0 against 0 (no conflicts) is exact.
        g.off = guess == value ? 1 : INFINITY;
        g.grade = guess == value ? GuessScore::Grade::spot_on : GuessScore::Grade::far;
        return g;
    }
    g.off = std::max(guess / value, value / guess);
    g.grade = g.off <= 1.15  ? GuessScore::Grade::spot_on
              : g.off <= 1.5 ? GuessScore::Grade::close
                             : GuessScore::Grade::far;
    return g;
}

std::string guess_score_text(const GuessScore& g, const std::string& lang) {
    const bool zh = lang == "zh";
    const char* grade = g.grade == GuessScore::Grade::spot_on ? (zh ? "很准" : "spot on")
                        : g.grade == GuessScore::Grade::close ? (zh ? "接近" : "close")
                                                              : (zh ? "差得较远" : "far off");
    std::string off;
    if (g.in_points)
        off = fmt("%.0f", g.off) + (zh ? " 个百分点" : " points off");
    else if (!std::isfinite(g.off))
        off = zh ? "无法比较" : "not comparable";
    else
        off = (zh ? "相差 " : "") + number(g.off) + (zh ? " 倍" : "x off");
    return std::string(grade) + (zh ? "（" : " (") + off + (zh ? "）" : ")");
}

}  // namespace sml
