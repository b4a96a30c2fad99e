// The viewer's logic with no window: step navigation, source regions resolved against the real
// kernel files, metric formatting and rows, settings, command line, and the worker thread.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "app/viewer/model/compare_view.h"
#include "app/viewer/model/format.h"
#include "app/viewer/model/lab_editor.h"
#include "app/viewer/model/lesson_nav.h"
#include "app/viewer/model/metric_rows.h"
#include "app/viewer/model/run_job.h"
#include "app/viewer/model/settings.h"
#include "app/viewer/model/source_doc.h"
#include "app/viewer/model/viewer_args.h"
#include "app/viewer/model/worker.h"
#include "core/chart/session_compare.h"
#include "core/lessons/annotated_source.h"
#include "core/metrics/metric_table.h"
#include "kernels/device_profiles.h"
#include "kernels/registry.h"
#include "tests/test_chart_fixture.h"

namespace sml::viewer {
namespace {

// [SECTION] Step navigation -----------------------------------------------------------------------
LessonBook book_of(int n) {
    LessonBook b;
    for (int i = 0; i < n; ++i) {
        LessonStep s;
        s.index = i;
        s.id = "step-" + std::to_string(i);
        b.steps.push_back(s);
    }
    return b;
}

// The lab bench in a build without the CUDA toolkit (this suite builds everywhere; the lab's own
// suite needs the compiler): opening a kernel with compile-as-you-type starts no compile, so no
// "1 error(s)" appears for an edit nobody made, and the status line says why nothing compiles.
TEST(LabEditor, WithoutACompilerOpeningCompilesNothingAndSaysWhy) {
    const std::string dir = ::testing::TempDir() + "/sml_lab_nocc_" + std::to_string(::getpid());
    LabEditor::Options o;
    o.edits_dir = dir;
    o.compile_as_you_type = true;
    o.compile_delay_s = 0;
    LabEditor ed(o);
    ASSERT_TRUE(ed.open_kernel("warp"));
    ed.poll();
    if (LabEditor::can_compile()) {
        EXPECT_EQ(ed.busy(), LabEditor::Busy::compiling);  // as before: opening compiles
        ed.wait_idle();
        EXPECT_NE(ed.status_line(), kNoCompilerStatus);
    } else {
        EXPECT_EQ(ed.busy(), LabEditor::Busy::none);
        EXPECT_TRUE(ed.diagnostics().empty());
        EXPECT_EQ(ed.status_line(), kNoCompilerStatus);
        EXPECT_EQ(ed.status_line().find("error"), std::string::npos);
        ASSERT_TRUE(ed.set_text(ed.text() + "\n// an edit\n"));  // typing compiles nothing either
        ed.poll();
        EXPECT_EQ(ed.busy(), LabEditor::Busy::none);
    }
    std::filesystem::remove_all(dir);
}

TEST(LessonNav, StopsAtBothEndsInsteadOfWrapping) {
    LessonNav nav(book_of(3));
    EXPECT_EQ(nav.index(), 0);
    EXPECT_FALSE(nav.can_prev());
    EXPECT_FALSE(nav.prev());
    EXPECT_EQ(nav.index(), 0);
    EXPECT_TRUE(nav.next());
    EXPECT_TRUE(nav.next());
    EXPECT_EQ(nav.index(), 2);
    EXPECT_FALSE(nav.can_next());
    EXPECT_FALSE(nav.next());
    EXPECT_EQ(nav.index(), 2);
    EXPECT_TRUE(nav.prev());
    EXPECT_EQ(nav.index(), 1);
}

// The header's position: steps are numbered 0..count-1 as the lesson titles are, and both
// languages say the same thing ("Step 0 of 0-8" read as a range, not a position).
TEST(LessonNav, PositionTextNamesTheStepAndTheLastStep) {
    LessonNav nav(book_of(9));
    EXPECT_EQ(nav.position_text("en"), "Step 0 of 8");
    EXPECT_EQ(nav.position_text("zh"), "\xE7\xAC\xAC 0 / 8 \xE6\xAD\xA5");  // 第 0 / 8 步
    nav.go(8);
    EXPECT_EQ(nav.position_text("en"), "Step 8 of 8");
    EXPECT_EQ(nav.position_text("zh"), "\xE7\xAC\xAC 8 / 8 \xE6\xAD\xA5");
    EXPECT_EQ(LessonNav().position_text("en"), "");
}

TEST(LessonNav, GoClampsOutOfRangeSteps) {
    LessonNav nav(book_of(4));
    EXPECT_TRUE(nav.go(99));  // --lesson 99 opens the last step
    EXPECT_EQ(nav.index(), 3);
    EXPECT_TRUE(nav.go(-7));
    EXPECT_EQ(nav.index(), 0);
    EXPECT_FALSE(nav.go(0));  // no change reported when already there
    LessonNav empty;
    EXPECT_FALSE(empty.go(2));
    EXPECT_EQ(empty.current(), nullptr);
}

TEST(LessonNav, AnswerRevealIsPerStepAndSurvivesABookSwap) {
    LessonNav nav(book_of(3));
    nav.go(1);
    EXPECT_FALSE(nav.answer_revealed());
    nav.reveal_answer(true);
    EXPECT_TRUE(nav.answer_revealed());
    nav.next();
    EXPECT_FALSE(nav.answer_revealed());  // step 2's answer is still hidden
    nav.replace_book(book_of(2));         // e.g. another language with fewer steps
    EXPECT_EQ(nav.index(), 1);            // clamped, not reset to 0
    EXPECT_TRUE(nav.answer_revealed());   // same question id as before
}

TEST(LessonNav, WalksTheRealLessonsInBothLanguages) {
    for (const std::string lang : {"en", "zh"}) {
        Result<LessonBook> book = load_lessons(default_lessons_root(), lang);
        ASSERT_TRUE(book.ok()) << lang << ": " << book.error().message;
        LessonNav nav(std::move(*book));
        ASSERT_GT(nav.count(), 1);
        int moves = 0;
        while (nav.next()) ++moves;
        EXPECT_EQ(moves, nav.count() - 1);
        EXPECT_FALSE(nav.current()->text.title.empty());
    }
}

// [SECTION] Source regions against the real kernels -----------------------------------------------
std::string kernel_path(const KernelInfo& k) {
    return std::string(SML_SOURCE_DIR) + "/" + k.lesson_source();
}

TEST(SourceDoc, EveryLessonRegionAnchorHighlightsExactlyItsCode) {
    Result<LessonBook> book = load_lessons(default_lessons_root(), "en");
    ASSERT_TRUE(book.ok()) << book.error().message;
    int checked = 0;
    for (const LessonStep& step : book->steps) {
        for (const LessonAnchor& a : step.anchors) {
            if (a.is_ptx()) continue;
            const KernelInfo* k = find_kernel(a.kernel);
            // A draft step may point at a kernel that has not landed yet (lesson_model.h).
            if (step.draft && !k) continue;
            ASSERT_NE(k, nullptr) << step.id << ": " << a.key();
            // The file of the kernel's sources that holds the region (best's are several).
            const std::string file = kernel_source_with_region(*k, a.region, SML_SOURCE_DIR);
            ASSERT_FALSE(file.empty()) << step.id << ": no source has region " << a.key();
            const std::string path = std::string(SML_SOURCE_DIR) + "/" + file;
            Result<SourceDoc> doc = SourceDoc::load(path, SourceLang::cuda);
            ASSERT_TRUE(doc.ok()) << doc.error().message;
            const DisplayRegion* r = doc->find_region(a.region);
            ASSERT_NE(r, nullptr) << step.id << ": no region " << a.key();
            ASSERT_LE(r->first, r->last) << a.key();
            // The shaded display lines are exactly the file's code lines inside the markers.
            Result<AnnotatedSource> src = load_annotated_source(path);
            ASSERT_TRUE(src.ok());
            const SourceRegion* fr = src->find(a.region);
            ASSERT_NE(fr, nullptr);
            std::vector<std::string> expected;
            for (int l = fr->first_line; l <= fr->last_line; ++l)
                if (!src->is_marker[l - 1]) expected.push_back(src->lines[l - 1]);
            std::vector<std::string> shown;
            for (int i = r->first; i <= r->last; ++i) shown.push_back(doc->lines()[i].text);
            EXPECT_EQ(shown, expected) << a.key();
            EXPECT_EQ(doc->lines()[r->first].file_line, fr->first_line) << a.key();
            ++checked;
        }
    }
    EXPECT_GT(checked, 5) << "the lessons should anchor into several regions";
}

TEST(SourceDoc, MarkerLinesAreHiddenInEveryKernel) {
    for (const KernelInfo& k : registry()) {
        Result<SourceDoc> doc = SourceDoc::load(kernel_path(k), SourceLang::cuda);
        ASSERT_TRUE(doc.ok()) << k.id << ": " << doc.error().message;
        for (const SourceLine& l : doc->lines()) {
            EXPECT_EQ(l.text.find("// @region"), std::string::npos) << k.id << ":" << l.file_line;
            EXPECT_EQ(l.text.find("// @endregion"), std::string::npos)
                << k.id << ":" << l.file_line;
        }
    }
}

TEST(SourceDoc, NestedRegionsMapToDisplayLines) {
    const std::string text =
        "int a;\n"
        "// @region outer: the whole loop\n"
        "for (;;) {\n"
        "    // @region inner: the body\n"
        "    x += 1;\n"
        "    // @endregion inner\n"
        "}\n"
        "// @endregion outer\n"
        "int b;\n";
    Result<SourceDoc> doc = SourceDoc::parse(text, SourceLang::cuda, "t.cu");
    ASSERT_TRUE(doc.ok()) << doc.error().message;
    ASSERT_EQ(doc->lines().size(), 5u);  // 9 lines minus 4 markers
    EXPECT_EQ(doc->lines()[4].file_line, 9);
    const DisplayRegion* outer = doc->find_region("outer");
    const DisplayRegion* inner = doc->find_region("inner");
    ASSERT_TRUE(outer && inner);
    EXPECT_EQ(outer->first, 1);
    EXPECT_EQ(outer->last, 3);
    EXPECT_EQ(inner->first, 2);
    EXPECT_EQ(inner->last, 2);
    EXPECT_EQ(outer->note, "the whole loop");
    EXPECT_EQ(doc->region_at(2), inner);  // the innermost region wins the hover
    EXPECT_EQ(doc->region_at(1), outer);
    EXPECT_EQ(doc->region_at(0), nullptr);
}

TEST(SourceDoc, UnclosedRegionIsAnErrorNamingTheFile) {
    Result<SourceDoc> doc =
        SourceDoc::parse("// @region load: loads\nx;\n", SourceLang::cuda, "bad.cu");
    ASSERT_FALSE(doc.ok());
    EXPECT_NE(doc.error().message.find("bad.cu"), std::string::npos) << doc.error().message;
}

TEST(SourceDoc, MissingPtxSaysHowToGenerateIt) {
    Result<SourceDoc> doc = SourceDoc::load("/nonexistent/warp_softmax.ptx", SourceLang::ptx);
    ASSERT_FALSE(doc.ok());
    EXPECT_NE(doc.error().hint.find("sml_ptx"), std::string::npos);
    Result<SourceDoc> sass = SourceDoc::load("/nonexistent/warp_softmax.sass", SourceLang::sass);
    ASSERT_FALSE(sass.ok());
    EXPECT_NE(sass.error().hint.find("sml_sass"), std::string::npos) << sass.error().hint;
}

TEST(SourceDoc, MaxColumnsCountsATabAsFourColumns) {
    Result<SourceDoc> doc = SourceDoc::parse("ab\n\tx = 1;\nlonger line\n", SourceLang::ptx, "t");
    ASSERT_TRUE(doc.ok());
    EXPECT_EQ(doc->max_columns(), 11);  // "longer line"; "\tx = 1;" is 4 + 6 = 10
    Result<SourceDoc> tabs = SourceDoc::parse("\t\tx;\n", SourceLang::ptx, "t");
    ASSERT_TRUE(tabs.ok());
    EXPECT_EQ(tabs->max_columns(), 10);
}

// [SECTION] Tokenizer ---------------------------------------------------------------------------
std::string kind_of(const std::string& line, const std::string& word, SourceLang lang) {
    bool block = false;
    const size_t at = line.find(word);
    for (const Token& t : tokenize_line(line, lang, &block))
        if (static_cast<size_t>(t.begin) <= at && at < static_cast<size_t>(t.end))
            return std::to_string(static_cast<int>(t.kind));
    return "none";
}

TEST(Tokenizer, ColoursCudaByRole) {
    const std::string line = "__global__ void k(float4* x) { int i = threadIdx.x + 16; // note";
    auto kind = [&](const std::string& w) { return kind_of(line, w, SourceLang::cuda); };
    EXPECT_EQ(kind("__global__"), std::to_string(static_cast<int>(TokenKind::keyword)));
    EXPECT_EQ(kind("float4"), std::to_string(static_cast<int>(TokenKind::type)));
    EXPECT_EQ(kind("threadIdx"), std::to_string(static_cast<int>(TokenKind::cuda_builtin)));
    EXPECT_EQ(kind("16"), std::to_string(static_cast<int>(TokenKind::number)));
    EXPECT_EQ(kind("// note"), std::to_string(static_cast<int>(TokenKind::comment)));
}

TEST(Tokenizer, TokensCoverTheLineAndBlockCommentsSpanLines) {
    bool block = false;
    const std::string l1 = "x = 1; /* starts";
    std::vector<Token> t1 = tokenize_line(l1, SourceLang::cuda, &block);
    EXPECT_TRUE(block);
    ASSERT_FALSE(t1.empty());
    EXPECT_EQ(t1.front().begin, 0);
    EXPECT_EQ(t1.back().end, static_cast<int>(l1.size()));
    for (size_t i = 1; i < t1.size(); ++i) EXPECT_EQ(t1[i].begin, t1[i - 1].end);
    std::vector<Token> t2 = tokenize_line("ends */ y", SourceLang::cuda, &block);
    EXPECT_FALSE(block);
    EXPECT_EQ(t2.front().kind, TokenKind::comment);
}

TEST(Tokenizer, PtxOpcodesRegistersAndTypes) {
    const std::string line = "\tld.global.v4.f32 \t{%f1, %f2, %f3, %f4}, [%rd7];";
    EXPECT_EQ(kind_of(line, "ld", SourceLang::ptx),
              std::to_string(static_cast<int>(TokenKind::keyword)));
    EXPECT_EQ(kind_of(line, "%f1", SourceLang::ptx),
              std::to_string(static_cast<int>(TokenKind::register_name)));
    EXPECT_EQ(kind_of(line, ".f32", SourceLang::ptx),
              std::to_string(static_cast<int>(TokenKind::type)));
}

TEST(Tokenizer, SassAddressCommentsDoNotSwallowTheInstruction) {
    const std::string line =
        "        /*0070*/                   FMUL R4, R4, 1.4426950216293334961 ;";
    EXPECT_EQ(kind_of(line, "/*0070*/", SourceLang::sass),
              std::to_string(static_cast<int>(TokenKind::comment)));
    EXPECT_EQ(kind_of(line, "FMUL", SourceLang::sass),
              std::to_string(static_cast<int>(TokenKind::keyword)));
    EXPECT_EQ(kind_of(line, "R4", SourceLang::sass),
              std::to_string(static_cast<int>(TokenKind::register_name)));
}

// [SECTION] Formatting ---------------------------------------------------------------------------
TEST(Format, BytesUseDecimalPrefixes) {
    EXPECT_EQ(format_bytes(1073741824.0), "1.07 GB");
    EXPECT_EQ(format_bytes(512), "512 B");
    EXPECT_EQ(format_bytes(999.7), "1.00 kB");  // rounds up into the next prefix, not "1000 B"
    EXPECT_EQ(format_bytes(268435456.0), "268 MB");
    EXPECT_EQ(format_bytes(0), "0 B");
}

TEST(Format, PercentTimeBandwidthAndCounts) {
    EXPECT_EQ(format_pct(87.345), "87.3%");
    EXPECT_EQ(format_pct(100.0), "100%");
    EXPECT_EQ(format_pct(0.042), "0.04%");
    EXPECT_EQ(format_ms(0.3571), "0.357 ms");
    EXPECT_EQ(format_ms(12.34), "12.3 ms");
    EXPECT_EQ(format_ms(0.0042), "4.20 us");
    EXPECT_EQ(format_ms(2500), "2.50 s");
    EXPECT_EQ(format_gbps(2874.2), "2874 GB/s");
    EXPECT_EQ(format_gbps(12.34), "12.3 GB/s");
    EXPECT_EQ(format_count(0), "0");
    EXPECT_EQ(format_count(12345), "12.3 k");
    EXPECT_EQ(format_ratio(1.003), "1.00x");
    EXPECT_EQ(format_ratio(0.26), "0.26x");
    EXPECT_EQ(format_cols(1048576), "1M (2^20)");
    EXPECT_EQ(format_cols(16385), "16385");
    EXPECT_EQ(format_bytes(std::nan("")), "n/a");
}

// [SECTION] Metric rows --------------------------------------------------------------------------
// A step's question names a quantity; the table brings the column that shows it into view (on a
// projector the table is narrower than its columns). Quantities no column shows map to none.
TEST(MetricRows, AQuestionsQuantityNamesTheColumnThatShowsIt) {
    EXPECT_EQ(column_for_quantity("pct_of_copy"), MetricColumn::pct_of_copy);
    EXPECT_EQ(column_for_quantity("gbps"), MetricColumn::gbps);
    EXPECT_EQ(column_for_quantity("ratio_gbps"), MetricColumn::gbps);
    EXPECT_EQ(column_for_quantity("median_ms"), MetricColumn::time);
    EXPECT_EQ(column_for_quantity("dram_bytes_ratio"), MetricColumn::dram_measured);
    EXPECT_EQ(column_for_quantity("l2_resident"), MetricColumn::dram_measured);
    EXPECT_EQ(column_for_quantity("bank_conflicts"), MetricColumn::bank_conflicts);
    EXPECT_EQ(column_for_quantity("conflict_share"), MetricColumn::bank_conflicts);
    EXPECT_EQ(column_for_quantity("registers"), MetricColumn::count_);
    EXPECT_EQ(column_for_quantity("masked_fraction"), MetricColumn::count_);
    EXPECT_EQ(column_for_quantity("no such quantity"), MetricColumn::count_);
}

TEST(MetricRows, OneRowPerKernelInRegistryOrderWithFormattedCells) {
    const Session s = test::synthetic_session(true);
    const std::vector<int64_t> cols = session_cols(s);
    ASSERT_FALSE(cols.empty());
    const int64_t n = 1024;
    ASSERT_NE(std::find(cols.begin(), cols.end(), n), cols.end());
    std::vector<MetricRow> rows = build_metric_rows(s, n, "fp32");
    ASSERT_GE(rows.size(), 3u);
    EXPECT_EQ(rows.front().kernel, "naive");
    for (const MetricRow& r : rows) {
        const PointRecord* p = s.find(r.kernel, n);
        ASSERT_NE(p, nullptr) << r.kernel;
        EXPECT_EQ(r.cells[static_cast<int>(MetricColumn::gbps)], format_gbps(p->gbps));
        EXPECT_EQ(r.cells[static_cast<int>(MetricColumn::time)], format_ms(p->time.median_ms));
        EXPECT_EQ(r.cells[static_cast<int>(MetricColumn::dram_predicted)],
                  format_bytes(p->predicted.dram_read_bytes + p->predicted.dram_write_bytes));
        double measured = 0;
        ASSERT_TRUE(measured_dram_bytes(*p, &measured));
        EXPECT_EQ(
            r.cells[static_cast<int>(MetricColumn::dram_measured)].rfind(format_bytes(measured), 0),
            0u);
        EXPECT_TRUE(r.counters_available);
    }
    // Only the compare set, still in registry order.
    std::vector<MetricRow> two = build_metric_rows(s, n, "fp32", {"warp", "naive"});
    ASSERT_EQ(two.size(), 2u);
    EXPECT_EQ(two[0].kernel, "naive");
    EXPECT_EQ(two[1].kernel, "warp");
}

TEST(MetricRows, TheSameKernelAtTwoSizesNamesEachM) {
    Session s = test::synthetic_session(true);
    PointRecord small = *s.find("naive", 1024);
    small.rows = 4096;
    s.points.push_back(small);
    std::vector<MetricRow> rows = build_metric_rows(s, 1024, "fp32", {"naive"});
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_NE(rows[0].cells[0], rows[1].cells[0]);
    EXPECT_NE(rows[1].cells[0].find("M=4096"), std::string::npos) << rows[1].cells[0];
    // One size only: the kernel cell is the plain id.
    EXPECT_EQ(build_metric_rows(test::synthetic_session(true), 1024, "fp32", {"naive"})[0].cells[0],
              "naive");
}

TEST(MetricRows, MissingCountersAreNaWithTheReason) {
    const Session s = test::synthetic_session(false);
    std::vector<MetricRow> rows = build_metric_rows(s, 1024, "fp32");
    ASSERT_FALSE(rows.empty());
    for (const MetricRow& r : rows) {
        EXPECT_FALSE(r.counters_available);
        EXPECT_EQ(r.cells[static_cast<int>(MetricColumn::dram_measured)], "n/a");
        EXPECT_EQ(r.cells[static_cast<int>(MetricColumn::l2_hit)], "n/a");
    }
    EXPECT_TRUE(build_metric_rows(s, 3, "fp32").empty());  // no such N: no rows, no crash
}

TEST(MetricRows, L2ResidentPointsCarryTheFlagAndReason) {
    const Session s = test::synthetic_l2_session();
    std::vector<MetricRow> rows = build_metric_rows(s, 1024, "fp32", {"naive"});
    ASSERT_EQ(rows.size(), 1u);
    const PointRecord* p = s.find("naive", 1024);
    ASSERT_NE(p, nullptr);
    ASSERT_TRUE(p->predicted.l2_resident) << "16 MB fits in the 50 MB L2";
    EXPECT_TRUE(rows[0].l2_resident);
    EXPECT_EQ(rows[0].l2_reason, p->predicted.l2_reason);
}

#if SML_HAVE_CUDA  // the PTX is generated by nvcc
TEST(SourceDoc, PtxFromTheBuildShowsTheLessonsPtxAnchors) {
    Result<LessonBook> book = load_lessons(default_lessons_root(), "en");
    ASSERT_TRUE(book.ok()) << book.error().message;
    int checked = 0;
    for (const LessonStep& step : book->steps)
        for (const LessonAnchor& a : step.anchors) {
            const KernelInfo* k = a.is_ptx() ? find_kernel(a.kernel) : nullptr;
            if (!k) continue;
            const std::string file = kernel_source_with_ptx(*k, a.ptx, SML_BUILD_DIR);
            ASSERT_FALSE(file.empty()) << a.key() << ": no PTX of " << k->id << " has it";
            const std::string path = ptx_path_for_source(file, SML_BUILD_DIR);
            ASSERT_TRUE(std::filesystem::exists(path)) << path << " not built (target sml_ptx)";
            Result<SourceDoc> doc = SourceDoc::load(path, SourceLang::ptx);
            ASSERT_TRUE(doc.ok()) << doc.error().message;
            Result<std::string> text = read_text_file(path);
            ASSERT_TRUE(text.ok());
            // find_ptx_lines numbers file lines from 1; the PTX view hides nothing, so the
            // highlighted display line is that number minus one, and holds the instruction.
            std::vector<int> lines = find_ptx_lines(*text, a.ptx);
            ASSERT_FALSE(lines.empty()) << a.key();
            const std::string opcode = a.ptx.substr(0, a.ptx.find('.'));
            EXPECT_NE(doc->lines()[lines[0] - 1].text.find(opcode), std::string::npos) << a.key();
            ++checked;
        }
    EXPECT_GT(checked, 0) << "no lesson anchors into PTX";
}
#endif

TEST(MetricRows, EveryColumnHasAHeaderAndADescription) {
    for (int c = 0; c < static_cast<int>(MetricColumn::count_); ++c) {
        const MetricColumnInfo& i = column_info(static_cast<MetricColumn>(c));
        EXPECT_GT(std::string(i.header).size(), 0u);
        EXPECT_GT(std::string(i.description).size(), 20u) << i.header;
    }
    // Counter columns quote the metric table, the one place counters are described.
    const std::string occ = column_tooltip(MetricColumn::occupancy);
    const MetricInfo* warps = find_metric(metric::kWarpsActive);
    ASSERT_NE(warps, nullptr) << "the viewer reads a counter the metric table does not list";
    EXPECT_NE(occ.find(warps->description), std::string::npos);
    for (const char* name : {metric::kDramRead, metric::kDramWrite, metric::kL2HitRate,
                             metric::kBankConflictsLd, metric::kBankConflictsSt})
        EXPECT_NE(find_metric(name), nullptr) << name;
}

// [SECTION] Compare view
// --------------------------------------------------------------------------- The second session is
// SYNTHETIC (test::synthetic_other_gpu): the fixture renamed to another GPU with its bandwidths
// scaled, made here and written to a temporary file, never stored.
Session other_gpu_session() {
    return test::synthetic_other_gpu(test::synthetic_session(true), "NVIDIA GeForce RTX 4090", 0.33,
                                     1008);
}

std::string compare_temp_file(const std::string& name, const Session& s) {
    const std::string path = std::filesystem::temp_directory_path().string() + "/sml_vm_" +
                             std::to_string(::getpid()) + "_" + name;
    const Status st = save_session(path, s);
    EXPECT_TRUE(st.ok()) << (st.ok() ? "" : st.error().message);
    return path;
}

TEST(CompareView, MetricRowsPairEachKernelWithTheComparedSession) {
    const Session open = test::synthetic_session(true);
    const Session other = other_gpu_session();
    const int64_t n = 1024;
    const std::vector<MetricRow> rows =
        build_compare_metric_rows(open, other, "H100", "RTX 4090", n, "fp32");
    ASSERT_EQ(rows.size(), 2 * registry().size()) << "every registry kernel runs N = 1024";
    size_t checked = 0;
    for (size_t i = 0; i < rows.size(); i += 2) {
        const KernelInfo& k = registry()[i / 2];
        SCOPED_TRACE(k.id);
        const MetricRow& mine = rows[i];
        const MetricRow& theirs = rows[i + 1];
        EXPECT_EQ(mine.kernel_id, k.id) << "registry order";
        EXPECT_EQ(theirs.kernel_id, k.id) << "the compared row follows the open session's";
        EXPECT_EQ(mine.side, 0);
        EXPECT_EQ(theirs.side, 1);
        EXPECT_EQ(mine.cells[static_cast<int>(MetricColumn::kernel)],
                  std::string(k.id) + " (H100)");
        EXPECT_EQ(theirs.cells[static_cast<int>(MetricColumn::kernel)],
                  std::string(k.id) + " (RTX 4090)");
        const PointRecord* a = open.find(k.id, n);
        const PointRecord* b = other.find(k.id, n);
        ASSERT_TRUE(a && b);
        EXPECT_EQ(mine.cells[static_cast<int>(MetricColumn::gbps)], format_gbps(a->gbps));
        EXPECT_EQ(theirs.cells[static_cast<int>(MetricColumn::gbps)],
                  format_gbps(b->gbps) + " (" + format_ratio(b->gbps / a->gbps) + ")");
        // % copy is each session's own: the compared GPU against its own copy.
        EXPECT_EQ(theirs.cells[static_cast<int>(MetricColumn::pct_of_copy)],
                  format_pct(b->pct_of_copy));
        ++checked;
    }
    EXPECT_EQ(checked, registry().size());
    // The kernel filter applies to both sessions.
    const std::string last = registry().back().id;
    const std::vector<MetricRow> one =
        build_compare_metric_rows(open, other, "H100", "RTX 4090", n, "fp32", {last});
    ASSERT_EQ(one.size(), 2u);
    EXPECT_EQ(one[0].kernel_id, last);
    EXPECT_EQ(one[1].side, 1);
}

TEST(CompareView, AKernelOnlyOneSessionHasStillGetsItsRow) {
    const Session open = test::synthetic_session(true);
    Session other = other_gpu_session();
    const std::string first = registry().front().id;
    other.points.erase(std::remove_if(other.points.begin(), other.points.end(),
                                      [&](const PointRecord& p) { return p.kernel == first; }),
                       other.points.end());
    const std::vector<MetricRow> rows =
        build_compare_metric_rows(open, other, "H100", "RTX 4090", 1024, "fp32");
    ASSERT_EQ(rows.size(), 2 * registry().size() - 1);
    EXPECT_EQ(rows[0].kernel_id, first);
    EXPECT_EQ(rows[1].kernel_id, registry()[1].id) << "no empty row for the missing kernel";
    EXPECT_EQ(rows[1].side, 0);
}

TEST(CompareView, LoadsASecondSessionOrSaysWhyNot) {
    const Session open = test::synthetic_session(true);
    const std::string good = compare_temp_file("other.json", other_gpu_session());
    Result<ComparedSession> c = load_compared_session(good, open, "fp32");
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_EQ(c->path, good);
    EXPECT_EQ(c->session.device.name, "NVIDIA GeForce RTX 4090");

    Session half = other_gpu_session();
    for (PointRecord& p : half.points) p.dtype = "fp16";
    const std::string other_dtype = compare_temp_file("fp16.json", half);
    c = load_compared_session(other_dtype, open, "fp32");
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.error().message.find("has no fp32 points (it has: fp16)"), std::string::npos)
        << c.error().message;
    EXPECT_FALSE(c.error().hint.empty());

