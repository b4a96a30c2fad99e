// Chart export: every chart kind x PNG/SVG/PDF/CSV, from the SYNTHETIC fixture session and from
// every recorded session in assets/sessions/ (when there are any).
//   PNG: valid signature, IHDR size = requested size, not blank (many distinct colours)
//   SVG: well-formed XML (tag balance) naming every series
//   PDF: starts with %PDF- and ends with %%EOF
//   CSV: header columns with units, one row per series point, numbers identical to the session
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/chart/chart_build.h"
#include "core/chart/chart_export.h"
#include "test_chart_fixture.h"

#if SML_HAVE_CAIRO
#include <cairo.h>
#endif

namespace fs = std::filesystem;

namespace sml::chart {
namespace {

std::string read_all(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

fs::path temp_dir() {
    const fs::path d = fs::temp_directory_path() /
                       ("sml_chart_test_" + std::to_string(static_cast<long>(::getpid())));
    fs::create_directories(d);
    return d;
}

// ---------------------------------------------------------------------------------------------
// Format checkers

uint32_t be32(const std::string& b, size_t at) {
    return (uint32_t(uint8_t(b[at])) << 24) | (uint32_t(uint8_t(b[at + 1])) << 16) |
           (uint32_t(uint8_t(b[at + 2])) << 8) | uint32_t(uint8_t(b[at + 3]));
}

#if SML_HAVE_CAIRO
struct PngReader {
    const std::string* bytes;
    size_t at = 0;
};
cairo_status_t read_png(void* closure, unsigned char* data, unsigned int length) {
    auto* r = static_cast<PngReader*>(closure);
    if (r->at + length > r->bytes->size()) return CAIRO_STATUS_READ_ERROR;
    std::copy_n(r->bytes->data() + r->at, length, data);
    r->at += length;
    return CAIRO_STATUS_SUCCESS;
}

// Distinct ARGB values in the decoded image: a blank or single-colour file has 1 or 2.
size_t distinct_colours(const std::string& png) {
    PngReader r{&png};
    cairo_surface_t* s = cairo_image_surface_create_from_png_stream(read_png, &r);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return 0;
    }
    std::set<uint32_t> colours;
    const int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    const int stride = cairo_image_surface_get_stride(s);
    const unsigned char* data = cairo_image_surface_get_data(s);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            colours.insert(*reinterpret_cast<const uint32_t*>(data + y * stride + x * 4));
    cairo_surface_destroy(s);
    return colours.size();
}
#endif

void check_png(const std::string& b, int w, int h, const std::string& what) {
    static const char kSig[] = "\x89PNG\r\n\x1a\n";
    ASSERT_GE(b.size(), 33u) << what;
    EXPECT_EQ(b.substr(0, 8), std::string(kSig, 8)) << what;
    EXPECT_EQ(b.substr(12, 4), "IHDR") << what;
    EXPECT_EQ(be32(b, 16), uint32_t(w)) << what;
    EXPECT_EQ(be32(b, 20), uint32_t(h)) << what;
#if SML_HAVE_CAIRO
    EXPECT_GT(distinct_colours(b), 64u) << what << " looks blank";
#endif
}

// A small well-formedness check: every tag closes in order, one root element, nothing after it.
// Enough to catch truncated or mangled output without an XML library.
::testing::AssertionResult xml_balanced(const std::string& x) {
    std::vector<std::string> stack;
    int roots = 0;
    size_t i = 0;
    while ((i = x.find('<', i)) != std::string::npos) {
        if (x.compare(i, 4, "<!--") == 0) {
            const size_t e = x.find("-->", i);
            if (e == std::string::npos) return ::testing::AssertionFailure() << "open comment";
            i = e + 3;
            continue;
        }
        if (x.compare(i, 2, "<?") == 0 || x.compare(i, 2, "<!") == 0) {
            i = x.find('>', i);
            if (i == std::string::npos) return ::testing::AssertionFailure() << "open decl";
            continue;
        }
        // Find the tag's end, skipping '>' inside quoted attribute values.
        size_t j = i + 1;
        char quote = 0;
        for (; j < x.size(); ++j) {
            if (quote) {
                if (x[j] == quote) quote = 0;
            } else if (x[j] == '"' || x[j] == '\'') {
                quote = x[j];
            } else if (x[j] == '>') {
                break;
            }
        }
        if (j >= x.size()) return ::testing::AssertionFailure() << "unterminated tag at " << i;
        const std::string tag = x.substr(i + 1, j - i - 1);
        const bool closing = !tag.empty() && tag[0] == '/';
        const bool self_closing = !tag.empty() && tag.back() == '/';
        const std::string name = tag.substr(
            closing ? 1 : 0, tag.find_first_of(" \t\r\n/", closing ? 1 : 0) - (closing ? 1 : 0));
        if (closing) {
            if (stack.empty() || stack.back() != name)
                return ::testing::AssertionFailure() << "</" << name << "> closes <"
                                                     << (stack.empty() ? "" : stack.back()) << ">";
            stack.pop_back();
        } else if (!self_closing) {
            if (stack.empty()) ++roots;
            stack.push_back(name);
        } else if (stack.empty()) {
            ++roots;
        }
        i = j + 1;
    }
    if (!stack.empty()) return ::testing::AssertionFailure() << "<" << stack.back() << "> open";
    if (roots != 1) return ::testing::AssertionFailure() << roots << " root elements";
    return ::testing::AssertionSuccess();
}

std::string xml_escaped(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '&')
            out += "&amp;";
        else if (c == '<')
            out += "&lt;";
        else if (c == '>')
            out += "&gt;";
        else if (c == '"')
            out += "&quot;";
        else
            out += c;
    }
    return out;
}

