// The viewer's words in Chinese. See ui_text.h.
#include "app/viewer/model/ui_text.h"

#include <cstring>
#include <map>
#include <utility>

namespace sml::viewer {

namespace {

// English -> Chinese. Menus and panels first, then the predict card, charts and metrics.
const std::map<std::string, std::string>& table() {
    static const std::map<std::string, std::string> t = {
        // Menus
        {"File", "文件"},
        {"counters: off", "计数器：关"},
        {"counters of N = ", "计数器来自 N = "},
        // Why Run is off (the replay banner's hint, model/gpu_access_*.cpp).
        {"this build has no GPU support (it was built without the CUDA toolkit)",
         "这个版本不支持 GPU（构建时没有 CUDA 工具包）"},
        {"install the CUDA toolkit (12.6+, nvcc at /usr/local/cuda/bin) and rebuild with "
         "scripts/build.sh to run kernels; everything else works on the recorded session",
         "要运行 kernel，请安装 CUDA 工具包（12.6 以上，nvcc 在 /usr/local/cuda/bin）并用 "
         "scripts/build.sh 重新构建；其余功能都可以在录制的会话上使用"},
        {"no NVIDIA GPU driver found (or one older than this CUDA runtime)",
         "没有找到 NVIDIA GPU 驱动（或驱动比这个 CUDA 运行时旧）"},
        {"install or update the NVIDIA driver; meanwhile the recorded session replays",
         "请安装或更新 NVIDIA 驱动；在此之前回放录制的会话"},
        {"no CUDA device found", "没有找到 CUDA 设备"},
        {"the recorded session replays instead", "改为回放录制的会话"},
        {"check nvidia-smi; meanwhile the recorded session replays",
         "请检查 nvidia-smi；在此之前回放录制的会话"},
        {"rebuild for this GPU (scripts/build.sh detects it); meanwhile the recorded session "
         "replays",
         "请为这块 GPU 重新构建（scripts/build.sh 会自动检测）；在此之前回放录制的会话"},
        {"The session has this file's per-line counters only at another N; hover the note beside "
         "for which run.",
         "会话只在另一个 N 下记录了这个文件的逐行计数器；悬停旁边的说明可看是哪次运行。"},
        {"counters: ", "计数器："},
        {"off", "关"},
        {"Per-line counters recorded with the session, folded per source line",
         "随会话录制的逐行计数器，按源代码行汇总"},
        {"Open session...", "打开会话…"},
        {"Save session...", "保存会话…"},
        {"Quit", "退出"},
        {"View", "视图"},
        {"Dark theme", "深色主题"},
        {"Light theme", "浅色主题"},
        {"Larger text", "放大文字"},
        {"Smaller text", "缩小文字"},
        {"Full screen", "全屏"},
        {"Predict mode", "预测模式"},
        {"All kernels in the chart", "图表显示全部 kernel"},
        {"Give one panel the window", "单个面板占满窗口"},
        {"All panels", "显示全部面板"},
        {"Lessons", "课程"},
        {"Code", "代码"},
        {"Chart", "图表"},
        {"Metrics", "指标"},
        {"Language", "语言"},
        {"Help", "帮助"},
        {"Keys and about", "快捷键与关于"},
        {"Dismiss", "关闭"},
        {"Close", "关闭"},
        {"replay", "回放"},
        {"live", "实测"},
        {"no session", "没有会话"},
        // Lessons panel
        {"Experiment", "实验"},
        {"Set up", "设置实验"},
        {"watch", "观察"},
        {"Fill the Run panel with these kernels and sizes, and show this N in the table and "
         "charts",
         "把这些 kernel 和尺寸填进运行面板，并在表格和图表中显示这个 N"},
        {"Show answer", "显示答案"},
        {"Hide answer", "隐藏答案"},
        // Predict card
        {"Predict", "预测"},
        {"Your guess", "你的猜测"},
        {"Check", "核对"},
        {"Reveal", "直接揭晓"},
        {"measured", "实测"},
        {"your guess", "你的猜测"},
        {"promised by the lesson (no session open)", "课程给出的范围（没有打开会话）"},
        {"promised by the lesson (not measured in this session)",
         "课程给出的范围（本会话没有测这个数）"},
        {"within the lesson's range", "在课程给出的范围内"},
        {"outside the lesson's range", "不在课程给出的范围内"},
        {"Guess first: the step's numbers stay hidden until you do (Enter checks, R reveals).",
         "先猜一猜：猜之前本步的数字都是隐藏的（回车核对，R 直接揭晓）。"},
        {"Not a number. Type e.g. 4, 80%, 1.5x or 2e6.",
         "不是数字。请输入例如 4、80%、1.5x 或 2e6。"},
        {"Predict mode is off: every number is shown (P turns it on).",
         "预测模式已关闭：所有数字都直接显示（按 P 打开）。"},
        {"revealed without a guess", "未猜测，直接揭晓"},
        {"hidden until you predict", "预测之前隐藏"},
        // Charts
        {"GB/s", "GB/s"},
        {"DRAM bytes", "显存字节"},
        {"% copy", "拷贝 %"},
        {"naive", "naive"},
        {"counters", "计数器"},
        // The chart-kind table's tooltips (core/chart/chart_kinds.cpp)
        {"GB/s vs N (log2), one line per kernel, with the same run's copy and the datasheet "
         "peak as reference lines",
         "带宽随 N（log2）的变化，每个 kernel 一条线，以同次运行的拷贝带宽和标称峰值为参考线"},
        {"predicted vs measured DRAM bytes per kernel at one N; L2-resident bars hatched",
         "某个 N 下每个 kernel 预测与实测的显存字节数；驻留在 L2 的柱子带斜线"},
        {"% of the same run's copy bandwidth vs N: sweet spots, cliffs, where ranges end",
         "占同次运行拷贝带宽的百分比随 N 的变化：最佳区间、悬崖、范围终点"},
        {"time and DRAM bytes of each of naive's five launches at one N",
         "某个 N 下 naive 五次启动各自的时间和显存字节"},
        {"achieved occupancy, L2 hit rate and bank conflicts per kernel at one N",
         "某个 N 下每个 kernel 的实际占用率、L2 命中率和 bank 冲突"},
        {"Lab", "实验台"},
        {"Lab bench: edit and run a kernel", "实验台：修改并运行 kernel"},
        // The lab bench (panel_lab.cpp)
        {"Lab bench", "实验台"},
        {"exercise", "练习"},
        {"Compile", "编译"},
        {"Revert", "还原"},
        {"hint", "提示"},
        {"per line", "每行"},
        {"This build has no CUDA toolkit: you can edit and save here, but not compile or run.",
         "这个版本没有 CUDA 工具包：可以在这里编辑和保存，但不能编译或运行。"},
        {"This softmaxlab was built without the CUDA toolkit, so it cannot compile or run "
         "kernels. Install the toolkit (12.6+) and rebuild with scripts/build.sh; NVRTC compiles "
         "without a GPU.",
         "这个 softmaxlab 构建时没有 CUDA 工具包，所以不能编译或运行 kernel。请安装工具包（12.6+）"
         "并用 scripts/build.sh 重新构建；NVRTC 不需要 GPU 也能编译。"},
        {"Compile the edit now (it also compiles by itself when typing pauses)",
         "现在编译（停止输入时也会自动编译）"},
        {"Run the edit in a child process at M x N", "在子进程中以 M x N 运行修改后的代码"},
        {"Check the exercise: compile, run and compare with the reference",
         "检查练习：编译、运行并与参考实现比对"},
        {"Back to the original text; your saved edit is removed", "恢复原文；已保存的修改会被删除"},
        {"Export...", "导出…"},
        {"This step", "本步"},
        {"All kernels", "全部 kernel"},
        {"The step's kernels, the previous step's and copy (A shows all)",
         "本步的 kernel、上一步的 kernel 和拷贝（按 A 显示全部）"},
        {"click: select this kernel and N", "点击：选中这个 kernel 和 N"},
        {"click: hide or show this line", "点击：隐藏或显示这条线"},
        {"No points yet: open a session, or Run / Sweep.",
         "还没有数据点：打开一个会话，或运行 / 扫描。"},
        {"No chart for this selection.", "这个选择没有图表。"},
        {"No session open: File > Open a session, or Run on a GPU.",
         "没有打开的会话：文件 > 打开会话，或在 GPU 上运行。"},
        {"this build has no Cairo: install libcairo2-dev and rebuild",
         "此版本没有 Cairo：安装 libcairo2-dev 后重新构建"},
        // Metrics
        {"No session open.", "没有打开的会话。"},
        {"show all kernels", "显示全部 kernel"},
        {"No points at this N.", "这个 N 没有数据点。"},
        {"kernel", "kernel"},
        {"time", "时间"},
        {"DRAM pred.", "显存预测"},
        {"DRAM meas.", "显存实测"},
        {"L2 hit", "L2 命中"},
        {"occupancy", "占用率"},
        {"bank confl.", "bank 冲突"},
        {"hidden: predict first", "隐藏：请先预测"},
        {"L2-resident", "L2 驻留"},
        {"copy", "拷贝"},
        // Run panel
        {"Run", "运行"},
        {"Sweep N", "扫描 N"},
        {"Cancel", "取消"},
        {"M: rows of the input matrix", "M：输入矩阵的行数"},
        {"N: columns, the length of each softmax row", "N：列数，即每个 softmax 行的长度"},
        {"GPU class", "GPU 类别"},
        {"kernels", "kernel"},
        {"this GPU", "本机 GPU"},
        {"H100 (recorded)", "H100（录制）"},
        {"Run is off: no GPU", "无法运行：没有 GPU"},
        // Source
        {"No SASS for this kernel.", "这个 kernel 没有 SASS。"},
    };
    return t;
}

// Chart words: exact labels, then label prefixes that carry a number after them.
const std::map<std::string, std::string>& chart_table() {
    static const std::map<std::string, std::string> t = {
        {"N, columns per row (log2 scale)", "N，每行列数（log2 刻度）"},
        {"% of copy bandwidth (same run)", "占拷贝带宽的百分比（同次运行）"},
        {"within 15% of copy (85-100%)", "与拷贝相差 15% 以内（85-100%）"},
        {"copy bandwidth = 100%", "拷贝带宽 = 100%"},
        {"DRAM bytes read + written", "显存读 + 写字节数"},
        {"predicted by the kernel's traffic formula", "由 kernel 的访存公式预测"},
        {"measured by CUPTI (dram__bytes_read + write)", "CUPTI 实测（dram__bytes_read + write）"},
        {"kernel", "kernel"},
        {"time per launch", "每次启动的时间"},
        {"DRAM bytes per launch", "每次启动的显存字节"},
        {"launch (in order)", "启动（按顺序）"},
        {"median time, ms", "中位时间，ms"},
        {"median time, µs", "中位时间，µs"},
        {"median time (CUDA events, cold L2)", "中位时间（CUDA 事件，冷 L2）"},
        {"achieved occupancy", "实际占用率"},
        {"L2 hit rate", "L2 命中率"},
        {"bank conflicts", "bank 冲突"},
        {"active warps, % of the SM's maximum", "活跃 warp 占 SM 上限的百分比"},
        {"L2 sector hits, % of lookups", "L2 扇区命中占查找的百分比"},
        {"conflicts (shared loads + stores)", "冲突次数（共享内存读 + 写）"},
        {"L2-resident: data fits in L2, so DRAM < formula",
         "L2 驻留：数据放得进 L2，所以显存流量 < 公式"},
        {"largest N in the kernel's range", "kernel 范围内最大的 N"},
    };
    return t;
}

const std::pair<const char*, const char*> kPrefixes[] = {
    {"device-to-device copy, same run: ", "设备内拷贝（同次运行）："},
    {"datasheet peak: ", "数据手册峰值："},
    {"bandwidth, GB/s", "带宽，GB/s"},
    {"counters unavailable", "计数器不可用"},
};

// Short Chinese titles for the kernels' legend entries.
const std::map<std::string, std::string>& kernel_titles() {
    static const std::map<std::string, std::string> t = {
        {"naive", "五次启动"},
        {"fused", "Triton 教程移植"},
        {"warp", "每行一个 warp"},
        {"block", "每行一个 block"},
        {"smem", "整行缓存在共享内存"},
        {"online", "在线 softmax"},
        {"online_tiled", "二维分块在线 softmax"},
        {"best", "按 N 分发的最快路径"},
    };
    return t;
}

}  // namespace

const char* ui_text(const char* en, const std::string& lang) {
    if (lang != "zh" || !en) return en;
    auto it = table().find(en);
    return it == table().end() ? en : it->second.c_str();
}

std::vector<std::string> ui_text_keys() {
    std::vector<std::string> keys;
    for (const auto& [en, zh] : table()) keys.push_back(en);
    return keys;
}

std::string ui_text_all_chinese() {
    std::string all;
    for (const auto& [en, zh] : table()) all += zh;
    for (const auto& [en, zh] : chart_table()) all += zh;
    for (const auto& [en, zh] : kernel_titles()) all += zh;
    for (const auto& [en, zh] : kPrefixes) all += zh;
    return all;
}

std::string chart_text(const std::string& en, const std::string& lang) {
    if (lang != "zh") return en;
    if (auto it = chart_table().find(en); it != chart_table().end()) return it->second;
    for (const auto& [from, to] : kPrefixes)
        if (en.rfind(from, 0) == 0) return to + en.substr(std::strlen(from));
    return en;
}

void translate_layout(chart::ChartLayout* layout, const std::string& lang) {
    if (lang != "zh" || !layout) return;
    for (chart::DrawOp& op : layout->ops)
        if (op.kind == chart::OpKind::text) op.text = chart_text(op.text, lang);
    for (chart::LegendEntry& e : layout->legend.entries) e.label = chart_text(e.label, lang);
}

void translate_chart(chart::Chart* c, const std::string& lang) {
    if (lang != "zh" || !c) return;
    c->title = chart_text(c->title, lang);
    for (chart::Panel& p : c->panels) {
        p.title = chart_text(p.title, lang);
        p.x.label = chart_text(p.x.label, lang);
        p.y.label = chart_text(p.y.label, lang);
        for (std::string& n : p.notes) n = chart_text(n, lang);
        for (chart::Series& s : p.series) {
            // Kernel series are keyed "<id>" or "<id>/<variant>": id and variant stay (they are
            // names in the code); a label with the English title gets the Chinese one.
            const std::string id = s.key.substr(0, s.key.find('/'));
            if (auto k = kernel_titles().find(id);
                k != kernel_titles().end() && s.label.rfind(id + ": ", 0) == 0) {
                const size_t slash = s.key.find('/');
                s.label = id + "：" + k->second +
                          (slash == std::string::npos ? "" : " [" + s.key.substr(slash + 1) + "]");
                continue;
            }
            s.label = chart_text(s.label, lang);
        }
    }
}

}  // namespace sml::viewer
