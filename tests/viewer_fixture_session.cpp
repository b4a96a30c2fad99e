// viewer_fixture_session OUT.json [--corrupt | --other-gpu | --other-gpu-fp16]
//
// Writes the chart tests' SYNTHETIC session (tests/test_chart_fixture.h; marked synthetic inside)
// so the viewer's screenshot tests can run in replay mode before a recorded session exists.
// With --corrupt it writes a truncated copy, to check that the viewer reports a bad file and
// keeps running. With --other-gpu it writes the same session renamed to another GPU with its
// bandwidths scaled (also marked synthetic), for --compare; --other-gpu-fp16 the same with every
// point fp16, which cannot be compared with the fp32 fixture.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "core/session/session.h"
#include "tests/test_chart_fixture.h"

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr,
                     "usage: viewer_fixture_session OUT.json [--corrupt | --other-gpu | "
                     "--other-gpu-fp16]\n");
        return 2;
    }
    const std::string mode = argc > 2 ? argv[2] : "";
    sml::Session s = sml::test::synthetic_session(true);
    if (mode == "--other-gpu" || mode == "--other-gpu-fp16")
        s = sml::test::synthetic_other_gpu(s, "NVIDIA GeForce RTX 4090", 0.33, 1008);
    if (mode == "--other-gpu-fp16")
        for (sml::PointRecord& p : s.points) p.dtype = "fp16";
    if (mode == "--corrupt") {
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