// RFC 4180 rows (quoted fields may hold commas and quotes).
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
    std::vector<std::vector<std::string>> rows(1, std::vector<std::string>(1));
    bool quoted = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        std::string& cell = rows.back().back();
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
                cell += '"', ++i;
            else if (c == '"')
                quoted = false;
            else
                cell += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            rows.back().emplace_back();
        } else if (c == '\n') {
            rows.emplace_back(1);
        } else {
            cell += c;
        }
    }
    if (rows.back().size() == 1 && rows.back()[0].empty()) rows.pop_back();
    return rows;
}

// ---------------------------------------------------------------------------------------------
// Every kind x every format

void export_all(const Session& session, const std::string& tag) {
    const fs::path dir = temp_dir();
    size_t kinds = 0;
    for (const ChartKind& k : chart_kinds()) {
        if (k.source != ChartSource::session) continue;  // peers: tests/test_chart_peers.cpp
        ++kinds;
        const std::string kind = k.id;
        ChartOptions o;
        o.kind = kind;
        const Result<Chart> c = build_chart(session, o);
        if (!c.ok()) {
            // Allowed only where the session may lack what the chart needs (counters, or the
            // kernel or N a per-N chart is drawn at), and then it says so.
            EXPECT_FALSE(c.error().message.empty());
            EXPECT_FALSE(c.error().hint.empty()) << kind << ": " << c.error().message;
            EXPECT_TRUE(k.needs_counters || k.per_n)
                << tag << " " << kind << ": " << c.error().message;
            continue;
        }
        for (const char* theme : {"light", "dark"}) {
            RenderOptions ro;
            ro.theme = theme;
            ro.width = 1200;
            ro.height = 700;
            const std::string what = tag + " " + kind + " " + theme;
            const fs::path csv = dir / (kind + ".csv");
            ASSERT_TRUE(export_chart(*c, csv.string(), ro).ok()) << what;
            EXPECT_FALSE(read_all(csv).empty());
            if (!chart_renderer_available()) continue;
            const fs::path png = dir / (kind + ".png"), svg = dir / (kind + ".svg"),
                           pdf = dir / (kind + ".pdf");
            for (const fs::path& p : {png, svg, pdf}) {
                const Status st = export_chart(*c, p.string(), ro);
                ASSERT_TRUE(st.ok()) << what << " " << p << ": " << st.error().message;
            }
            check_png(read_all(png), 1200, 700, what);
            const std::string s = read_all(svg);
            EXPECT_TRUE(xml_balanced(s)) << what;
            for (const Panel& panel : c->panels)
                for (const Series& ser : panel.series)
                    EXPECT_NE(s.find(xml_escaped(ser.label)), std::string::npos)
                        << what << ": SVG lacks '" << ser.label << "'";
            const std::string d = read_all(pdf);
            EXPECT_EQ(d.substr(0, 5), "%PDF-") << what;
            EXPECT_NE(d.find("%%EOF", d.size() > 64 ? d.size() - 64 : 0), std::string::npos)
                << what << ": PDF is truncated";
        }
    }
    EXPECT_GT(kinds, 0u) << "the chart-kind table lists no chart drawn from a session";
    fs::remove_all(dir);
}

