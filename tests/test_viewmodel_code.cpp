// The PTX and SASS views' model with no window (app/viewer/model/code_view.h): which entry points
// are listed and in what order, the source beside them, hover links, provenance notes, the peer
// listing (the Triton tutorial's PTX) and per-line metrics.
//
// It runs on this checkout's build (its PTX, or the recorded one, and the recorded SASS), and on
// small copies in a temporary folder where a case needs a manifest or a file of its own.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>

#include "app/viewer/model/code_view.h"
#include "app/viewer/model/source_doc.h"
#include "core/code/code_manifest.h"
#include "core/code/source_hash.h"
#include "core/common/safe_file.h"
#include "kernels/registry.h"

namespace sml::viewer {
namespace {

namespace fs = std::filesystem;
const std::string kRoot = SML_SOURCE_DIR;
const std::string kData = std::string(SML_TEST_DATA_DIR) + "/code";

CodeContext context(const std::string& kernel) {
    CodeContext c;
    c.repo_root = kRoot;
    c.build_dir = SML_BUILD_DIR;
    c.kernel = kernel;
    return c;
}

std::string temp_dir(const std::string& name) {
    // A folder of this process's own: CTest runs each case as its own process, several at once.
    const std::string d =
        ::testing::TempDir() + "/sml_code_" + std::to_string(::getpid()) + "_" + name;
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

void copy(const std::string& from, const std::string& to) {
    fs::create_directories(fs::path(to).parent_path());
    fs::copy_file(from, to, fs::copy_options::overwrite_existing);
}

// [SECTION] this checkout -----------------------------------------------------------------------

TEST(CodeModel, WarpPtxOpensAtTheStepsAnchorBesideItsSource) {
    CodeContext ctx = context("warp");
    ctx.ptx_anchors = {"shfl.sync.bfly"};
    CodeModel m;
    m.set(ctx, CodeListing::ptx);
    ASSERT_FALSE(m.choices().empty()) << m.message();
    ASSERT_EQ(m.selected(), 0);
    EXPECT_TRUE(m.choices()[0].anchored);
    ASSERT_TRUE(m.listing()) << m.message();
    EXPECT_EQ(m.source_path(), "kernels/warp_softmax.cu");
    ASSERT_TRUE(m.source_doc());
    EXPECT_FALSE(m.map().empty());
    ASSERT_EQ(m.anchors().size(), 1u);
    EXPECT_FALSE(m.anchors()[0].lines.empty());
    EXPECT_EQ(m.start_listing_line(), m.anchors()[0].lines.front());
    // The anchored shuffle starts the reading, beside the source line it came from.
    const int src = m.start_source_line();
    ASSERT_GE(src, 0);
    EXPECT_EQ(m.source_doc()->lines()[src].file_line, m.map().source_line(m.start_listing_line()));
    EXPECT_EQ(m.source_slots().size(), m.source_doc()->lines().size());
    EXPECT_EQ(m.listing_slots().size(), m.listing()->lines.size());
    EXPECT_NE(m.origin().find("warp_softmax"), std::string::npos);
}

TEST(CodeModel, HoverLinksBothWays) {
    CodeModel m;
    m.set(context("warp"), CodeListing::ptx);
    ASSERT_TRUE(m.listing() && m.source_doc());
    // The source line of the first instruction lights that instruction and says how many.
    const int first = m.start_listing_line();
    const int display = m.source_display_line_of(first);
    ASSERT_GE(display, 0);
    m.hover_source(display);
    EXPECT_TRUE(m.source_lit()[display]);
    EXPECT_TRUE(m.listing_lit()[first]);
    EXPECT_NE(m.hover_text().find("warp_softmax.cu:"), std::string::npos) << m.hover_text();
    EXPECT_NE(m.hover_text().find("instruction"), std::string::npos);
    EXPECT_EQ(m.first_listing_line_of(display),
              m.map().reached_from(m.source_doc()->lines()[display].file_line).front());
    // The instruction lights its source line and the other instructions charged to it.
    m.hover_listing(first);
    EXPECT_TRUE(m.source_lit()[display]);
    int lit = 0;
    for (char c : m.listing_lit()) lit += c;
    EXPECT_EQ(lit, static_cast<int>(
                       m.map().charged_to(m.source_doc()->lines()[display].file_line).size()));
    EXPECT_NE(m.hover_text().find("<- warp_softmax.cu:"), std::string::npos) << m.hover_text();
    m.hover_none();
    for (char c : m.listing_lit()) EXPECT_EQ(c, 0);
    EXPECT_TRUE(m.hover_text().empty());
    // A line with no instruction lights nothing.
    m.hover_source(0);  // the file's first line: a comment
    for (char c : m.listing_lit()) EXPECT_EQ(c, 0);
}

TEST(CodeModel, RecordedSassSaysWhereItCameFromAndWhetherItMatches) {
    CodeModel m;
    m.set(context("warp"), CodeListing::sass);
    ASSERT_TRUE(m.listing()) << m.message() << " " << m.hint();
    EXPECT_NE(m.origin().find("SASS of kernels/warp_softmax.cu recorded"), std::string::npos)
        << m.origin();
    Result<CodeManifest> manifest =
        load_code_manifest(std::string(SML_BUILD_DIR) + "/code/manifest.json");
    ASSERT_TRUE(manifest.ok()) << manifest.error().message;
    const CodeProvenance p =
        check_code_provenance(&*manifest, kRoot, "kernels/warp_softmax.cu", "SASS");
    // The note is there exactly when the checkout's sources differ from the recording's.
    EXPECT_EQ(m.provenance_note().empty(), p.state == CodeProvenance::State::matches)
        << m.provenance_note();
    // Readable: columns, no blank lines, the addresses in their own colour.
    const SourceDoc* doc = m.listing_doc();
    ASSERT_TRUE(doc);
    for (size_t i = 0; i < doc->lines().size(); ++i) {
        const SourceLine& l = doc->lines()[i];
        EXPECT_FALSE(l.text.empty());
        if (m.listing()->lines[i].instruction) {
            ASSERT_FALSE(l.tokens.empty());
            EXPECT_EQ(l.tokens[0].kind, TokenKind::comment);
            EXPECT_EQ(l.tokens[0].end, m.listing()->lines[i].address_chars);
        }
    }
}

TEST(CodeModel, EveryKernelHasPtxAndSassToShow) {
    // Every registry kernel: PTX (from the build or the recording) and recorded SASS, each with
    // an entry point selected and its source beside it.
    int checked = 0;
    for (const KernelInfo& k : registry()) {
        for (CodeListing which : {CodeListing::ptx, CodeListing::sass}) {
            CodeModel m;
            m.set(context(k.id), which);
            ASSERT_TRUE(m.listing()) << k.id << ": " << m.message();
            EXPECT_FALSE(m.source_path().empty()) << k.id;
            EXPECT_TRUE(m.source_doc()) << k.id;
            EXPECT_FALSE(m.map().empty()) << k.id << " " << m.listing()->entry.short_name;
            ++checked;
        }
    }
    EXPECT_EQ(checked, static_cast<int>(2 * registry().size()));
}

TEST(CodeModel, TheSessionsLaunchRecordsPutTheFunctionThatRanFirst) {
    // A session where warp at N = 1024 launched one instantiation that is not the first in the
    // file; it becomes the first choice, the others that did not run wait behind "all".
    CodeModel probe;
    probe.set(context("warp"), CodeListing::ptx);
    ASSERT_GE(probe.choices().size() + probe.hidden(), 2u);
    Result<AsmIndex> idx = index_asm_file(probe.listing()->origin, AsmKind::ptx);
    ASSERT_TRUE(idx.ok());
    ASSERT_GE(idx->entries.size(), 2u);
    const AsmEntry& ran = idx->entries.back();
    Session s;
    PointRecord p;
    p.kernel = "warp";
    p.cols = 1024;
    LaunchRecord l;
    l.function = ran.symbol;
    p.launches.push_back(l);
    s.points.push_back(p);
    CodeContext ctx = context("warp");
    ctx.session = &s;
    ctx.cols = 1024;
    CodeModel m;
    m.set(ctx, CodeListing::ptx);
    ASSERT_FALSE(m.choices().empty());
    EXPECT_TRUE(m.choices()[0].ran_here);
    EXPECT_NE(m.choices()[0].label.find("runs at N = 1024"), std::string::npos);
    EXPECT_EQ(m.listing()->entry.key, ran.key);
    EXPECT_EQ(m.choices().size(), 1u);
    EXPECT_EQ(m.hidden(), static_cast<int>(idx->entries.size()) - 1);
    m.set_show_all(true);
    EXPECT_EQ(m.choices().size(), idx->entries.size());
    EXPECT_EQ(m.listing()->entry.key, ran.key);  // the selection stays
    // At another N it still ran, but not here: listed, not first because it runs here.
    ctx.cols = 32;
    m.set(ctx, CodeListing::ptx);
    EXPECT_FALSE(m.choices()[0].ran_here);
    // Switching to SASS keeps the instantiation when the recording has it.
    m.set(ctx, CodeListing::sass);
    if (m.listing() && index_asm_file(m.listing()->origin, AsmKind::sass)->find(ran.key) >= 0)
        EXPECT_EQ(m.listing()->entry.key, ran.key);
}

TEST(CodeModel, PtxAndSassOpenOnTheFirstLaunchedFunction) {
    // naive launches row_max, subtract, exp, row_sum, divide, all at every N. The PTX lists them
    // in source order and the recorded SASS the other way round; both tabs must open on row_max,
    // the first launched (the one the per-line counters cover), not on whichever the file lists
    // first.
    Result<Session> s = load_session(kRoot + "/assets/sessions/h100-2026-11-25.json");
    ASSERT_TRUE(s.ok()) << s.error().message;
    CodeContext ctx = context("naive");
    ctx.session = &*s;
    ctx.cols = 4096;
    std::string first_launched;
    for (const PointRecord& p : s->points)
        if (p.kernel == "naive" && !p.launches.empty() && !p.launches[0].function.empty()) {
            first_launched = function_key(p.launches[0].function);
            break;
        }
    ASSERT_FALSE(first_launched.empty());
    int shown = 0;
    for (CodeListing which : {CodeListing::ptx, CodeListing::sass}) {
        CodeModel m;
        m.set(ctx, which);
        if (!m.listing()) continue;  // (no recording unpacked: nothing to compare)
        EXPECT_EQ(m.listing()->entry.key, first_launched)
            << (which == CodeListing::sass ? "SASS" : "PTX") << " opened on "
            << m.listing()->entry.short_name;
        ++shown;
    }
    EXPECT_EQ(shown, 2);
}

// [SECTION] recordings in a temporary build folder ------------------------------------------------

// A build folder whose recording holds the SASS fixture as warp's, with a manifest of this
// checkout's hashes that says warp<4, 1, 1> ran at N = 4.
std::string fixture_build(CodeManifest* out) {
    const std::string build = temp_dir("build");
    copy(kData + "/warp_softmax_4_1_1.nvdisasm.sass", build + "/code/sass/warp_softmax.sass");
    CodeManifest m;
    m.git = "abc1234";
    m.device = "NVIDIA H100 80GB HBM3";
    m.arch = "sm_90";
    CodeUnit u;
    u.source = "kernels/warp_softmax.cu";
    u.built_from = source_closure(kRoot, u.source);
    for (const std::string& f : u.built_from) m.sources[f] = *hash_file(kRoot + "/" + f);
    u.sass = "sass/warp_softmax.sass";
    u.entries_kept = 1;
    u.entries_built = 15;
    Result<AsmIndex> idx = index_asm_file(build + "/code/sass/warp_softmax.sass", AsmKind::sass);
    u.launched.push_back(CodeLaunch{"warp", "", "fp32", 1 << 20, 4, idx->entries[0].symbol});
    m.units.push_back(u);
    EXPECT_TRUE(write_file_atomic(build + "/code/manifest.json", code_manifest_json(m), "t").ok());
    *out = m;
    return build;
}

TEST(CodeModel, RecordingsSweepSaysWhatRanWhenTheSessionDoesNot) {
    CodeManifest manifest;
    CodeContext ctx = context("warp");
    ctx.build_dir = fixture_build(&manifest);
    ctx.cols = 4;
    CodeModel m;
    m.set(ctx, CodeListing::sass);
    ASSERT_EQ(m.choices().size(), 1u);
    EXPECT_TRUE(m.choices()[0].ran_here);
    EXPECT_NE(m.choices()[0].detail.find("recording's sweep"), std::string::npos);
    EXPECT_TRUE(m.provenance_note().empty()) << m.provenance_note();
    EXPECT_NE(m.origin().find("of the build's 15"), std::string::npos) << m.origin();
    EXPECT_NE(m.origin().find("abc1234"), std::string::npos);
}

TEST(CodeModel, OtherSourcesGiveANoteAndNoClaimAboutWhatRan) {
    CodeManifest manifest;
    CodeContext ctx = context("warp");
    ctx.build_dir = fixture_build(&manifest);
    ctx.cols = 4;
    manifest.sources["kernels/warp_softmax.cu"] = "fnv1a64:0123456789abcdef";
    ASSERT_TRUE(
        write_file_atomic(ctx.build_dir + "/code/manifest.json", code_manifest_json(manifest), "t")
            .ok());
    CodeModel m;
    m.set(ctx, CodeListing::sass);
    ASSERT_TRUE(m.listing());
    EXPECT_NE(m.provenance_note().find("other sources than the checkout's"), std::string::npos);
    EXPECT_NE(m.provenance_note().find("kernels/warp_softmax.cu"), std::string::npos);
    ASSERT_FALSE(m.choices().empty());
    EXPECT_FALSE(m.choices()[0].ran);  // the recording's sweep ran other code
}

TEST(CodeModel, NoManifestMeansUnknownProvenance) {
    CodeManifest manifest;
    CodeContext ctx = context("warp");
    ctx.build_dir = fixture_build(&manifest);
    fs::remove(ctx.build_dir + "/code/manifest.json");
    CodeModel m;
    m.set(ctx, CodeListing::sass);
    ASSERT_TRUE(m.listing());
    EXPECT_NE(m.provenance_note().find("before recordings kept the hashes"), std::string::npos);
}

TEST(CodeModel, NoSassSaysHowToRecordIt) {
    CodeContext ctx = context("warp");
    ctx.build_dir = temp_dir("empty");
    CodeModel m;
    m.set(ctx, CodeListing::sass);
    EXPECT_FALSE(m.listing());
    EXPECT_NE(m.message().find("No SASS"), std::string::npos);
    EXPECT_NE(m.hint().find("bench/record_code.sh"), std::string::npos);
}

TEST(CodeModel, AFileRewrittenWhileShownIsIndexedAgain) {
    // A build folder without build PTX whose recording holds a PTX for warp; the file is then
    // rewritten (as a new build would), and the next selection reads the new one.
    CodeContext ctx = context("warp");
    ctx.build_dir = temp_dir("rebuilt");
    const std::string ptx = ctx.build_dir + "/code/ptx/warp_softmax.ptx";
    copy(kData + "/triton_like_fixture.ptx", ptx);
    CodeModel m;
    m.set(ctx, CodeListing::ptx);
    ASSERT_TRUE(m.listing()) << m.message();
    const size_t lines = m.listing()->lines.size();
    Result<std::string> text = read_file_capped(ptx, 1 << 20, "t");
    ASSERT_TRUE(text.ok());
    ASSERT_TRUE(write_file_atomic(ptx, "// rebuilt\n" + *text, "t").ok());
    m.select(0);
    ASSERT_TRUE(m.listing()) << m.message();
    EXPECT_EQ(m.listing()->lines.size(), lines);
    EXPECT_EQ(m.listing()->entry.first_line, 15 + 1);  // one line further down
}

TEST(CodeModel, MetricsPlugInPerInstructionAndSumPerLine) {
    CodeManifest manifest;
    CodeContext ctx = context("warp");
    ctx.build_dir = fixture_build(&manifest);
    CodeModel m;
    m.set(ctx, CodeListing::sass);
    ASSERT_TRUE(m.listing());
    EXPECT_EQ(m.metric(), nullptr);
    LineMetric lm;
    lm.id = "smsp__sass_inst_executed";
    lm.label = "inst";
    lm.description = "instructions executed";
    lm.key = LineMetric::Key::sass_address;
    lm.function = m.listing()->entry.symbol;
    for (const AsmLine& a : m.listing()->lines)
        if (a.instruction) lm.values[a.address] = 2;
    m.set_metrics({lm});
    ASSERT_NE(m.metric(), nullptr);
    EXPECT_EQ(m.metric()->label, "inst");
    EXPECT_EQ(m.listing_metric_max(), 2);
    double per_source = 0;
    for (double v : m.source_metric())
        if (!std::isnan(v)) per_source += v;
    // Every instruction charged to a line the source pane shows adds its 2 there (a recording
    // older than the source can charge some to lines that are now region markers).
    std::set<int> shown;
    for (const SourceLine& l : m.source_doc()->lines()) shown.insert(l.file_line);
    int charged_to_shown = 0;
    for (int line : m.map().source_lines())
        if (shown.count(line)) charged_to_shown += int(m.map().charged_to(line).size());
    EXPECT_GT(charged_to_shown, 0);
    EXPECT_EQ(per_source, 2.0 * charged_to_shown);
    EXPECT_GT(m.source_metric_max(), 2);  // some line became several instructions
    // A metric for another function is not shown.
    lm.function = "void other()";
    m.set_metrics({lm});
    EXPECT_EQ(m.metric(), nullptr);
}

// [SECTION] the Triton tutorial's PTX -----------------------------------------------------------

TEST(CodeModel, TritonListingShowsItsProvenanceAnchorsAndPythonLines) {
    // A copy of the repository's listings.json with the hand-written fixture in place of the
    // recorded PTX (tests/data/code/README.md).
    const std::string root = temp_dir("root");
    copy(kRoot + "/assets/ptx/listings.json", root + "/assets/ptx/listings.json");
    copy(kData + "/triton_like_fixture.ptx", root + "/assets/ptx/triton-fused-softmax-8192.ptx");
    ASSERT_TRUE(write_file_atomic(root + "/assets/ptx/triton-fused-softmax-8192.ptx.json",
                                  R"({"device": "NVIDIA H100 80GB HBM3",
                                      "created_utc": "2026-11-25T00:00:00Z",
                                      "software": {"triton": "3.6.0", "torch": "2.11.0"},
                                      "block_size": 8192, "num_warps": 8, "num_stages": 4,
                                      "registers": 60, "shared_bytes": 98336})",
                                  "t")
                    .ok());
    copy(kRoot + "/bench/triton_tutorial_softmax.py", root + "/bench/triton_tutorial_softmax.py");
    CodeContext ctx = context("fused");
    ctx.repo_root = root;
    ctx.lang = "zh";
    CodeModel m;
    m.set(ctx, CodeListing::peer);
    ASSERT_EQ(m.which(), CodeListing::peer);
    ASSERT_EQ(m.peers().size(), 1u);
    ASSERT_TRUE(m.listing()) << m.message();
    EXPECT_EQ(m.source_path(), "bench/triton_tutorial_softmax.py");
    ASSERT_TRUE(m.source_doc());
    EXPECT_EQ(m.source_doc()->lang(), SourceLang::python);
    EXPECT_FALSE(m.map().empty());
    EXPECT_NE(m.origin().find("Triton 3.6.0"), std::string::npos) << m.origin();
    EXPECT_NE(m.origin().find("4 stages"), std::string::npos) << m.origin();
    ASSERT_GE(m.anchors().size(), 4u);
    for (const ListingAnchor& a : m.anchors()) {
        EXPECT_FALSE(a.lines.empty()) << a.pattern;
        EXPECT_FALSE(a.note.empty()) << a.pattern;
    }
    // Notes in the lesson language.
    EXPECT_NE(m.anchors()[0].note.find("num_stages"), std::string::npos);
    EXPECT_EQ(m.anchors()[0].note.find("rows are copied"), std::string::npos);
    // Only beside its kernel: warp has no peer, and asking for one shows its own PTX.
    ctx.kernel = "warp";
    m.set(ctx, CodeListing::peer);
    EXPECT_EQ(m.which(), CodeListing::ptx);
}

TEST(CodeModel, TritonListingInThisCheckoutIsShownOrSaysHowToRecordIt) {
    CodeModel m;
    m.set(context("fused"), CodeListing::peer);
    ASSERT_EQ(m.which(), CodeListing::peer);
    const std::string ptx = kRoot + "/assets/ptx/triton-fused-softmax-8192.ptx";
    if (path_exists(ptx)) {
        ASSERT_TRUE(m.listing()) << m.message();
        for (const ListingAnchor& a : m.anchors()) EXPECT_FALSE(a.lines.empty()) << a.pattern;
        EXPECT_NE(m.origin().find("Triton"), std::string::npos) << m.origin();
        EXPECT_TRUE(m.list_note().empty()) << m.list_note();  // no session: nothing is filtered
        // With the recorded session open: it launched fused's own kernels, none of the
        // Triton listing's, and the listing still shows (issue: "No entry points" on the
        // default session); a note says why every entry is listed.
        Result<Session> s = load_session(kRoot + "/assets/sessions/h100-2026-11-25.json");
        ASSERT_TRUE(s.ok()) << s.error().message;
        CodeContext ctx = context("fused");
        ctx.session = &*s;
        ctx.cols = 8192;
        CodeModel with_session;
        with_session.set(ctx, CodeListing::peer);
        ASSERT_EQ(with_session.which(), CodeListing::peer);
        ASSERT_TRUE(with_session.listing()) << with_session.message();
        EXPECT_FALSE(with_session.choices().empty());
        EXPECT_EQ(with_session.hidden(), 0);
        EXPECT_NE(with_session.list_note().find("did not launch"), std::string::npos)
            << with_session.list_note();
        // fused's own PTX: the session's launches are in it, so the filter stays and no note.
        with_session.set(ctx, CodeListing::ptx);
        if (with_session.listing()) EXPECT_TRUE(with_session.list_note().empty());
    } else {
        EXPECT_FALSE(m.listing());
        EXPECT_NE(m.message().find("not recorded yet"), std::string::npos);
        EXPECT_NE(m.hint().find("bench/dump_triton_ptx.py"), std::string::npos);
    }
}

}  // namespace
}  // namespace sml::viewer
