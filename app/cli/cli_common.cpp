#include "app/cli/cli_common.h"

#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "app/cli/commands.h"
#include "core/common/parse_number.h"
#include "core/common/safe_file.h"
#include "core/common/text_cap.h"
#include "kernels/registry.h"

namespace sml::cli {

void print_error(const std::string& message, const std::string& hint) {
    std::fprintf(stderr, "error: %s\n", message.c_str());
    if (!hint.empty()) std::fprintf(stderr, "hint: %s\n", hint.c_str());
}

CLI::Validator non_empty_path() {
    return CLI::Validator(
        [](std::string& path) {
            if (path.empty()) return std::string("the path is empty; pass a file or folder name");
            // `--session --chart pct`: the value was left out, and the next option taken for it
            // (the error was then "--chart is required"). A file named so can be given as ./--x.
            const bool option_like =
                path.rfind("--", 0) == 0 || (path.size() == 2 && path[0] == '-' &&
                                             std::isalpha(static_cast<unsigned char>(path[1])));
            if (option_like)
                return "'" + path +
                       "' is an option, not a path: was this option's value left out? (a file "
                       "of that name: ./" +
                       path + ")";
            return std::string();
        },
        "");
}

int fail(const Error& e, int code) {
    print_error(e.message, e.hint);
    return code;
}

static std::string& command_storage() {
    static std::string s;
    return s;
}

static std::string shell_quote(const std::string& a) {
    if (!a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789-_./=:,+@%^") == std::string::npos)
        return a;
    std::string q = "'";
    for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

void set_command_line(int argc, char** argv) {
    std::string s;
    for (int i = 0; i < argc; ++i) {
        if (i) s += ' ';
        s += shell_quote(argv[i]);
    }
    command_storage() = s;
}

const std::string& command_line() {
    return command_storage();
}

Result<std::vector<int64_t>> parse_int_list(const std::string& text, const std::string& option) {
    std::vector<int64_t> out;
    std::stringstream ss(text);
    std::string item;
    const std::string hint =
        "pass positive integers separated by commas, e.g. " + option + " 32,1024,16385";
    while (std::getline(ss, item, ',')) {
        // Each item whole, as typed: "99999999999999999999" is too large, not "not a number".
        if (item.empty())
            return Error{option + " '" + quote_short(text) + "' has an empty item", hint};
        Result<int64_t> v = parse_integer(item, option, 1);
        if (!v) {
            if (v.error().message.find("not a whole number") != std::string::npos)
                return Error{option + ": '" + quote_short(item) + "' is not a positive integer",
                             hint};
            return Error{v.error().message, hint};
        }
        out.push_back(*v);
    }
    if (out.empty()) return Error{option + ": the list is empty", hint};
    return out;
}

Result<const KernelInfo*> parse_kernel(const std::string& id) {
    if (const KernelInfo* k = find_kernel(id)) return k;
    return Error{"unknown kernel '" + id + "'",
                 "valid kernels: " + kernel_ids() + " (softmaxlab-cli list shows their ranges)"};
}

Result<std::vector<const KernelInfo*>> parse_kernel_list(const std::string& text) {
    std::vector<const KernelInfo*> out;
    if (text == "all") {
        for (const KernelInfo& k : registry()) out.push_back(&k);
        return out;
    }
    std::stringstream ss(text);
    std::string id;
    while (std::getline(ss, id, ',')) {
        Result<const KernelInfo*> k = parse_kernel(id);
        if (!k) return k.error();
        out.push_back(*k);
    }
    if (out.empty()) return Error{"--kernels is empty", "pass all, or ids such as fused,online"};
    return out;
}

Result<DType> parse_dtype_arg(const std::string& text) {
    DType t;
    if (parse_dtype(text, &t)) return t;
    return Error{"unknown dtype '" + text + "'", "use fp32, fp16 or bf16"};
}

Result<MetricSet> parse_measure_options(const std::string& metrics, int samples) {
    MetricSet set;
    if (!parse_metric_set(metrics, &set))
        return Error{"unknown metric set '" + metrics + "'", "use off, default or deep"};
    if (samples < 1) return Error{"--samples must be >= 1", "20 or more gives a stable median"};
    return set;
}

Status check_writable(const std::string& path, const std::string& option) {
    return sml::check_writable(path, option);
}

static std::string& profile_slot() {
    static std::string profile;
    return profile;
}
void set_device_profile(const std::string& id) {
    profile_slot() = id;
}
const std::string& device_profile() {
    return profile_slot();
}

std::string fmt(double v, int precision) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", precision, v);
    return buf;
}

std::string fmt_sci(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2g", v);
    return buf;
}

std::string fmt_range(const KernelInfo& k, const DeviceLimits& limits, DType dtype) {
    const int64_t hi = k.max_cols(limits, dtype);
    return std::to_string(k.min_cols) + ".." + (hi == kUnlimitedCols ? "any" : std::to_string(hi));
}

static double now_s() {
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

ProgressDisplay::ProgressDisplay() : tty_(isatty(fileno(stderr)) != 0), start_s_(now_s()) {}

void ProgressDisplay::update(int done, int total, const std::string& label) {
    const double elapsed = now_s() - start_s_;
    if (!tty_) {
        std::fprintf(stderr, "[%d/%d] %s (%.0f s)\n", done, total, label.c_str(), elapsed);
        return;
    }
    constexpr int kWidth = 30;
    const int filled = total > 0 ? kWidth * done / total : kWidth;
    std::string bar(size_t(filled), '#');
    bar.append(size_t(kWidth - filled), '.');
    char line[256];
    const int len = std::snprintf(line, sizeof line, "\r[%s] %d/%d  %-24s %5.0f s", bar.c_str(),
                                  done, total, label.c_str(), elapsed);
    std::fprintf(stderr, "%s%*s", line, last_len_ > len ? last_len_ - len : 0, "");
    last_len_ = len;
    std::fflush(stderr);
}

void ProgressDisplay::finish() {
    if (tty_) std::fprintf(stderr, "\n");
}

}  // namespace sml::cli
