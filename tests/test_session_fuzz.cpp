// Fuzz test of the session reader (issue 24). Random mutants of real sessions (byte flips,
// deletions, duplications, truncations, bare tokens, type swaps, long strings and keys, removed
// and repeated fields, extreme numbers, deep nesting) must each come back as a Session or an
// Error: never a crash, a hang or an exception. What is accepted must also draw: every chart is
// built, laid out and exported to CSV, and the session saved and read back.
//
// On CI (CTest) it runs a fixed seed. By hand, any seed and any number of cases:
//
//   SML_FUZZ_SEED=7 SML_FUZZ_CASES=100000 build/tests/test_session_fuzz
//   SML_FUZZ_SEED=7 SML_FUZZ_ONLY=1234 SML_FUZZ_SAVE=/tmp/m.json build/tests/test_session_fuzz
//
// The second line reruns one case (every case is built from its own (seed, case) generator)
// and writes its mutant to a file. A case that runs longer than kCaseSeconds, or crashes, stops
// the run with the seed and case number to rerun. The CI run stops early, passing, if it nears
// kBudgetSeconds on a slow machine, and says how many cases it ran.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "core/chart/chart_build.h"
#include "core/chart/chart_kinds.h"
#include "core/chart/chart_export.h"
#include "core/chart/chart_layout.h"
#include "core/session/session.h"
#include "tests/test_chart_fixture.h"

