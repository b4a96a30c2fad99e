// Session <-> JSON (nlohmann). The only code that knows the file format.
//
// Format notes:
//   - "schema_version" comes first and is checked before anything else is read.
//   - Key order follows session.h (ordered_json), so a diff of two sessions reads naturally.
//   - JSON has no NaN or infinity; non-finite numbers (a broken kernel's error) are written as
//     the strings "nan", "inf" and "-inf" and read back as such.
//   - Every field written is required when reading, except "notes", a point's "edit" and
//     "source_lines" (the lab bench's additions, written only when there is something to say)
//     and metrics' "reason_message" (the reason as a sentence for the viewer's languages,
//     written only when the code that found the reason said one; dropped on reading when it is
//     malformed or its English is not "reason").
//     A missing or mistyped field is reported with its JSON path, e.g. "points[3].time.median_ms".
//   - Values are checked, not only types: schema_version exactly, rows and cols in 1..2^40,
//     kernels, variants and dtypes the registry knows, and no (kernel, variant, dtype, rows,
//     cols) twice. Every string is capped (core/common/text_cap.h) before anything draws it.
//   - Files are read through core/common/safe_file.h: regular files only, at most
//     kMaxSessionFileBytes, written through a fresh side file and renamed.
// Nothing here throws out of the API: nlohmann's exceptions and std::bad_alloc are caught and
// turned into Errors. Every error is built as sentences (common/message.h, the session_* ids) and
// its English is what the CLI prints; load_session and parse_session hand the sentences to the
// viewer, which says them in the lesson language.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <map>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <tuple>

#include "core/common/safe_file.h"
#include "core/common/text_cap.h"
#include "core/session/session.h"
#include "kernels/registry.h"