    Session apart = other_gpu_session();
    for (PointRecord& p : apart.points) p.cols = p.cols * 3 + 1;  // no N in common
    const std::string no_shared_n = compare_temp_file("apart.json", apart);
    c = load_compared_session(no_shared_n, open, "fp32");
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.error().message.find("share no N"), std::string::npos) << c.error().message;

    c = load_compared_session("/nonexistent/compare.json", open, "fp32");
    ASSERT_FALSE(c.ok());
    EXPECT_NE(c.error().message.find("/nonexistent/compare.json"), std::string::npos);
    for (const std::string& p : {good, other_dtype, no_shared_n}) std::filesystem::remove(p);
}

TEST(CompareView, OnlyTheKindsThatCompareGetTheSecondSession) {
    const Session open = test::synthetic_session(true);
    const ComparedSession compared{other_gpu_session(), "other.json"};
    const std::vector<const chart::ChartKind*> kinds = viewer_chart_kinds();
    ASSERT_FALSE(kinds.empty());
    size_t comparing = 0, checked = 0;
    for (const chart::ChartKind* k : kinds) {
        SCOPED_TRACE(k->id);
        EXPECT_EQ(k->source, chart::ChartSource::session) << "the viewer opens sessions only";
        const chart::ChartInput in = chart_input(*k, open, &compared, "fp32");
        EXPECT_EQ(in.session, &open);
        EXPECT_EQ(in.compare != nullptr, k->compares);
        EXPECT_EQ(chart_compare_note(*k, &compared).empty(), k->compares);
        EXPECT_TRUE(chart_compare_note(*k, nullptr).empty());
        // Every kind draws with what the viewer passes it.
        chart::ChartOptions o;
        o.kind = k->id;
        const Result<chart::Chart> c = chart::build_chart(in, o);
        EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().message);
        comparing += k->compares;
        ++checked;
    }
    EXPECT_GT(comparing, 0u);
    // The panel shows every session kind of the table, in the table's order.
    std::vector<const chart::ChartKind*> expected;
    for (const chart::ChartKind& k : chart::chart_kinds())
        if (k.source == chart::ChartSource::session) expected.push_back(&k);
    EXPECT_EQ(kinds, expected);
    EXPECT_EQ(checked, expected.size());
    // Not comparable in this dtype: the charts show the open session alone.
    for (const chart::ChartKind* k : kinds)
        EXPECT_EQ(chart_input(*k, open, &compared, "bf16").compare, nullptr) << k->id;
}

