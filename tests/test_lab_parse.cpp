// The lab bench's plain-C++ parts, no compiler and no GPU: NVRTC logs into diagnostics, @launch
// lines, kernel names into NVRTC name expressions, the job and result documents, the byte
// helpers and the choice of SASS metrics by role.
#include <gtest/gtest.h>

#include "core/common/parse_number.h"
#include "core/lab/bytes.h"
#include "core/lab/diagnostics.h"
#include "core/lab/kernel_names.h"
#include "core/lab/lab_child.h"
#include "core/lab/lab_job.h"
#include "core/lab/launch_override.h"
#include "core/lab/sass_roles.h"
#include "kernels/registry.h"
#include "lab_test_util.h"

namespace sml::lab {
namespace {

// --- diagnostics ------------------------------------------------------------------------------

TEST(LabDiagnostics, ParsesErrorsWarningsCaretsAndContext) {
    const std::string log =
        "kernels/warp_softmax.cu(60): error: identifier \"m2\" is undefined\n"
        "          v = fmaxf(m2, v);\n"
        "                    ^\n"
        "          detected during instantiation of \"void sml::<unnamed>::k<32>()\" at line 150\n"
        "\n"
        "kernels/warp_softmax.cu(12): warning #177-D: variable \"x\" was declared but never "
        "referenced\n"
        "    const float* x = in;\n"
        "                 ^\n"
        "\n"
        "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
        "\n"
        "1 error detected in the compilation of \"kernels/warp_softmax.cu\".\n";
    const std::vector<Diagnostic> d = parse_nvrtc_log(log);
    ASSERT_EQ(d.size(), 2u);
    EXPECT_EQ(d[0].file, "kernels/warp_softmax.cu");
    EXPECT_EQ(d[0].line, 60);
    EXPECT_EQ(d[0].column, 19);  // the caret under 'm2', less the echo's two-space indent
    EXPECT_EQ(d[0].severity, "error");
    EXPECT_NE(d[0].message.find("\"m2\" is undefined"), std::string::npos);
    EXPECT_NE(d[0].message.find("detected during instantiation"), std::string::npos);
    EXPECT_EQ(d[1].severity, "warning");
    EXPECT_EQ(d[1].line, 12);
    EXPECT_TRUE(has_errors(d));
    EXPECT_EQ(diagnostics_for_line(d, "kernels/warp_softmax.cu", 12).size(), 1u);
    EXPECT_NE(format_diagnostics(d).find("kernels/warp_softmax.cu:60:19: error:"),
              std::string::npos);
}

TEST(LabDiagnostics, FatalAndLinelessMessagesAreKept) {
    std::vector<Diagnostic> d = parse_nvrtc_log(
        "x.cu(1): catastrophic error: cannot open source file \"foo.h\"\n"
        "  #include \"foo.h\"\n"
        "                  ^\n");
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].severity, "fatal");
    EXPECT_TRUE(has_errors(d));
    d = parse_nvrtc_log("nvrtc: something unexpected happened\n");
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d[0].line, 0);
    EXPECT_TRUE(parse_nvrtc_log("").empty());
}

// --- @launch ------------------------------------------------------------------------------

// The kernels the lab edits come from the registry: the lesson kernels, not best (many files);
// a job for another kernel is refused, naming them.
TEST(LabKernels, EditableKernelsComeFromTheRegistry) {
    std::string expected;
    for (const KernelInfo& k : registry())
        if (k.lab_editable) expected += (expected.empty() ? "" : ", ") + std::string(k.id);
    EXPECT_EQ(lab::lab_kernel_ids(), expected);
    EXPECT_NE(expected.find("online_tiled"), std::string::npos);
    EXPECT_EQ(expected.find("best"), std::string::npos);
    EXPECT_NE(lab::lab_kernel("warp"), nullptr);
    lab::LabResult r;
    EXPECT_EQ(lab::lab_kernel("best", &r), nullptr);
    EXPECT_EQ(r.status, lab::status::kBadJob);
    EXPECT_NE(r.message.find("'best'"), std::string::npos);
    EXPECT_NE(r.hint.find(expected), std::string::npos);
    EXPECT_EQ(lab::lab_kernel("nope"), nullptr);  // no result to fill: no crash
}

