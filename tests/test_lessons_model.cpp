// The lesson model on its own: region markers, PTX patterns, lesson Markdown, claims and the
// consistency checks, each fed small hand-written inputs (the real lessons are in
// test_lessons.cpp). No GPU, no files outside this test.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/lessons/annotated_source.h"
#include "core/lessons/lesson_check.h"
#include "core/lessons/lesson_claims.h"
#include "core/lessons/lesson_model.h"

namespace sml {
namespace {

// ---------------------------------------------------------------------------------------------
// Region markers

const char kSource[] =
    "// header\n"                                // 1
    "// @region load: read one pack per lane\n"  // 2
    "float v = x[i];\n"                          // 3
    "    // @region inner: the max\n"            // 4
    "    m = fmaxf(m, v);\n"                     // 5
    "    // @endregion inner\n"                  // 6
    "s += v;\n"                                  // 7
    "// @endregion load\n"                       // 8
    "return;\n";                                 // 9

TEST(AnnotatedSource, FindsRegionsLinesAndMarkers) {
    Result<AnnotatedSource> src = parse_annotated_source(kSource, "k.cu");
    ASSERT_TRUE(src.ok()) << src.error().message;
    ASSERT_EQ(src->lines.size(), 9u);
    EXPECT_EQ(src->lines[2], "float v = x[i];");
    const std::vector<bool> markers = {false, true, false, true, false, true, false, true, false};
    EXPECT_EQ(src->is_marker, markers);
    ASSERT_EQ(src->regions.size(), 2u);
    const SourceRegion* load = src->find("load");
    ASSERT_NE(load, nullptr);
    EXPECT_EQ(load->note, "read one pack per lane");
    EXPECT_EQ(load->begin_marker, 2);
    EXPECT_EQ(load->first_line, 3);
    EXPECT_EQ(load->last_line, 7);
    EXPECT_EQ(load->end_marker, 8);
    const SourceRegion* inner = src->find("inner");
    ASSERT_NE(inner, nullptr);
    EXPECT_EQ(inner->first_line, 5);
    EXPECT_EQ(inner->last_line, 5);
    EXPECT_EQ(src->find("missing"), nullptr);
    EXPECT_EQ(src->region_names(), (std::vector<std::string>{"load", "inner"}));
}

TEST(AnnotatedSource, CrLfLinesParseLikeLf) {
    Result<AnnotatedSource> src =
        parse_annotated_source("// @region a: note\r\nx;\r\n// @endregion a\r\n", "crlf.cu");
    ASSERT_TRUE(src.ok()) << src.error().message;
    EXPECT_EQ(src->lines[1], "x;");
    EXPECT_EQ(src->regions.at(0).first_line, 2);
}

struct BadSource {
    const char* text;
    const char* message_part;  // the error must say this
};

TEST(AnnotatedSource, RejectsMalformedMarkersWithLineNumbers) {
    const BadSource cases[] = {
        {"// @region a: x\ncode\n", "k.cu:1: region 'a' is never closed"},
        {"code\n// @endregion a\n", "k.cu:2: @endregion a closes no open region"},
        {"// @region a: x\n// @region b: y\nc\n// @endregion a\n", "does not match"},
        {"// @region a: x\nc\n// @endregion a\n// @region a: y\nd\n// @endregion a\n",
         "k.cu:4: duplicate region name 'a' (first at line 1)"},
        {"// @region a\nc\n// @endregion a\n", "region 'a' has no note"},
        {"// @region Warp_Reduce: x\nc\n// @endregion Warp_Reduce\n", "is not kebab-case"},
        {"// @region a: x\n// @endregion a\n", "region 'a' contains no code"},
        {"// @regionfoo: x\n", "malformed region marker"},
    };
    for (const BadSource& c : cases) {
        Result<AnnotatedSource> src = parse_annotated_source(c.text, "k.cu");
        ASSERT_FALSE(src.ok()) << "accepted: " << c.text;
        EXPECT_NE(src.error().message.find(c.message_part), std::string::npos)
            << "message: " << src.error().message << "\nexpected to contain: " << c.message_part;
        EXPECT_FALSE(src.error().hint.empty());
    }
}

TEST(AnnotatedSource, MissingFileIsAnErrorNamingThePath) {
    Result<AnnotatedSource> src = load_annotated_source("/nonexistent/dir/k.cu");
    ASSERT_FALSE(src.ok());
    EXPECT_NE(src.error().message.find("/nonexistent/dir/k.cu"), std::string::npos);
}

TEST(AnnotatedSource, DirectoryIsAnErrorNotAnEmptyFile) {
    const std::string dir = std::filesystem::temp_directory_path().string();
    Result<std::string> text = read_text_file(dir);
    ASSERT_FALSE(text.ok());
    EXPECT_EQ(text.error().message, dir + " is a directory, not a file");
    EXPECT_FALSE(load_annotated_source(dir).ok());
}

TEST(AnnotatedSource, KebabCase) {
    EXPECT_TRUE(is_kebab_case("warp-reduce"));
    EXPECT_TRUE(is_kebab_case("pass-2"));
    EXPECT_FALSE(is_kebab_case(""));
    EXPECT_FALSE(is_kebab_case("-a"));
    EXPECT_FALSE(is_kebab_case("a-"));
    EXPECT_FALSE(is_kebab_case("a--b"));
    EXPECT_FALSE(is_kebab_case("A"));
    EXPECT_FALSE(is_kebab_case("a_b"));
}

// ---------------------------------------------------------------------------------------------
// PTX patterns

const char kPtx[] =
    "//\n"                                                     // 1
    ".visible .entry k(\n"                                     // 2
    "\t.loc\t1 42 3\n"                                         // 3
    "\tld.global.nc.v4.f32 \t{%f1, %f2, %f3, %f4}, [%rd4];\n"  // 4
    "\tshfl.sync.bfly.b32\t%r5|%p1, %r4, 16, 31, -1;\n"        // 5
    "$L__BB0_2:\n"                                             // 6
    "\t@%p2 bra \t$L__BB0_4;\n"                                // 7
    "\t@!%p3 ld.global.f32 \t%f9, [%rd9];\n"                   // 8
    "\tld.shared.v4.f32 \t{%f5, %f6, %f7, %f8}, [%r9];\n"      // 9
    "\t// ld.global.v4.f32 in a comment\n";                    // 10

TEST(PtxAnchors, MatchesMnemonicPartsInOrder) {
    EXPECT_EQ(find_ptx_lines(kPtx, "ld.global.v4.f32"), std::vector<int>{4});
    EXPECT_EQ(find_ptx_lines(kPtx, "shfl.sync.bfly"), std::vector<int>{5});
    EXPECT_EQ(find_ptx_lines(kPtx, "ld.global"), (std::vector<int>{4, 8}));
    EXPECT_EQ(find_ptx_lines(kPtx, "bra"), std::vector<int>{7});
    EXPECT_EQ(find_ptx_lines(kPtx, "ld.shared.v4"), std::vector<int>{9});
    EXPECT_TRUE(find_ptx_lines(kPtx, "ld.v4.global").empty());  // order matters
    EXPECT_TRUE(find_ptx_lines(kPtx, "st.global").empty());
    EXPECT_TRUE(find_ptx_lines(kPtx, "loc").empty());  // directives never match
    EXPECT_TRUE(find_ptx_lines(kPtx, "").empty());
}

TEST(PtxAnchors, PathForSource) {
    EXPECT_EQ(ptx_path_for_source("kernels/warp_softmax.cu", "/b"), "/b/ptx/warp_softmax.ptx");
    EXPECT_EQ(ptx_path_for_source("naive.cu", "b"), "b/ptx/naive.ptx");
}

// ---------------------------------------------------------------------------------------------
// Lesson Markdown

const char kLesson[] =
    "\n"
    "# Step 3: one warp per row\n"
    "\n"
    "## The idea\n"
    "Shuffles: [[warp:warp-reduce]] and [[warp:ptx:shfl.sync.bfly]].\n"
    "## What you should see\n"
    "It is {{claim:warp-vs-fused}} faster.\n"
    "```\n"
    "## not a section inside code\n"
    "```\n"
    "## Check yourself\n"
    "Why?\n"
    ":::answer\n"
    "Because [[warp:warp-reduce]].\n"
    ":::\n"
    "Trailing text.\n";

TEST(LessonText, SplitsTitleSectionsAnswerAndReferences) {
    Result<LessonText> t = parse_lesson_text(kLesson, "03-warp.md");
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t->title, "Step 3: one warp per row");
    EXPECT_EQ(t->sections,
              (std::vector<std::string>{"The idea", "What you should see", "Check yourself"}));
    ASSERT_EQ(t->section_text.size(), 3u);
    EXPECT_EQ(t->section_text[1],
              "It is {{claim:warp-vs-fused}} faster.\n```\n## not a section inside code\n```\n");
    EXPECT_EQ(t->section_text[2], "Why?\nTrailing text.\n");  // the answer is left out
    EXPECT_EQ(t->answer, "Because [[warp:warp-reduce]].\n");
    EXPECT_EQ(t->body.find(":::"), std::string::npos);
    EXPECT_EQ(t->body.find("Because"), std::string::npos);  // the answer is not in the body
    EXPECT_NE(t->body.find("Trailing text."), std::string::npos);
    EXPECT_EQ(t->anchor_refs,
              (std::vector<std::string>{"warp:warp-reduce", "warp:ptx:shfl.sync.bfly",
                                        "warp:warp-reduce"}));
    EXPECT_EQ(t->claim_refs, std::vector<std::string>{"warp-vs-fused"});
}

TEST(LessonText, RejectsBrokenLessons) {
    const BadSource cases[] = {
        {"Intro\n# Title\n:::answer\na\n:::\n", "must start with its title"},
        {"# T\nno answer here\n", "no ':::answer' block"},
        {"# T\n:::answer\nnever closed\n", "never closed"},
        {"# T\n:::answer\na\n:::\n:::answer\nb\n:::\n", "a second ':::answer' block"},
        {"# T\nsee [[warp:warp-reduce\n:::answer\na\n:::\n", "'[[' without ']]'"},
        {"# T\n{{value}}\n:::answer\na\n:::\n", "unknown placeholder"},
        {"# T\n[[warp]]\n:::answer\na\n:::\n", "malformed anchor"},
        {"# T\n[[warp:Bad_Name]]\n:::answer\na\n:::\n", "not kebab-case"},
        {"", "empty lesson"},
    };
    for (const BadSource& c : cases) {
        Result<LessonText> t = parse_lesson_text(c.text, "x.md");
        ASSERT_FALSE(t.ok()) << "accepted: " << c.text;
        EXPECT_NE(t.error().message.find(c.message_part), std::string::npos)
            << "message: " << t.error().message << "\nexpected to contain: " << c.message_part;
    }
}

TEST(LessonText, AnchorKeys) {
    Result<LessonAnchor> r = parse_anchor_key("block:register-budget");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->kernel, "block");
    EXPECT_EQ(r->region, "register-budget");
    EXPECT_FALSE(r->is_ptx());
    EXPECT_EQ(r->key(), "block:register-budget");
    Result<LessonAnchor> p = parse_anchor_key("warp:ptx:ld.global.v4.f32");
    ASSERT_TRUE(p.ok());
    EXPECT_TRUE(p->is_ptx());
    EXPECT_EQ(p->ptx, "ld.global.v4.f32");
    EXPECT_EQ(p->key(), "warp:ptx:ld.global.v4.f32");
    EXPECT_FALSE(parse_anchor_key(":x").ok());
    EXPECT_FALSE(parse_anchor_key("warp:").ok());
    EXPECT_FALSE(parse_anchor_key("warp:ptx:").ok());
}

