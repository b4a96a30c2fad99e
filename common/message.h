// A sentence for the learner as data: which sentence (an id) and the parts it carries, so each
// language writes it whole instead of parsing the English back.
//
// The core builds a Message where it explains something (why counters are missing, why two
// sessions do not compare, why a kernel cannot run a problem, why a session file cannot be
// opened) and turns it into English with message_en(); the CLI prints that, byte for byte the
// sentence it always printed. The viewer renders the same Message in the lesson language from
// its own table keyed by id (app/viewer/model/ui_text.cpp, message_text), and a test there fails
// when an id has no Chinese.
//
// A part is another Message: a literal (a number, a name, a file: kept as it is), a phrase (a
// fixed English sentence, such as a registry entry's limit_reason, that a language's table
// translates as a whole), or a sentence of its own. No ImGui, no CUDA: the registry, the core and
// the viewer all include it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/result.h"

namespace sml {

// Every sentence: X(id, English). {0}, {1}, ... are the parts, in order; a template may use a
// part more than once, or leave one out.
#define SML_MESSAGES(X)                                                                          \
    /* Why hardware counters are missing (core/metrics/counter_errors.cpp, the profiler, */      \
    /* the runner): {0} is the CUPTI result's name, {1} the call that returned it. */            \
    X(counters_admin_only,                                                                       \
      "hardware counters are restricted to admin users ({0} from {1}): load the NVIDIA driver "  \
      "with NVreg_RestrictProfilingToAdminUsers=0, or run as root")                              \
    X(counters_other_profiler,                                                                   \
      "another profiler (ncu, nsys, compute-sanitizer, cuda-gdb) is attached ({0} from {1}); "   \
      "run without it to collect counters")                                                      \
    X(counters_vgpu,                                                                             \
      "this is a virtual GPU (vGPU) without profiling rights ({0} from {1}): enable profiling "  \
      "for the VM in the vGPU settings, or run on bare metal")                                   \
    X(counters_mig,                                                                              \
      "this GPU is a MIG instance and its counters cannot be read ({0} from {1}): run on a GPU " \
      "with MIG disabled")                                                                       \
    X(counters_confidential,                                                                     \
      "confidential computing is on, which hides the counters ({0} from {1}): run on a GPU "     \
      "without confidential computing")                                                          \
    X(counters_unsupported_setup,                                                                \
      "this device or setup does not support the CUPTI Range Profiler ({0} from {1}): counters " \
      "need a Turing or newer GPU on bare-metal Linux or Windows")                               \
    X(counters_cupti_too_old,                                                                    \
      "the CUPTI library is too old for this GPU or driver ({0} from {1}): rebuild with a CUDA " \
      "toolkit at least as new as the driver (12.6+)")                                           \
    X(counters_old_api,                                                                          \
      "an older CUPTI profiling API is active in this process ({0} from {1}); run softmaxlab "   \
      "on its own")                                                                              \
    X(counters_busy,                                                                             \
      "the counters are in use by another process, e.g. DCGM profiling ({0} from {1}): pause "   \
      "it (dcgmi profile --pause) or run on an idle GPU")                                        \
    X(counters_unknown_metric,                                                                   \
      "a metric name is not known on this GPU ({0} from {1}): check "                            \
      "core/metrics/metric_table.cpp against this chip")                                         \
    X(counters_other_error,                                                                      \
      "hardware counters unavailable ({0} from {1}): rerun; if it persists, run "                \
      "`softmaxlab-cli device` and report the output")                                           \
    X(counters_disabled_by_env,                                                                  \
      "hardware counters disabled by SML_DISABLE_CUPTI={0}; unset it to collect them")           \
    X(counters_metrics_off, "metrics turned off (--metrics off)")                                \
    X(counters_off_use_default, "hardware counters off (--metrics off); use --metrics default")  \
    X(counters_no_cupti,                                                                         \
      "hardware counters unavailable: softmaxlab was built without CUPTI (needs CUDA 12.6+ "     \
      "with cupti_range_profiler.h); rebuild with -DSML_WITH_CUPTI=ON")                          \
    X(counters_nothing_to_profile, "nothing to profile: the kernel planned no launches")         \
    X(counters_launch_failed,                                                                    \
      "a kernel launch failed during counter replay ({0}): fix the launch; timing is "           \
      "unaffected")                                                                              \
    X(counters_no_values, "the profiler returned no values for the kernel range: rerun")         \
    X(counters_no_device,                                                                        \
      "no CUDA device, so no hardware counters ({0}): run on a machine with an NVIDIA GPU and "  \
      "driver")                                                                                  \
    X(counters_no_devices_found, "0 devices")                                                    \
    X(counters_no_context,                                                                       \
      "could not open a CUDA context for the counters ({0}): check the driver with nvidia-smi")  \
    X(counters_no_current_context,                                                               \
      "no current CUDA context on this thread: call cudaSetDevice first")                        \
    X(counters_no_current_device, "could not read the current CUDA device")                      \
    /* The Range Profiler's support check, per feature (profiler_cupti.cpp). */                  \
    X(counters_old_architecture,                                                                 \
      "this GPU's architecture has no Range Profiler counters: counters need compute "           \
      "capability 7.5 (Turing) or newer")                                                        \
    X(counters_vgpu_not_enabled,                                                                 \
      "this is a virtual GPU (vGPU) without profiling enabled: enable profiling for the VM in "  \
      "the vGPU settings, or run on bare metal")                                                 \
    X(counters_confidential_on,                                                                  \
      "confidential computing is on, which hides the counters: run on a GPU without it")         \
    X(counters_sli, "SLI is enabled, which the profiler does not support: disable it")           \
    X(counters_cmp, "crypto-mining processors (CMP) have no profiler counters")                  \
    X(counters_wsl,                                                                              \
      "counters are not supported under this WSL setup: use a newer driver or Linux")            \
    X(counters_device_unsupported,                                                               \
      "the CUPTI Range Profiler does not support this device or setup: counters need a Turing "  \
      "or newer GPU on bare-metal Linux or Windows")                                             \
    /* Why two sessions cannot be compared (core/chart/session_compare.cpp). */                  \
    X(compare_no_points, "the compared session ({0}) has no measured points")                    \
    X(compare_no_points_hint, "compare with a session recorded by softmaxlab-cli sweep")         \
    X(compare_open_lacks_dtype, "the open session ({0}) has no {1} points (it has: {2})")        \
    X(compare_open_lacks_dtype_hint, "pick a dtype the session holds")                           \
    X(compare_other_lacks_dtype,                                                                 \
      "the compared session ({0}) has no {1} points (it has: {2}): only sessions of the same "   \
      "dtype can be compared")                                                                   \
    X(compare_other_lacks_dtype_hint,                                                            \
      "compare with a session recorded in {0}, or pick a dtype both sessions hold (--dtype)")    \
    X(compare_no_shared_cols, "the two sessions share no N in {0}: {1} has {2}, {3} has {4}")    \
    X(compare_no_shared_cols_hint,                                                               \
      "record the second session at the same N (softmaxlab-cli sweep --cols ...)")               \
    X(cols_one, "N = {0}")                                                                       \
    X(cols_range, "N = {0}..{1} ({2} values)")                                                   \
    /* Why a kernel cannot run a problem (kernels/registry.cpp, check_problem). */               \
    X(device_label, "{0} (compute capability {1}.{2})")                                          \
    X(problem_bad_size, "invalid size {0} x {1}: rows and cols must be >= 1")                    \
    X(problem_bad_size_hint, "give a problem of at least one row of one column")                 \
    X(problem_bad_stride, "row stride ({0} in, {1} out) is smaller than cols = {2}")             \
    X(problem_bad_stride_hint, "strides are in elements and must be >= cols")                    \
    X(problem_no_code, "this build of softmaxlab holds no kernel code for {0}")                  \
    X(problem_no_code_hint,                                                                      \
      "rebuild for this GPU: scripts/build.sh detects it, or pass "                              \
      "-DCMAKE_CUDA_ARCHITECTURES={0} to cmake")                                                 \
    X(problem_old_gpu, "{0} needs compute capability {1}.{2} or newer; {3} is older")            \
    X(problem_old_gpu_why, "{0} needs compute capability {1}.{2} or newer; {3} is older ({4})")  \
    X(problem_old_gpu_hint, "kernels that can run here: {0}")                                    \
    X(problem_dtype, "{0} does not support {1}")                                                 \
    X(problem_dtype_hint, "kernels that do: {0}")                                                \
    X(problem_range, "N = {0} is outside {1}'s range {2}..{3} on {4} ({5})")                     \
    X(problem_range_hint, "kernels that can run N = {0}: {1}")                                   \
    /* A chart's notes on missing counters (core/chart/chart_build.cpp): {0} the kernels, */     \
    /* {1} (or {0}) the reason one of them recorded. */                                          \
    X(chart_counters_missing, "counters unavailable for {0}")                                    \
    X(chart_counters_missing_why, "counters unavailable for {0}: {1}")                           \
    X(chart_predicted_only, "counters unavailable: only predicted bytes are shown")              \
    X(chart_predicted_only_why, "counters unavailable: only predicted bytes are shown ({0})")    \
    /* Why a file cannot be read (core/common/safe_file.cpp, read_file_capped): {0} names the */ \
    /* file as a phrase ("session"), {1} is its path, {2} the system's reason. */                \
    X(file_no_path, "no {0} given (the path is empty)")                                          \
    X(file_pass_path_hint, "pass a file path")                                                   \
    X(file_cannot_open, "cannot open {0} {1}: {2}")                                              \
    X(file_cannot_read, "cannot read {0} {1}: {2}")                                              \
    X(file_check_path_hint, "check the path and that the file is readable")                      \
    X(file_is_directory, "{0} is a directory, not a {1}")                                        \
    X(file_is_directory_hint, "pass the path of a file in it")                                   \
    X(file_not_regular, "{0} is {1}, not a {2}")                                                 \
    X(file_not_regular_hint,                                                                     \
      "softmaxlab reads only regular files (a FIFO or a device could block it or never end); "   \
      "pass a file path")                                                                        \
    X(file_kind_fifo, "a FIFO (named pipe)")                                                     \
    X(file_kind_char_device, "a character device")                                               \
    X(file_kind_block_device, "a block device")                                                  \
    X(file_kind_socket, "a socket")                                                              \
    X(file_kind_symlink, "a symbolic link")                                                      \
    X(file_kind_other, "not a regular file")                                                     \
    X(file_too_large, "{0} {1} is {2}, more than the {3} softmaxlab reads")                      \
    X(file_grew_too_large, "{0} {1} is more than the {2} softmaxlab reads")                      \
    X(file_too_large_hint, "softmaxlab reads {0}s of up to {1}; is this the right file?")        \
    X(file_out_of_memory, "out of memory reading {0} {1} ({2})")                                 \
    X(file_out_of_memory_hint, "close other programs, or use a smaller file")                    \
    X(size_bytes, "{0} bytes")                                                                   \
    /* The system's reasons (strerror), used only where the C library says exactly these. */     \
    X(os_no_such_file, "No such file or directory")                                              \
    X(os_permission_denied, "Permission denied")                                                 \
    X(os_not_a_directory, "Not a directory")                                                     \
    X(os_too_many_links, "Too many levels of symbolic links")                                    \
    X(os_name_too_long, "File name too long")                                                    \
    X(os_io_error, "Input/output error")                                                         \
    /* Why a session file cannot be opened (core/session/session_json.cpp): {0} is the file, */  \
    /* and where the reader found it, {1} its JSON path ("points[3].time.median_ms"). */         \
    X(session_in_file, "{0}: {1}")                                                               \
    X(session_at_path, "{0}: {1}: {2}")                                                          \
    X(session_rerecord_hint,                                                                     \
      "re-record it with `softmaxlab-cli sweep --out <file>.json`, or open one of the recorded " \
      "sessions in assets/sessions/")                                                            \
    X(session_check_path_hint, "check the path; recorded sessions are in assets/sessions/")      \
    X(session_pass_json_hint,                                                                    \
      "pass the session's .json file; recorded sessions are in assets/sessions/")                \
    X(session_out_of_memory_hint, "close other programs, or use a smaller session")              \
    X(session_empty, "empty file, not a softmaxlab session")                                     \
    X(session_truncated, "truncated: the JSON ends unexpectedly after {0} bytes")                \
    X(session_line_column, "line {0}, column {1} (byte {2})")                                    \
    X(session_bare_non_finite, "{0} at {1} is not valid JSON: JSON has no NaN or infinity")      \
    X(session_bare_non_finite_hint,                                                              \
      "write it as a string, as softmaxlab does: \"nan\", \"inf\" or \"-inf\" (with the "        \
      "quotes); in Python, json.dump(..., allow_nan=False) catches this when the file is "       \
      "written")                                                                                 \
    X(session_not_json, "not valid JSON at {0}")                                                 \
    X(session_parse_out_of_memory, "out of memory while parsing ({0} bytes)")                    \
    X(session_unparsable, "could not be parsed: {0}")                                            \
    X(session_read_out_of_memory, "out of memory while reading the session")                     \
    X(session_unexpected_content, "unexpected content: {0}")                                     \
    X(session_load_out_of_memory, "out of memory reading session {0}")                           \
    X(session_not_an_object, "not a softmaxlab session (the top level is not a JSON object)")    \
    X(session_no_schema, "not a softmaxlab session (no integer \"schema_version\" field)")       \
    X(session_schema_unsupported,                                                                \
      "session schema version {0} is not supported (this softmaxlab reads version {1})")         \
    X(session_schema_newer_hint,                                                                 \
      "open it with the newer softmaxlab that wrote it, or re-record it with this one "          \
      "(softmaxlab-cli sweep --out <file>.json)")                                                \
    X(session_schema_older_hint,                                                                 \
      "re-record it with this softmaxlab (softmaxlab-cli sweep --out <file>.json)")              \
    X(session_missing_field, "missing field")                                                    \
    X(session_expected, "expected {0}")                                                          \
    X(session_mistyped, "expected {0}, found {1}")                                               \
    X(session_integer_out_of_range, "integer {0} is out of range")                               \
    X(session_dim_out_of_range, "{0} = {1} is outside 1..2^40 ({2})")                            \
    X(session_unknown_kernel, "unknown kernel '{0}' (this softmaxlab has {1})")                  \
    X(session_unknown_variant, "kernel {0} has no variant '{1}' (its variants: \"\", {2})")      \
    X(session_unknown_variant_default_only,                                                      \
      "kernel {0} has no variant '{1}' (it has only its default, \"\")")                         \
    X(session_unknown_dtype, "unknown dtype '{0}' (fp32, fp16 or bf16)")                         \
    X(session_repeated_point,                                                                    \
      "repeats points[{0}] ({1}, {2}, {3} x {4}): each kernel, variant, dtype and size may "     \
      "appear once")                                                                             \
    /* A JSON value's kind, as the session reader expects or finds it. */                        \
    X(json_an_object, "an object")                                                               \
    X(json_an_array, "an array")                                                                 \
    X(json_a_string, "a string")                                                                 \
    X(json_true_or_false, "true or false")                                                       \
    X(json_an_integer, "an integer")                                                             \
    X(json_a_number_or_non_finite, "a number (or \"nan\", \"inf\", \"-inf\")")                   \
    X(json_three_integers, "an array of 3 integers")                                             \
    X(json_metric_object, "an object of metric name -> number")                                  \
    X(json_dram_object, "an object with dram_read_bytes and dram_write_bytes")                   \
    X(json_null, "null")                                                                         \
    X(json_a_boolean, "a boolean")                                                               \
    X(json_a_number, "a number")

enum class Msg : uint16_t {
    literal,  // a part kept as it is: a number, a name, a path
    phrase,   // a fixed English sentence, translated whole by a language's table
#define SML_MESSAGE_ID(id, en) id,
    SML_MESSAGES(SML_MESSAGE_ID)
#undef SML_MESSAGE_ID
        count_
};

struct Message {
    Msg id = Msg::literal;
    std::string text;            // literal and phrase: the words themselves
    std::vector<Message> parts;  // a sentence's {0}, {1}, ...