namespace sml {
namespace {

using json = nlohmann::ordered_json;

// A key as it appears in a JSON path in a message ("points[3].metrics.values.<key>").
std::string path_key(const std::string& key) {
    return cap_text(key, 80);
}

const Msg kRerecordHint = Msg::session_rerecord_hint;

// ---------------------------------------------------------------------------------------------
// Writing.

json number(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return v;
}

json metric_values(const std::vector<MetricValue>& values) {
    json o = json::object();
    for (const MetricValue& m : values) o[m.name] = number(m.value);
    return o;
}

json string_map(const std::map<std::string, std::string>& m) {
    json o = json::object();
    for (const auto& [k, v] : m) o[k] = v;
    return o;
}

json to_json(const DeviceRecord& d) {
    return json{{"name", d.name},
                {"cc_major", d.cc_major},
                {"cc_minor", d.cc_minor},
                {"sm_count", d.sm_count},
                {"l2_bytes", d.l2_bytes},
                {"memory_bytes", d.memory_bytes},
                {"sm_clock_khz", d.sm_clock_khz},
                {"memory_clock_khz", d.memory_clock_khz},
                {"memory_bus_bits", d.memory_bus_bits},
                {"peak_dram_gbps", number(d.peak_dram_gbps)},
                {"copy_gbps", number(d.copy_gbps)},
                {"smem_per_block_optin", d.smem_per_block_optin},
                {"regs_per_sm", d.regs_per_sm},
                {"driver_version", d.driver_version},
                {"runtime_version", d.runtime_version},
                {"counters_available", d.counters_available},
                {"counters_reason", d.counters_reason}};
}

json to_json(const TimingStats& t) {
    return json{{"min_ms", number(t.min_ms)}, {"median_ms", number(t.median_ms)},
                {"max_ms", number(t.max_ms)}, {"mean_ms", number(t.mean_ms)},
                {"samples", t.samples},       {"l2_flushed", t.l2_flushed}};
}

json to_json(const LaunchRecord& l) {
    json o{{"name", l.name},
           {"grid", {l.grid[0], l.grid[1], l.grid[2]}},
           {"block", {l.block[0], l.block[1], l.block[2]}},
           {"dynamic_smem_bytes", l.dynamic_smem_bytes},
           {"static_smem_bytes", l.static_smem_bytes},
           {"registers_per_thread", l.registers_per_thread},
           {"blocks_per_sm", l.blocks_per_sm},
           {"theoretical_occupancy_pct", number(l.theoretical_occupancy_pct)},
           {"median_ms", number(l.median_ms)}};
    if (!l.function.empty()) o["function"] = l.function;  // optional: older sessions lack it
    return o;
}

// A sentence (common/message.h): {"id": name, "parts": [...]}, a literal part as a string, a
// phrase as {"phrase": English}.
json to_json(const Message& m) {
    if (m.id == Msg::literal) return m.text;
    if (m.id == Msg::phrase) return json{{"phrase", m.text}};
    json parts = json::array();
    for (const Message& part : m.parts) parts.push_back(to_json(part));
    return json{{"id", message_name(m.id)}, {"parts", parts}};
}

// to_json's inverse; false on anything else (an unknown id, too deep, too many parts).
bool message_from_json(const json& j, int depth, Message* out) {
    if (j.is_string()) {
        *out = Message(cap_text(j.get<std::string>()));
        return true;
    }
    if (!j.is_object() || depth > 4) return false;
    if (auto phrase = j.find("phrase"); phrase != j.end()) {
        if (!phrase->is_string() || j.size() != 1) return false;
        *out = Message::phrase_of(cap_text(phrase->get<std::string>()));
        return true;
    }
    auto id = j.find("id");
    auto parts = j.find("parts");
    Msg msg;
    if (id == j.end() || !id->is_string() || !message_id_of(id->get<std::string>(), &msg) ||
        parts == j.end() || !parts->is_array() || parts->size() > 8)
        return false;
    *out = Message(msg);
    for (const json& part : *parts) {
        out->parts.emplace_back();
        if (!message_from_json(part, depth + 1, &out->parts.back())) return false;
    }
    return true;
}

json to_json(const MetricsRecord& m) {
    json per = json::object();
    for (const auto& [name, values] : m.per_launch) per[name] = metric_values(values);
    json doc{{"available", m.available},
             {"reason", m.reason},
             {"set", m.set},
             {"passes", m.passes},
             {"values", metric_values(m.values)},
             {"per_launch", per}};
    if (m.reason_message.is_sentence()) doc["reason_message"] = to_json(m.reason_message);
    return doc;
}

json to_json(const PredictedTraffic& p) {
    json per = json::object();
    for (const auto& [name, rw] : p.per_launch)
        per[name] =
            json{{"dram_read_bytes", number(rw.first)}, {"dram_write_bytes", number(rw.second)}};
    return json{{"dram_read_bytes", number(p.dram_read_bytes)},
                {"dram_write_bytes", number(p.dram_write_bytes)},
                {"global_load_bytes", number(p.global_load_bytes)},
                {"global_store_bytes", number(p.global_store_bytes)},
                {"smem_load_bytes", number(p.smem_load_bytes)},
                {"smem_store_bytes", number(p.smem_store_bytes)},
                {"read_formula", p.read_formula},
                {"write_formula", p.write_formula},
                {"per_launch", per},
                {"l2_resident", p.l2_resident},
                {"l2_reason", p.l2_reason}};
}

json to_json(const EditRecord& e) {
    return json{{"of", e.of},
                {"source_name", e.source_name},
                {"source_sha256", e.source_sha256},
                {"launch", e.launch},
                {"label", e.label}};
}

json number_map(const std::map<std::string, double>& values) {
    json o = json::object();
    for (const auto& [k, v] : values) o[k] = number(v);
    return o;
}

json to_json(const SourceLinesRecord& r) {
    json lines = json::array();
    for (const LineCounters& l : r.lines)
        lines.push_back(json{{"file", l.file}, {"line", l.line}, {"values", number_map(l.values)}});
    json instructions = json::array();
    for (const InstructionCounters& i : r.instructions)
        instructions.push_back(json{{"function", i.function},
                                    {"pc", i.pc},
                                    {"line", i.line},
                                    {"values", number_map(i.values)}});
    json o{{"available", r.available},
           {"reason", r.reason},
           {"chip", r.chip},
           {"metric_names", string_map(r.metric_names)},
           {"lines", lines},
           {"instructions", instructions}};
    if (!r.source_name.empty()) o["source_name"] = r.source_name;        // optional
    if (!r.source_sha256.empty()) o["source_sha256"] = r.source_sha256;  // optional
    return o;
}

json to_json(const PointRecord& p) {
    json launches = json::array();
    for (const LaunchRecord& l : p.launches) launches.push_back(to_json(l));
    json doc = json{{"kernel", p.kernel},
                {"variant", p.variant},
                {"rows", p.rows},
                {"cols", p.cols},
                {"dtype", p.dtype},
                {"time", to_json(p.time)},
                {"gbps", number(p.gbps)},
                {"pct_of_copy", number(p.pct_of_copy)},
                {"copy_gbps", number(p.copy_gbps)},
                {"max_rel_error", number(p.max_rel_error)},
                {"max_rowsum_error", number(p.max_rowsum_error)},
                {"rows_checked", p.rows_checked},
                {"tolerance", number(p.tolerance)},
                {"within_tolerance", p.within_tolerance},
                {"launches", launches},
                {"predicted", to_json(p.predicted)},
                {"metrics", to_json(p.metrics)}};
    if (p.edit) doc["edit"] = to_json(*p.edit);
    if (p.source_lines) doc["source_lines"] = to_json(*p.source_lines);
    return doc;
}

// ---------------------------------------------------------------------------------------------
// Reading. A Reader walks the document and remembers the first problem with its JSON path;
// after the first failure every getter returns false, so callers can read straight through.

class Reader {
  public:
    explicit Reader(std::string origin) : origin_(std::move(origin)) {}