TEST(CompareView, TheNoteSaysWhichIsWhichAndWhatIsMissing) {
    const Session open = test::synthetic_session(true);
    EXPECT_EQ(compare_note(open, nullptr, "fp32", 1024), "");
    ComparedSession compared{other_gpu_session(), "/some/dir/rtx4090.json"};
    std::string note = compare_note(open, &compared, "fp32", 1024);
    EXPECT_NE(note.find("Comparing H100 (solid) with RTX 4090 (dashed"), std::string::npos) << note;
    EXPECT_NE(note.find("rtx4090.json"), std::string::npos) << note;
    EXPECT_EQ(note.find("/some/dir"), std::string::npos) << "the file name, not the path";
    // An N only the open session has.
    compared.session.points.erase(
        std::remove_if(compared.session.points.begin(), compared.session.points.end(),
                       [](const PointRecord& p) { return p.cols == 1024; }),
        compared.session.points.end());
    note = compare_note(open, &compared, "fp32", 1024);
    EXPECT_NE(note.find("RTX 4090 has no fp32 point at N = 1024"), std::string::npos) << note;
    // Another dtype on screen (a live fp16 run): not compared, and why.
    note = compare_note(open, &compared, "fp16", 1024);
    EXPECT_EQ(note.rfind("Not compared here: ", 0), 0u) << note;
    // Two sessions of one device are named by date.
    ComparedSession later{
        test::synthetic_other_gpu(open, open.device.name, 1.01, open.device.copy_gbps),
        "later.json"};
    note = compare_note(open, &later, "fp32", 1024);
    EXPECT_NE(note.find("Comparing 2026-11-22 (solid) with 2026-12-01"), std::string::npos) << note;
}