    Message() = default;
    Message(std::string literal) : text(std::move(literal)) {}  // NOLINT: parts read naturally
    Message(const char* literal) : text(literal) {}             // NOLINT
    Message(Msg sentence, std::vector<Message> sentence_parts = {})
        : id(sentence), parts(std::move(sentence_parts)) {}

    static Message phrase_of(std::string en) {
        Message m(std::move(en));
        m.id = Msg::phrase;
        return m;
    }
    bool is_sentence() const { return id != Msg::literal && id != Msg::phrase; }
    // Empty: no sentence at all (a literal of no text), as in a record that has no reason.
    bool empty() const { return id == Msg::literal && text.empty(); }
};

// The stable name of a sentence id ("counters_admin_only"), for files and tests; "" for
// literal, phrase and out-of-range values.
inline const char* message_name(Msg id) {
    switch (id) {
#define SML_MESSAGE_NAME(name, en) \
    case Msg::name:                \
        return #name;
        SML_MESSAGES(SML_MESSAGE_NAME)
#undef SML_MESSAGE_NAME
        default:
            return "";
    }
}

// The English template of a sentence id; "" for literal and phrase.
inline const char* message_template_en(Msg id) {
    switch (id) {
#define SML_MESSAGE_EN(name, en) \
    case Msg::name:              \
        return en;
        SML_MESSAGES(SML_MESSAGE_EN)
#undef SML_MESSAGE_EN
        default:
            return "";
    }
}

// The id named `name` (message_name's inverse); false when there is none.
inline bool message_id_of(const std::string& name, Msg* out) {
    for (int i = 0; i < static_cast<int>(Msg::count_); ++i) {
        const Msg id = static_cast<Msg>(i);
        if (!name.empty() && name == message_name(id)) {
            *out = id;
            return true;
        }
    }
    return false;
}

// `tmpl` with each {i} (one or two digits) replaced by part(i), for i < count, in one pass: the
// parts are not read again, so a part's own "{1}" stays as it is, and so does a {i} with no part.
template <class Part>
std::string fill_slots(const std::string& tmpl, size_t count, const Part& part) {
    std::string out;
    for (size_t i = 0; i < tmpl.size(); ++i) {
        const size_t close = tmpl[i] == '{' ? tmpl.find('}', i) : std::string::npos;
        if (close != std::string::npos && close > i + 1 && close - i <= 3 &&
            tmpl.find_first_not_of("0123456789", i + 1) == close) {
            const size_t k = std::stoul(tmpl.substr(i + 1, close - i - 1));
            if (k < count) {
                out += part(k);
                i = close;
                continue;
            }
        }
        out += tmpl[i];
    }
    return out;
}

// The same with the parts as text: fill_slots("{0} of {1}", {"a", "b"}) is "a of b".
inline std::string fill_slots(const std::string& tmpl, const std::vector<std::string>& parts) {
    return fill_slots(tmpl, parts.size(), [&](size_t k) { return parts[k]; });
}

// `m` in one language: a literal as it is, a phrase through `phrase(text)`, a sentence from
// `templ(id)` with each {i} replaced by part i, rendered the same way. A {i} with no part stays.
template <class Templ, class Phrase>
std::string render_message(const Message& m, const Templ& templ, const Phrase& phrase) {
    if (m.id == Msg::literal) return m.text;
    if (m.id == Msg::phrase) return phrase(m.text);
    return fill_slots(templ(m.id), m.parts.size(),
                      [&](size_t k) { return render_message(m.parts[k], templ, phrase); });
}

// `m` in English: the sentence the CLI prints.
inline std::string message_en(const Message& m) {
    return render_message(
        m, [](Msg id) { return message_template_en(id); },
        [](const std::string& en) { return en; });
}

// An Error as sentences: what is wrong and what to do, for the viewer to render in its language.
struct MessageError {
    Message what, hint;
    Error en() const { return Error{message_en(what), message_en(hint)}; }
};

// A failure said as sentences: `said` (when given) gets them, the caller their English.
inline Error said_error(MessageError m, std::optional<MessageError>* said) {
    Error en = m.en();
    if (said) *said = std::move(m);
    return en;
}

}  // namespace sml