    bool failed() const { return failed_; }
    // The failure's English. Keys in the path can be long; the message stays one readable line.
    Error error() const {
        return Error{cap_text(message_en(said_.what), 1000), message_en(said_.hint)};
    }
    const MessageError& said() const { return said_; }

    void fail(const std::string& path, Message problem) {
        if (failed_) return;
        failed_ = true;
        said_ = MessageError{
            {Msg::session_at_path, {origin_, cap_text(path, 1000), std::move(problem)}},
            kRerecordHint};
    }

    const json* field(const json& obj, const std::string& path, const char* key) {
        if (failed_) return nullptr;
        const std::string at = path.empty() ? key : path + "." + key;
        auto it = obj.find(key);
        if (it == obj.end()) {
            fail(at, Msg::session_missing_field);
            return nullptr;
        }
        at_ = at;
        return &*it;
    }

    bool object(const json& obj, const std::string& path, const char* key, const json** out) {
        const json* v = field(obj, path, key);
        if (!v) return false;
        if (!v->is_object()) return mistyped(Msg::json_an_object, *v);
        *out = v;
        return true;
    }
    bool array(const json& obj, const std::string& path, const char* key, const json** out) {
        const json* v = field(obj, path, key);
        if (!v) return false;
        if (!v->is_array()) return mistyped(Msg::json_an_array, *v);
        *out = v;
        return true;
    }
    // Calls read(element, its path) on each element of the array at `key`, every one of which
    // must be an object; stops at the first problem.
    template <class Read>
    void objects(const json& obj, const std::string& path, const char* key, Read read) {
        const json* items = nullptr;
        if (!array(obj, path, key, &items)) return;
        const std::string base = path.empty() ? key : path + "." + key;
        for (size_t i = 0; i < items->size() && !failed_; ++i) {
            const std::string at = base + "[" + std::to_string(i) + "]";
            if (!(*items)[i].is_object())
                return fail(at, Message(Msg::session_expected, {Msg::json_an_object}));
            read((*items)[i], at);
        }
    }
    bool get(const json& obj, const std::string& path, const char* key, std::string* out) {
        const json* v = field(obj, path, key);
        if (!v) return false;
        if (!v->is_string()) return mistyped(Msg::json_a_string, *v);
        *out = cap_text(v->get_ref<const std::string&>());
        return true;
    }
    bool get(const json& obj, const std::string& path, const char* key, bool* out) {
        const json* v = field(obj, path, key);
        if (!v) return false;
        if (!v->is_boolean()) return mistyped(Msg::json_true_or_false, *v);
        *out = v->get<bool>();
        return true;
    }
    bool get(const json& obj, const std::string& path, const char* key, int64_t* out) {
        const json* v = field(obj, path, key);
        if (!v) return false;
        if (!v->is_number_integer()) return mistyped(Msg::json_an_integer, *v);
        // 2^63 .. 2^64-1 parse as unsigned; get<int64_t> would wrap them to negatives.
        if (v->is_number_unsigned() && v->get<uint64_t>() > uint64_t(INT64_MAX)) {
            fail(at_,
                 Message(Msg::session_integer_out_of_range, {std::to_string(v->get<uint64_t>())}));
            return false;
        }
        *out = v->get<int64_t>();
        return true;
    }
    bool get(const json& obj, const std::string& path, const char* key, int* out) {
        int64_t v = 0;
        if (!get(obj, path, key, &v)) return false;
        if (v < INT32_MIN || v > INT32_MAX) {
            fail(at_, Message(Msg::session_integer_out_of_range, {std::to_string(v)}));
            return false;
        }
        *out = int(v);
        return true;
    }
    bool get(const json& obj, const std::string& path, const char* key, double* out) {
        const json* v = field(obj, path, key);
        return v && to_double(*v, at_, out);
    }
    bool to_double(const json& v, const std::string& at, double* out) {
        at_ = at;
        if (v.is_number()) {
            *out = v.get<double>();
            return true;
        }
        if (v.is_string()) {
            const std::string s = v.get<std::string>();
            if (s == "nan") return *out = NAN, true;
            if (s == "inf") return *out = INFINITY, true;
            if (s == "-inf") return *out = -INFINITY, true;
        }
        return mistyped(Msg::json_a_number_or_non_finite, v);
    }
    bool int3(const json& obj, const std::string& path, const char* key, int out[3]) {
        const json* v = field(obj, path, key);
        if (!v) return false;
        if (!v->is_array() || v->size() != 3) return mistyped(Msg::json_three_integers, *v);
        for (int i = 0; i < 3; ++i) {
            const json& e = (*v)[size_t(i)];
            if (!e.is_number_integer()) return mistyped(Msg::json_three_integers, *v);
            const int64_t x = e.get<int64_t>();
            if (x < INT32_MIN || x > INT32_MAX || (e.is_number_unsigned() && x < 0)) {
                fail(at_, Message(Msg::session_integer_out_of_range, {e.dump()}));
                return false;
            }
            out[i] = int(x);
        }
        return true;
    }
    bool strings(const json& obj, const std::string& path, const char* key,
                 std::map<std::string, std::string>* out) {
        const json* o = nullptr;
        if (!object(obj, path, key, &o)) return false;
        const std::string at = path.empty() ? key : path + "." + key;
        for (auto it = o->begin(); it != o->end(); ++it) {
            if (!it->is_string()) {
                at_ = at + "." + path_key(it.key());
                return mistyped(Msg::json_a_string, *it);
            }
            (*out)[cap_text(it.key())] = cap_text(it->get_ref<const std::string&>());
        }
        return true;
    }
    bool metrics(const json& o, const std::string& at, std::vector<MetricValue>* out) {
        if (!o.is_object()) {
            at_ = at;
            return mistyped(Msg::json_metric_object, o);
        }
        for (auto it = o.begin(); it != o.end(); ++it) {
            MetricValue m;
            m.name = cap_text(it.key());
            if (!to_double(*it, at + "." + path_key(m.name), &m.value)) return false;
            out->push_back(m);
        }
        return true;
    }

