// Settings file. See settings.h.
#include "app/viewer/model/settings.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/common/safe_file.h"
#include "core/common/text_cap.h"

namespace sml::viewer {

void Settings::step_font_scale(int direction) {
    font_scale = std::clamp(font_scale + direction * kScaleStep, kMinScale, kMaxScale);
    font_scale = std::round(font_scale * 10.0f) / 10.0f;  // no 1.2000001 in the file
}

std::string settings_dir() {
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
        return std::string(xdg) + "/softmaxlab";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/.config/softmaxlab";
    return "";
}

Result<Settings> load_settings(const std::string& path) {
    Settings s;
    if (!path_exists(path)) return s;  // first start: the defaults
    Result<std::string> text = read_file_capped(path, kMaxSettingsFileBytes, "settings file");
    if (!text) return text.error();
    nlohmann::json j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object())
        return Error{"settings file " + quote_short(path) + " is not valid JSON",
                     "fix it, or delete it to start from the defaults"};
    if (j.contains("font_scale") && j["font_scale"].is_number())
        s.font_scale = static_cast<float>(std::clamp(j["font_scale"].get<double>(),
                                                     double(Settings::kMinScale),
                                                     double(Settings::kMaxScale)));
    if (j.contains("theme") && j["theme"].is_string()) {
        std::string t = j["theme"];
        if (t == "dark" || t == "light") s.theme = t;
    }
    if (j.contains("lang") && j["lang"].is_string()) {
        std::string l = j["lang"];
        if (l == "en" || l == "zh") s.lang = l;
    }
    // Whole-range read, then clamped: get<int>() would wrap 2^32 + 1 around to 1.
    if (j.contains("lesson") && j["lesson"].is_number_integer())
        s.lesson = j["lesson"].is_number_unsigned()
                       ? static_cast<int>(std::min<uint64_t>(j["lesson"].get<uint64_t>(), 999))
                       : static_cast<int>(std::clamp<int64_t>(j["lesson"].get<int64_t>(), 0, 999));
    if (j.contains("predict") && j["predict"].is_boolean()) s.predict = j["predict"].get<bool>();
    if (j.contains("session_path") && j["session_path"].is_string())
        s.session_path = cap_text(j["session_path"].get_ref<const std::string&>());
    return s;
}

SettingsFile open_settings(const std::string& path) {
    SettingsFile f;
    f.path = path;
    Result<Settings> loaded = load_settings(path);
    if (loaded) {
        f.settings = *loaded;
        return f;
    }
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
        // A folder, a FIFO or a device where the file should be, or unreadable: leave it alone
        // and do not save over it either.
        f.writable = false;
        f.notice = Error{loaded.error().message + "; settings will not be saved this time",
                         "move it away so softmaxlab can save its settings there"};
        return f;
    }
    // Corrupt (not JSON, or too large): keep it under a new name for the user, never overwrite
    // it and never delete it, and start from the defaults.
    Result<std::string> kept = set_aside(path, "corrupt");
    if (!kept) {
        f.writable = false;
        f.notice = Error{loaded.error().message + "; it could not be set aside (" +
                             kept.error().message + "), so settings will not be saved this time",
                         kept.error().hint};
        return f;
    }
    f.notice = Error{loaded.error().message + "; it was kept as " + quote_short(*kept) +
                         " and the defaults are used",
                     "copy what you need from " + quote_short(*kept) + ", then delete it"};
    return f;
}

Status save_settings(const std::string& path, const Settings& s) {
    nlohmann::json j = {{"font_scale", s.font_scale},
                        {"theme", s.theme},
                        {"lang", s.lang},
                        {"lesson", s.lesson},
                        {"predict", s.predict},
                        {"session_path", s.session_path}};
    const std::string folder = std::filesystem::path(path).parent_path().string();
    if (!folder.empty())
        if (Status made = make_folders(folder); !made) return made;
    return write_file_atomic(path,
                             j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
                             "settings file");
}

}  // namespace sml::viewer
