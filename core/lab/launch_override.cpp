#include "core/lab/launch_override.h"

#include <sstream>

namespace sml::lab {
namespace {

// "8192", "8k" or "8K" (x 1024); false for anything else or a value below 1 (0 for smem).
bool parse_size(const std::string& text, int64_t* out) {
    if (text.empty()) return false;
    int64_t v = 0;
    size_t i = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
        if (v > (int64_t{1} << 40)) return false;
        v = v * 10 + (text[i] - '0');
    }
    if (i == 0) return false;
    if (i < text.size()) {
        if (i + 1 != text.size() || (text[i] != 'k' && text[i] != 'K')) return false;
        v *= 1024;
    }
    *out = v;
    return true;
}

bool parse_dims(const std::string& text, std::vector<int64_t>* out) {
    std::vector<int64_t> dims;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, 'x');) {
        int64_t v = 0;
        if (!parse_size(part, &v) || v < 1) return false;
        dims.push_back(v);
    }
    if (dims.empty() || dims.size() > 3 || text.back() == 'x') return false;
    *out = dims;
    return true;
}

}  // namespace

std::vector<LaunchOverride> parse_launch_overrides(const std::string& source,
                                                   const std::string& source_name,
                                                   std::vector<Diagnostic>* diagnostics) {
    std::vector<LaunchOverride> out;
    std::istringstream in(source);
    int line_no = 0;
    for (std::string line; std::getline(in, line);) {
        ++line_no;
        const size_t slash = line.find_first_not_of(" \t");
        if (slash == std::string::npos || line.compare(slash, 2, "//") != 0) continue;
        size_t at = line.find_first_not_of(" \t", slash + 2);
        if (at == std::string::npos || line.compare(at, 7, "@launch") != 0) continue;
        const size_t after = at + 7;
        if (after < line.size() && line[after] != ' ' && line[after] != '\t') continue;
        LaunchOverride o;
        o.line = line_no;
        bool ok = true;
        auto bad = [&](const std::string& what) {
            ok = false;
            if (diagnostics)
                diagnostics->push_back(Diagnostic{
                    source_name, line_no, int(at) + 1, "error",
                    "@launch: " + what +
                        " (keys: threads=N, block=XxYxZ, smem=BYTES, grid=N, step=NAME)"});
        };
        std::istringstream words(line.substr(after));
        for (std::string w; words >> w;) {
            const size_t eq = w.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == w.size()) {
                bad("'" + w + "' is not key=value");
                continue;
            }
            const std::string key = w.substr(0, eq), value = w.substr(eq + 1);
            int64_t v = 0;
            if (key == "threads") {
                if (!parse_size(value, &v) || v < 1)
                    bad("threads=" + value + " is not a count");
                else
                    o.threads = v;
            } else if (key == "block") {
                std::vector<int64_t> dims;
                if (!parse_dims(value, &dims))
                    bad("block=" + value + " is not XxYxZ");
                else
                    o.block = dims;
            } else if (key == "smem") {
                if (!parse_size(value, &v))
                    bad("smem=" + value + " is not a byte count");
                else
                    o.smem = v;
            } else if (key == "grid") {
                if (!parse_size(value, &v) || v < 1)
                    bad("grid=" + value + " is not a count");
                else
                    o.grid = v;
            } else if (key == "step") {
                o.step = value;
            } else {
                bad("unknown key '" + key + "'");
            }
        }
        if (ok && o.empty()) bad("nothing to change");
        if (ok) out.push_back(o);
    }
    return out;
}

Status apply_overrides(const std::vector<LaunchOverride>& overrides, LaunchShape* shape) {
    for (const LaunchOverride& o : overrides) {
        if (!o.step.empty() && o.step != shape->step) continue;
        const std::string where = o.line > 0 ? "@launch on line " + std::to_string(o.line)
                                             : std::string("the job's launch");
        if (o.threads) {
            if (shape->block[1] != 1 || shape->block[2] != 1)
                return Error{
                    where + ": threads= needs a 1-D block, and " + shape->step + "'s block is " +
                        std::to_string(shape->block[0]) + "x" + std::to_string(shape->block[1]) +
                        "x" + std::to_string(shape->block[2]),
                    "write the shape instead, e.g. block=" + std::to_string(shape->block[0]) + "x" +
                        std::to_string(shape->block[1])};
            shape->block[0] = *o.threads;
        }
        if (o.block) {
            for (int i = 0; i < 3; ++i)
                shape->block[i] = i < int(o.block->size()) ? (*o.block)[size_t(i)] : 1;
        }
        if (o.smem) shape->smem = *o.smem;
        if (o.grid) shape->grid[0] = *o.grid, shape->grid[1] = 1, shape->grid[2] = 1;
        const int64_t threads = shape->block[0] * shape->block[1] * shape->block[2];
        if (threads > 1024)
            return Error{where + " asks for " + std::to_string(threads) +
                             " threads in a block; a GPU runs at most 1024",
                         "use fewer threads per block"};
        if (shape->grid[0] > 2147483647)
            return Error{where + ": grid=" + std::to_string(shape->grid[0]) + " is too large",
                         "a grid's x dimension holds at most 2^31 - 1 blocks"};
    }
    return ok_status();
}

std::vector<std::string> unknown_steps(const std::vector<LaunchOverride>& overrides,
                                       const std::vector<std::string>& plan_steps) {
    std::vector<std::string> out;
    for (const LaunchOverride& o : overrides) {
        if (o.step.empty()) continue;
        bool found = false;
        for (const std::string& s : plan_steps) found = found || s == o.step;
        if (!found) out.push_back(o.step);
    }
    return out;
}

std::string describe(const LaunchOverride& o) {
    std::string s;
    auto add = [&s](const std::string& kv) { s += (s.empty() ? "" : " ") + kv; };
    if (!o.step.empty()) add("step=" + o.step);
    if (o.threads) add("threads=" + std::to_string(*o.threads));
    if (o.block) {
        std::string b;
        for (int64_t d : *o.block) b += (b.empty() ? "" : "x") + std::to_string(d);
        add("block=" + b);
    }
    if (o.smem) add("smem=" + std::to_string(*o.smem));
    if (o.grid) add("grid=" + std::to_string(*o.grid));
    return s;
}

}  // namespace sml::lab