  private:
    static Msg type_name(const json& v) {
        if (v.is_null()) return Msg::json_null;
        if (v.is_boolean()) return Msg::json_a_boolean;
        if (v.is_number()) return Msg::json_a_number;
        if (v.is_string()) return Msg::json_a_string;
        if (v.is_array()) return Msg::json_an_array;
        return Msg::json_an_object;
    }
    bool mistyped(Msg expected, const json& v) {
        fail(at_, Message(Msg::session_mistyped, {expected, type_name(v)}));
        return false;
    }

    std::string origin_;
    bool failed_ = false;
    MessageError said_;
    std::string at_;
};

void read_device(Reader& r, const json& o, const std::string& p, DeviceRecord* d) {
    r.get(o, p, "name", &d->name);
    r.get(o, p, "cc_major", &d->cc_major);
    r.get(o, p, "cc_minor", &d->cc_minor);
    r.get(o, p, "sm_count", &d->sm_count);
    r.get(o, p, "l2_bytes", &d->l2_bytes);
    r.get(o, p, "memory_bytes", &d->memory_bytes);
    r.get(o, p, "sm_clock_khz", &d->sm_clock_khz);
    r.get(o, p, "memory_clock_khz", &d->memory_clock_khz);
    r.get(o, p, "memory_bus_bits", &d->memory_bus_bits);
    r.get(o, p, "peak_dram_gbps", &d->peak_dram_gbps);
    r.get(o, p, "copy_gbps", &d->copy_gbps);
    r.get(o, p, "smem_per_block_optin", &d->smem_per_block_optin);
    r.get(o, p, "regs_per_sm", &d->regs_per_sm);
    r.get(o, p, "driver_version", &d->driver_version);
    r.get(o, p, "runtime_version", &d->runtime_version);
    r.get(o, p, "counters_available", &d->counters_available);
    r.get(o, p, "counters_reason", &d->counters_reason);
}

void read_time(Reader& r, const json& o, const std::string& p, TimingStats* t) {
    r.get(o, p, "min_ms", &t->min_ms);
    r.get(o, p, "median_ms", &t->median_ms);
    r.get(o, p, "max_ms", &t->max_ms);
    r.get(o, p, "mean_ms", &t->mean_ms);
    r.get(o, p, "samples", &t->samples);
    r.get(o, p, "l2_flushed", &t->l2_flushed);
}

void read_launch(Reader& r, const json& o, const std::string& p, LaunchRecord* l) {
    r.get(o, p, "name", &l->name);
    r.int3(o, p, "grid", l->grid);
    r.int3(o, p, "block", l->block);
    r.get(o, p, "dynamic_smem_bytes", &l->dynamic_smem_bytes);
    r.get(o, p, "static_smem_bytes", &l->static_smem_bytes);
    r.get(o, p, "registers_per_thread", &l->registers_per_thread);
    r.get(o, p, "blocks_per_sm", &l->blocks_per_sm);
    r.get(o, p, "theoretical_occupancy_pct", &l->theoretical_occupancy_pct);
    r.get(o, p, "median_ms", &l->median_ms);
    if (o.contains("function")) r.get(o, p, "function", &l->function);  // optional
}

void read_predicted(Reader& r, const json& o, const std::string& p, PredictedTraffic* t) {
    r.get(o, p, "dram_read_bytes", &t->dram_read_bytes);
    r.get(o, p, "dram_write_bytes", &t->dram_write_bytes);
    r.get(o, p, "global_load_bytes", &t->global_load_bytes);
    r.get(o, p, "global_store_bytes", &t->global_store_bytes);
    r.get(o, p, "smem_load_bytes", &t->smem_load_bytes);
    r.get(o, p, "smem_store_bytes", &t->smem_store_bytes);
    r.get(o, p, "read_formula", &t->read_formula);
    r.get(o, p, "write_formula", &t->write_formula);
    const json* per = nullptr;
    if (r.object(o, p, "per_launch", &per)) {
        for (auto it = per->begin(); it != per->end() && !r.failed(); ++it) {
            const std::string name = cap_text(it.key());
            const std::string at = p + ".per_launch." + path_key(name);
            if (!it->is_object()) {
                r.fail(at, Message(Msg::session_expected, {Msg::json_dram_object}));
                break;
            }
            std::pair<double, double> rw;
            r.get(*it, at, "dram_read_bytes", &rw.first);
            r.get(*it, at, "dram_write_bytes", &rw.second);
            t->per_launch[name] = rw;
        }
    }
    r.get(o, p, "l2_resident", &t->l2_resident);
    r.get(o, p, "l2_reason", &t->l2_reason);
}

void read_metrics(Reader& r, const json& o, const std::string& p, MetricsRecord* m) {
    r.get(o, p, "available", &m->available);
    r.get(o, p, "reason", &m->reason);
    // Optional: the reason as a sentence, kept only where it says exactly what "reason" says
    // (so every language tells the same story); otherwise the English alone is shown.
    if (auto said = o.find("reason_message"); said != o.end()) {
        Message why;
        if (message_from_json(*said, 0, &why) && why.is_sentence() && message_en(why) == m->reason)
            m->reason_message = std::move(why);
    }
    r.get(o, p, "set", &m->set);
    r.get(o, p, "passes", &m->passes);
    const json* values = nullptr;
    if (r.object(o, p, "values", &values)) r.metrics(*values, p + ".values", &m->values);
    const json* per = nullptr;
    if (r.object(o, p, "per_launch", &per)) {
        for (auto it = per->begin(); it != per->end() && !r.failed(); ++it) {
            const std::string name = cap_text(it.key());
            r.metrics(*it, p + ".per_launch." + path_key(name), &m->per_launch[name]);
        }
    }
}

bool read_number_map(Reader& r, const json& o, const std::string& p,
                     std::map<std::string, double>* out) {
    const json* values = nullptr;
    if (!r.object(o, p, "values", &values)) return false;
    for (auto it = values->begin(); it != values->end(); ++it) {
        double v = 0;
        if (!r.to_double(*it, p + ".values." + it.key(), &v)) return false;
        (*out)[it.key()] = v;
    }
    return true;
}

void read_source_lines(Reader& r, const json& o, const std::string& p, SourceLinesRecord* s) {
    r.get(o, p, "available", &s->available);
    r.get(o, p, "reason", &s->reason);
    r.get(o, p, "chip", &s->chip);
    r.strings(o, p, "metric_names", &s->metric_names);
    if (o.contains("source_name")) r.get(o, p, "source_name", &s->source_name);        // optional
    if (o.contains("source_sha256")) r.get(o, p, "source_sha256", &s->source_sha256);  // optional
    r.objects(o, p, "lines", [&](const json& e, const std::string& at) {
        LineCounters l;
        r.get(e, at, "file", &l.file);
        r.get(e, at, "line", &l.line);
        read_number_map(r, e, at, &l.values);
        s->lines.push_back(std::move(l));
    });
    r.objects(o, p, "instructions", [&](const json& e, const std::string& at) {
        InstructionCounters c;
        r.get(e, at, "function", &c.function);
        r.get(e, at, "pc", &c.pc);
        r.get(e, at, "line", &c.line);
        read_number_map(r, e, at, &c.values);
        s->instructions.push_back(std::move(c));
    });
}

void read_point(Reader& r, const json& o, const std::string& p, PointRecord* pt) {
    r.get(o, p, "kernel", &pt->kernel);
    r.get(o, p, "variant", &pt->variant);
    r.get(o, p, "rows", &pt->rows);
    r.get(o, p, "cols", &pt->cols);
    r.get(o, p, "dtype", &pt->dtype);
    const json* sub = nullptr;
    if (r.object(o, p, "time", &sub)) read_time(r, *sub, p + ".time", &pt->time);
    r.get(o, p, "gbps", &pt->gbps);
    r.get(o, p, "pct_of_copy", &pt->pct_of_copy);
    r.get(o, p, "copy_gbps", &pt->copy_gbps);
    r.get(o, p, "max_rel_error", &pt->max_rel_error);
    r.get(o, p, "max_rowsum_error", &pt->max_rowsum_error);
    r.get(o, p, "rows_checked", &pt->rows_checked);
    r.get(o, p, "tolerance", &pt->tolerance);
    r.get(o, p, "within_tolerance", &pt->within_tolerance);
    r.objects(o, p, "launches", [&](const json& e, const std::string& at) {
        LaunchRecord l;
        read_launch(r, e, at, &l);
        pt->launches.push_back(l);
    });
    if (r.object(o, p, "predicted", &sub))
        read_predicted(r, *sub, p + ".predicted", &pt->predicted);
    if (r.object(o, p, "metrics", &sub)) read_metrics(r, *sub, p + ".metrics", &pt->metrics);
    if (o.contains("edit") && r.object(o, p, "edit", &sub)) {  // optional
        EditRecord e;
        const std::string at = p + ".edit";
        r.get(*sub, at, "of", &e.of);
        r.get(*sub, at, "source_name", &e.source_name);
        r.get(*sub, at, "source_sha256", &e.source_sha256);
        r.get(*sub, at, "launch", &e.launch);
        r.get(*sub, at, "label", &e.label);
        pt->edit = e;
    }
    if (o.contains("source_lines") && r.object(o, p, "source_lines", &sub))  // optional
        read_source_lines(r, *sub, p + ".source_lines", &pt->source_lines.emplace());
}

// Values a well-typed point can still get wrong. A kernel this softmaxlab does not know would be
// drawn as a line of its own with no range, source or lesson; rows or cols of 0, negative or
// 2^64 would turn into nonsense (or infinite) bandwidths and axis ranges.
constexpr int64_t kMaxSessionDim = int64_t(1) << 40;

void check_point(Reader& r, const std::string& p, const PointRecord& pt) {
    if (r.failed()) return;
    for (const auto& [key, v] : {std::pair{"rows", pt.rows}, std::pair{"cols", pt.cols}})
        if (v < 1 || v > kMaxSessionDim) {
            r.fail(p + "." + key,
                   Message(Msg::session_dim_out_of_range,
                           {key, std::to_string(v), std::to_string(kMaxSessionDim)}));
            return;
        }
    const KernelInfo* k = find_kernel(pt.kernel);
    if (!k) {
        r.fail(p + ".kernel",
               Message(Msg::session_unknown_kernel, {quote_short(pt.kernel), kernel_ids()}));
        return;
    }
    if (!pt.variant.empty() &&
        std::find(k->variants.begin(), k->variants.end(), pt.variant) == k->variants.end()) {
        std::string names;
        for (const std::string& n : k->variants) names += (names.empty() ? "" : ", ") + n;
        r.fail(p + ".variant", names.empty()
                                   ? Message(Msg::session_unknown_variant_default_only,
                                             {pt.kernel, quote_short(pt.variant)})
                                   : Message(Msg::session_unknown_variant,
                                             {pt.kernel, quote_short(pt.variant), names}));
        return;
    }
    if (pt.dtype != "fp32" && pt.dtype != "fp16" && pt.dtype != "bf16")
        r.fail(p + ".dtype", Message(Msg::session_unknown_dtype, {quote_short(pt.dtype)}));
}

// "<origin>: <problem>", with `hint`.
Error in_file(const std::string& origin, Message problem, Message hint,
              std::optional<MessageError>* said) {
    return said_error({{Msg::session_in_file, {origin, std::move(problem)}}, std::move(hint)},
                      said);
}

Result<Session> read_session(const json& doc, const std::string& origin,
                             std::optional<MessageError>* said) {
    Reader r(origin);
    Session s;
    if (!doc.is_object()) return in_file(origin, Msg::session_not_an_object, kRerecordHint, said);
    auto version = doc.find("schema_version");
    if (version == doc.end() || !version->is_number_integer())
        return in_file(origin, Msg::session_no_schema, kRerecordHint, said);
    // Compared exactly, as written: get<int>() would read 4294967297 (2^32 + 1) as 1. (The
    // parser stores every non-negative integer as unsigned, negative ones as signed.)
    const uint64_t want = uint64_t(kSessionSchemaVersion);
    const bool same = version->is_number_unsigned() && version->get<uint64_t>() == want;
    const bool newer = version->is_number_unsigned() && version->get<uint64_t>() > want;
    if (!same)
        return in_file(origin,
                       Message(Msg::session_schema_unsupported,
                               {version->dump(), std::to_string(kSessionSchemaVersion)}),
                       newer ? Msg::session_schema_newer_hint : Msg::session_schema_older_hint,
                       said);
    r.get(doc, "", "created_utc", &s.created_utc);
    r.get(doc, "", "command", &s.command);
    r.get(doc, "", "host", &s.host);
    r.strings(doc, "", "software", &s.software);
    const json* sub = nullptr;
    if (r.object(doc, "", "device", &sub)) read_device(r, *sub, "device", &s.device);
    // (kernel, variant, dtype, rows, cols, edit hash) -> the first point's index
    using PointKey = std::tuple<std::string, std::string, std::string, int64_t, int64_t, std::string>;
    std::map<PointKey, size_t> seen;
    r.objects(doc, "", "points", [&](const json& e, const std::string& at) {
        PointRecord p;
        read_point(r, e, at, &p);
        check_point(r, at, p);
        if (r.failed()) return;
        // The same measurement twice would be drawn twice and make "the point at N" ambiguous.
        // An edit (the lab bench) is its own kernel: keyed by its source's hash.
        const std::string edit = p.edit ? p.edit->source_sha256 : std::string();
        const auto key = std::make_tuple(p.kernel, p.variant, p.dtype, p.rows, p.cols, edit);
        const auto [first, fresh] = seen.emplace(key, s.points.size());  // every earlier one kept
        if (!fresh) {
            return r.fail(at, Message(Msg::session_repeated_point,
                                      {std::to_string(first->second),
                                       p.kernel + (p.variant.empty() ? "" : "/" + p.variant),
                                       p.dtype, std::to_string(p.rows), std::to_string(p.cols)}));
        }
        s.points.push_back(std::move(p));
    });
    if (doc.contains("notes")) r.strings(doc, "", "notes", &s.notes);  // optional
    if (r.failed()) {
        if (said) *said = r.said();
        return r.error();
    }
    return s;
}

}  // namespace

std::string session_to_json(const Session& s) {
    json points = json::array();
    for (const PointRecord& p : s.points) points.push_back(to_json(p));
    json doc{{"schema_version", s.schema_version},
             {"created_utc", s.created_utc},
             {"command", s.command},
             {"host", s.host},
             {"software", string_map(s.software)},
             {"device", to_json(s.device)},
             {"points", points},
             {"notes", string_map(s.notes)}};
    // Replace invalid UTF-8 (a host name, a command line) instead of throwing.
    return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

namespace {

// "line 12, column 7 (byte 80)" of the 1-based byte offset `byte` in `text`.
Message line_column(const std::string& text, size_t byte) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i + 1 < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return Message(Msg::session_line_column,
                   {std::to_string(line), std::to_string(column), std::to_string(byte)});
}

// The bare word the parser stopped in (NaN, Infinity, -inf, ...) as written; "" if none.
// `byte` is nlohmann's 1-based offset of the last character it read.
std::string bare_word_at(const std::string& text, size_t byte) {
    if (byte == 0 || byte > text.size()) return "";
    auto letter = [&](size_t i) { return std::isalpha(static_cast<unsigned char>(text[i])) != 0; };
    size_t begin = byte - 1, end = byte - 1;
    while (begin > 0 && letter(begin - 1)) --begin;
    if (begin > 0 && text[begin - 1] == '-') --begin;
    if (end < text.size() && text[end] == '-') ++end;
    while (end < text.size() && letter(end)) ++end;
    return text.substr(begin, std::min<size_t>(end - begin, 16));
}

bool is_bare_non_finite(std::string word) {
    for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const char* bare : {"nan", "-nan", "infinity", "-infinity", "inf", "-inf"})
        if (word == bare) return true;
    return false;
}

}  // namespace

