// LabJob and LabResult <-> JSON. Unknown keys are ignored; a missing key takes its default, except
// the ones a job cannot do without (kernel, source), and "schema" must name the document.
#include "core/lab/lab_job.h"

#include <nlohmann/json.hpp>

#include "core/lab/bytes.h"
#include "core/lab/edit_store.h"
#include "kernels/registry.h"

namespace sml::lab {
namespace {

using json = nlohmann::ordered_json;

const char* const kJobSchema = "softmaxlab-lab-job";
const char* const kResultSchema = "softmaxlab-lab-result";
constexpr size_t kMaxDocumentBytes = 256 << 20;  // a result carries PTX, a cubin and records

json override_to_json(const LaunchOverride& o) {
    json j{{"step", o.step}};
    if (o.threads) j["threads"] = *o.threads;
    if (o.block) j["block"] = *o.block;
    if (o.smem) j["smem"] = *o.smem;
    if (o.grid) j["grid"] = *o.grid;
    if (o.line) j["line"] = o.line;
    return j;
}

LaunchOverride override_from_json(const json& j) {
    LaunchOverride o;
    o.step = j.value("step", "");
    if (j.contains("threads")) o.threads = j.at("threads").get<int64_t>();
    if (j.contains("block")) o.block = j.at("block").get<std::vector<int64_t>>();
    if (j.contains("smem")) o.smem = j.at("smem").get<int64_t>();
    if (j.contains("grid")) o.grid = j.at("grid").get<int64_t>();
    o.line = j.value("line", 0);
    return o;
}

json diag_to_json(const Diagnostic& d) {
    return json{{"file", d.file},
                {"line", d.line},
                {"column", d.column},
                {"severity", d.severity},
                {"message", d.message}};
}

Diagnostic diag_from_json(const json& j) {
    return Diagnostic{j.value("file", ""), j.value("line", 0), j.value("column", 0),
                      j.value("severity", "error"), j.value("message", "")};
}

template <class F>
auto guarded(const std::string& origin, const char* what, F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const std::exception& e) {
        return Error{origin + ": not a valid " + std::string(what) + ": " + e.what(),
                     "write it with softmaxlab (the viewer, or softmaxlab-cli lab), or see "
                     "docs/lab.md for its fields"};
    }
}

json parse_document(const std::string& text, const std::string& origin, const char* schema) {
    json j = json::parse(text);
    if (!j.is_object() || j.value("schema", "") != schema)
        throw std::runtime_error(std::string("\"schema\" is not \"") + schema + "\"");
    if (j.value("version", 0) != kLabSchemaVersion)
        throw std::runtime_error("version " + std::to_string(j.value("version", 0)) +
                                 " is not the version this softmaxlab reads (" +
                                 std::to_string(kLabSchemaVersion) + ")");
    (void)origin;
    return j;
}

}  // namespace

std::string lab_kernel_ids() {
    std::string out;
    for (const KernelInfo& k : registry())
        if (k.lab_editable) out += (out.empty() ? "" : ", ") + std::string(k.id);
    return out;
}

const KernelInfo* lab_kernel(const std::string& id, LabResult* r) {
    const KernelInfo* k = find_kernel(id);
    if (k && k->lab_editable) return k;
    if (r) {
        r->status = status::kBadJob;
        r->message = "'" + id + "' is not a kernel the lab can edit";
        r->hint = "edit one of the lesson kernels: " + lab_kernel_ids();
    }
    return nullptr;
}

LabJob make_job(const std::string& kernel, const std::string& source_name,
                const std::string& source) {
    LabJob j;
    j.kernel = kernel;
    j.source_name = source_name;
    j.source = source;
    return j;
}