TEST(ChartExport, EveryKindAndFormatFromTheSyntheticSession) {
    if (!chart_renderer_available())
        std::printf("note: built without Cairo; only CSV is checked here\n");
    export_all(test::synthetic_session(), "synthetic");
    export_all(test::synthetic_l2_session(), "synthetic-l2");
    export_all(test::synthetic_session(false), "synthetic-no-counters");
}

TEST(ChartExport, EveryKindAndFormatFromRecordedSessions) {
    const fs::path dir = fs::path(SML_SOURCE_DIR) / "assets" / "sessions";
    int n = 0;
    if (fs::exists(dir)) {
        for (const auto& e : fs::directory_iterator(dir)) {
            if (e.path().extension() != ".json") continue;
            const Result<Session> s = load_session(e.path().string());
            ASSERT_TRUE(s.ok()) << e.path() << ": " << s.error().message;
            export_all(*s, e.path().filename().string());
            ++n;
        }
    }
    EXPECT_GT(n, 0) << "no recorded session in " << dir;
}

TEST(ChartExport, CsvHoldsTheSessionsExactNumbers) {
    const Session s = test::synthetic_session();
    ChartOptions o;
    o.kind = "bandwidth";
    const Result<Chart> c = build_chart(s, o);
    ASSERT_TRUE(c.ok());
    const auto rows = parse_csv(chart_to_csv(*c));
    ASSERT_FALSE(rows.empty());
    const std::vector<std::string> header = {
        "panel",      "series",      "kind",      "N (columns)",          "bandwidth (GB/s)",
        "band_upper", "l2_resident", "range_end", "counters_unavailable", "note"};
    EXPECT_EQ(rows[0], header);
    size_t lines = 0;
    for (size_t i = 1; i < rows.size(); ++i) {
        ASSERT_EQ(rows[i].size(), header.size()) << "row " << i;
        if (rows[i][2] != "line") continue;
        ++lines;
        const PointRecord* p = s.find(rows[i][1], std::stoll(rows[i][3]));
        ASSERT_NE(p, nullptr) << rows[i][1] << " at " << rows[i][3];
        EXPECT_EQ(std::strtod(rows[i][4].c_str(), nullptr), p->gbps) << "must round-trip exactly";
    }
    EXPECT_EQ(lines, s.points.size()) << "one row per session point";
    // The reference lines come with their values.
    bool copy = false;
    for (const auto& r : rows)
        copy |= r[1] == "copy" && std::strtod(r[4].c_str(), nullptr) == s.device.copy_gbps;
    EXPECT_TRUE(copy);
}

TEST(ChartExport, CsvOfMultiPanelChartsNamesEachQuantityAndUnit) {
    const Session s = test::synthetic_session();
    ChartOptions o;
    o.kind = "naive";
    o.cols = 4096;
    const Result<Chart> c = build_chart(s, o);
    ASSERT_TRUE(c.ok());
    const auto rows = parse_csv(chart_to_csv(*c));
    EXPECT_EQ(rows[0][3], "launch");
    EXPECT_EQ(rows[0][4], "quantity");
    EXPECT_EQ(rows[0][5], "unit");
    EXPECT_EQ(rows[0][6], "value");
    const PointRecord* naive = s.find("naive", 4096);
    int checked = 0;
    for (const auto& r : rows) {
        if (r[1] == "time" && r[3] == "exp") {
            EXPECT_EQ(r[5], "ms");
            EXPECT_EQ(std::strtod(r[6].c_str(), nullptr), naive->launches[2].median_ms);
            ++checked;
        }
    }
    EXPECT_EQ(checked, 1);
}

