// What the viewer remembers between runs: presenter font scale, theme, language, last step and
// last session. Stored as a small JSON file next to ImGui's own layout ini, in
// $XDG_CONFIG_HOME/softmaxlab/ (or ~/.config/softmaxlab/).
#pragma once

#include <optional>
#include <string>

#include "common/result.h"

namespace sml::viewer {

struct Settings {
    float font_scale = 1.0f;     // presenter mode: Ctrl +/- steps it, clamped to [0.6, 3]
    std::string theme = "dark";  // "dark" | "light"
    std::string lang = "en";     // "en" | "zh"
    int lesson = 0;
    // Predict mode: each step asks for a number before it shows the measured ones. On for
    // learners; an instructor who shows the numbers live switches it off (View menu, key P).
    bool predict = true;
    std::string session_path;  // last opened session: pre-fills File > Open ("" = none yet)

    static constexpr float kMinScale = 0.6f, kMaxScale = 3.0f, kScaleStep = 0.1f;
    void step_font_scale(int direction);  // +1 / -1, clamped
};

// The folder settings live in; "" when neither XDG_CONFIG_HOME nor HOME is set.
std::string settings_dir();

// Missing file: defaults (not an error). A corrupt file: an error naming it. Unknown or
// out-of-range values are replaced by defaults. Reads only; never moves or changes the file.
Result<Settings> load_settings(const std::string& path);

// What the viewer does at start: load_settings, and when the file is corrupt, move it aside to
// "<path>.corrupt-N" (a name nothing else has: never overwritten, never deleted) and start from
// the defaults. `notice` says what happened, for a banner. When the path holds something that
// is not a regular file, or the file cannot be moved, `writable` is false: the viewer then does
// not save its settings over it.
struct SettingsFile {
    std::string path;
    Settings settings;
    bool writable = true;
    std::optional<Error> notice;
};
SettingsFile open_settings(const std::string& path);

// Writes through a fresh side file, fsynced and renamed (core/common/safe_file.h); creates the
// folder if needed.
Status save_settings(const std::string& path, const Settings& s);

}  // namespace sml::viewer
