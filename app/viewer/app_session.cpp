// Sessions and the device: what the viewer shows numbers from. See app.h.
//
// With a usable GPU the viewer starts a live session (results stream in from Run / Sweep).
// Without one it replays the newest recorded session in assets/sessions/ and says so in a
// banner; everything but Run keeps working.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "app/viewer/app.h"
#include "app/viewer/model/device_view.h"
#include "app/viewer/model/format.h"
#include "app/viewer/model/gpu_access.h"
#include "core/chart/chart_build.h"
#include "core/common/text_cap.h"

namespace sml::viewer {

void App::detect_device() {
    const GpuProbe g = probe_gpu();
    s_.gpu_available = g.available;
    s_.no_gpu_reason = g.reason;
    s_.no_gpu_hint = g.hint;
    s_.real_limits = g.available ? g.limits : DeviceLimits::h100_reference();
    set_device_profile(s_.args.device_profile);
}

void App::set_device_profile(const std::string& id) {
    Result<DeviceLimits> l = limits_for(s_.real_limits, s_.gpu_available, id);
    if (!l) {
        s_.set_banner({Banner::Level::error, l.error().message, l.error().hint, true, "profile"});
        return;
    }
    s_.clear_banner("profile");
    s_.device_profile = id;
    s_.limits = *l;
    // Live runs on the worker read the profile from the environment, as the CLI's do.
    if (id.empty())
        unsetenv("SML_DEVICE_PROFILE");
    else
        setenv("SML_DEVICE_PROFILE", id.c_str(), 1);
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
std::string newest_recorded_session(const std::vector<std::string>& paths) {
    std::string best, best_time;
    for (const std::string& path : paths) {
        Result<Session> s = load_session(path);
        if (!s) continue;  // a broken file must not hide a good one
        if (best.empty() || s->created_utc > best_time) {
            best = path;
            best_time = s->created_utc;
        }
    }
    return best;
}
}  // namespace

void App::open_initial_session() {
    if (!s_.args.session_path.empty()) {
        initial_session_failed_ = !open_session(s_.args.session_path);
    } else if (s_.gpu_available) {
        Result<DeviceRecord> dev = live_device_record();
        if (dev) set_session(new_live_session(*dev), "live", false);
    } else {
        const std::string path = newest_recorded_session(recorded_session_paths());
        const std::string& lang = s_.lessons_lang;
        if (!path.empty())
            open_session(path);
        else
            s_.set_banner(
                {Banner::Level::error,
                 ui_format("Nothing to show: {0} and {1}", lang,
                           {tr(s_.no_gpu_reason.c_str()),
                            ui_format("no readable session in {0}", lang, {kRecordedDir})}),
                 tr("open a session with File > Open, or run on a machine with an NVIDIA GPU"),
                 true, "session"});
    }
    update_replay_banner();
}

bool App::open_compare(const std::string& path) {
    Result<ComparedSession> c = load_compared_session(path, s_.session, s_.dtype, s_.lessons_lang);
    if (!c) {
        s_.set_banner({Banner::Level::error,
                       ui_format("Cannot compare: {0}", s_.lessons_lang, {c.error().message}),
                       c.error().hint.empty() ? tr("the charts keep showing the open session")
                                              : c.error().hint,
                       true, "compare"});
        return false;
    }
    s_.clear_banner("compare");
    s_.compared = std::move(*c);
    refresh_metrics();
    refresh_chart();
    return true;
}

void App::stop_compare() {
    s_.compared.reset();
    s_.clear_banner("compare");
    refresh_metrics();
    refresh_chart();
}

bool App::open_session(const std::string& path) {
    std::optional<MessageError> said;  // the reader's sentences, said in the lesson language
    Result<Session> s = load_session(path, &said);
    if (!s) {
        const Error e = error_text(s.error(), said, s_.lessons_lang);
        s_.set_banner({Banner::Level::error,
                       ui_format("Cannot open session: {0}", s_.lessons_lang, {e.message}),
                       e.hint.empty() ? tr("the previous session stays open") : e.hint, true,
                       "session"});
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
    // The step's N and kernels, now that there are points to pick them from.
    if (!s_.nav.empty()) {
        s_.step = step_view(s_.nav.book(), s_.nav.index(), &s_.session);
        s_.table_kernels = s_.step.kernels;
    }
    const int64_t cols =
        s_.step.cols > 0 ? s_.step.cols : chart::default_cols(s_.session, s_.dtype);
    select_cols(cols);
    refresh_lesson_text();  // the claims now read this session's numbers
    update_replay_banner();
}

bool App::save_session_to(const std::string& path) {
    // Through a fresh side file renamed into place (core/common/safe_file.h); the dialog has
    // already asked before replacing an existing file.
    Status st = save_session(path, s_.session);
    if (!st) {
        s_.set_banner({Banner::Level::error,
                       ui_format("Cannot save session: {0}", s_.lessons_lang, {st.error().message}),
                       st.error().hint, true, "save"});
        return false;
    }
    s_.set_banner({Banner::Level::info,
                   ui_format("Saved {0} points to {1}", s_.lessons_lang,
                             {std::to_string(s_.session.points.size()), path}),
                   "", true, "save"});
    return true;
}

void App::update_replay_banner() {
    s_.clear_banner("replay");
    if (!s_.has_session || !s_.replay) return;
    const std::string date = s_.session.created_utc.substr(0, 10);
    const std::string device = s_.session.device.name.empty()
                                   ? std::string(zh() ? "未命名设备" : "an unnamed device")
                                   : cap_text(s_.session.device.name, 80);
    std::string msg;
    // One line (the banner shows the hint on hover): the why and the what-to-do go in the hint.
    if (zh())
        msg = "正在回放 " + (date.empty() ? std::string("某日") : date) + " 在 " + device +
              " 上录制的会话" +
              (s_.gpu_available ? "；运行会在本机 GPU 上开始新的实测会话" : "；无法运行：没有 GPU");
    else
        msg = "Replaying a session recorded on " + device + " on " +
              (date.empty() ? std::string("an unknown date") : date) +
              (s_.gpu_available ? "; Run starts a new live session on this GPU"
                                : "; Run is disabled: no GPU");
    const std::string hint =
        s_.gpu_available
            ? ""
            : tr(s_.no_gpu_reason.c_str()) +
                  (s_.no_gpu_hint.empty() ? std::string()
                                          : std::string(" -- ") + tr(s_.no_gpu_hint.c_str()));
    // Dismissable: a class has read it once; it comes back when another session opens.
    s_.set_banner({Banner::Level::info, msg, hint, true, "replay"});
}

}  // namespace sml::viewer
