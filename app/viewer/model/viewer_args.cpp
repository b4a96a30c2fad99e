// Command line parsing. See viewer_args.h.
#include "app/viewer/model/viewer_args.h"

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdlib>

#include "core/chart/chart_kinds.h"
#include "core/common/parse_number.h"
#include "core/common/text_cap.h"
#include "kernels/device_profiles.h"
#include "kernels/registry.h"

namespace sml::viewer {

bool parse_size(const std::string& s, int* w, int* h) {
    const size_t x = s.find_first_of("xX");
    if (x == std::string::npos) return false;
    // Each side whole: no spaces, signs or trailing text, no wrap-around.
    const Result<int64_t> a = parse_integer(s.substr(0, x), "width", 320, 8192);
    const Result<int64_t> b = parse_integer(s.substr(x + 1), "height", 320, 8192);
    if (!a || !b) return false;
    *w = static_cast<int>(*a);
    *h = static_cast<int>(*b);
    return true;
}

namespace {

// The whole of `s` as a non-negative int: no sign, spaces, trailing text or overflow.
bool parse_coordinate(const std::string& s, int* v) {
    if (s.empty() || s[0] < '0' || s[0] > '9') return false;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
    return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

Result<ViewerArgs> parse_viewer_args(int argc, const char* const* argv, std::string* help_out) {
    ViewerArgs a;
    std::string size;
    CLI::App app{
        "softmaxlab: step through softmax kernels from slow to speed-of-light, one idea at a "
        "time, run them on your GPU, and see the hardware counters next to the code.\nWithout a "
        "GPU it replays "
        "the recorded H100 session from assets/sessions/.",
        "softmaxlab"};
    // Numbers are taken as text and read whole below: CLI11's own check printed "--lesson -1"
    // as outside a range of 0 to a 310-digit number.
    std::string lesson, frames;
    app.add_option("--lesson", lesson, "open at lesson step K (0 = the first)");
    app.add_option("--lang", a.lang, "lesson language")->check(CLI::IsMember({"en", "zh"}));
    app.add_option("--theme", a.theme, "colour theme")->check(CLI::IsMember({"dark", "light"}));
    CLI::Option* session =
        app.add_option("--session", a.session_path,
                       "open this session JSON instead of running live (replay mode)");
    app.add_option("--device-profile", a.device_profile,
                   "ranges and best's dispatch follow this class of GPU: " +
                       device_profile_ids())
        ->check([](const std::string& id) {
            return find_device_profile(id) ? std::string()
                                           : "unknown device profile '" + id +
                                                 "'; use one of: " + device_profile_ids();
        });
    app.add_option("--compare", a.compare_path,
                   "a second session JSON to compare with: drawn dashed on the charts that "
                   "compare (" +
                       chart::chart_kind_ids(", ", true) +
                       ") and as extra rows in the Metrics table");
    app.add_option("--code", a.code_tab,
                   "open the Source panel on this tab; triton: the PTX tab's Triton tutorial "
                   "listing (step 2)")
        ->check(CLI::IsMember({"cuda", "ptx", "sass", "triton"}));
    app.add_option("--kernel", a.kernel, "show this kernel in the Source panel (key K steps)")
        ->check([](const std::string& id) {
            return find_kernel(id)
                       ? std::string()
                       : "unknown kernel '" + quote_short(id) + "'; use one of: " + kernel_ids();
        });
    std::string cols;
    app.add_option("--cols", cols,
                   "the N the table, the charts and the code show (the session's nearest N; key N "
                   "steps)");
    app.add_option("--lab", a.lab,
                   "open the lab bench on a lesson kernel (warp) or an exercise (ex:warp-reduce)");
    CLI::Option* shot =
        app.add_option("--screenshot", a.screenshot,
                       "render, save the window to this PNG and exit (for docs and tests)");
    app.add_option("--frames", frames, "frames to render before the screenshot (1..1000)");
    app.add_option("--size", size, "window size WxH, e.g. 1600x1000");
    std::string mouse;
    app.add_option("--mouse", mouse,
                   "with --screenshot: put the pointer at X,Y (shows hover notes and values)");
    app.add_flag("--no-settings", a.no_settings,
                 "ignore and do not write the settings file (tests, screenshots)");
    CLI::Option* settings = app.add_option(
        "--settings", a.settings_file,
        "read and write settings in this file instead of ~/.config/softmaxlab/settings.json "
        "(also with --screenshot)");
    std::string text_scale;
    app.add_option("--text-scale", text_scale,
                   "text size, 0.6..3 (1.5 for a projector; Ctrl +/- in the app)");
    app.add_option("--predict", a.predict,
                   "predict mode: each step asks for a number before showing it (default on)")
        ->check(CLI::IsMember({"on", "off"}));
    app.add_option("--guess", a.guess,
                   "type this guess into the step's first predict question (screenshots)");
    app.add_flag("--reveal", a.reveal, "show the step's numbers, as the R key does");
    app.add_option("--zoom", a.zoom, "give one panel the whole window, as keys 1-4 do")
        ->check(CLI::IsMember({"lessons", "code", "chart", "metrics"}));
    app.add_option("--dialog", a.dialog,
                   "with --screenshot: open this dialog (open, save or export) in the picture")
        ->check(CLI::IsMember({"open", "save", "export"}));
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        if (help_out) *help_out = app.help();
        a.help = true;
        return a;
    } catch (const CLI::ParseError& e) {
        return Error{cap_text(e.what(), 1000), "run softmaxlab --help for the options"};
    }
    if (app.count("--lesson") > 0) {
        const Result<int64_t> k = parse_integer(lesson, "--lesson", 0, 999);
        if (!k) return Error{k.error().message, "e.g. --lesson 0 for the first step"};
        a.lesson = static_cast<int>(*k);
    }
    if (app.count("--cols") > 0) {
        const Result<int64_t> n = parse_integer(cols, "--cols", 1, int64_t(1) << 40);
        if (!n) return Error{n.error().message, "e.g. --cols 4096"};
        a.cols = *n;
    }
    if (app.count("--frames") > 0) {
        const Result<int64_t> n = parse_integer(frames, "--frames", 1, 1000);
        if (!n) return Error{n.error().message, "e.g. --frames 4"};
        a.frames = static_cast<int>(*n);
    }
    if (app.count("--text-scale") > 0) {
        // Whole and in range: "1.5x" or "nan" are errors, not a silent default.
        char* end = nullptr;
        const double v = std::strtod(text_scale.c_str(), &end);
        if (text_scale.empty() || end != text_scale.c_str() + text_scale.size() ||
            !(v >= 0.6 && v <= 3.0))
            return Error{"--text-scale '" + quote_short(text_scale) + "' is not a number in 0.6..3",
                         "e.g. --text-scale 1.5"};
        a.text_scale = static_cast<float>(v);
    }
    if (session->count() > 0 && a.session_path.empty())
        return Error{"--session was given an empty file name",
                     "e.g. --session assets/sessions/<file>.json"};
    if (settings->count() > 0 && a.settings_file.empty())
        return Error{"--settings was given an empty file name", "e.g. --settings my-settings.json"};
    // An empty name used to open an interactive window that never exited.
    if (shot->count() > 0 && a.screenshot.empty())
        return Error{"--screenshot was given an empty file name", "e.g. --screenshot step1.png"};
    if (!a.dialog.empty() && a.screenshot.empty())
        return Error{"--dialog works only with --screenshot",
                     "e.g. --screenshot save.png --dialog save"};
    if (app.count("--size") > 0) {
        if (!parse_size(size, &a.width, &a.height))
            return Error{"--size '" + quote_short(size) + "' is not WxH with both in 320..8192",
                         "e.g. --size 1600x1000"};
        a.size_given = true;
    }
    if (!mouse.empty()) {
        // Exactly two integers: "1,2,3" or "1,2x" used to be read as 1,2.
        const size_t comma = mouse.find(',');
        int x = 0, y = 0;
        if (comma == std::string::npos || !parse_coordinate(mouse.substr(0, comma), &x) ||
            !parse_coordinate(mouse.substr(comma + 1), &y))
            return Error{
                "--mouse '" + quote_short(mouse) + "' is not X,Y (two non-negative integers)",
                "e.g. --mouse 600,400"};
        a.mouse_x = x;
        a.mouse_y = y;
    }
    return a;
}

}  // namespace sml::viewer