// [SECTION] Settings and command line -----------------------------------------------------------
std::string temp_dir() {
    std::string d = std::filesystem::temp_directory_path().string() + "/sml_viewmodel_" +
                    std::to_string(::getpid());
    std::filesystem::create_directories(d);
    return d;
}

TEST(Settings, RoundTripAndCorruptFile) {
    const std::string dir = temp_dir();
    Settings s;
    s.font_scale = 1.4f;
    s.theme = "light";
    s.lang = "zh";
    s.lesson = 5;
    s.session_path = "/x/y.json";
    ASSERT_TRUE(save_settings(dir + "/settings.json", s).ok());
    Result<Settings> back = load_settings(dir + "/settings.json");
    ASSERT_TRUE(back.ok());
    EXPECT_FLOAT_EQ(back->font_scale, 1.4f);
    EXPECT_EQ(back->theme, "light");
    EXPECT_EQ(back->lang, "zh");
    EXPECT_EQ(back->lesson, 5);
    EXPECT_EQ(back->session_path, "/x/y.json");
    std::ofstream(dir + "/bad.json") << "{\"font_scale\": ";
    Result<Settings> bad = load_settings(dir + "/bad.json");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("bad.json"), std::string::npos);
    std::ofstream(dir + "/odd.json") << R"({"font_scale": 50, "theme": "purple", "lang": "fr"})";
    Result<Settings> odd = load_settings(dir + "/odd.json");
    ASSERT_TRUE(odd.ok());
    EXPECT_FLOAT_EQ(odd->font_scale, Settings::kMaxScale);
    EXPECT_EQ(odd->theme, "dark");
    EXPECT_EQ(odd->lang, "en");
    EXPECT_TRUE(load_settings(dir + "/missing.json").ok());  // first start: defaults
    std::filesystem::remove_all(dir);
}