TEST(LabLaunch, ParsesKeysAndReportsBadLinesAtTheirLine) {
    const std::string src =
        "// header\n"
        "// @launch threads=256 smem=8k\n"
        "//   @launch step=divide block=32x8\n"
        "// @launch grid=264\n"
        "// @launch colour=blue\n"
        "// @launched is not a directive\n"
        "int x; // @launch in a trailing comment is not one either\n";
    std::vector<Diagnostic> diags;
    const std::vector<LaunchOverride> o = parse_launch_overrides(src, "e.cu", &diags);
    ASSERT_EQ(o.size(), 3u);
    EXPECT_EQ(*o[0].threads, 256);
    EXPECT_EQ(*o[0].smem, 8192);
    EXPECT_EQ(o[0].line, 2);
    EXPECT_EQ(o[1].step, "divide");
    EXPECT_EQ(*o[1].block, (std::vector<int64_t>{32, 8}));
    EXPECT_EQ(*o[2].grid, 264);
    ASSERT_EQ(diags.size(), 1u);
    EXPECT_EQ(diags[0].line, 5);
    EXPECT_EQ(diags[0].file, "e.cu");
    EXPECT_NE(diags[0].message.find("colour"), std::string::npos);
    EXPECT_EQ(describe(o[0]), "threads=256 smem=8192");
}

TEST(LabLaunch, AppliesOnlyToItsStepAndRejectsImpossibleShapes) {
    std::vector<Diagnostic> diags;
    auto o = parse_launch_overrides("// @launch step=divide threads=512\n// @launch smem=0\n",
                                    "e.cu", &diags);
    LaunchShape s;
    s.step = "row_max";
    s.block[0] = 256;
    s.grid[0] = 100;
    s.smem = 64;
    ASSERT_TRUE(apply_overrides(o, &s));
    EXPECT_EQ(s.block[0], 256);  // not its step
    EXPECT_EQ(s.smem, 0);        // every step
    s.step = "divide";
    ASSERT_TRUE(apply_overrides(o, &s));
    EXPECT_EQ(s.block[0], 512);
    EXPECT_EQ(unknown_steps(o, {"row_max", "subtract"}), std::vector<std::string>{"divide"});

    LaunchShape warp;
    warp.step = "warp";
    warp.block[0] = 32, warp.block[1] = 4;
    Status st =
        apply_overrides(parse_launch_overrides("// @launch threads=64\n", "e", nullptr), &warp);
    ASSERT_FALSE(st);
    EXPECT_NE(st.error().hint.find("block=32x4"), std::string::npos);
    st = apply_overrides(parse_launch_overrides("// @launch block=64x32\n", "e", nullptr), &warp);
    ASSERT_FALSE(st);
    EXPECT_NE(st.error().message.find("2048 threads"), std::string::npos);
}

// --- kernel names ------------------------------------------------------------------------------

TEST(LabNames, DemangledNamesBecomeNameExpressions) {
    struct Case {
        const char* demangled;
        const char* expression;
    };
    const Case cases[] = {
        {"void sml::(anonymous namespace)::warp_softmax_kernel<32, 8, 4>(float const*, long, "
         "float*, long, long, long)",
         "sml::warp_softmax_kernel<32, 8, 4>"},
        {"sml::(anonymous namespace)::row_max_kernel(float const*, long, long, long, float*)",
         "sml::row_max_kernel"},
        {"void sml::(anonymous namespace)::smem_softmax_kernel<4, true>(float const*, long, "
         "float*, long, long, long)",
         "sml::smem_softmax_kernel<4, true>"},
        {"void sml::(anonymous namespace)::online_softmax_kernel<__nv_bfloat16, 8>(__nv_bfloat16 "
         "const*, long, __nv_bfloat16*, long, long, long)",
         "sml::online_softmax_kernel<__nv_bfloat16, 8>"},
        {"void k<(sml::Mode)1>(void (*)(int), int)", "k<(sml::Mode)1>"},
        {"plain(float*)", "plain"},
    };
    for (const Case& c : cases) {
        Result<std::string> e = name_expression(c.demangled);
        ASSERT_TRUE(e) << c.demangled;
        EXPECT_EQ(*e, c.expression);
    }
    EXPECT_FALSE(name_expression("not a function"));
    EXPECT_FALSE(name_expression(""));
    EXPECT_EQ(demangle("_ZN3sml12_GLOBAL__N_114row_max_kernelEPKflllPf"),
              "sml::(anonymous namespace)::row_max_kernel(float const*, long, long, long, float*)");
    EXPECT_EQ(demangle("not_mangled"), "not_mangled");
}

