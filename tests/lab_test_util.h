// Helpers the lab bench's CPU tests share: reading repo files, finding a line by its text.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "core/lab/exercises.h"
#include "core/session/session.h"
#include "kernels/registry.h"

namespace sml::labtest {

inline std::string read_repo_file(const std::string& rel) {
    std::ifstream in(std::string(SML_SOURCE_DIR) + "/" + rel, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The 1-based line of the first occurrence of `needle`, or 0.
inline int line_of(const std::string& text, const std::string& needle) {
    const size_t at = text.find(needle);
    if (at == std::string::npos) return 0;
    int line = 1;
    for (size_t i = 0; i < at; ++i) line += text[i] == '\n';
    return line;
}

// A lab result of `status` and `message`, as an exercise's checker reads it; with a measured
// point at `pct_of_copy` when that is >= 0 (the speed check's).
inline lab::LabResult lab_result(const std::string& status, const std::string& message,
                                 double pct_of_copy = -1) {
    lab::LabResult r;
    r.status = status;
    r.message = message;
    if (pct_of_copy >= 0) {
        Session s;
        PointRecord p;
        p.pct_of_copy = pct_of_copy;
        s.points.push_back(p);
        r.session = s;
    }
    return r;
}

// `text` with the first `from` replaced by `to` (the test fails if `from` is absent).
inline std::string replace_once(std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << "not found: " << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

// An edit from tests/data/lab/edits.json applied to its lesson file (bench/lab_device_check.sh
// applies the same recipes): region bodies replaced, text replaced once, text prepended.
struct EditRecipe {
    std::string kernel;
    std::string source;
    nlohmann::json spec;
};

inline EditRecipe edit_recipe(const std::string& name) {
    std::ifstream in(std::string(SML_TEST_DATA_DIR) + "/lab/edits.json");
    const nlohmann::json doc = nlohmann::json::parse(in);
    const nlohmann::json& e = doc.at("edits").at(name);
    EditRecipe r;
    r.spec = e;
    r.kernel = e.at("kernel").get<std::string>();
    const KernelInfo* k = find_kernel(r.kernel);
    EXPECT_NE(k, nullptr);
    r.source = read_repo_file(k->lesson_source());
    if (e.contains("regions"))
        for (auto it = e.at("regions").begin(); it != e.at("regions").end(); ++it) {
            Result<std::string> s =
                lab::replace_region(r.source, it.key(), it->get<std::string>(), name);
            EXPECT_TRUE(s) << s.error().message;
            if (s) r.source = *s;
        }
    if (e.contains("replace"))
        for (const auto& pair : e.at("replace"))
            r.source = replace_once(r.source, pair.at(0).get<std::string>(),
                                    pair.at(1).get<std::string>());
    if (e.contains("prepend")) r.source = e.at("prepend").get<std::string>() + r.source;
    return r;
}

}  // namespace sml::labtest
