// Command line parsing. See viewer_args.h.
#include "app/viewer/model/viewer_args.h"

#include <CLI/CLI.hpp>

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
        const size_t comma = mouse.find(',');
        try {
            if (comma == std::string::npos) throw std::invalid_argument("no comma");
            a.mouse_x = std::stoi(mouse.substr(0, comma));
            a.mouse_y = std::stoi(mouse.substr(comma + 1));
        } catch (...) {
            return Error{"--mouse '" + mouse + "' is not X,Y", "e.g. --mouse 600,400"};
        }
    }
    return a;
}

}  // namespace sml::viewer