TEST(Settings, FontScaleStepsAreClamped) {
    Settings s;
    for (int i = 0; i < 100; ++i) s.step_font_scale(+1);
    EXPECT_FLOAT_EQ(s.font_scale, Settings::kMaxScale);
    for (int i = 0; i < 100; ++i) s.step_font_scale(-1);
    EXPECT_FLOAT_EQ(s.font_scale, Settings::kMinScale);
}

Result<ViewerArgs> parse(std::vector<const char*> argv, std::string* help = nullptr) {
    argv.insert(argv.begin(), "softmaxlab");
    return parse_viewer_args(static_cast<int>(argv.size()), argv.data(), help);
}

TEST(ViewerArgs, ScreenshotOptions) {
    Result<ViewerArgs> a = parse({"--screenshot", "o.png", "--frames", "3", "--lesson", "2",
                                  "--size", "1280x800", "--lang", "zh", "--theme", "light"});
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ(a->screenshot, "o.png");
    EXPECT_EQ(a->frames, 3);
    EXPECT_EQ(a->lesson, 2);
    EXPECT_EQ(a->width, 1280);
    EXPECT_EQ(a->height, 800);
    EXPECT_EQ(a->lang, "zh");
    EXPECT_EQ(a->theme, "light");
}

TEST(ViewerArgs, BadValuesAreErrorsThatNameThem) {
    Result<ViewerArgs> size = parse({"--size", "1600by900"});
    ASSERT_FALSE(size.ok());
    EXPECT_NE(size.error().message.find("1600by900"), std::string::npos);
    EXPECT_FALSE(parse({"--size", "10x10"}).ok());  // too small to lay out
    EXPECT_FALSE(parse({"--lang", "fr"}).ok());
    EXPECT_FALSE(parse({"--code", "asm"}).ok());
    EXPECT_EQ(parse({"--code", "ptx"})->code_tab, "ptx");
    EXPECT_FALSE(parse({"--frames", "0"}).ok());
    EXPECT_FALSE(parse({"--bogus"}).ok());
    Result<ViewerArgs> mouse = parse({"--mouse", "600,400"});
    ASSERT_TRUE(mouse.ok()) << mouse.error().message;
    EXPECT_EQ(mouse->mouse_x, 600);
    EXPECT_EQ(mouse->mouse_y, 400);
    for (const char* bad :
         {"1,2,3", "1,2x", "1", "1,", ",2", " 1,2", "+1,2", "-1,2", "1;2", "99999999999,1"}) {
        Result<ViewerArgs> m = parse({"--mouse", bad});
        ASSERT_FALSE(m.ok()) << bad;
        EXPECT_EQ(m.error().message,
                  "--mouse '" + std::string(bad) + "' is not X,Y (two non-negative integers)");
    }
    std::string help;
    Result<ViewerArgs> h = parse({"--help"}, &help);
    ASSERT_TRUE(h.ok());
    EXPECT_TRUE(h->help);
    EXPECT_NE(help.find("--screenshot"), std::string::npos);
    EXPECT_NE(help.find("--compare"), std::string::npos);
    EXPECT_NE(help.find(chart::chart_kind_ids(", ", true)), std::string::npos)
        << "names the charts that compare, from the chart-kind table";
}

