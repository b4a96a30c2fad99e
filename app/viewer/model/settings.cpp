// Settings file. See settings.h.
#include "app/viewer/model/settings.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

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
    std::ifstream f(path);
    if (!f) return s;
    std::stringstream ss;
    ss << f.rdbuf();
    nlohmann::json j = nlohmann::json::parse(ss.str(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object())
        return Error{"settings file " + path + " is not valid JSON",
                     "delete it to start from the defaults"};
    if (j.contains("font_scale") && j["font_scale"].is_number())
        s.font_scale =
            std::clamp(j["font_scale"].get<float>(), Settings::kMinScale, Settings::kMaxScale);
    if (j.contains("theme") && j["theme"].is_string()) {
        std::string t = j["theme"];
        if (t == "dark" || t == "light") s.theme = t;
    }
    if (j.contains("lang") && j["lang"].is_string()) {
        std::string l = j["lang"];
        if (l == "en" || l == "zh") s.lang = l;
    }
    if (j.contains("lesson") && j["lesson"].is_number_integer())
        s.lesson = std::max(0, j["lesson"].get<int>());
    if (j.contains("session_path") && j["session_path"].is_string())
        s.session_path = j["session_path"];
    return s;
}

Status save_settings(const std::string& path, const Settings& s) {
    nlohmann::json j = {{"font_scale", s.font_scale},
                        {"theme", s.theme},
                        {"lang", s.lang},
                        {"lesson", s.lesson},
                        {"session_path", s.session_path}};
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    const std::string tmp = path + ".tmp";
    {
        std::ofstream f(tmp);
        if (!f) return Error{"cannot write settings to " + path, "check the folder's permissions"};
        f << j.dump(2) << "\n";
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) return Error{"cannot write settings to " + path + ": " + ec.message(), ""};
    return ok_status();
}

}  // namespace sml::viewer
