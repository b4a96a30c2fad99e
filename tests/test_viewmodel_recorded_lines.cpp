// The heat gutter's data in replay (app/viewer/model/recorded_lines.h), on the committed H100
// session, whose built-in kernels carry per-line counters (`softmaxlab-cli lab lines`), and on
// this checkout's files and recorded SASS: what a learner with no GPU sees beside each lesson.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "app/viewer/model/code_view.h"
#include "app/viewer/model/recorded_lines.h"
#include "app/viewer/model/source_doc.h"
#include "core/lab/bytes.h"
#include "core/lab/sass_roles.h"
#include "core/session/session.h"

namespace sml::viewer {
namespace {

const std::string kRoot = SML_SOURCE_DIR;

const Session& recorded() {
    static const Session s = [] {
        Result<Session> r = load_session(kRoot + "/assets/sessions/h100-2026-11-25.json");
        if (!r) ADD_FAILURE() << r.error().message;
        return r ? *r : Session{};
    }();
    return s;
}

std::string sha_of(const std::string& rel) {
    std::ifstream in(kRoot + "/" + rel, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return lab::sha256_hex(ss.str());
}

RecordedLines find(const std::string& kernel, const std::string& variant, int64_t cols) {
    const std::string file = "kernels/" + kernel + "_softmax.cu";
    return find_recorded_lines(recorded(), kernel, variant, file, cols, sha_of(file));
}

TEST(RecordedLines, EveryLessonKernelOfTheSessionHasCountersForItsFile) {
    for (const char* k : {"naive", "fused", "warp", "block", "smem", "online", "online_tiled"}) {
        const RecordedLines r = find(k, "", 4096);
        ASSERT_NE(r.point, nullptr) << k << ": " << r.problem;
        EXPECT_TRUE(r.problem.empty()) << k;
        EXPECT_NE(r.note.find("H100"), std::string::npos) << r.note;
        EXPECT_NE(r.note.find("NVRTC"), std::string::npos) << r.note;
        const std::string file = std::string("kernels/") + k + "_softmax.cu";
        const std::vector<std::string> roles = recorded_roles(*r.point->source_lines, file);
        ASSERT_FALSE(roles.empty()) << k;
        EXPECT_EQ(roles.front(), lab::role::kInstExecuted) << k;
    }
}

TEST(RecordedLines, TheNearestNIsUsedAndNamed) {
    // warp was measured at N = 1024 only: at 4096 the note says it is the nearest.
    const RecordedLines r = find("warp", "", 4096);
    ASSERT_NE(r.point, nullptr);
    EXPECT_EQ(r.point->cols, 1024);
    EXPECT_NE(r.note.find("nearest N to 4096"), std::string::npos) << r.note;
    const RecordedLines at = find("warp", "", 1024);
    ASSERT_NE(at.point, nullptr);
    EXPECT_EQ(at.note.find("nearest"), std::string::npos) << at.note;
}

TEST(RecordedLines, NoneForAKernelOrVariantThatHasNone) {
    EXPECT_EQ(find("best", "", 4096).point, nullptr);
    EXPECT_EQ(find("warp", "no-such-variant", 1024).point, nullptr);
    // Another file of the kernel (a header) has no lines of its own in the record.
    EXPECT_EQ(find_recorded_lines(recorded(), "warp", "", "kernels/registry.cpp", 1024, "").point,
              nullptr);
}

TEST(RecordedLines, AChangedFileHidesTheCountersAndSaysWhy) {
    const std::string file = "kernels/smem_softmax.cu";
    const RecordedLines r =
        find_recorded_lines(recorded(), "smem", "", file, 4096, sha_of(file) + "x");
    EXPECT_EQ(r.point, nullptr);
    EXPECT_NE(r.problem.find("has changed"), std::string::npos) << r.problem;
    EXPECT_NE(r.problem.find("lab lines"), std::string::npos) << r.problem;
}

TEST(RecordedLines, NaiveSaysWhichLaunchesHaveNoCounters) {
    // CUPTI reported naive's first kernel only (docs/lab.md): the note must say so, not imply
    // the gutter covers all five.
    const RecordedLines r = find("naive", "", 4096);
    ASSERT_NE(r.point, nullptr);
    EXPECT_NE(r.note.find("no counters for subtract, exp, row_sum, divide"), std::string::npos)
        << r.note;
}

TEST(RecordedLines, TheBankConflictedVariantShowsFourTimesTheWavefrontsOnItsSharedLines) {
    const std::string file = "kernels/smem_softmax.cu";
    const RecordedLines free_ = find("smem", "", 4096);
    const RecordedLines conflicted = find("smem", "bank-conflicted", 4096);
    ASSERT_NE(free_.point, nullptr);
    ASSERT_NE(conflicted.point, nullptr);
    ASSERT_NE(free_.point, conflicted.point);
    EXPECT_NE(conflicted.note.find("4096 fp32, bank-conflicted"), std::string::npos)
        << conflicted.note;
    EXPECT_EQ(free_.note.find("bank-conflicted"), std::string::npos) << free_.note;
    const LineMetric a =
        source_line_metric(*free_.point->source_lines, file, lab::role::kSharedWavefronts);
    const LineMetric b =
        source_line_metric(*conflicted.point->source_lines, file, lab::role::kSharedWavefronts);
    ASSERT_FALSE(a.values.empty());
    EXPECT_EQ(a.key, LineMetric::Key::source_line);
    EXPECT_FALSE(a.description.empty());
    int compared = 0;
    for (const auto& [line, v] : a.values) {
        auto it = b.values.find(line);
        ASSERT_NE(it, b.values.end()) << "line " << line;
        ASSERT_GT(v, 0);
        // 32 lanes over 32 banks with a stride of 33 floats: one wavefront a request; a stride of
        // 32 floats would put all 32 in one bank (32 wavefronts); the recorded variant's index
        // lands between: more than twice as many everywhere the tile is touched.
        EXPECT_GT(it->second / v, 2.0) << "line " << line;
        ++compared;
    }
    EXPECT_GE(compared, 3);
}

TEST(RecordedLines, WarpsLoadLineCarriesItsGlobalSectorsAtFullEfficiency) {
    const std::string file = "kernels/warp_softmax.cu";
    const RecordedLines r = find("warp", "", 1024);
    ASSERT_NE(r.point, nullptr);
    const SourceLinesRecord& rec = *r.point->source_lines;
    const LineMetric sectors = source_line_metric(rec, file, lab::role::kGlobalSectors);
    const LineMetric eff = source_line_metric(rec, file, lab::role::kGlobalSectorEfficiencyPct);
    ASSERT_FALSE(sectors.values.empty());
    // Reads and writes of 262144 x 1024 floats: 2 * 2^28 * 4 bytes / 32-byte sectors.
    double total = 0;
    for (const auto& [line, v] : sectors.values) total += v;
    EXPECT_NEAR(total, 2.0 * 262144 * 1024 * 4 / 32, 1.0);
    for (const auto& [line, v] : eff.values) EXPECT_NEAR(v, 100.0, 0.5) << "line " << line;
    // The lines are the file's: each names a line that exists and sits inside a kernel.
    const Result<SourceDoc> doc = SourceDoc::load(kRoot + "/" + file, SourceLang::cuda);
    ASSERT_TRUE(doc.ok());
    const std::vector<double> shown = per_display_line(sectors, *doc);
    ASSERT_EQ(shown.size(), doc->lines().size());
    int with_value = 0;
    for (double v : shown) with_value += std::isfinite(v) ? 1 : 0;
    EXPECT_EQ(with_value, static_cast<int>(sectors.values.size()));
}

TEST(RecordedLines, SassInstructionsGetCountersOnlyWhereTheBuildsAgree) {
    // bench/results/2026-11-26/sass-identity.txt: NVRTC's and nvcc's SASS are the same for warp,
    // not for smem. The listing is the recorded nvcc build (assets/code).
    struct Case {
        const char* kernel;
        int64_t cols;
        bool same;
    } cases[] = {{"warp", 1024, true}, {"smem", 4096, false}};
    for (const Case& c : cases) {
        const std::string file = std::string("kernels/") + c.kernel + "_softmax.cu";
        const RecordedLines r = find(c.kernel, "", c.cols);
        ASSERT_NE(r.point, nullptr);
        CodeContext ctx;
        ctx.repo_root = kRoot;
        ctx.build_dir = SML_BUILD_DIR;
        ctx.kernel = c.kernel;
        ctx.session = &recorded();
        ctx.cols = c.cols;
        CodeModel m;
        m.set(ctx, CodeListing::sass);
        ASSERT_TRUE(m.listing()) << c.kernel << ": " << m.message();
        std::string why;
        const std::optional<LineMetric> per_inst = instruction_metric(
            *r.point->source_lines, *m.listing(), file, lab::role::kInstExecuted, &why);
        EXPECT_EQ(per_inst.has_value(), c.same) << c.kernel << ": " << why;
        if (!per_inst) {
            EXPECT_FALSE(why.empty());
            continue;
        }
        // Every instruction of the listing has its count (but the final self-branch, which
        // CUPTI does not report), and the code model shows them.
        int instructions = 0;
        for (const AsmLine& l : m.listing()->lines) instructions += l.instruction ? 1 : 0;
        EXPECT_GE(static_cast<int>(per_inst->values.size()), instructions - 1);
        EXPECT_LE(static_cast<int>(per_inst->values.size()), instructions);
        m.set_metrics({*per_inst});
        ASSERT_NE(m.metric(), nullptr);
        int shown = 0;
        for (double v : m.listing_metric()) shown += std::isfinite(v) ? 1 : 0;
        EXPECT_EQ(shown, static_cast<int>(per_inst->values.size()));
        // A derived metric is per source line only.
        EXPECT_FALSE(instruction_metric(*r.point->source_lines, *m.listing(), file,
                                        lab::role::kGlobalSectorEfficiencyPct, nullptr));
    }
}

TEST(RecordedLines, ASourceLineMetricFillsTheSourcePaneBesideAnyListing) {
    const std::string file = "kernels/smem_softmax.cu";
    const RecordedLines r = find("smem", "", 4096);
    ASSERT_NE(r.point, nullptr);
    CodeContext ctx;
    ctx.repo_root = kRoot;
    ctx.build_dir = SML_BUILD_DIR;
    ctx.kernel = "smem";
    ctx.session = &recorded();
    ctx.cols = 4096;
    CodeModel m;
    m.set(ctx, CodeListing::sass);
    ASSERT_TRUE(m.listing()) << m.message();
    m.set_metrics({source_line_metric(*r.point->source_lines, file, lab::role::kInstExecuted)});
    ASSERT_NE(m.metric(), nullptr);
    int src = 0, asm_ = 0;
    for (double v : m.source_metric()) src += std::isfinite(v) ? 1 : 0;
    for (double v : m.listing_metric()) asm_ += std::isfinite(v) ? 1 : 0;
    EXPECT_GT(src, 5);
    EXPECT_EQ(asm_, 0);  // not per instruction: this build's SASS is not the measured one
    EXPECT_GT(m.source_metric_max(), 0);
}

}  // namespace
}  // namespace sml::viewer