Result<Session> parse_session(const std::string& text, const std::string& origin_path,
                              std::optional<MessageError>* said) {
    if (said) said->reset();
    const std::string origin = quote_short(origin_path);
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        return in_file(origin, Msg::session_empty, kRerecordHint, said);
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        // nlohmann reports the byte where parsing stopped; at the end of the text that means the
        // document was cut off (an interrupted write or copy).
        if (e.byte >= text.size())
            return in_file(origin, Message(Msg::session_truncated, {std::to_string(text.size())}),
                           kRerecordHint, said);
        const Message where = line_column(text, e.byte);
        // Python's json.dump and JavaScript's printers write NaN and Infinity bare, but JSON has
        // no such values. Say so, and how to fix the file by hand: no GPU needed.
        const std::string word = bare_word_at(text, e.byte);
        if (is_bare_non_finite(word))
            return in_file(origin, Message(Msg::session_bare_non_finite, {word, where}),
                           Msg::session_bare_non_finite_hint, said);
        return in_file(origin, Message(Msg::session_not_json, {where}), kRerecordHint, said);
    } catch (const std::bad_alloc&) {
        return in_file(origin,
                       Message(Msg::session_parse_out_of_memory, {std::to_string(text.size())}),
                       Msg::session_out_of_memory_hint, said);
    } catch (const std::exception& e) {
        return in_file(origin, Message(Msg::session_unparsable, {cap_text(e.what(), 300)}),
                       kRerecordHint, said);
    }
    try {
        return read_session(doc, origin, said);
    } catch (const std::bad_alloc&) {
        return in_file(origin, Msg::session_read_out_of_memory, Msg::session_out_of_memory_hint,
                       said);
    } catch (const std::exception& e) {  // defensive: the Reader checks types before get<>
        return in_file(origin, Message(Msg::session_unexpected_content, {cap_text(e.what(), 300)}),
                       kRerecordHint, said);
    }
}