// ---------------------------------------------------------------------------------------------
// Claims against a hand-made session

PointRecord point(const std::string& kernel, int64_t rows, int64_t cols, double gbps) {
    PointRecord p;
    p.kernel = kernel;
    p.rows = rows;
    p.cols = cols;
    p.gbps = gbps;
    p.pct_of_copy = gbps / 30.0;  // copy = 3000 GB/s
    p.time.median_ms = 2.0 * rows * cols * 4 / (gbps * 1e6);
    return p;
}

Session tiny_session() {
    Session s;
    s.device.copy_gbps = 3000;
    s.points.push_back(point("naive", 65536, 4096, 700));
    s.points.push_back(point("fused", 65536, 4096, 2800));
    s.points.push_back(point("block", 65536, 4096, 2900));
    s.points.push_back(point("fused", 32767, 8193, 1400));
    PointRecord small = point("naive", 4096, 1024, 900);
    small.predicted.dram_read_bytes = 100;
    small.predicted.dram_write_bytes = 60;
    small.predicted.l2_resident = true;
    small.metrics.available = true;
    small.metrics.values = {{"dram__bytes_read.sum", 30}, {"dram__bytes_write.sum", 10}};
    small.launches.resize(1);
    small.launches[0].registers_per_thread = 40;
    small.launches[0].blocks_per_sm = 3;
    s.points.push_back(small);
    PointRecord no_counters = point("warp", 262144, 1024, 2950);
    no_counters.metrics.reason = "SML_DISABLE_CUPTI=1";
    s.points.push_back(no_counters);
    return s;
}

