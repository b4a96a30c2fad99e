#include "app/cli/lab_report.h"

#include <algorithm>
#include <cstdio>

#include "app/cli/cli_common.h"
#include "app/cli/report.h"
#include "core/lab/sass_roles.h"

namespace sml::cli {

namespace {

double value_or(const std::map<std::string, double>& v, const char* key, double fallback) {
    auto it = v.find(key);
    return it == v.end() ? fallback : it->second;
}

void print_lines(const SourceLinesRecord& s) {
    if (!s.available) {
        std::printf("  per line   unavailable: %s\n", s.reason.c_str());
        return;
    }
    std::printf("  per line   %zu lines, %zu instructions (CUPTI SASS metrics on %s)%s%s\n",
                s.lines.size(), s.instructions.size(), s.chip.c_str(), s.reason.empty() ? "" : "; ",
                s.reason.c_str());
    std::vector<const LineCounters*> global;
    for (const LineCounters& l : s.lines)
        if (value_or(l.values, lab::role::kGlobalSectors, 0) > 0) global.push_back(&l);
    std::sort(global.begin(), global.end(), [](const LineCounters* a, const LineCounters* b) {
        return value_or(a->values, lab::role::kGlobalSectors, 0) >
               value_or(b->values, lab::role::kGlobalSectors, 0);
    });
    if (global.size() > 8) global.resize(8);
    for (const LineCounters* l : global)
        std::printf("    line %4d  %12.0f global sectors, %5.1f%% coalesced, %12.0f instructions\n",
                    l->line, value_or(l->values, lab::role::kGlobalSectors, 0),
                    value_or(l->values, lab::role::kGlobalSectorEfficiencyPct, 0),
                    value_or(l->values, lab::role::kInstExecuted, 0));
}

}  // namespace

int lab_exit_code(const lab::LabResult& r) {
    if (r.status == lab::status::kOk) return kExitOk;
    if (r.status == lab::status::kBadJob) return kExitBadArgs;
    return kExitFailure;
}

void print_lab_result(const lab::LabResult& r) {
    std::printf("lab: %s: %s\n", r.status.c_str(), r.message.c_str());
    if (!r.hint.empty()) std::printf("hint: %s\n", r.hint.c_str());
    if (r.fault) {
        const lab::FaultInfo& f = *r.fault;
        std::printf("fault: %s%s%s", f.kind.c_str(), f.step.empty() ? "" : " in launch ",
                    f.step.c_str());
        if (f.line > 0)
            std::printf(" at %s:%d (located by %s)", f.file.c_str(), f.line, f.located_by.c_str());
        else
            std::printf(" (line not known)");
        std::printf("\n");
    }
    if (!r.diagnostics.empty()) std::printf("%s", lab::format_diagnostics(r.diagnostics).c_str());
    for (const std::string& o : r.launch_overrides) std::printf("launch override: %s\n", o.c_str());
    for (const auto& [k, v] : r.notes) std::printf("note: %s: %s\n", k.c_str(), v.c_str());
    if (r.session && !r.session->points.empty()) {
        const PointRecord& p = r.session->points.front();
        std::printf("\n");
        print_point(p, r.session->device);
        if (p.edit)
            std::printf("  edit       of %s, %s sha256 %.12s%s%s\n", p.edit->of.c_str(),
                        p.edit->source_name.c_str(), p.edit->source_sha256.c_str(),
                        p.edit->launch.empty() ? "" : ", launch ", p.edit->launch.c_str());
        if (p.source_lines) print_lines(*p.source_lines);
    }
    std::printf("lab: %.1f s (compile %.2f s for %s)\n", r.seconds, r.compile_seconds,
                r.arch.c_str());
}

void print_verdict(const lab::Exercise& e, const lab::ExerciseVerdict& v) {
    std::printf("exercise %s (step %d, %s): %s\n", e.id.c_str(), e.step, e.kernel.c_str(),
                v.passed ? "PASS" : "NOT YET");
    for (const lab::ExerciseCheck& c : v.checks)
        std::printf("  [%s] %s\n", c.passed ? "ok" : "--", c.what.c_str());
    if (!v.diagnostics.empty()) std::printf("%s", lab::format_diagnostics(v.diagnostics).c_str());
    std::printf("%s\n", v.summary.c_str());
    if (!v.passed && !e.hints.empty()) std::printf("hint: %s\n", e.hints.front().c_str());
}

}  // namespace sml::cli