// XML 1.0 allows no control character but tab, newline and carriage return, and not U+FFFE or
// U+FFFF: a title or device name holding one used to make the SVG unreadable to any XML parser.
TEST(ChartExport, SvgOfControlCharactersIsStillXml) {
    if (!chart_renderer_available()) {
        std::printf("note: built without Cairo; no SVG to check\n");
        return;
    }
    Session session = test::synthetic_session();
    session.device.name = std::string("GPU\x02\x1b[31m name\xEF\xBF\xBF");
    ChartOptions o;
    o.kind = "bandwidth";
    o.title = std::string("My \x01 chart\x7f & <more>\x0b");
    const Result<Chart> c = build_chart(session, o);
    ASSERT_TRUE(c.ok()) << c.error().message;
    const fs::path dir = temp_dir();
    const fs::path svg = dir / "control.svg";
    const Status st = export_chart(*c, svg.string(), {});
    ASSERT_TRUE(st.ok()) << st.error().message;
    const std::string s = read_all(svg);
    for (size_t i = 0; i < s.size(); ++i) {
        const unsigned char u = static_cast<unsigned char>(s[i]);
        ASSERT_FALSE(u < 0x20 && u != '\t' && u != '\n' && u != '\r')
            << "control byte " << int(u) << " at " << i << ": "
            << s.substr(i > 40 ? i - 40 : 0, 80);
        ASSERT_FALSE(u == 0xEF && i + 2 < s.size() &&
                     static_cast<unsigned char>(s[i + 1]) == 0xBF &&
                     (static_cast<unsigned char>(s[i + 2]) & 0xFE) == 0xBE)
            << "U+FFFE or U+FFFF at " << i;
    }
    EXPECT_TRUE(xml_balanced(s));
    EXPECT_NE(s.find("<title>My \xEF\xBF\xBD chart\x7f &amp; &lt;more&gt;\xEF\xBF\xBD</title>"),
              std::string::npos)
        << s.substr(0, 600);
    // A real XML parser, where the machine has one (libxml2's xmllint).
    if (std::system("command -v xmllint >/dev/null 2>&1") == 0)
        EXPECT_EQ(std::system(("xmllint --noout '" + svg.string() + "'").c_str()), 0);
    fs::remove_all(dir);
}

TEST(ChartExport, BadPathsExtensionsAndSizesGiveClearErrors) {
    const Result<Chart> c = build_chart(test::synthetic_session(), ChartOptions{});
    ASSERT_TRUE(c.ok());
    Status st = export_chart(*c, "/nonexistent-dir/x/chart.csv", {});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("/nonexistent-dir/x/chart.csv"), std::string::npos);
    EXPECT_FALSE(st.error().hint.empty());

    st = export_chart(*c, "chart.gif", {});
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find(".gif"), std::string::npos);
    EXPECT_NE(st.error().hint.find(".png"), std::string::npos);
    EXPECT_FALSE(format_from_path("chart").ok());
    EXPECT_EQ(*format_from_path("out/Chart.SVG"), ChartFormat::svg);

    for (const char* bad : {"1600", "1600x", "x900", "1600x900x2", "10x10", "99999x900", "axb"})
        EXPECT_FALSE(parse_size(bad).ok()) << bad;
    const Result<RenderOptions> ok = parse_size("1200x675");
    ASSERT_TRUE(ok.ok());
    EXPECT_EQ(ok->width, 1200);
    EXPECT_EQ(ok->height, 675);

    if (chart_renderer_available()) {
        RenderOptions ro;
        ro.theme = "sepia";
        const Result<std::string> r = render_chart(*c, ChartFormat::png, ro);
        ASSERT_FALSE(r.ok());
        EXPECT_NE(r.error().message.find("sepia"), std::string::npos);
    } else {
        const Result<std::string> r = render_chart(*c, ChartFormat::png, {});
        ASSERT_FALSE(r.ok());
        EXPECT_NE(r.error().message.find("built without Cairo"), std::string::npos);
    }
}

}  // namespace
}  // namespace sml::chart
