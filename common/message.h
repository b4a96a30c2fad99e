// A sentence for the learner as data: which sentence (an id) and the parts it carries, so each
// language writes it whole instead of parsing the English back.
//
// The core builds a Message where it explains something (why counters are missing, why two
// sessions do not compare, why a kernel cannot run a problem) and turns it into English with
// message_en(); the CLI prints that, byte for byte the sentence it always printed. The viewer
// renders the same Message in the lesson language from its own table keyed by id
// (app/viewer/model/ui_text.cpp, message_text), and a test there fails when an id has no Chinese.
//
// A part is another Message: a literal (a number, a name, a file: kept as it is), a phrase (a
// fixed English sentence, such as a registry entry's limit_reason, that a language's table
// translates as a whole), or a sentence of its own. No ImGui, no CUDA: the registry, the core and
// the viewer all include it.
#pragma once

#include <cstddef>
#include <cstdint>
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
    X(chart_predicted_only_why, "counters unavailable: only predicted bytes are shown ({0})")

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

}  // namespace sml
