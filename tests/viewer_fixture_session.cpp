// viewer_fixture_session OUT.json [--corrupt]
//
// Writes the chart tests' SYNTHETIC session (tests/test_chart_fixture.h; marked synthetic inside)
// so the viewer's screenshot tests can run in replay mode before a recorded session exists.
// With --corrupt it writes a truncated copy, to check that the viewer reports a bad file and
// keeps running.
#include <cstdio>
#include <cstring>
#include <fstream>

#include "core/session/session.h"
#include "tests/test_chart_fixture.h"

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: viewer_fixture_session OUT.json [--corrupt]\n");
        return 2;
    }
    const sml::Session s = sml::test::synthetic_session(true);
    if (argc > 2 && std::strcmp(argv[2], "--corrupt") == 0) {
        const std::string json = sml::session_to_json(s);
        std::ofstream(argv[1]) << json.substr(0, json.size() / 2);  // cut mid-object
        return 0;
    }
    if (sml::Status st = sml::save_session(argv[1], s); !st) {
        std::fprintf(stderr, "error: %s\n", st.error().message.c_str());
        return 1;
    }
    return 0;
}