Result<Session> load_session(const std::string& path, std::optional<MessageError>* said) {
    if (said) said->reset();
    std::optional<MessageError> unread;  // why the file cannot be read, as sentences
    Result<std::string> text = read_file_capped(path, kMaxSessionFileBytes, "session", &unread);
    if (!text) {
        if (!unread) return text.error();
        // Where to find a session instead.
        if (unread->hint.id == Msg::file_check_path_hint)
            unread->hint = Message(Msg::session_check_path_hint);
        if (unread->what.id == Msg::file_is_directory)
            unread->hint = Message(Msg::session_pass_json_hint);
        return said_error(std::move(*unread), said);
    }
    try {
        return parse_session(*text, path, said);
    } catch (const std::bad_alloc&) {  // building the Error itself, or the Session's copy
        return said_error({{Msg::session_load_out_of_memory, {quote_short(path)}},
                           Msg::session_out_of_memory_hint},
                          said);
    }
}

Status save_session(const std::string& path, const Session& session) {
    std::string text;
    try {
        text = session_to_json(session);
    } catch (const std::bad_alloc&) {
        return Error{"cannot write session " + quote_short(path) + ": out of memory",
                     "close other programs and save again"};
    }
    // Through a fresh side file renamed over the target: the old file stays intact until the new
    // one is complete, and no other file is touched.
    return write_file_atomic(path, text, "session");
}

}  // namespace sml