#if SML_HAVE_CUDA  // the build's PTX comes from nvcc
// The names the nvcc build gives each lesson file's kernels, read from its PTX: every one turns
// into an expression (test_lab_compile then compiles them all with NVRTC).
TEST(LabNames, EveryKernelTheBuildHoldsHasAnExpression) {
    for (const KernelInfo& k : registry()) {
        if (!k.lab_editable) continue;
        Result<std::vector<std::string>> e = built_kernel_expressions(k.lesson_source());
        ASSERT_TRUE(e) << e.error().message;
        EXPECT_FALSE(e->empty()) << k.id;
        for (const std::string& x : *e) {
            EXPECT_EQ(x.rfind("sml::", 0), 0u) << x;
            EXPECT_EQ(x.find("anonymous"), std::string::npos) << x;
            EXPECT_EQ(x.find('('), std::string::npos) << x;
        }
    }
    Result<std::vector<std::string>> warp = built_kernel_expressions("kernels/warp_softmax.cu");
    ASSERT_TRUE(warp);
    EXPECT_NE(std::find(warp->begin(), warp->end(), "sml::warp_softmax_kernel<32, 8, 4>"),
              warp->end());
    EXPECT_EQ(ptx_entry_names(".visible .entry _Z1kv(\n.entry _Z1jv()\n// .entry no\n").size(), 2u);
}
#endif

// --- documents -----------------------------------------------------------------------------------

TEST(LabJob, RoundTripsThroughJson) {
    LabJob j = make_job("warp", "kernels/warp_softmax.cu", "// the source\n\"quoted\"\n");
    j.rows = 77;
    j.cols = 1023;
    j.label = "strided";
    j.mode = "check";
    LaunchOverride o;
    o.step = "warp";
    o.block = std::vector<int64_t>{32, 8};
    o.smem = 0;
    j.launch.push_back(o);
    Result<LabJob> back = parse_job(job_to_json(j), "job.json");
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->source, j.source);
    EXPECT_EQ(back->rows, 77);
    EXPECT_EQ(back->cols, 1023);
    EXPECT_EQ(back->mode, "check");
    ASSERT_EQ(back->launch.size(), 1u);
    EXPECT_EQ(*back->launch[0].block, (std::vector<int64_t>{32, 8}));
    EXPECT_FALSE(back->launch[0].threads);
}

TEST(LabJob, BadDocumentsAreErrorsThatSayWhy) {
    Result<LabJob> r = parse_job("{\"schema\": \"softmaxlab-session\"}", "x.json");
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("x.json"), std::string::npos);
    EXPECT_FALSE(parse_job("not json", "x.json"));
    EXPECT_FALSE(parse_job("{\"schema\": \"softmaxlab-lab-job\", \"version\": 1}", "x.json"));
    EXPECT_FALSE(
        parse_job("{\"schema\": \"softmaxlab-lab-job\", \"version\": 1, \"kernel\": \"warp\", "
                  "\"source\": \"\", \"mode\": \"fast\"}",
                  "x.json"));
    Result<LabJob> minimal = parse_job(
        "{\"schema\": \"softmaxlab-lab-job\", \"version\": 1, \"kernel\": \"warp\", \"source\": "
        "\"s\"}",
        "x.json");
    ASSERT_TRUE(minimal);
    EXPECT_EQ(minimal->source_name, "kernels/warp_softmax.cu");
    EXPECT_EQ(minimal->mode, "measure");
}

