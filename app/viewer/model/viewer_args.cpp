// Command line parsing. See viewer_args.h.
#include "app/viewer/model/viewer_args.h"

#include <CLI/CLI.hpp>
#include <charconv>

namespace sml::viewer {

bool parse_size(const std::string& s, int* w, int* h) {
    size_t x = s.find_first_of("xX");
    if (x == std::string::npos || x == 0 || x + 1 >= s.size()) return false;
    try {
        size_t used = 0;
        int a = std::stoi(s.substr(0, x), &used);
        if (used != x) return false;
        int b = std::stoi(s.substr(x + 1), &used);
        if (used != s.size() - x - 1) return false;
        if (a < 320 || b < 320 || a > 8192 || b > 8192) return false;
        *w = a;
        *h = b;
        return true;
    } catch (...) {
        return false;
    }
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
        "softmaxlab: step through six softmax kernels from slow to speed-of-light, run them on "
        "your GPU, and see the hardware counters next to the code.\nWithout a GPU it replays "
        "the recorded H100 session from assets/sessions/.",
        "softmaxlab"};
    app.add_option("--lesson", a.lesson, "open at lesson step K (0 = the first)")
        ->check(CLI::NonNegativeNumber);
    app.add_option("--lang", a.lang, "lesson language")->check(CLI::IsMember({"en", "zh"}));
    app.add_option("--theme", a.theme, "colour theme")->check(CLI::IsMember({"dark", "light"}));
    app.add_option("--session", a.session_path,
                   "open this session JSON instead of running live (replay mode)");
    app.add_option("--code", a.code_tab, "open the Source panel on this tab")
        ->check(CLI::IsMember({"cuda", "ptx", "sass"}));
    app.add_option("--lab", a.lab,
                   "open the lab bench on a lesson kernel (warp) or an exercise (ex:warp-reduce)");
    app.add_option("--screenshot", a.screenshot,
                   "render, save the window to this PNG and exit (for docs and tests)");
    app.add_option("--frames", a.frames, "frames to render before the screenshot")
        ->check(CLI::Range(1, 1000));
    app.add_option("--size", size, "window size WxH, e.g. 1600x1000");
    std::string mouse;
    app.add_option("--mouse", mouse,
                   "with --screenshot: put the pointer at X,Y (shows hover notes and values)");
    app.add_flag("--no-settings", a.no_settings,
                 "ignore and do not write the settings file (tests, screenshots)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        if (help_out) *help_out = app.help();
        a.help = true;
        return a;
    } catch (const CLI::ParseError& e) {
        return Error{e.what(), "run softmaxlab --help for the options"};
    }
    if (!size.empty()) {
        if (!parse_size(size, &a.width, &a.height))
            return Error{"--size '" + size + "' is not WxH with both in 320..8192",
                         "e.g. --size 1600x1000"};
        a.size_given = true;
    }
    if (!mouse.empty()) {
        // Exactly two integers: "1,2,3" or "1,2x" used to be read as 1,2.
        const size_t comma = mouse.find(',');
        int x = 0, y = 0;
        if (comma == std::string::npos || !parse_coordinate(mouse.substr(0, comma), &x) ||
            !parse_coordinate(mouse.substr(comma + 1), &y))
            return Error{"--mouse '" + mouse + "' is not X,Y (two non-negative integers)",
                         "e.g. --mouse 600,400"};
        a.mouse_x = x;
        a.mouse_y = y;
    }
    return a;
}

}  // namespace sml::viewer