LessonClaim claim(const std::string& quantity, const std::string& kernel, int64_t cols) {
    LessonClaim c;
    c.id = "c";
    c.quantity = quantity;
    c.kernel = kernel;
    c.cols = cols;
    return c;
}

TEST(LessonClaims, EvaluatesEveryQuantity) {
    const Session s = tiny_session();
    auto value = [&](const LessonClaim& c) {
        Result<double> v = evaluate_claim(c, s);
        EXPECT_TRUE(v.ok()) << v.error().message;
        return v.ok() ? *v : -1.0;
    };
    EXPECT_DOUBLE_EQ(value(claim("gbps", "fused", 4096)), 2800);
    EXPECT_NEAR(value(claim("pct_of_copy", "fused", 4096)), 93.33, 0.01);
    EXPECT_GT(value(claim("median_ms", "fused", 4096)), 0.7);
    EXPECT_DOUBLE_EQ(value(claim("copy_gbps", "", 0)), 3000);

    LessonClaim ratio = claim("ratio_gbps", "fused", 4096);
    ratio.other = "naive";
    EXPECT_DOUBLE_EQ(value(ratio), 4.0);
    LessonClaim cliff = claim("ratio_gbps", "fused", 8193);
    cliff.other_cols = 4096;  // other defaults to the same kernel
    EXPECT_DOUBLE_EQ(value(cliff), 0.5);

    LessonClaim l2 = claim("dram_ratio", "naive", 1024);
    l2.rows = 4096;
    EXPECT_DOUBLE_EQ(value(l2), 40.0 / 160.0);
    l2.quantity = "l2_resident";
    EXPECT_DOUBLE_EQ(value(l2), 1.0);
    l2.quantity = "metric";
    l2.metric = "dram__bytes_write.sum";
    EXPECT_DOUBLE_EQ(value(l2), 10);
    l2.quantity = "registers";
    EXPECT_DOUBLE_EQ(value(l2), 40);
    l2.quantity = "blocks_per_sm";
    EXPECT_DOUBLE_EQ(value(l2), 3);

    EXPECT_DOUBLE_EQ(value(claim("rank_gbps", "block", 4096)), 1);
    EXPECT_DOUBLE_EQ(value(claim("rank_gbps", "naive", 4096)), 3);
    LessonClaim among = claim("rank_gbps", "fused", 4096);
    among.among = {"naive"};  // block is faster but not in the field
    EXPECT_DOUBLE_EQ(value(among), 1);
}