TEST(LabJob, ResultRoundTripsWithSessionCubinAndRecords) {
    LabResult r;
    r.status = status::kFault;
    r.message = "faulted";
    r.fault = FaultInfo{"illegal_address",         "warp", "_Z1kv",
                        "kernels/warp_softmax.cu", 77,     "compute-sanitizer"};
    r.diagnostics.push_back(Diagnostic{"e.cu", 3, 4, "warning", "w"});
    r.cubin = std::string(
        "\x7f"
        "ELF\0\1\2\xff",
        8);
    r.sass_records.push_back(SassRecord{0xdeadbeef, "_Z1kv", 0x40, {{"inst_executed", 12}}});
    Session s;
    s.created_utc = "2026-11-25T00:00:00Z";
    PointRecord p;
    p.kernel = "warp";
    p.rows = 64;  // a session's sizes are checked when read (1..2^40)
    p.cols = 1024;
    p.edit = EditRecord{"warp", "kernels/warp_softmax.cu", sha256_hex("x"), "threads=64", "l"};
    SourceLinesRecord lines;
    lines.available = true;
    lines.chip = "GH100";
    lines.metric_names["inst_executed"] = "smsp__sass_inst_executed";
    lines.source_name = "kernels/warp_softmax.cu";
    lines.source_sha256 = sha256_hex("y");
    lines.lines.push_back(LineCounters{"kernels/warp_softmax.cu", 77, {{"inst_executed", 5}}});
    lines.instructions.push_back(InstructionCounters{"_Z1kv", 64, 77, {{"inst_executed", 5}}});
    p.source_lines = lines;
    s.points.push_back(p);
    r.session = s;
    Result<LabResult> back = parse_result(result_to_json(r), "r.json");
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->status, status::kFault);
    ASSERT_TRUE(back->fault);
    EXPECT_EQ(back->fault->line, 77);
    EXPECT_EQ(back->cubin, r.cubin);
    ASSERT_EQ(back->sass_records.size(), 1u);
    EXPECT_EQ(back->sass_records[0].cubin_crc, 0xdeadbeefu);
    EXPECT_EQ(back->sass_records[0].pc, 0x40u);
    ASSERT_TRUE(back->session);
    const PointRecord& bp = back->session->points.at(0);
    ASSERT_TRUE(bp.edit);
    EXPECT_EQ(bp.edit->launch, "threads=64");
    ASSERT_TRUE(bp.source_lines);
    EXPECT_EQ(bp.source_lines->lines.at(0).line, 77);
    EXPECT_EQ(bp.source_lines->instructions.at(0).pc, 64);
    EXPECT_EQ(bp.source_lines->metric_names.at("inst_executed"), "smsp__sass_inst_executed");
    EXPECT_EQ(bp.source_lines->source_name, "kernels/warp_softmax.cu");
    EXPECT_EQ(bp.source_lines->source_sha256, sha256_hex("y"));
}

// --- runtime errors, sanitizer output -----------------------------------------------------------

TEST(LabChild, RuntimeErrorsAreClassified) {
    EXPECT_EQ(classify_runtime_error("running warp failed: an illegal memory access was "
                                     "encountered (cudaErrorIllegalAddress)")
                  .kind,
              "illegal_address");
    EXPECT_EQ(classify_runtime_error("x (cudaErrorLaunchOutOfResources)").status,
              status::kLaunchError);
    EXPECT_EQ(classify_runtime_error("not enough GPU memory for warp input").status,
              status::kOutOfMemory);
    EXPECT_EQ(classify_runtime_error("x (cudaErrorMisalignedAddress)").status, status::kFault);
    EXPECT_EQ(classify_runtime_error("something else").status, status::kFailed);
}

TEST(LabChild, SanitizerReportGivesTheLine) {
    const std::string out =
        "========= COMPUTE-SANITIZER\n"
        "========= Invalid __global__ read of size 4 bytes\n"
        "=========     at void sml::warp_softmax_kernel<32, 8, 4>(const float *, long, float *, "
        "long, long, long)+0x1f0 in kernels/warp_softmax.cu:77\n"
        "=========     by thread (3,0,0) in block (0,0,0)\n";
    SanitizerReport r;
    ASSERT_TRUE(parse_sanitizer_report(out, &r));
    EXPECT_EQ(r.what, "Invalid __global__ read of size 4 bytes");
    EXPECT_EQ(r.file, "kernels/warp_softmax.cu");
    EXPECT_EQ(r.line, 77);
    EXPECT_EQ(r.pc, 0x1f0u);
    SanitizerReport old_style;
    ASSERT_TRUE(parse_sanitizer_report(
        "========= Invalid __global__ read of size 16 bytes\n"
        "=========     at 0x000001f0 in /src/kernels/warp_softmax.cu:81:k(float*)\n",
        &old_style));
    EXPECT_EQ(old_style.file, "/src/kernels/warp_softmax.cu");
    EXPECT_EQ(old_style.line, 81);
    SanitizerReport none;
    EXPECT_FALSE(parse_sanitizer_report("========= ERROR SUMMARY: 0 errors\n", &none));
}

