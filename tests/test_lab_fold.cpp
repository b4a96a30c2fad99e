// Counters on every source line, without a GPU: a cubin made here by NVRTC (with line info),
// CUPTI's SASS-to-source correlation on that cubin (it needs no GPU), and per-instruction
// records at the cubin's real PC offsets, folded per line. Stored device results
// (tests/data/lab/*.result.json: cubin + raw records, from bench/lab_device_check.sh) re-fold to
// the lines the device run recorded.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/lab/compile.h"
#include "core/lab/cubin.h"
#include "core/lab/lab_job.h"
#include "core/lab/line_fold.h"
#include "core/lab/line_map.h"
#include "core/lab/sass_roles.h"
#include "lab_test_util.h"

namespace sml::lab {
namespace {

const char* const kSource =
    "__global__ void strided(const float* in, float* out, long n, long stride) {\n"  // 1
    "    long i = blockIdx.x * (long)blockDim.x + threadIdx.x;\n"                    // 2
    "    if (i >= n) return;\n"                                                      // 3
    "    float v = in[(i * stride) % n];\n"                                          // 4
    "    out[i] = v * 2.f;\n"                                                        // 5
    "}\n";

struct Compiled {
    std::string cubin, function;
};

Compiled compile_small() {
    CompileRequest req;
    req.source = kSource;
    req.source_name = "strided.cu";
    req.arch = "sm_90";
    req.name_expressions = {"strided"};
    Result<CompileResult> r = compile_source(req);
    EXPECT_TRUE(r && r->ok) << (r ? r->log : r.error().message);
    if (!r || !r->ok) return {};
    return {r->cubin, r->kernels.at(0).lowered};
}

TEST(LabFold, CubinListsTheKernelAndItsSize) {
    const Compiled c = compile_small();
    Result<std::vector<CubinFunction>> f = cubin_functions(c.cubin);
    ASSERT_TRUE(f) << f.error().message;
    ASSERT_EQ(f->size(), 1u);
    EXPECT_EQ(f->at(0).name, c.function);
    EXPECT_GT(f->at(0).size, 4 * kSassInstructionBytes);
    EXPECT_EQ(f->at(0).size % kSassInstructionBytes, 0u);
    EXPECT_FALSE(cubin_functions("not an elf"));
}

TEST(LabFold, EveryInstructionMapsToALineOfTheSource) {
    const Compiled c = compile_small();
    Result<std::vector<PcLine>> lines = map_function_lines(c.cubin, c.function);
    ASSERT_TRUE(lines) << lines.error().message;
    ASSERT_FALSE(lines->empty());
    std::set<int> seen;
    for (const PcLine& l : *lines) {
        EXPECT_EQ(l.pc % kSassInstructionBytes, 0u);
        if (l.line > 0) {
            EXPECT_EQ(l.file, "strided.cu");
            EXPECT_LE(l.line, 6);
            seen.insert(l.line);
        }
    }
    EXPECT_TRUE(seen.count(4)) << "the load's line";
    EXPECT_TRUE(seen.count(5)) << "the store's line";
    EXPECT_FALSE(map_function_lines(c.cubin, "no_such_kernel"));
}

// Synthetic records at every real PC: each line's fold is the sum of its instructions, and the
// load line's sector efficiency is ideal / sectors.
TEST(LabFold, RecordsFoldPerLineWithSectorEfficiency) {
    const Compiled c = compile_small();
    Result<std::vector<PcLine>> lines = map_function_lines(c.cubin, c.function);
    ASSERT_TRUE(lines);
    std::vector<SassRecord> records;
    std::map<int, double> expected_inst;
    int load_pcs = 0;
    for (const PcLine& l : *lines) {
        SassRecord r{0x1234, c.function, l.pc, {{role::kInstExecuted, 10.0 + l.pc / 16}}};
        expected_inst[l.line] += 10.0 + l.pc / 16;
        if (l.line == 4 && load_pcs++ == 0) {  // one global load on line 4, 8x uncoalesced
            r.values[role::kGlobalSectors] = 800;
            r.values[role::kGlobalIdealSectors] = 100;
        }
        records.push_back(r);
    }
    records.push_back(SassRecord{0x1234, "other_kernel", 0, {{role::kInstExecuted, 5}}});
    Result<LineMaps> maps = map_record_lines(c.cubin, {records.begin(), records.end() - 1});
    ASSERT_TRUE(maps);
    const std::vector<LineCounters> folded = fold_per_line(records, *maps);
    for (const auto& [line, inst] : expected_inst) {
        const LineCounters* l = find_line(folded, line ? "strided.cu" : "", line);
        ASSERT_NE(l, nullptr) << line;
        EXPECT_DOUBLE_EQ(l->values.at(role::kInstExecuted), inst + (line == 0 ? 5 : 0)) << line;
    }
    const LineCounters* load = find_line(folded, "strided.cu", 4);
    ASSERT_NE(load, nullptr);
    EXPECT_DOUBLE_EQ(load->values.at(role::kGlobalSectorEfficiencyPct), 12.5);
    const LineCounters* unknown = find_line(folded, "", 0);  // other_kernel: no map
    ASSERT_NE(unknown, nullptr);
    const std::vector<InstructionCounters> ins = per_instruction(records, *maps);
    EXPECT_EQ(ins.size(), records.size());
    for (size_t i = 1; i < ins.size(); ++i)
        EXPECT_TRUE(ins[i - 1].function < ins[i].function ||
                    (ins[i - 1].function == ins[i].function && ins[i - 1].pc < ins[i].pc));
}

// Results the device script stored (bench/lab_device_check.sh on the H100, 2026-11-25: the warp
// kernel unedited and with a strided load): their records fold, against their own cubin, to the
// lines their session recorded.
TEST(LabFold, StoredDeviceResultsRefoldToTheirRecordedLines) {
    const std::filesystem::path dir = std::filesystem::path(SML_TEST_DATA_DIR) / "lab";
    int checked = 0;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        if (name.size() < 12 || name.substr(name.size() - 12) != ".result.json") continue;
        Result<LabResult> r = load_result(e.path().string());
        ASSERT_TRUE(r) << r.error().message;
        if (r->sass_records.empty() || !r->session) continue;
        Result<LineMaps> maps = map_record_lines(r->cubin, r->sass_records);
        ASSERT_TRUE(maps) << name << ": " << maps.error().message;
        const std::vector<LineCounters> folded = fold_per_line(r->sass_records, *maps);
        const PointRecord& p = r->session->points.at(0);
        ASSERT_TRUE(p.source_lines) << name;
        ASSERT_EQ(folded.size(), p.source_lines->lines.size()) << name;
        for (size_t i = 0; i < folded.size(); ++i) {
            EXPECT_EQ(folded[i].line, p.source_lines->lines[i].line) << name;
            for (const auto& [k, v] : folded[i].values)
                EXPECT_NEAR(v, p.source_lines->lines[i].values.at(k), 1e-6 * (1 + v)) << name << k;
        }
        ++checked;
    }
    std::printf("stored device results re-folded: %d (from %s)\n", checked, dir.c_str());
    EXPECT_GE(checked, 2) << "tests/data/lab holds the unedited and the strided warp results";
}

}  // namespace
}  // namespace sml::lab
