// Sessions and the device: what the viewer shows numbers from. See app.h.
//
// With a usable GPU the viewer starts a live session (results stream in from Run / Sweep).
// Without one it replays the newest recorded session in assets/sessions/ and says so in a
// banner; everything but Run keeps working.
#include <algorithm>
#include <filesystem>

#include "app/viewer/app.h"
#include "app/viewer/model/format.h"
#include "core/chart/chart_build.h"
#include "app/viewer/model/gpu_access.h"

namespace sml::viewer {

void App::detect_device() {
    const GpuProbe g = probe_gpu();
    s_.gpu_available = g.available;
    s_.no_gpu_reason = g.reason;
    s_.no_gpu_hint = g.hint;
    s_.limits = g.available ? g.limits : DeviceLimits::h100_reference();
}

namespace {
const std::string kRecordedDir = std::string(SML_SOURCE_DIR) + "/assets/sessions";
}  // namespace

std::vector<std::string> App::recorded_session_paths() {
    std::error_code ec;
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(kRecordedDir, ec))
        if (e.path().extension() == ".json") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

namespace {
// The newest recorded session: the one whose created_utc is latest (ISO 8601 sorts as text).
std::string newest_recorded_session(const std::vector<std::string>& paths, std::string* why_none) {
    std::string best, best_time;
    for (const std::string& path : paths) {
        Result<Session> s = load_session(path);
        if (!s) continue;  // a broken file must not hide a good one
        if (best.empty() || s->created_utc > best_time) {
            best = path;
            best_time = s->created_utc;
        }
    }
    if (best.empty()) *why_none = "no readable session in " + kRecordedDir;
    return best;
}
}  // namespace

void App::open_initial_session() {
    if (!s_.args.session_path.empty()) {
        open_session(s_.args.session_path);
    } else if (s_.gpu_available) {
        Result<DeviceRecord> dev = live_device_record();
        if (dev) set_session(new_live_session(*dev), "live", false);
    } else {
        std::string why;
        const std::string path = newest_recorded_session(recorded_session_paths(), &why);
        if (!path.empty())
            open_session(path);
        else
            s_.set_banner(
                {Banner::Level::error, "Nothing to show: " + s_.no_gpu_reason + " and " + why,
                 "open a session with File > Open, or run on a machine with an NVIDIA GPU", true,
                 "session"});
    }
    update_replay_banner();
}

bool App::open_session(const std::string& path) {
    Result<Session> s = load_session(path);
    if (!s) {
        s_.set_banner({Banner::Level::error, "Cannot open session: " + s.error().message,
                       s.error().hint.empty() ? "the previous session stays open" : s.error().hint,
                       true, "session"});
        return false;
    }
    s_.clear_banner("session");
    set_session(std::move(*s), path, true);
    s_.settings.session_path = path;
    return true;
}

void App::set_session(Session s, const std::string& origin, bool replay) {
    s_.session = std::move(s);
    s_.session_origin = origin;
    s_.has_session = true;
    s_.replay = replay;
    s_.all_cols = session_cols(s_.session);
    int64_t cols = chart::default_cols(s_.session, s_.dtype);
    if (const LessonStep* step = s_.nav.current())
        if (std::find(s_.all_cols.begin(), s_.all_cols.end(), step->experiment.cols) !=
            s_.all_cols.end())
            cols = step->experiment.cols;
    select_cols(cols);
    refresh_lesson_text();  // the claims now read this session's numbers
    update_replay_banner();
}

void App::save_session_to(const std::string& path) {
    Status st = save_session(path, s_.session);
    if (!st) {
        s_.set_banner({Banner::Level::error, "Cannot save session: " + st.error().message,
                       st.error().hint, true, "save"});
        return;
    }
    s_.set_banner({Banner::Level::info,
                   "Saved " + std::to_string(s_.session.points.size()) + " points to " + path, "",
                   true, "save"});
}

void App::update_replay_banner() {
    s_.clear_banner("replay");
    if (!s_.has_session || !s_.replay) return;
    const std::string date = s_.session.created_utc.substr(0, 10);
    std::string msg = "Replaying a session recorded on " +
                      (s_.session.device.name.empty() ? std::string("an unnamed device")
                                                      : s_.session.device.name) +
                      " on " + (date.empty() ? std::string("an unknown date") : date);
    msg += s_.gpu_available ? "; Run starts a new live session on this GPU"
                            : "; Run is disabled: " + s_.no_gpu_reason;
    s_.set_banner({Banner::Level::info, msg, s_.gpu_available ? "" : s_.no_gpu_hint, false, "replay"});
}

}  // namespace sml::viewer