std::string job_to_json(const LabJob& job) {
    json launch = json::array();
    for (const LaunchOverride& o : job.launch) launch.push_back(override_to_json(o));
    json j{{"schema", kJobSchema},
           {"version", kLabSchemaVersion},
           {"kernel", job.kernel},
           {"source_name", job.source_name},
           {"label", job.label},
           {"launch", launch},
           {"problem", {{"rows", job.rows}, {"cols", job.cols}, {"dtype", job.dtype}}},
           {"variant", job.variant},
           {"metrics", job.metrics},
           {"per_line", job.per_line},
           {"samples", job.samples},
           {"warmup", job.warmup},
           {"seed", job.seed},
           {"check_rows", job.check_rows},
           {"arch", job.arch},
           {"mode", job.mode},
           {"source", job.source}};
    return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

Result<LabJob> parse_job(const std::string& text, const std::string& origin) {
    return guarded(origin, "lab job", [&]() -> Result<LabJob> {
        const json j = parse_document(text, origin, kJobSchema);
        LabJob job;
        job.kernel = j.at("kernel").get<std::string>();
        job.source = j.at("source").get<std::string>();
        job.source_name = j.value("source_name", "");
        job.label = j.value("label", "");
        if (j.contains("launch"))
            for (const json& o : j.at("launch")) job.launch.push_back(override_from_json(o));
        if (j.contains("problem")) {
            const json& p = j.at("problem");
            job.rows = p.value("rows", job.rows);
            job.cols = p.value("cols", job.cols);
            job.dtype = p.value("dtype", job.dtype);
        }
        job.variant = j.value("variant", job.variant);
        job.metrics = j.value("metrics", job.metrics);
        job.per_line = j.value("per_line", job.per_line);
        job.samples = j.value("samples", job.samples);
        job.warmup = j.value("warmup", job.warmup);
        job.seed = j.value("seed", job.seed);
        job.check_rows = j.value("check_rows", job.check_rows);
        job.arch = j.value("arch", job.arch);
        job.mode = j.value("mode", job.mode);
        if (job.mode != "measure" && job.mode != "check")
            return Error{origin + ": mode \"" + job.mode + "\" is not measure or check",
                         "see docs/lab.md"};
        if (job.source_name.empty()) {
            const KernelInfo* k = find_kernel(job.kernel);
            job.source_name = k ? k->lesson_source() : job.kernel + ".cu";
        }
        return job;
    });
}

std::string result_to_json(const LabResult& r) {
    json diags = json::array();
    for (const Diagnostic& d : r.diagnostics) diags.push_back(diag_to_json(d));
    json kernels = json::array();
    for (const CompiledKernel& k : r.kernels)
        kernels.push_back(json{{"expression", k.expression}, {"lowered", k.lowered}});
    json records = json::array();
    for (const SassRecord& s : r.sass_records) {
        json values = json::object();
        for (const auto& [k, v] : s.values) values[k] = v;
        records.push_back(json{{"cubin_crc", s.cubin_crc},
                               {"function", s.function},
                               {"pc", s.pc},
                               {"values", values}});
    }
    json j{{"schema", kResultSchema},
           {"version", kLabSchemaVersion},
           {"status", r.status},
           {"message", r.message},
           {"hint", r.hint}};
    if (r.fault) {
        const FaultInfo& f = *r.fault;
        j["fault"] = json{{"kind", f.kind}, {"step", f.step}, {"function", f.function},
                          {"file", f.file}, {"line", f.line}, {"located_by", f.located_by}};
    }
    j["compile"] = json{{"arch", r.arch},
                        {"seconds", r.compile_seconds},
                        {"diagnostics", diags},
                        {"log", r.compile_log},
                        {"kernels", kernels},
                        {"ptx", r.ptx},
                        {"cubin_base64", base64_encode(r.cubin)}};
    j["launch_overrides"] = r.launch_overrides;
    j["session"] = r.session ? json::parse(session_to_json(*r.session)) : json(nullptr);
    j["sass_records"] = records;
    j["cubin_crc"] = r.cubin_crc;
    j["seconds"] = r.seconds;
    json notes = json::object();
    for (const auto& [k, v] : r.notes) notes[k] = v;
    j["notes"] = notes;
    return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

Result<LabResult> parse_result(const std::string& text, const std::string& origin) {
    return guarded(origin, "lab result", [&]() -> Result<LabResult> {
        const json j = parse_document(text, origin, kResultSchema);
        LabResult r;
        r.status = j.at("status").get<std::string>();
        r.message = j.value("message", "");
        r.hint = j.value("hint", "");
        if (j.contains("fault") && j.at("fault").is_object()) {
            const json& f = j.at("fault");
            r.fault =
                FaultInfo{f.value("kind", ""), f.value("step", ""), f.value("function", ""),
                          f.value("file", ""), f.value("line", 0),  f.value("located_by", "")};
        }
        if (j.contains("compile")) {
            const json& c = j.at("compile");
            r.arch = c.value("arch", "");
            r.compile_seconds = c.value("seconds", 0.0);
            for (const json& d : c.value("diagnostics", json::array()))
                r.diagnostics.push_back(diag_from_json(d));
            r.compile_log = c.value("log", "");
            for (const json& k : c.value("kernels", json::array()))
                r.kernels.push_back(
                    CompiledKernel{k.value("expression", ""), k.value("lowered", "")});
            r.ptx = c.value("ptx", "");
            std::optional<std::string> cubin = base64_decode(c.value("cubin_base64", ""));
            if (!cubin) return Error{origin + ": compile.cubin_base64 is not base64", ""};
            r.cubin = *cubin;
        }
        r.launch_overrides = j.value("launch_overrides", std::vector<std::string>{});
        if (j.contains("session") && j.at("session").is_object()) {
            Result<Session> s = parse_session(j.at("session").dump(), origin + " (session)");
            if (!s) return s.error();
            r.session = *s;
        }
        for (const json& s : j.value("sass_records", json::array())) {
            SassRecord rec;
            rec.cubin_crc = s.value("cubin_crc", 0u);
            rec.function = s.value("function", "");
            rec.pc = s.value("pc", 0u);
            for (auto it = s.at("values").begin(); it != s.at("values").end(); ++it)
                rec.values[it.key()] = it->get<double>();
            r.sass_records.push_back(std::move(rec));
        }
        r.cubin_crc = j.value("cubin_crc", 0u);
        r.seconds = j.value("seconds", 0.0);
        if (j.contains("notes"))
            for (auto it = j.at("notes").begin(); it != j.at("notes").end(); ++it)
                r.notes[it.key()] = it->get<std::string>();
        return r;
    });
}

Result<LabJob> load_job(const std::string& path) {
    Result<std::string> text = read_file_capped(path, kMaxDocumentBytes);
    if (!text) return text.error();
    return parse_job(*text, path);
}
Status save_job(const std::string& path, const LabJob& job) {
    return write_file_atomically(path, job_to_json(job));
}
Result<LabResult> load_result(const std::string& path) {
    Result<std::string> text = read_file_capped(path, kMaxDocumentBytes);
    if (!text) return text.error();
    return parse_result(*text, path);
}
Status save_result(const std::string& path, const LabResult& result) {
    return write_file_atomically(path, result_to_json(result));
}

}  // namespace sml::lab