TEST(LessonClaims, MissingDataIsAnErrorThatSaysWhat) {
    const Session s = tiny_session();
    struct Case {
        LessonClaim c;
        const char* message_part;
    };
    LessonClaim wrong_rows = claim("gbps", "naive", 1024);
    wrong_rows.rows = 8;
    LessonClaim no_other = claim("ratio_gbps", "fused", 4096);
    no_other.other = "smem";
    LessonClaim no_metric = claim("metric", "naive", 1024);
    no_metric.metric = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
    LessonClaim rank_missing = claim("rank_gbps", "fused", 4096);
    rank_missing.among = {"naive", "online"};
    const Case cases[] = {
        {claim("gbps", "online", 4096), "no point for online at N = 4096"},
        {wrong_rows, "no point for naive at N = 1024, M = 8"},
        {no_other, "no point for smem at N = 4096"},
        {claim("dram_ratio", "warp", 1024), "no hardware counters (SML_DISABLE_CUPTI=1)"},
        {no_metric, "has no metric sm__throughput"},
        {claim("speed", "fused", 4096), "unknown quantity 'speed'"},
        {rank_missing, "no point for online at N = 4096 fp32, which the ranking needs"},
    };
    for (const Case& k : cases) {
        Result<double> v = evaluate_claim(k.c, s);
        ASSERT_FALSE(v.ok()) << k.message_part;
        EXPECT_NE(v.error().message.find(k.message_part), std::string::npos) << v.error().message;
        EXPECT_FALSE(v.error().hint.empty());
    }
}

