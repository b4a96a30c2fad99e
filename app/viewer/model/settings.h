// What the viewer remembers between runs: presenter font scale, theme, language, last step and
// last session. Stored as a small JSON file next to ImGui's own layout ini, in
// $XDG_CONFIG_HOME/softmaxlab/ (or ~/.config/softmaxlab/).
#pragma once

#include <string>

#include "common/result.h"

namespace sml::viewer {

struct Settings {
    float font_scale = 1.0f;     // presenter mode: Ctrl +/- steps it, clamped to [0.6, 3]
    std::string theme = "dark";  // "dark" | "light"
    std::string lang = "en";     // "en" | "zh"
    int lesson = 0;
    std::string session_path;  // last opened session: pre-fills File > Open ("" = none yet)

    static constexpr float kMinScale = 0.6f, kMaxScale = 3.0f, kScaleStep = 0.1f;
    void step_font_scale(int direction);  // +1 / -1, clamped
};

// The folder settings live in; "" when neither XDG_CONFIG_HOME nor HOME is set.
std::string settings_dir();

// Missing file: defaults (not an error). A corrupt file: an error naming it (the caller shows it
// and carries on with defaults). Unknown or out-of-range values are replaced by defaults.
Result<Settings> load_settings(const std::string& path);
Status save_settings(const std::string& path, const Settings& s);

}  // namespace sml::viewer
