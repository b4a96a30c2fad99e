// hostile_fixture FOLDER
//
// Writes the hostile session files that the end-to-end cases of tests/hostile.cmake feed to
// softmaxlab-cli and the viewer (issue 24). Each starts from the chart tests' SYNTHETIC session
// (tests/test_chart_fixture.h) and breaks one thing:
//
//   valid.json              the synthetic session itself
//   long_device_name.json   device.name of 17000 characters (aborted the viewer in ImGui)
//   long_reason.json        every point's metrics.reason 30000 characters, counters off
//   long_strings.json       device.name 200000 and command 1000000 characters (took minutes)
//   bare_nan.json           a bare NaN where a number goes (JSON has none)
//   unknown_kernel.json     a point whose kernel the registry does not know
//   big_60mb.json           a valid session of 60 MB (a 60000000-byte note): under the read cap,
//                           for the out-of-memory case under `ulimit -v`
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/session/session.h"
#include "tests/test_chart_fixture.h"

namespace {

using json = nlohmann::ordered_json;

bool write(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) std::fprintf(stderr, "error: cannot write %s\n", path.c_str());
    return static_cast<bool>(out);
}

bool write(const std::string& path, const json& doc) {
    return write(path, doc.dump(1));
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: hostile_fixture FOLDER\n");
        return 2;
    }
    const std::string dir = argv[1];
    const json base = json::parse(sml::session_to_json(sml::test::synthetic_session(true)));
    bool ok = write(dir + "/valid.json", base);

    json d = base;
    d["device"]["name"] = std::string(17000, 'N');
    ok &= write(dir + "/long_device_name.json", d);

    d = base;
    d["device"]["counters_available"] = false;
    d["device"]["counters_reason"] = std::string(30000, 'Q');
    for (json& p : d["points"]) {
        p["metrics"]["available"] = false;
        p["metrics"]["reason"] = std::string(30000, 'R');
        p["metrics"]["values"] = json::object();
        p["metrics"]["per_launch"] = json::object();
    }
    ok &= write(dir + "/long_reason.json", d);

    d = base;
    d["device"]["name"] = std::string(200000, 'D');
    d["command"] = std::string(1000000, 'c');
    ok &= write(dir + "/long_strings.json", d);

    std::string text = base.dump(1);
    const std::string key = "\"max_rel_error\": ";
    const size_t at = text.find(key) + key.size();
    text.replace(at, text.find(',', at) - at, "NaN");
    ok &= write(dir + "/bare_nan.json", text);

    d = base;
    d["points"][0]["kernel"] = "my_kernel";
    ok &= write(dir + "/unknown_kernel.json", d);

    d = base;
    d["notes"]["padding"] = std::string(60000000, 'p');
    ok &= write(dir + "/big_60mb.json", d);
    return ok ? 0 : 1;
}