TEST(LessonClaims, FormatsValuesAndRanges) {
    LessonClaim c = claim("ratio_gbps", "fused", 4096);
    EXPECT_EQ(format_claim_value(c, 4.123), "4.12x");
    c.min = 3.5;
    c.max = 4.5;
    EXPECT_EQ(format_claim_range(c), "3.50-4.50x");
    c.quantity = "gbps";
    EXPECT_EQ(format_claim_value(c, 2861.4), "2861 GB/s");
    c.min = 2500;
    c.max = 2900;
    EXPECT_EQ(format_claim_range(c), "2500-2900 GB/s");
    c.quantity = "pct_of_copy";
    EXPECT_EQ(format_claim_value(c, 95.4), "95%");
    c.quantity = "l2_resident";
    EXPECT_EQ(format_claim_value(c, 1), "yes");
    EXPECT_EQ(format_claim_value(c, 0), "no");
    c.min = 0;
    c.max = 1;
    EXPECT_EQ(format_claim_range(c), "yes or no");
    c.min = 0.5;
    EXPECT_EQ(format_claim_range(c), "yes");
    c.quantity = "rank_gbps";
    c.min = c.max = 1;
    EXPECT_EQ(format_claim_range(c), "#1");
    c.quantity = "median_ms";
    EXPECT_EQ(format_claim_value(c, 0.7158), "0.716 ms");
}

TEST(LessonClaims, FillsTextFromSessionOrRange) {
    LessonStep step;
    LessonClaim c = claim("ratio_gbps", "fused", 4096);
    c.id = "fused-vs-naive";
    c.other = "naive";
    c.min = 3;
    c.max = 5;
    step.claims.push_back(c);
    step.anchors.push_back(LessonAnchor{"fused", "masking", ""});
    const std::string md = "x {{claim:fused-vs-naive}} y [[fused:masking]] {{claim:unknown}}";
    const Session s = tiny_session();
    EXPECT_EQ(fill_lesson_text(md, step, &s), "x 4.00x y [[fused:masking]] {{claim:unknown}}");
    EXPECT_EQ(fill_lesson_text(md, step, nullptr),
              "x 3.00-5.00x y [[fused:masking]] {{claim:unknown}}");
    auto link = [](const LessonAnchor& a) { return "<" + a.region + ">"; };
    EXPECT_EQ(fill_lesson_text(md, step, nullptr, link),
              "x 3.00-5.00x y <masking> {{claim:unknown}}");
}

