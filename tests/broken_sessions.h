// Session files that cannot be opened, one for each way load_session refuses one: not JSON, the
// wrong shape, a missing or mistyped field, a value the registry does not know, a file too large
// or not a file at all. The core's test checks their English word for word (what the CLI
// prints); the viewer's checks their Chinese (the "Cannot open session" banner).
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/common/safe_file.h"
#include "core/session/session.h"

namespace sml::broken {

struct BrokenSession {
    std::string name;  // what is wrong, for messages and the expected text's key
    std::string path;
};

// A folder of its own under the system's temporary folder, removed on destruction.
class BrokenSessionDir {
  public:
    BrokenSessionDir() {
        dir_ = (std::filesystem::temp_directory_path() /
                ("sml-broken-sessions-" + std::to_string(::getpid())))
                   .string();
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
    }
    ~BrokenSessionDir() {
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
    const std::string& dir() const { return dir_; }

    // Writes every broken file (once) and returns them in a fixed order.
    const std::vector<BrokenSession>& files() {
        if (files_.empty()) write_all();
        return files_;
    }

  private:
    static nlohmann::ordered_json valid() {
        Session s;
        s.created_utc = "2026-11-27T00:00:00Z";
        PointRecord p;
        p.kernel = "smem", p.variant = "", p.rows = 4, p.cols = 1024, p.dtype = "fp32";
        s.points.push_back(p);
        p.cols = 2048;
        s.points.push_back(p);
        return nlohmann::ordered_json::parse(session_to_json(s));
    }
    void text(const std::string& name, const std::string& body) {
        const std::string path = dir_ + "/" + name + ".json";
        std::ofstream(path, std::ios::binary) << body;
        files_.push_back({name, path});
    }
    template <class Edit>
    void edited(const std::string& name, Edit edit) {
        nlohmann::ordered_json doc = valid();
        edit(doc);
        text(name, doc.dump(1));
    }

    void write_all() {
        using json = nlohmann::ordered_json;
        text("empty", "  \n");
        text("truncated", valid().dump(1).substr(0, 200));
        text("not_json", "{\n  \"schema_version\": 1,,\n}");
        std::string nan = valid().dump(1);
        const std::string gbps = "\"gbps\": 0.0";
        nan.replace(nan.find(gbps), gbps.size(), "\"gbps\": NaN");
        text("bare_nan", nan);
        text("top_level_array", "[1, 2]");
        text("no_schema_version", "{\"points\": []}");
        edited("newer_schema", [](json& d) { d["schema_version"] = 99; });
        edited("older_schema", [](json& d) { d["schema_version"] = 0; });
        edited("missing_field", [](json& d) { d["points"][1]["time"].erase("median_ms"); });
        edited("string_for_integer", [](json& d) { d["device"]["sm_count"] = "many"; });
        edited("integer_for_bool", [](json& d) { d["points"][0]["within_tolerance"] = 1; });
        edited("null_for_string", [](json& d) { d["device"]["name"] = nullptr; });
        edited("array_for_object", [](json& d) { d["device"] = json::array(); });
        edited("object_for_array", [](json& d) { d["points"][0]["launches"] = json::object(); });
        edited("word_for_number", [](json& d) { d["points"][0]["gbps"] = "fast"; });
        edited("short_grid", [](json& d) {
            d["points"][0]["launches"] = json::array({{{"name", "k"},
                                                       {"grid", {1, 2}},
                                                       {"block", {1, 1, 1}},
                                                       {"dynamic_smem_bytes", 0},
                                                       {"static_smem_bytes", 0},
                                                       {"registers_per_thread", 0},
                                                       {"blocks_per_sm", 0},
                                                       {"theoretical_occupancy_pct", 0},
                                                       {"median_ms", 0}}});
        });
        edited("int32_out_of_range", [](json& d) { d["device"]["cc_major"] = int64_t(1) << 40; });
        edited("int64_out_of_range",
               [](json& d) { d["points"][0]["rows"] = uint64_t(18446744073709551615u); });
        edited("point_not_object", [](json& d) { d["points"][1] = 7; });
        edited("per_launch_not_object",
               [](json& d) { d["points"][0]["predicted"]["per_launch"]["k"] = 3; });
        edited("metrics_not_object",
               [](json& d) { d["points"][0]["metrics"]["per_launch"]["k"] = "x"; });
        edited("software_not_string", [](json& d) { d["software"]["cuda"] = 13; });
        edited("zero_rows", [](json& d) { d["points"][0]["rows"] = 0; });
        edited("unknown_kernel", [](json& d) { d["points"][0]["kernel"] = "turbo_v2"; });
        edited("unknown_variant", [](json& d) { d["points"][0]["variant"] = "fancy-2"; });
        edited("variant_of_kernel_without", [](json& d) {
            d["points"][0]["kernel"] = "naive", d["points"][0]["variant"] = "x";
        });
        edited("unknown_dtype", [](json& d) { d["points"][0]["dtype"] = "fp8"; });
        edited("repeated_point", [](json& d) { d["points"][1]["cols"] = 1024; });
        edited("repeated_variant", [](json& d) {
            for (json& p : d["points"]) p["variant"] = "bank-conflicted", p["cols"] = 512;
        });
        edited("grid_out_of_range", [](json& d) {
            d["points"][0]["launches"] = json::array(
                {{{"name", "k"}, {"grid", {1, int64_t(1) << 40, 1}}, {"block", {1, 1, 1}}}});
        });
        std::string inf = valid().dump(1);
        const std::string median = "\"median_ms\": 0.0";
        inf.replace(inf.find(median), median.size(), "\"median_ms\": -Infinity");
        text("bare_infinity", inf);
        files_.push_back({"missing_file", dir_ + "/missing.json"});
        std::filesystem::create_directories(dir_ + "/folder.json");
        files_.push_back({"directory", dir_ + "/folder.json"});
        // Larger than the cap, without writing 64 MiB: a sparse file.
        const std::string big = dir_ + "/too_large.json";
        std::ofstream(big, std::ios::binary) << "{";
        std::filesystem::resize_file(big, uint64_t(kMaxSessionFileBytes) + 1);
        files_.push_back({"too_large", big});
        const std::string fifo = dir_ + "/fifo.json";
        if (::mkfifo(fifo.c_str(), 0600) == 0) files_.push_back({"fifo", fifo});
    }

    std::string dir_;
    std::vector<BrokenSession> files_;
};

}  // namespace sml::broken
