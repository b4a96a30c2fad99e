// The code views' core: PTX and SASS indexing, listings, the source <-> instruction line maps,
// per-line metrics, source hashes and recording manifests (core/code/).
//
// Real inputs: the PTX this build generated (build/ptx/, with the CUDA toolkit) or else the
// recorded PTX (build/code/ptx/, unpacked from assets/code/), and the recorded SASS. Small
// fixtures in tests/data/code/ (see its README) cover the formats and edge cases.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "core/code/asm_listing.h"
#include "core/code/code_manifest.h"
#include "core/code/code_record.h"
#include "core/code/line_map.h"
#include "core/code/line_metrics.h"
#include "core/code/source_hash.h"
#include "core/common/safe_file.h"
#include "core/lessons/annotated_source.h"
#include "kernels/registry.h"

namespace sml {
namespace {

const std::string kData = std::string(SML_TEST_DATA_DIR) + "/code";
const std::string kRoot = SML_SOURCE_DIR;

std::string read_all(const std::string& path) {
    Result<std::string> t = read_file_capped(path, int64_t(1) << 30, "test file");
    EXPECT_TRUE(t.ok()) << path << ": " << t.error().message;
    return t ? *t : "";
}

// The real PTX of `stem`: the build's, else the recorded one (a build without the toolkit).
std::string real_ptx_path(const std::string& stem) {
    const std::string built = std::string(SML_BUILD_DIR) + "/ptx/" + stem + ".ptx";
    if (path_exists(built)) return built;
    return std::string(SML_BUILD_DIR) + "/code/ptx/" + stem + ".ptx";
}

// [SECTION] names -------------------------------------------------------------------------------

TEST(CodeNames, ShortNamesDropReturnTypeNamespacesAndParameters) {
    EXPECT_EQ(short_function_name("_ZN3sml48_GLOBAL__N__9ea406e9_15_warp_softmax_cu_4dc0f15319warp_"
                                  "softmax_kernelILi32ELi2ELi4EEEvPKflPflll"),
              "warp_softmax_kernel<32, 2, 4>");
    EXPECT_EQ(
        short_function_name("_ZN3sml4best16best_grid_kernelI13__nv_bfloat16Li8ELi4ELi4ELb0ELb0E"
                            "EEvPKT_PS3_illlPmi"),
        "best_grid_kernel<__nv_bfloat16, 8, 4, 4, false, false>");
    EXPECT_EQ(
        short_function_name("_ZN3sml49_GLOBAL__N__cafe34ec_16_naive_softmax_cu_8e049a1313divide_"
                            "kernelEPKfS2_Pflll"),
        "divide_kernel");
    EXPECT_EQ(short_function_name("_fused_softmax_kernel"), "_fused_softmax_kernel");
    EXPECT_EQ(short_function_name("_Znot_really"), "_Znot_really");
}

TEST(CodeNames, OneFunctionHasOneKeyAcrossBuilds) {
    // The same instantiation from two builds: the anonymous namespace's hash differs.
    const std::string ptx_name =
        "_ZN3sml48_GLOBAL__N__9ea406e9_15_warp_softmax_cu_4dc0f15319warp_softmax_"
        "kernelILi32ELi32ELi1"
        "EEEvPKflPflll";
    const std::string sass_name =
        "_ZN3sml48_GLOBAL__N__ea2b8528_15_warp_softmax_cu_4dc0f15319warp_softmax_"
        "kernelILi32ELi32ELi1"
        "EEEvPKflPflll";
    EXPECT_NE(ptx_name, sass_name);
    EXPECT_EQ(function_key(ptx_name), function_key(sass_name));
    EXPECT_NE(function_key(ptx_name).find("warp_softmax_kernel<32, 32, 1>"), std::string::npos);
}

TEST(CodeNames, PtxOpcodePatternsMatchAsLessonsDo) {
    EXPECT_TRUE(ptx_opcode_matches("ld.global.nc.v4.f32", "ld.global.v4.f32"));
    EXPECT_TRUE(ptx_opcode_matches("shfl.sync.bfly.b32", "shfl.sync.bfly"));
    EXPECT_FALSE(ptx_opcode_matches("ld.shared.f32", "ld.global"));
    EXPECT_TRUE(ptx_opcode_matches("cp.async.cg.shared.global", "cp.async.shared.global"));
    EXPECT_FALSE(ptx_opcode_matches("cp.async.commit_group", "cp.async.shared.global"));
    EXPECT_FALSE(ptx_opcode_matches("add.f32", ""));
}

// [SECTION] PTX ---------------------------------------------------------------------------------

TEST(CodePtx, TritonShapedFixture) {
    AsmIndex idx =
        index_asm_text(read_all(kData + "/triton_like_fixture.ptx"), AsmKind::ptx, "fixture");
    ASSERT_EQ(idx.entries.size(), 1u);  // the debug section and the .extern are no entries
    const AsmEntry& e = idx.entries[0];
    EXPECT_TRUE(e.kernel);
    EXPECT_EQ(e.short_name, "_fused_softmax_kernel");
    EXPECT_TRUE(e.uses("cp.async.wait_group"));
    EXPECT_FALSE(e.uses("ld.global.v4.f32"));
    ASSERT_GE(idx.files.size(), 2u);
    EXPECT_TRUE(same_source_file(idx.files[1], "bench/triton_tutorial_softmax.py"));

    Result<AsmListing> l = load_asm_entry(idx, 0);
    ASSERT_TRUE(l.ok()) << l.error().message;
    EXPECT_EQ(l->lines_matching("cp.async.shared.global").size(), 2u);
    EXPECT_EQ(l->lines_matching("cp.async.commit_group").size(), 2u);
    ASSERT_EQ(l->lines_matching("cp.async.wait_group").size(), 1u);
    EXPECT_EQ(l->lines_matching("shfl.sync.bfly").size(), 2u);
    for (const AsmLine& line : l->lines) {
        EXPECT_EQ(line.text.find(".loc"), std::string::npos) << line.text;  // hidden
        EXPECT_EQ(line.text.find("_fused_softmax_kernel_param_"), std::string::npos) << line.text;
    }
    const LineMap map = LineMap::build(*l, "bench/triton_tutorial_softmax.py");
    EXPECT_EQ(map.instructions_mapped(), map.instructions());
    const int wait = l->lines_matching("cp.async.wait_group")[0];
    EXPECT_EQ(map.source_line(wait), 23);  // the tl.range loop
    const std::string& wait_text = l->lines[wait].text;
    EXPECT_EQ(wait_text.substr(wait_text.size() - 3), " 0;") << wait_text;  // operands kept
    // The guard stays in front of its instruction.
    bool guarded_store = false;
    for (const AsmLine& line : l->lines)
        guarded_store |= line.instruction && line.opcode == "st.global.v4.b32" &&
                         line.text.find("@%p1 st.global.v4.b32") != std::string::npos;
    EXPECT_TRUE(guarded_store);
}

TEST(CodePtx, RealWarpPtxLinksEveryInstructionToItsRegion) {
    const std::string path = real_ptx_path("warp_softmax");
    Result<AsmIndex> idx = index_asm_file(path, AsmKind::ptx);
    ASSERT_TRUE(idx.ok()) << idx.error().message;
    ASSERT_FALSE(idx->entries.empty()) << path;
    EXPECT_TRUE(idx->line_info);
    Result<AnnotatedSource> src = load_annotated_source(kRoot + "/kernels/warp_softmax.cu");
    ASSERT_TRUE(src.ok());
    const SourceRegion* reduce = src->find("warp-reduce");
    const SourceRegion* load = src->find("vector-load");
    ASSERT_TRUE(reduce && load);
    int shuffles = 0, vector_loads = 0;
    for (size_t i = 0; i < idx->entries.size(); ++i) {
        const AsmEntry& e = idx->entries[i];
        EXPECT_TRUE(e.kernel);
        EXPECT_EQ(e.short_name.rfind("warp_softmax_kernel<", 0), 0u) << e.short_name;
        Result<AsmListing> l = load_asm_entry(*idx, i);
        ASSERT_TRUE(l.ok()) << l.error().message;
        EXPECT_EQ(l->entry.instructions,
                  static_cast<int>(std::count_if(l->lines.begin(), l->lines.end(),
                                                 [](const AsmLine& a) { return a.instruction; })));
        const LineMap map = LineMap::build(*l, "kernels/warp_softmax.cu");
        // Nearly every instruction comes from a line of warp_softmax.cu; the rest the compiler
        // marks as its own (".loc 1 0 5": line 0, no line).
        EXPECT_GE(map.instructions_mapped(), map.instructions() * 85 / 100) << e.short_name;
        for (size_t k = 0; k < l->lines.size(); ++k)
            if (l->lines[k].instruction && map.source_line(static_cast<int>(k)) == 0)
                EXPECT_EQ(l->lines[k].frames_begin, l->lines[k].frames_end) << l->lines[k].text;
        for (int line : l->lines_matching("shfl.sync.bfly")) {
            const int s = map.source_line(line);
            EXPECT_TRUE(s >= reduce->first_line && s <= reduce->last_line)
                << e.short_name << ": shuffle charged to line " << s;
            ++shuffles;
        }
        for (int line : l->lines_matching("ld.global.v4.f32")) {
            const int s = map.source_line(line);
            EXPECT_TRUE(s >= load->first_line && s <= load->last_line)
                << e.short_name << ": vector load charged to line " << s;
            ++vector_loads;
        }
        for (const AsmLine& a : l->lines) EXPECT_EQ(a.text.find("_ZN"), std::string::npos);
    }
    EXPECT_GT(shuffles, 0);
    EXPECT_GT(vector_loads, 0);
}

TEST(CodePtx, EntryBytesAreReadAloneAndChangesAreNoticed) {
    const std::string dir = ::testing::TempDir() + "/sml_code_changed_" + std::to_string(::getpid());
    std::filesystem::create_directories(dir);
    const std::string path = dir + "/t.ptx";
    std::string text = read_all(kData + "/triton_like_fixture.ptx");
    ASSERT_TRUE(write_file_atomic(path, text, "test").ok());
    Result<AsmIndex> idx = index_asm_file(path, AsmKind::ptx);
    ASSERT_TRUE(idx.ok());
    ASSERT_EQ(idx->entries.size(), 1u);
    EXPECT_EQ(text.substr(idx->entries[0].begin, 13), ".visible .ent");
    EXPECT_EQ(text[idx->entries[0].end - 2], '}');
    ASSERT_TRUE(write_file_atomic(path, text + "// more\n", "test").ok());
    Result<AsmListing> l = load_asm_entry(*idx, 0);
    ASSERT_FALSE(l.ok());
    EXPECT_NE(l.error().message.find("changed since it was indexed"), std::string::npos);
    EXPECT_FALSE(index_asm_file(dir, AsmKind::ptx).ok());  // a folder is refused
}

// [SECTION] SASS --------------------------------------------------------------------------------

TEST(CodeSass, NvdisasmInlineChainsLinkCallSiteAndCallee) {
    AsmIndex idx = index_asm_text(read_all(kData + "/warp_softmax_4_1_1.nvdisasm.sass"),
                                  AsmKind::sass, "fixture");
    EXPECT_EQ(idx.format, "nvdisasm");
    EXPECT_TRUE(idx.line_info);
    ASSERT_EQ(idx.entries.size(), 1u);
    EXPECT_TRUE(idx.entries[0].kernel);  // STO_CUDA_ENTRY
    EXPECT_EQ(idx.entries[0].short_name, "warp_softmax_kernel<4, 1, 1>");
    Result<AsmListing> l = load_asm_entry(idx, 0);
    ASSERT_TRUE(l.ok());
    const LineMap map = LineMap::build(*l, "kernels/warp_softmax.cu");
    EXPECT_EQ(map.instructions_mapped(), map.instructions());
    // Readable: no encodings, no directives, no blank lines, no mangled names, trailing NOPs
    // folded into one line.
    size_t opcode_col = std::string::npos;
    int padding_lines = 0;
    for (const AsmLine& a : l->lines) {
        EXPECT_FALSE(a.text.empty());
        EXPECT_EQ(a.text.find("/* 0x"), std::string::npos);
        EXPECT_EQ(a.text.find("_ZN"), std::string::npos) << a.text;
        EXPECT_NE(a.text[0], '\t');
        padding_lines += a.text.find("NOPs of padding") != std::string::npos;
        if (!a.instruction) continue;
        EXPECT_NE(a.opcode, "NOP");
        EXPECT_GT(a.address_chars, 0);
        // Columns: every opcode starts at the same place.
        const size_t col = a.text.find(a.opcode, a.address_chars);
        if (opcode_col == std::string::npos) opcode_col = col;
        if (a.text.find('@') == std::string::npos) {
            EXPECT_EQ(col, opcode_col) << a.text;
        }
    }
    EXPECT_EQ(padding_lines, 1);
    // A RET names the kernel by its short name.
    bool ret_named = false;
    for (const AsmLine& a : l->lines)
        ret_named |= a.opcode.rfind("RET", 0) == 0 &&
                     a.text.find("warp_softmax_kernel<4, 1, 1>") != std::string::npos;
    EXPECT_TRUE(ret_named);
}

TEST(CodeSass, InlinedShuffleReachedFromTheCallAndChargedToTheCallee) {
    // In this fixture group_max is at line 44 and called from line 97 (inline chain
    // sm_30_intrinsics.hpp:449 -> warp_softmax.cu:44 -> warp_softmax.cu:97).
    AsmIndex idx = index_asm_text(read_all(kData + "/warp_softmax_4_1_1.nvdisasm.sass"),
                                  AsmKind::sass, "fixture");
    Result<AsmListing> l = load_asm_entry(idx, 0);
    ASSERT_TRUE(l.ok());
    const LineMap map = LineMap::build(*l, "kernels/warp_softmax.cu");
    int shuffles = 0;
    for (size_t i = 0; i < l->lines.size(); ++i) {
        if (l->lines[i].opcode != "SHFL.BFLY") continue;
        ++shuffles;
        const int s = map.source_line(static_cast<int>(i));
        EXPECT_TRUE(s == 44 || s == 51) << s;  // group_max's or group_sum's shuffle
        const std::vector<int>& callee = map.reached_from(s);
        EXPECT_TRUE(std::binary_search(callee.begin(), callee.end(), static_cast<int>(i)));
        // The inline chain ends in the kernel body, which reaches it as well.
        const AsmLine& a = l->lines[i];
        const AsmFrame& outer = l->frames[a.frames_end - 1];
        EXPECT_GT(outer.line, 90);
        const std::vector<int>& caller = map.reached_from(outer.line);
        EXPECT_TRUE(std::binary_search(caller.begin(), caller.end(), static_cast<int>(i)));
        const std::vector<int>& charged = map.charged_to(outer.line);
        EXPECT_FALSE(std::binary_search(charged.begin(), charged.end(), static_cast<int>(i)));
    }
    EXPECT_GT(shuffles, 0);
    // Colours: neighbouring mapped lines differ.
    const std::vector<int>& lines = map.source_lines();
    ASSERT_GE(lines.size(), 2u);
    for (size_t k = 1; k < lines.size(); ++k)
        EXPECT_NE(map.color_slot(lines[k - 1], 6), map.color_slot(lines[k], 6));
    EXPECT_EQ(map.color_slot(1, 6), -1);  // a comment line became nothing
}

TEST(CodeSass, CuobjdumpWithoutLineInfo) {
    AsmIndex idx = index_asm_text(read_all(kData + "/naive_softmax_cut.cuobjdump.sass"),
                                  AsmKind::sass, "fixture");
    EXPECT_EQ(idx.format, "cuobjdump");
    EXPECT_FALSE(idx.line_info);
    ASSERT_EQ(idx.entries.size(), 2u);
    EXPECT_EQ(idx.entries[0].short_name, "divide_kernel");
    EXPECT_EQ(idx.entries[1].short_name, "row_sum_kernel");
    Result<AsmListing> l = load_asm_entry(idx, 0);
    ASSERT_TRUE(l.ok());
    EXPECT_FALSE(l->line_info);
    EXPECT_TRUE(LineMap::build(*l, "kernels/naive_softmax.cu").empty());
    int instructions = 0;
    for (const AsmLine& a : l->lines) {
        EXPECT_EQ(a.text.find("0x000"), std::string::npos) << a.text;  // no encoding lines
        EXPECT_EQ(a.text.find(".headerflags"), std::string::npos);
        instructions += a.instruction;
    }
    EXPECT_EQ(instructions, l->entry.instructions);
    EXPECT_EQ(l->lines.front().address, 0);
}

TEST(CodeSass, RecordedSassMatchesThePtxEntriesAndHasLineInfo) {
    // The SASS unpacked from assets/code/ (the newest recording) for warp: every entry has a PTX
    // twin with the same key, and nvdisasm's line info links it to warp_softmax.cu.
    const std::string sass = std::string(SML_BUILD_DIR) + "/code/sass/warp_softmax.sass";
    ASSERT_TRUE(path_exists(sass)) << sass << ": the build unpacks assets/code/*-code.tar.xz";
    Result<AsmIndex> s = index_asm_file(sass, AsmKind::sass);
    Result<AsmIndex> p = index_asm_file(real_ptx_path("warp_softmax"), AsmKind::ptx);
    ASSERT_TRUE(s.ok() && p.ok());
    ASSERT_FALSE(s->entries.empty());
    EXPECT_TRUE(s->line_info);
    for (size_t i = 0; i < s->entries.size(); ++i) {
        EXPECT_GE(p->find(s->entries[i].symbol), 0) << s->entries[i].key;
        Result<AsmListing> l = load_asm_entry(*s, i);
        ASSERT_TRUE(l.ok());
        const LineMap map = LineMap::build(*l, "kernels/warp_softmax.cu");
        EXPECT_GT(map.instructions_mapped(), map.instructions() * 9 / 10);
    }
}

// [SECTION] per-line metrics --------------------------------------------------------------------

TEST(CodeMetrics, PerInstructionValuesSumOntoSourceLines) {
    AsmIndex idx = index_asm_text(read_all(kData + "/warp_softmax_4_1_1.nvdisasm.sass"),
                                  AsmKind::sass, "fixture");
    Result<AsmListing> l = load_asm_entry(idx, 0);
    ASSERT_TRUE(l.ok());
    const LineMap map = LineMap::build(*l, "kernels/warp_softmax.cu");
    LineMetric m;
    m.id = "smsp__sass_inst_executed";
    m.label = "inst";
    m.description = "warp-level instructions executed";
    m.key = LineMetric::Key::sass_address;
    m.function = l->entry.key;
    // Every instruction executed 10 times, the shuffles 100 times.
    double total = 0;
    for (const AsmLine& a : l->lines)
        if (a.instruction) {
            m.values[a.address] = a.opcode == "SHFL.BFLY" ? 100 : 10;
            total += m.values[a.address];
        }
    const std::vector<double> per_line = metric_per_listing_line(m, *l);
    ASSERT_EQ(per_line.size(), l->lines.size());
    for (size_t i = 0; i < per_line.size(); ++i)
        EXPECT_EQ(std::isnan(per_line[i]), !l->lines[i].instruction);
    EXPECT_EQ(metric_max(per_line), 100);
    const LineMetric per_src = metric_per_source_line(m, *l, map);
    EXPECT_EQ(per_src.key, LineMetric::Key::source_line);
    EXPECT_EQ(per_src.label, "inst");
    double sum = 0;
    for (const auto& [line, v] : per_src.values) {
        sum += v;
        EXPECT_EQ(
            v, 10.0 * map.charged_to(line).size() +
                   90.0 * std::count_if(map.charged_to(line).begin(), map.charged_to(line).end(),
                                        [&](int i) { return l->lines[i].opcode == "SHFL.BFLY"; }));
    }
    EXPECT_EQ(sum, total);  // every instruction is charged to exactly one line
    // A metric for another function shows nothing here.
    m.function = "void other()";
    EXPECT_EQ(metric_max(metric_per_listing_line(m, *l)), 0);
}

// [SECTION] hashes, manifests, provenance -------------------------------------------------------

TEST(CodeProvenance, Fnv1a64KnownValues) {
    EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
    EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
    EXPECT_EQ(source_hash("a"), "fnv1a64:af63dc4c8601ec8c");
}

TEST(CodeProvenance, ClosureFollowsRepositoryIncludes) {
    const std::vector<std::string> c = source_closure(kRoot, "kernels/warp_softmax.cu");
    ASSERT_FALSE(c.empty());
    EXPECT_EQ(c.front(), "kernels/warp_softmax.cu");
    EXPECT_NE(std::find(c.begin(), c.end(), "kernels/softmax_common.cuh"), c.end());
    EXPECT_NE(std::find(c.begin(), c.end(), "kernels/kernel_api.h"), c.end());
    for (const std::string& f : c) EXPECT_TRUE(path_exists(kRoot + "/" + f)) << f;
    EXPECT_EQ(std::set<std::string>(c.begin(), c.end()).size(), c.size());
}

CodeManifest manifest_of_checkout(const std::string& source) {
    CodeManifest m;
    m.git = "abc1234";
    m.created_utc = "2026-11-25T00:00:00Z";
    CodeUnit u;
    u.source = source;
    u.built_from = source_closure(kRoot, source);
    for (const std::string& f : u.built_from) m.sources[f] = *hash_file(kRoot + "/" + f);
    u.sass = "sass/x.sass";
    m.units.push_back(u);
    return m;
}

TEST(CodeProvenance, MatchesDiffersOrUnknown) {
    const std::string src = "kernels/warp_softmax.cu";
    CodeProvenance none = check_code_provenance(nullptr, kRoot, src, "SASS");
    EXPECT_EQ(none.state, CodeProvenance::State::unknown);
    EXPECT_NE(none.note.find("before recordings kept the hashes"), std::string::npos);

    CodeManifest m = manifest_of_checkout(src);
    CodeProvenance same = check_code_provenance(&m, kRoot, src, "SASS");
    EXPECT_EQ(same.state, CodeProvenance::State::matches) << same.note;
    EXPECT_TRUE(same.note.empty());

    m.sources["kernels/softmax_common.cuh"] = "fnv1a64:0000000000000000";
    CodeProvenance other = check_code_provenance(&m, kRoot, src, "PTX");
    EXPECT_EQ(other.state, CodeProvenance::State::differs);
    ASSERT_EQ(other.changed.size(), 1u);
    EXPECT_EQ(other.changed[0], "kernels/softmax_common.cuh");
    EXPECT_NE(other.note.find("abc1234"), std::string::npos);
    EXPECT_NE(other.note.find("kernels/softmax_common.cuh"), std::string::npos);

    CodeProvenance unlisted = check_code_provenance(&m, kRoot, "kernels/fused_softmax.cu", "SASS");
    EXPECT_EQ(unlisted.state, CodeProvenance::State::unknown);
}

TEST(CodeProvenance, ManifestRoundTripsAndRejectsOtherHashes) {
    CodeManifest m = manifest_of_checkout("kernels/warp_softmax.cu");
    m.device = "NVIDIA H100 80GB HBM3";
    m.software["nvdisasm"] = "13.0";
    Result<CodeManifest> back = parse_code_manifest(code_manifest_json(m), "t");
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->sources, m.sources);
    ASSERT_EQ(back->units.size(), 1u);
    EXPECT_EQ(back->units[0].built_from, m.units[0].built_from);
    EXPECT_EQ(back->software.at("nvdisasm"), "13.0");
    EXPECT_FALSE(parse_code_manifest("{\"schema\": 1, \"hash\": \"md5\"}", "t").ok());
    EXPECT_FALSE(parse_code_manifest("{\"schema\": 7, \"hash\": \"fnv1a64\"}", "t").ok());
    EXPECT_FALSE(parse_code_manifest("[", "t").ok());
}

TEST(CodeProvenance, RecordKeepsTheLaunchedEntriesAndHashesTheirSources) {
    // Two entries in a PTX named like warp's; the session launched one of them.
    const std::string dir = ::testing::TempDir() + "/sml_code_record_" + std::to_string(::getpid());
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir + "/ptx");
    const std::string a = "_ZN3sml12_GLOBAL__N_11kILi1EEEvPf";  // sml::(anon)::k<1>(float*)
    const std::string b = "_ZN3sml12_GLOBAL__N_11kILi2EEEvPf";
    ASSERT_EQ(short_function_name(a), "k<1>");
    std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n\n";
    for (const std::string& s : {a, b})
        ptx += ".visible .entry " + s + "(\n\t.param .u64 " + s +
               "_param_0\n)\n{\n\t.loc\t1 10 1\n\tret;\n}\n";
    ptx += "\t.file\t1 \"/x/kernels/warp_softmax.cu\"\n";
    ASSERT_TRUE(write_file_atomic(dir + "/ptx/warp_softmax.ptx", ptx, "test").ok());
    Session session;
    PointRecord p;
    p.kernel = "warp";
    LaunchRecord launch;
    launch.function = "_ZN3sml12_GLOBAL__N_21kILi2EEEvPf";  // another build's anonymous namespace
    p.launches.push_back(launch);
    session.points.push_back(p);
    RecordCodeOptions o;
    o.repo_root = kRoot;
    o.ptx_dir = dir + "/ptx";
    o.out_dir = dir + "/out";
    o.session = &session;
    o.session_label = "test";
    std::vector<std::string> log;
    Result<CodeManifest> m = record_code(o, &log);
    ASSERT_TRUE(m.ok()) << m.error().message;
    const CodeUnit* u = m->find_unit("kernels/warp_softmax.cu");
    ASSERT_TRUE(u);
    EXPECT_EQ(u->entries_kept, 1);
    EXPECT_EQ(u->entries_built, 2);
    EXPECT_EQ(u->ptx, "ptx/warp_softmax.ptx");
    ASSERT_EQ(u->launched.size(), 1u);  // which point ran what, for sessions that lack it
    EXPECT_EQ(u->launched[0].kernel, "warp");
    EXPECT_EQ(u->launched[0].function, launch.function);
    Result<AsmIndex> kept = index_asm_file(o.out_dir + "/" + u->ptx, AsmKind::ptx);
    ASSERT_TRUE(kept.ok());
    ASSERT_EQ(kept->entries.size(), 1u);
    EXPECT_EQ(kept->entries[0].short_name, "k<2>");
    ASSERT_GE(kept->files.size(), 2u);  // the file table travels with the entries
    EXPECT_EQ(kept->files[1], "/x/kernels/warp_softmax.cu");
    // Every registry source is a unit, and its files are hashed as the checkout has them.
    size_t sources = 0;
    for (const KernelInfo& k : registry()) sources += k.sources.size();
    EXPECT_GE(m->units.size(), 1u);
    EXPECT_LE(m->units.size(), sources);
    Result<CodeManifest> on_disk = load_code_manifest(o.out_dir + "/manifest.json");
    ASSERT_TRUE(on_disk.ok());
    EXPECT_EQ(check_code_provenance(&*on_disk, kRoot, "kernels/warp_softmax.cu", "PTX").state,
              CodeProvenance::State::matches);
    ASSERT_TRUE(on_disk->find_unit("kernels/warp_softmax.cu"));
    EXPECT_EQ(on_disk->find_unit("kernels/warp_softmax.cu")->launched.size(), 1u);
    EXPECT_EQ(log.size(), m->units.size());
}

TEST(CodeProvenance, RecordOfNothingFailsAndWritesNothing) {
    // Was: a folder with no <stem>.ptx (or a wrong one) gave an empty manifest and success.
    const std::string dir = ::testing::TempDir() + "/sml_code_none_" + std::to_string(::getpid());
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir + "/ptx");
    ASSERT_TRUE(write_file_atomic(dir + "/ptx/other.ptx", ".version 9.0\n", "test").ok());
    RecordCodeOptions o;
    o.repo_root = kRoot;
    o.ptx_dir = dir + "/ptx";
    o.sass_dir = dir + "/sass";  // not there at all
    o.out_dir = dir + "/out";
    std::vector<std::string> log;
    Result<CodeManifest> m = record_code(o, &log);
    ASSERT_FALSE(m.ok());
    EXPECT_NE(m.error().message.find("nothing to record"), std::string::npos) << m.error().message;
    EXPECT_NE(m.error().message.find("PTX in"), std::string::npos) << m.error().message;
    EXPECT_NE(m.error().message.find("SASS in"), std::string::npos) << m.error().message;
    EXPECT_FALSE(path_exists(o.out_dir));
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sml