TEST(LessonClaims, UnclosedReferenceIsKeptOnceAndLaterOnesStillFill) {
    LessonStep step;
    LessonClaim c = claim("gbps", "fused", 4096);
    c.id = "fused-gbps";
    c.min = 2500;
    c.max = 2900;
    step.claims.push_back(c);
    auto link = [](const LessonAnchor& a) { return "<" + a.region + ">"; };
    EXPECT_EQ(fill_lesson_text("a [[ b {{claim:fused-gbps}} c", step, nullptr, link),
              "a [[ b 2500-2900 GB/s c");
    EXPECT_EQ(fill_lesson_text("a {{claim:fused-gbps c", step, nullptr), "a {{claim:fused-gbps c");
}

// ---------------------------------------------------------------------------------------------
// The checks catch what they are meant to catch

LessonStep step_with(const std::string& kernel, int64_t cols) {
    LessonStep s;
    s.id = "probe";
    s.question_id = "q";
    s.kernels = {kernel};
    s.experiment.kernels = {kernel};
    s.experiment.rows = 16;
    s.experiment.cols = cols;
    s.experiment.metric = "gbps";
    s.text.answer = "a";
    return s;
}

TEST(LessonChecks, FlagUnknownKernelsAndOutOfRangeExperiments) {
    EXPECT_TRUE(check_step_kernels(step_with("warp", 1024)).empty());
    std::vector<std::string> p = check_step_kernels(step_with("kernel9", 1024));
    ASSERT_FALSE(p.empty());
    EXPECT_NE(p[0].find("'kernel9', which is not in the registry"), std::string::npos) << p[0];

    const DeviceLimits h100 = DeviceLimits::h100_reference();
    EXPECT_TRUE(check_step_ranges(step_with("online", 1 << 20), h100).empty());
    LessonStep s = step_with("naive", 1024);
    s.experiment.variant = "bank-conflicted";
    EXPECT_FALSE(check_step_ranges(s, h100).empty());  // naive has no such variant
    s = step_with("naive", 1024);
    s.experiment.metric = "speed";
    EXPECT_FALSE(check_step_ranges(s, h100).empty());
    s.experiment.metric = "dram__bytes_read.sum";
    EXPECT_TRUE(check_step_ranges(s, h100).empty());
    s.experiment.rows = 0;
    EXPECT_FALSE(check_step_ranges(s, h100).empty());
}

TEST(LessonChecks, FlagUndeclaredAndUnusedReferences) {
    LessonStep s = step_with("warp", 1024);
    s.anchors.push_back(LessonAnchor{"warp", "warp-reduce", ""});
    s.text.anchor_refs = {"warp:warp-reduce"};
    EXPECT_TRUE(check_step_text(s).empty());
    s.text.anchor_refs.push_back("warp:vector-load");  // in the text, not in lessons.json
    s.claims.push_back(claim("gbps", "warp", 1024));   // in lessons.json, not in the text
    std::vector<std::string> p = check_step_text(s);
    ASSERT_EQ(p.size(), 2u);
    EXPECT_NE(p[0].find("[[warp:vector-load]] is not declared"), std::string::npos) << p[0];
    EXPECT_NE(p[1].find("claim c is declared but never shown"), std::string::npos) << p[1];
}

