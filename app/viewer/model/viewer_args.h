// The viewer's command line. Parsed into plain data so it can be tested without a window.
//
//   softmaxlab [--lesson K] [--lang en|zh] [--theme dark|light] [--session S.json]
//              [--compare B.json] [--device-profile ID] [--code ptx]
//              [--lab KERNEL|ex:ID]
//              [--text-scale 1.5] [--predict on|off] [--guess V] [--reveal] [--zoom PANEL]
//              [--screenshot out.png [--frames N] [--size WxH] [--dialog open|save|export]]
//
// Every number is read whole (core/common/parse_number.h): "--lesson -1" and "--lesson abc" are
// errors that quote what was typed.
#pragma once

#include <string>

#include "common/result.h"

namespace sml::viewer {

struct ViewerArgs {
    int lesson = -1;           // -1: the step from the settings file
    std::string lang;          // "" = from settings
    std::string theme;         // "" = from settings
    std::string session_path;  // "" = live device, else the newest recorded session
    std::string device_profile;  // "" = this GPU; else a kernels/device_profiles.h id
    std::string compare_path;  // "" = none, else a second session to compare with
    std::string code_tab;  // "cuda" | "ptx" | "sass" | "triton": the Source panel's tab at start
    std::string kernel;    // the Source panel's kernel at start ("" = the step's)
    int64_t cols = 0;      // the table's, charts' and code's N at start (0 = the step's)
    std::string lab;  // open the lab bench on this kernel, or "ex:<id>" an exercise
    std::string screenshot;    // non-empty: render `frames` frames, save a PNG, exit
    int frames = 4;
    int mouse_x = -1, mouse_y = -1;  // --mouse X,Y: the pointer during a screenshot (hover demos)
    int width = 1600, height = 1000;
    bool size_given = false;
    bool help = false;         // --help was printed; exit 0
    bool no_settings = false;  // --no-settings: neither read nor write the settings file
    std::string dialog;        // with --screenshot: "open" | "save" | "export" shown open
    std::string settings_file;  // --settings: this file instead of settings_dir()/settings.json
    float text_scale = 0;       // --text-scale: text size (presenter mode); 0 = from settings
    std::string predict;        // "on" | "off" | "" (from settings)
    std::string guess;          // --guess: typed into the step's first predict question
    bool reveal = false;        // --reveal: the step's numbers shown, as after the R key
    std::string zoom;           // "lessons" | "code" | "chart" | "metrics": fills the window
};

// argv[0] is skipped. `help_out` receives the --help text when --help is given.
Result<ViewerArgs> parse_viewer_args(int argc, const char* const* argv, std::string* help_out);

// "1600x1000" -> 1600, 1000. Both in [320, 8192].
bool parse_size(const std::string& s, int* w, int* h);

}  // namespace sml::viewer