namespace sml {
namespace {

using json = nlohmann::ordered_json;

constexpr uint64_t kDefaultSeed = 20261124;
constexpr long kDefaultCases = 4000;
constexpr unsigned kCaseSeconds = 10;
constexpr double kBudgetSeconds = 40;

// [SECTION] Crash and hang reporting
// --------------------------------------------------------------- Set before every case; the
// handlers print it. Only async-signal-safe calls in the handlers.
char g_case_text[256] = "before the first case";

void write_stderr(const char* s) {
    ssize_t ignored = ::write(2, s, std::strlen(s));
    (void)ignored;
}

extern "C" void on_fatal_signal(int sig) {
    write_stderr(sig == SIGALRM ? "\nFUZZ HANG: " : "\nFUZZ CRASH: ");
    write_stderr(g_case_text);
    write_stderr(sig == SIGALRM ? " ran longer than the per-case limit\n" : " crashed\n");
    ::_exit(1);
}

void install_handlers() {
    for (int sig : {SIGALRM, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
        std::signal(sig, on_fatal_signal);
}

// [SECTION] Mutations
// ------------------------------------------------------------------------------
using Rng = std::mt19937_64;

size_t pick(Rng& rng, size_t n) {
    return n == 0 ? 0 : static_cast<size_t>(rng() % n);
}

// Every value in the document (not the root), for the structural mutations.
void collect(json& j, std::vector<json*>* out) {
    if (j.is_object())
        for (auto& [k, v] : j.items()) {
            out->push_back(&v);
            collect(v, out);
        }
    else if (j.is_array())
        for (json& v : j) {
            out->push_back(&v);
            collect(v, out);
        }
}

std::string long_text(Rng& rng) {
    static const size_t kLengths[] = {5000, 17000, 30000, 200000, 1000000};
    const size_t n = kLengths[pick(rng, 5)];
    static const char* kPieces[] = {"x", " ", "\xE4\xB8\xAD", "\xC3\xA9", "N", "\\"};
    std::string s;
    const char* piece = kPieces[pick(rng, 6)];
    while (s.size() < n) s += piece;
    return s;
}

json odd_value(Rng& rng) {
    switch (pick(rng, 20)) {
        case 0:
            return nullptr;
        case 1:
            return true;
        case 2:
            return 0;
        case 3:
            return -1;
        case 4:
            return json::parse("9223372036854775808");  // 2^63
        case 5:
            return json::parse("18446744073709551615");  // 2^64 - 1
        case 6:
            return json::parse("18446744073709551616");  // 2^64: a float to JSON
        case 7:
            return 1e308;
        case 8:
            return -1e308;
        case 9:
            return 0.5;
        case 10:
            return "";
        case 11:
            return "nan";
        case 12:
            return "-inf";
        case 13:
            return json::array();
        case 14:
            return json::object();
        case 15:
            return json::array({1, 2, 3});
        case 16:
            return json{{"a", 1}};
        case 17:
            return 4294967297LL;  // 2^32 + 1
        case 18:
            return INT64_MIN;
        default:
            return long_text(rng);
    }
}

// One structural mutation of `doc`.
void mutate_structure(json& doc, Rng& rng) {
    std::vector<json*> nodes;
    collect(doc, &nodes);
    if (nodes.empty()) return;
    json& node = *nodes[pick(rng, nodes.size())];
    switch (pick(rng, 7)) {
        case 0:  // type swap
        case 1:
            node = odd_value(rng);
            break;
        case 2: {  // a long string in place of a string: the file stays valid
            std::vector<json*> strings;
            for (json* n : nodes)
                if (n->is_string()) strings.push_back(n);
            (strings.empty() ? node : *strings[pick(rng, strings.size())]) = long_text(rng);
            break;
        }
        case 3:  // remove a field or an element
            if (node.is_object() && !node.empty())
                node.erase(
                    std::next(node.begin(), static_cast<long>(pick(rng, node.size()))).key());
            else if (node.is_array() && !node.empty())
                node.erase(pick(rng, node.size()));
            else
                node = nullptr;
            break;
        case 4:  // repeat an element (duplicated points, launches)
            if (node.is_array() && !node.empty())
                node.push_back(node[pick(rng, node.size())]);
            else
                node = json::array({node, node});
            break;
        case 5:  // a long key, or an odd one
            if (node.is_object())
                node[pick(rng, 2) ? long_text(rng) : std::string("")] = 1;
            else
                node = json{{long_text(rng), node}};
            break;
        default:  // extreme values in the fields that are counts and sizes
            for (const char* key : {"rows", "cols", "schema_version", "samples", "passes"})
                if (node.is_object() && node.contains(key)) node[key] = odd_value(rng);
            break;
    }
}

// One mutation of the text.
void mutate_text(std::string& t, Rng& rng) {
    if (t.empty()) return;
    switch (pick(rng, 7)) {
        case 0: {  // byte flips
            const size_t n = 1 + pick(rng, 8);
            for (size_t i = 0; i < n; ++i) t[pick(rng, t.size())] = static_cast<char>(rng());
            break;
        }
        case 1: {  // delete a range
            const size_t at = pick(rng, t.size());
            t.erase(at, 1 + pick(rng, 64));
            break;
        }
        case 2: {  // duplicate a range somewhere else
            const size_t from = pick(rng, t.size());
            const std::string piece = t.substr(from, 1 + pick(rng, 400));
            t.insert(pick(rng, t.size()), piece);
            break;
        }
        case 3:  // truncate
            t.resize(pick(rng, t.size()));
            break;
        case 4: {  // a bare token where anything could be
            static const char* kTokens[] = {
                "NaN",  "Infinity", "-Infinity", "nan", "-1",      "1e999", "18446744073709551616",
                "null", "[",        "{",         "\"",  "\\u0000", "\xFF",  ",",
                "}",    "]"};
            t.insert(pick(rng, t.size()), kTokens[pick(rng, 16)]);
            break;
        }
        case 5: {  // deep nesting
            const size_t depth = 1000 + pick(rng, 100000);
            t.insert(pick(rng, t.size()), std::string(depth, pick(rng, 2) ? '[' : '{'));
            break;
        }
        default: {  // bit flip
            const size_t at = pick(rng, t.size());
            t[at] = static_cast<char>(t[at] ^ (1 << pick(rng, 8)));
            break;
        }
    }
}

// Small bases, so that many cases fit in the time: the recorded H100 session's first points
// (naive's five launches with per-launch counters and predictions), and the synthetic one's.
std::vector<json> bases() {
    std::vector<json> out;
    const std::string recorded =
        std::string(SML_SOURCE_DIR) + "/assets/sessions/h100-2026-11-23.json";
    if (Result<Session> s = load_session(recorded)) {
        json d = json::parse(session_to_json(*s));
        json& p = d["points"];
        p.erase(p.begin() + std::min<long>(12, static_cast<long>(p.size())), p.end());
        out.push_back(d);
    }
    json syn = json::parse(session_to_json(test::synthetic_session(true)));
    json& p = syn["points"];
    p.erase(p.begin() + std::min<long>(16, static_cast<long>(p.size())), p.end());
    out.push_back(syn);
    json no_counters = json::parse(session_to_json(test::synthetic_session(false)));
    json& q = no_counters["points"];
    q.erase(q.begin() + std::min<long>(8, static_cast<long>(q.size())), q.end());
    out.push_back(no_counters);
    return out;
}

// The mutant of case `index`: 1-3 mutations, structural ones first, then textual ones.
std::string make_mutant(const std::vector<json>& base, uint64_t seed, long index) {
    std::seed_seq seq{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                      static_cast<uint32_t>(index)};
    Rng rng(seq);
    json doc = base[pick(rng, base.size())];
    const size_t structural = pick(rng, 3);
    for (size_t i = 0; i < structural; ++i) mutate_structure(doc, rng);
    std::string text = doc.dump(pick(rng, 2) ? 1 : -1);
    const size_t textual = structural == 0 ? 1 + pick(rng, 2) : pick(rng, 2);
    for (size_t i = 0; i < textual; ++i) mutate_text(text, rng);
    return text;
}

// [SECTION] What an accepted session must survive
// ---------------------------------------------------
void draw_everything(const Session& s) {
    for (const chart::ChartKind& k : chart::chart_kinds()) {
        if (k.source != chart::ChartSource::session) continue;
        chart::ChartOptions o;
        o.kind = k.id;
        for (const char* dtype : {"fp32", "bf16"}) {
            o.dtype = dtype;
            Result<chart::Chart> c = chart::build_chart(s, o);
            if (!c) continue;  // "no points at this N" and the like: an Error is fine
            const chart::ChartLayout l = chart::layout_chart(*c, chart::light_theme(), 1600, 900,
                                                             chart::approximate_text_size);
            (void)l;
            const std::string csv = chart::chart_to_csv(*c);
            (void)csv;
        }
    }
}

uint64_t env_number(const char* name, uint64_t fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

TEST(SessionFuzz, NoCrashNoHangNoException) {
    const uint64_t seed = env_number("SML_FUZZ_SEED", kDefaultSeed);
    const long cases = static_cast<long>(env_number("SML_FUZZ_CASES", kDefaultCases));
    const bool by_hand = std::getenv("SML_FUZZ_CASES") != nullptr;
    const char* only = std::getenv("SML_FUZZ_ONLY");
    const std::vector<json> base = bases();
    ASSERT_FALSE(base.empty());
    install_handlers();

    long first = 0, last = cases;
    if (only && *only) {
        first = std::atol(only);
        last = first + 1;
    }
    long accepted = 0, rejected = 0, ran = 0, slowest_case = -1;
    double slowest = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (long i = first; i < last; ++i) {
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!by_hand && !only && elapsed > kBudgetSeconds) {
            std::printf("time budget reached after %ld cases (%.0f s)\n", ran, elapsed);
            break;
        }
        std::snprintf(g_case_text, sizeof g_case_text,
                      "case %ld of seed %llu (rerun: SML_FUZZ_SEED=%llu SML_FUZZ_ONLY=%ld)", i,
                      static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed),
                      i);
        const std::string mutant = make_mutant(base, seed, i);
        if (const char* save = std::getenv("SML_FUZZ_SAVE"); save && only)
            std::ofstream(save, std::ios::binary) << mutant;
        const auto case_t0 = std::chrono::steady_clock::now();
        ::alarm(kCaseSeconds);
        try {
            Result<Session> s = parse_session(mutant, "mutant.json");
            if (s) {
                ++accepted;
                draw_everything(*s);
                // What was accepted, saved, must read back.
                Result<Session> again = parse_session(session_to_json(*s), "saved.json");
                EXPECT_TRUE(again.ok())
                    << g_case_text
                    << ": the saved session does not load: " << again.error().message;
            } else {
                ++rejected;
                EXPECT_FALSE(s.error().message.empty()) << g_case_text;
                EXPECT_LE(s.error().message.size(), 2000u)
                    << g_case_text << ": a message of " << s.error().message.size() << " bytes";
            }
        } catch (const std::exception& e) {
            ADD_FAILURE() << g_case_text << ": exception " << e.what();
        } catch (...) {
            ADD_FAILURE() << g_case_text << ": unknown exception";
        }
        ::alarm(0);
        const double took =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - case_t0).count();
        if (took > slowest) slowest = took, slowest_case = i;
        ++ran;
        if (::testing::Test::HasFailure()) break;
    }
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf(
        "seed %llu: %ld cases in %.1f s, %ld accepted, %ld rejected with a message; "
        "slowest case %ld took %.3f s\n",
        static_cast<unsigned long long>(seed), ran, elapsed, accepted, rejected, slowest_case,
        slowest);
    if (!only) {
        // Both paths must be exercised, or the mutations are too weak or too strong.
        EXPECT_GT(accepted, ran / 50);
        EXPECT_GT(rejected, ran / 50);
    }
}

}  // namespace
}  // namespace sml