TEST(LessonChecks, FlagMeasuredNumbersTypedIntoWhatYouShouldSee) {
    LessonStep s = step_with("fused", 4096);  // the experiment's N = 4096, M = 16
    LessonClaim c = claim("ratio_gbps", "fused", 8193);
    c.other_cols = 8192;
    s.claims = {c};
    s.text.section_text = {"Idea: 2855 GB/s is fine here.\n", "", "", "", "", ""};
    s.text.section_text[kSectionWhatYouSee] =
        "At N = 8193 (vs N = 8192, M = 16, N = 4096, fp32, L2-resident) it keeps {{claim:c}} "
        "[[fused:masking]].\n";
    EXPECT_TRUE(check_step_numbers(s).empty()) << check_step_numbers(s).at(0);
    s.text.section_text[kSectionWhatYouSee] += "That is 2855 GB/s, 0.93 of copy.\n";
    std::vector<std::string> p = check_step_numbers(s);
    ASSERT_EQ(p.size(), 2u);
    EXPECT_NE(p[0].find("types the number 2855"), std::string::npos) << p[0];
    EXPECT_NE(p[1].find("types the number 0.93"), std::string::npos) << p[1];
    s.text.section_text.resize(3);
    EXPECT_EQ(check_step_numbers(s).size(), 1u);  // no such section at all
}

TEST(LessonChecks, FlagStructureDifferencesBetweenLanguages) {
    LessonBook en, zh;
    en.lang = "en";
    zh.lang = "zh";
    LessonStep a = step_with("warp", 1024);
    a.text.sections = {"Idea", "Check"};
    a.text.anchor_refs = {"warp:warp-reduce", "warp:dispatch"};
    LessonStep b = a;
    b.text.sections = {"思路", "自测"};
    b.text.anchor_refs = {"warp:dispatch", "warp:warp-reduce", "warp:dispatch"};  // order free
    en.steps = {a};
    zh.steps = {b};
    EXPECT_TRUE(check_same_structure(en, zh).empty());
    zh.steps[0].text.anchor_refs = {"warp:dispatch"};
    EXPECT_EQ(check_same_structure(en, zh).size(), 1u);
    zh.steps.push_back(b);
    EXPECT_EQ(check_same_structure(en, zh).size(), 1u);  // step count differs
}

TEST(LessonChecks, ClaimOutsideItsRangeNamesPromiseAndMeasurement) {
    LessonStep s = step_with("fused", 4096);
    LessonClaim c = claim("gbps", "fused", 4096);
    c.id = "fused-gbps";
    c.min = 2900;
    c.max = 3100;
    s.claims = {c};
    std::vector<std::string> p = check_step_claims(s, tiny_session());
    ASSERT_EQ(p.size(), 1u);
    EXPECT_NE(p[0].find("claim fused-gbps says 2900-3100 GB/s but the session measured 2800 GB/s"),
              std::string::npos)
        << p[0];
    s.claims[0].min = 2700;
    EXPECT_TRUE(check_step_claims(s, tiny_session()).empty());
}

TEST(LessonChecks, NaNMeasurementFailsTheClaim) {
    // A session stores a broken point's numbers as "nan"; that must not satisfy any range.
    LessonStep s = step_with("fused", 4096);
    LessonClaim c = claim("gbps", "fused", 4096);
    c.id = "fused-gbps";
    c.min = 2700;
    c.max = 3100;
    s.claims = {c};
    Session session = tiny_session();
    for (PointRecord& p : session.points)
        if (p.kernel == "fused" && p.cols == 4096) p.gbps = std::nan("");
    std::vector<std::string> p = check_step_claims(s, session);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_NE(p[0].find("claim fused-gbps says 2700-3100 GB/s"), std::string::npos) << p[0];
}

// ---------------------------------------------------------------------------------------------
// Loading a lessons folder

