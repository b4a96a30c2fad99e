// Every number the lessons promise, checked against the recorded H100 session(s) in
// assets/sessions/. When the session is re-recorded and a number moves out of the range the
// text relies on, this test names the step, the claim, the promise and the measurement.
//
// Without a recorded session the test is skipped with the reason printed: it must never pass
// without having checked anything.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "core/lessons/lesson_check.h"
#include "core/lessons/lesson_claims.h"
#include "core/lessons/lesson_model.h"
#include "core/session/session.h"

namespace sml {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> recorded_sessions() {
    std::vector<std::string> paths;
    const fs::path dir = fs::path(SML_SOURCE_DIR) / "assets" / "sessions";
    std::error_code ec;
    for (const auto& f : fs::directory_iterator(dir, ec))
        if (f.path().extension() == ".json") paths.push_back(f.path().string());
    std::sort(paths.begin(), paths.end());
    return paths;
}

// The lessons describe an H100: a session from another GPU is not evidence for or against them.
bool recorded_on_h100(const Session& s) {
    return s.device.name.find("H100") != std::string::npos;
}

TEST(LessonClaimsOnRecordedSession, EveryClaimHolds) {
    const std::vector<std::string> paths = recorded_sessions();
    ASSERT_FALSE(paths.empty()) << "no recorded session in " << SML_SOURCE_DIR
                                << "/assets/sessions/*.json: the lessons' claims are unchecked";
    Result<LessonBook> book = load_lessons(default_lessons_root(), "en");
    ASSERT_TRUE(book.ok()) << book.error().message;

    int sessions_checked = 0, claims_checked = 0;
    for (const std::string& path : paths) {
        Result<Session> session = load_session(path);
        ASSERT_TRUE(session.ok()) << session.error().message << "\nhint: " << session.error().hint;
        if (!recorded_on_h100(*session)) continue;
        ++sessions_checked;
        for (const LessonStep& step : book->steps) {
            if (!check_step_kernels(step).empty()) continue;  // a draft waiting for its kernel
            std::vector<std::string> problems = check_step_claims(step, *session);
            std::string all;
            for (const std::string& p : problems) all += "\n  " + p;
            EXPECT_TRUE(problems.empty()) << path << ":" << all;
            claims_checked += static_cast<int>(step.claims.size());
        }
    }
    ASSERT_GT(sessions_checked, 0) << "none of the " << paths.size()
                                   << " sessions in assets/sessions/ was recorded on an H100";
    EXPECT_GT(claims_checked, 20);
    std::printf("checked %d claims against %d recorded H100 session(s)\n", claims_checked,
                sessions_checked);
}

}  // namespace
}  // namespace sml