// --- bytes ---------------------------------------------------------------------------------

TEST(LabBytes, Sha256AndBase64) {
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256_hex("abc"),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    for (const std::string s : {"", "f", "fo", "foo", "foob", "fooba", "foobar"}) {
        const std::string e = base64_encode(s);
        EXPECT_EQ(base64_decode(e), s) << e;
    }
    EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
    EXPECT_EQ(base64_encode("fo"), "Zm8=");
    EXPECT_FALSE(base64_decode("Zm9"));
    EXPECT_FALSE(base64_decode("Zm=v"));
    std::string all;
    for (int i = 0; i < 256; ++i) all += char(i);
    EXPECT_EQ(base64_decode(base64_encode(all)), all);
}

// --- SASS metric roles -----------------------------------------------------------------------

TEST(LabSassRoles, CandidatesFirstThenPatterns) {
    const SassRole* global = find_sass_role(role::kGlobalSectors);
    const SassRole* ideal = find_sass_role(role::kGlobalIdealSectors);
    ASSERT_TRUE(global && ideal);
    const std::vector<std::string> h100_like = {
        "smsp__sass_inst_executed", "smsp__sass_sectors_mem_global",
        "smsp__sass_sectors_mem_global_ideal", "smsp__sass_sectors_mem_local"};
    EXPECT_EQ(pick_sass_metric(*global, h100_like), "smsp__sass_sectors_mem_global");
    EXPECT_EQ(pick_sass_metric(*ideal, h100_like), "smsp__sass_sectors_mem_global_ideal");
    // Another chip's spelling is found by pattern, and the ideal one never fills the plain role.
    const std::vector<std::string> other = {"sm__sass_sectors_mem_global_ideal_x",
                                            "sm__sass_sectors_mem_global_x"};
    EXPECT_EQ(pick_sass_metric(*global, other), "sm__sass_sectors_mem_global_x");
    EXPECT_EQ(pick_sass_metric(*ideal, other), "sm__sass_sectors_mem_global_ideal_x");
    EXPECT_EQ(pick_sass_metric(*find_sass_role(role::kSharedBankConflicts), h100_like), "");
    EXPECT_TRUE(find_sass_role(role::kGlobalSectorEfficiencyPct)->derived);
}

// --- time limits (--time-limit of run --source, lab exercise, lab lines) -----------------------

TEST(LabTimeLimit, FiniteAndPositiveAndAtMostTheCap) {
    EXPECT_EQ(*parse_seconds("120", "--time-limit", 3600), 120.0);
    EXPECT_EQ(*parse_seconds("0.5", "--time-limit", 3600), 0.5);
    EXPECT_EQ(*parse_seconds("1e2", "--time-limit", 3600), 100.0);
    EXPECT_EQ(*parse_seconds("3600", "--time-limit", 3600), 3600.0);
    const struct {
        const char* text;
        const char* message;
    } bad[] = {
        {"nan", "--time-limit 'nan' is not a number of seconds"},
        {"inf", "--time-limit 'inf' is not a number of seconds"},
        {"infinity", "--time-limit 'infinity' is not a number of seconds"},
        {"0x10", "--time-limit '0x10' is not a number of seconds"},
        {" 5", "--time-limit ' 5' is not a number of seconds"},
        {"5s", "--time-limit '5s' is not a number of seconds"},
        {"1e", "--time-limit '1e' is not a number of seconds"},
        {"", "--time-limit is empty"},
        {"0", "--time-limit 0 is not more than 0"},
        {"-0", "--time-limit -0 is not more than 0"},
        {"-5", "--time-limit -5 is not more than 0"},
        {"1e-999", "--time-limit 1e-999 is"},
        {"1e999", "--time-limit 1e999 is too large: the most is 3600"},
        {"3600.5", "--time-limit 3600.5 is too large: the most is 3600"},
    };
    for (const auto& c : bad) {
        Result<double> r = parse_seconds(c.text, "--time-limit", 3600);
        ASSERT_FALSE(r.ok()) << c.text;
        EXPECT_EQ(r.error().message.rfind(c.message, 0), 0u) << r.error().message;
        EXPECT_NE(r.error().hint.find("at most 3600"), std::string::npos) << r.error().hint;
    }
}

}  // namespace
}  // namespace sml::lab