class LessonFolder : public ::testing::Test {
  protected:
    void SetUp() override {
        root_ = std::filesystem::temp_directory_path() /
                ("sml_lessons_" + std::to_string(::getpid()) + "_" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(root_ / "en");
    }
    void TearDown() override { std::filesystem::remove_all(root_); }
    void write(const std::string& rel, const std::string& text) {
        std::ofstream(root_ / rel) << text;
    }
    std::string load_error() {
        Result<LessonBook> b = load_lessons(root_.string(), "en");
        EXPECT_FALSE(b.ok());
        return b.ok() ? "" : b.error().message;
    }
    std::filesystem::path root_;
};

const char kOneStep[] = R"({"steps": [{"id": "warp", "kernels": ["warp"], "question": "q",
    "anchors": [{"kernel": "warp", "region": "warp-reduce"}],
    "experiment": {"kernels": ["warp"], "rows": 4, "cols": 32, "metric": "gbps"},
    "claims": [{"id": "c1", "quantity": "gbps", "kernel": "warp", "cols": 32,
                "min": 1, "max": 2}]}]})";

TEST_F(LessonFolder, LoadsAStepAndItsText) {
    write("lessons.json", kOneStep);
    write("en/00-warp.md", "# Warp\n[[warp:warp-reduce]] {{claim:c1}}\n:::answer\nA\n:::\n");
    Result<LessonBook> b = load_lessons(root_.string(), "en");
    ASSERT_TRUE(b.ok()) << b.error().message;
    ASSERT_EQ(b->steps.size(), 1u);
    const LessonStep& s = b->steps[0];
    EXPECT_EQ(s.text.title, "Warp");
    EXPECT_EQ(s.experiment.dtype, "fp32");  // the default
    EXPECT_EQ(s.experiment.cols, 32);
    ASSERT_NE(s.find_claim("c1"), nullptr);
    EXPECT_EQ(s.find_claim("c1")->max, 2);
    ASSERT_NE(s.find_anchor("warp:warp-reduce"), nullptr);
    EXPECT_TRUE(check_step_text(s).empty());
}

TEST_F(LessonFolder, ErrorsNameTheFileAndTheField) {
    write("lessons.json", "{\"steps\": [");
    EXPECT_NE(load_error().find("lessons.json is not valid JSON at the end (byte 11)"),
              std::string::npos)
        << load_error();

    write("lessons.json", "{\n  \"steps\": [,]\n}");
    EXPECT_NE(load_error().find("lessons.json is not valid JSON at line 2, column 13 (byte 15)"),
              std::string::npos)
        << load_error();

    write("lessons.json", R"({"steps": [{"id": "warp"}]})");
    EXPECT_NE(load_error().find("steps[0].kernels is missing"), std::string::npos);

    std::string bad_type = kOneStep;
    bad_type.replace(bad_type.find("\"rows\": 4"), 9, "\"rows\": \"4\"");
    write("lessons.json", bad_type);
    EXPECT_NE(load_error().find("experiment.rows must be an integer"), std::string::npos);

    std::string both = kOneStep;
    both.replace(both.find("\"region\""), 8, "\"ptx\": \"bra\", \"region\"");
    write("lessons.json", both);
    EXPECT_NE(load_error().find("needs exactly one of \"region\" or \"ptx\""), std::string::npos);

    std::string dup_claim = kOneStep;
    dup_claim.replace(dup_claim.find("\"claims\": ["), 11,
                      "\"claims\": [{\"id\": \"c1\", \"quantity\": \"copy_gbps\", \"min\": 1, "
                      "\"max\": 2}, ");
    write("lessons.json", dup_claim);
    EXPECT_NE(load_error().find("claims uses the id 'c1' twice"), std::string::npos);

    write("lessons.json", std::string("{\"schema\": 2, ") + (kOneStep + 1));
    EXPECT_NE(load_error().find("schema is not 1"), std::string::npos);

    write("lessons.json", kOneStep);  // valid index, but no en/00-warp.md
    EXPECT_NE(load_error().find("step 0 (warp) has no en text"), std::string::npos);

    write("en/00-warp.md", "# Warp\nno answer\n");
    EXPECT_NE(load_error().find("00-warp.md: no ':::answer' block"), std::string::npos);
}

}  // namespace
}  // namespace sml