TEST(ViewerArgs, CompareTakesASecondSession) {
    Result<ViewerArgs> a = parse({"--session", "a.json", "--compare", "b.json"});
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ(a->session_path, "a.json");
    EXPECT_EQ(a->compare_path, "b.json");
    EXPECT_EQ(parse({})->compare_path, "");
    EXPECT_FALSE(parse({"--compare"}).ok()) << "needs a file";
}

// [SECTION] Worker ------------------------------------------------------------------------------
std::vector<WorkEvent> drain_until_done(Worker& w) {
    std::vector<WorkEvent> all;
    for (int i = 0; i < 500; ++i) {
        for (WorkEvent& e : w.drain()) all.push_back(std::move(e));
        if (!all.empty() && (all.back().kind == WorkEvent::Kind::finished ||
                             all.back().kind == WorkEvent::Kind::cancelled ||
                             all.back().kind == WorkEvent::Kind::failed))
            return all;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ADD_FAILURE() << "the job did not finish";
    return all;
}

TEST(Worker, StreamsPointsInOrderThenFinishes) {
    Worker w;
    ASSERT_TRUE(w.start([](JobContext& ctx) -> Status {
        for (int i = 0; i < 3; ++i) {
            ctx.progress(i, 3, "point " + std::to_string(i));
            PointRecord p;
            p.kernel = "warp";
            p.cols = 32 << i;
            ctx.emit(p);
        }
        return ok_status();
    }));
    std::vector<WorkEvent> ev = drain_until_done(w);
    std::vector<int64_t> cols;
    for (const WorkEvent& e : ev)
        if (e.kind == WorkEvent::Kind::point) cols.push_back(e.point.cols);
    EXPECT_EQ(cols, (std::vector<int64_t>{32, 64, 128}));
    EXPECT_EQ(ev.back().kind, WorkEvent::Kind::finished);
    for (int i = 0; i < 100 && w.busy(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_FALSE(w.busy());
}

TEST(Worker, CancelStopsBetweenPointsAndRefusesASecondJob) {
    Worker w;
    std::atomic<int> emitted{0};
    ASSERT_TRUE(w.start([&emitted](JobContext& ctx) -> Status {
        while (!ctx.cancelled()) {
            ctx.emit(PointRecord{});
            ++emitted;
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
        return ok_status();
    }));
    EXPECT_FALSE(w.start([](JobContext&) { return ok_status(); }));  // one job at a time
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    w.cancel();
    std::vector<WorkEvent> ev = drain_until_done(w);
    EXPECT_EQ(ev.back().kind, WorkEvent::Kind::cancelled);
    EXPECT_GT(emitted.load(), 0);
}

TEST(Worker, ACancelAfterTheLastPointStillFinishes) {
    for (int ran : {3, 1}) {  // every point ran, then only one of three
        Worker w;
        std::atomic<bool> stopped{false};
        ASSERT_TRUE(w.start([&stopped, ran](JobContext& ctx) -> Status {
            for (int i = 0; i < ran; ++i) ctx.emit(PointRecord{});
            ctx.progress(ran, 3, ran == 3 ? "done" : "cancelled");
            stopped = true;
            while (!ctx.cancelled()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return ok_status();
        }));
        while (!stopped) std::this_thread::sleep_for(std::chrono::milliseconds(1));
        w.cancel();
        std::vector<WorkEvent> ev = drain_until_done(w);
        EXPECT_EQ(ev.back().kind, ran == 3 ? WorkEvent::Kind::finished : WorkEvent::Kind::cancelled)
            << ran << " of 3 points ran";
    }
}

TEST(Worker, FailuresAndExceptionsBecomeFailedEvents) {
    Worker w;
    ASSERT_TRUE(w.start([](JobContext&) -> Status { return Error{"no GPU", "replay"}; }));
    std::vector<WorkEvent> ev = drain_until_done(w);
    ASSERT_EQ(ev.back().kind, WorkEvent::Kind::failed);
    EXPECT_EQ(ev.back().error.message, "no GPU");
    for (int i = 0; i < 100 && w.busy(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ASSERT_TRUE(w.start([](JobContext&) -> Status { throw std::runtime_error("boom"); }));
    ev = drain_until_done(w);
    ASSERT_EQ(ev.back().kind, WorkEvent::Kind::failed);
    EXPECT_NE(ev.back().error.message.find("boom"), std::string::npos);
}

TEST(Worker, TheNextJobStartsAsSoonAsTheLastEventIsDrained) {
    // The UI clears `running` when it drains finished and may press Run in the same frame: the
    // worker must not still count itself busy then.
    Worker w;
    for (int i = 0; i < 200; ++i) {
        ASSERT_TRUE(w.start([](JobContext&) { return ok_status(); })) << "job " << i;
        bool done = false;
        while (!done)
            for (const WorkEvent& e : w.drain()) done |= e.kind == WorkEvent::Kind::finished;
        EXPECT_FALSE(w.busy());
    }
}

// What the Run panel shows enabled and what a Run sends: the ticked kernels that can run the
// problem, in registry order; when none can, the first ticked one's reason. Greyed kernels had
// been sent, so one out-of-range kernel failed the whole run.
TEST(RunJob, ARunSendsOnlyTheTickedKernelsThatCanRunItsProblem) {
    Result<DeviceLimits> t4 = apply_device_profile(DeviceLimits{}, "t4");
    ASSERT_TRUE(t4.ok());
    const std::vector<std::string> ticked = {"best", "warp", "block", "naive"};
    const int64_t warp_max = find_kernel("warp")->max_cols(*t4, DType::f32);
    std::optional<MessageError> why;
    // In warp's range: all four, in registry order.
    std::vector<std::string> all =
        runnable_kernels(ticked, SoftmaxProblem::contiguous(64, warp_max), *t4, &why);
    std::vector<std::string> in_order;
    for (const KernelInfo& k : registry())
        if (std::find(ticked.begin(), ticked.end(), k.id) != ticked.end()) in_order.push_back(k.id);
    EXPECT_EQ(all, in_order);
    EXPECT_FALSE(why.has_value());
    // Past it: warp drops out, the others stay, and there is nothing to explain.
    std::vector<std::string> past =
        runnable_kernels(ticked, SoftmaxProblem::contiguous(64, warp_max + 1), *t4, &why);
    in_order.erase(std::find(in_order.begin(), in_order.end(), "warp"));
    EXPECT_EQ(past, in_order);
    EXPECT_FALSE(why.has_value());
    // Only warp ticked, past its range: nothing runs, and the reason is the registry's.
    EXPECT_TRUE(runnable_kernels({"warp"}, SoftmaxProblem::contiguous(64, warp_max + 1), *t4, &why)
                    .empty());
    ASSERT_TRUE(why.has_value());
    EXPECT_EQ(why->en().message,
              check_problem(*find_kernel("warp"), SoftmaxProblem::contiguous(64, warp_max + 1), *t4)
                  .error()
                  .message);
    // Unknown ids: nothing, and no reason to give.
    EXPECT_TRUE(
        runnable_kernels({"nope"}, SoftmaxProblem::contiguous(64, 1024), *t4, &why).empty());
    EXPECT_FALSE(why.has_value());
}

TEST(RunJob, RequestsAreCheckedBeforeTheGpuIsTouched) {
    RunRequest r;
    EXPECT_FALSE(validate_request(r).ok());  // no kernel
    r.kernels = {"warp", "nope"};
    Status unknown = validate_request(r);
    ASSERT_FALSE(unknown.ok());
    EXPECT_NE(unknown.error().message.find("nope"), std::string::npos);
    r.kernels = {"warp"};
    r.cols = 0;
    EXPECT_FALSE(validate_request(r).ok());
    r.cols = 1024;
    EXPECT_TRUE(validate_request(r).ok());
    r.variants["warp"] = 7;  // warp has no variant #7
    Status bad_variant = validate_request(r);
    ASSERT_FALSE(bad_variant.ok());
    EXPECT_NE(bad_variant.error().message.find("variant"), std::string::npos);
    r.variants.clear();
    r.rows = r.cols = int64_t(1) << 40;  // the product does not fit in 64 bits
    Status huge = validate_request(r);
    ASSERT_FALSE(huge.ok());
    EXPECT_EQ(huge.error().message, "M x N = 1099511627776 x 1099511627776 elements is too large");
    r.rows = 4096;
    r.cols = 1024;
    r.sweep = true;
    EXPECT_FALSE(validate_request(r).ok());  // a sweep needs N values and a size
}

TEST(RunJob, MatrixElementsIsACheckedMultiply) {
    ASSERT_TRUE(matrix_elements(4096, 4096).ok());
    EXPECT_EQ(*matrix_elements(4096, 4096), int64_t(1) << 24);
    EXPECT_EQ(*matrix_elements(int64_t(1) << 31, int64_t(1) << 31), int64_t(1) << 62);
    Result<int64_t> over = matrix_elements(int64_t(1) << 32, int64_t(1) << 31);
    ASSERT_FALSE(over.ok());
    EXPECT_EQ(over.error().message, "M x N = 4294967296 x 2147483648 elements is too large");
    EXPECT_FALSE(over.error().hint.empty());
}

}  // namespace
}  // namespace sml::viewer
