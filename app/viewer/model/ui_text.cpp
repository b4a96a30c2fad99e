// The viewer's words in Chinese. See ui_text.h.
#include "app/viewer/model/ui_text.h"

#include <cstring>
#include <map>
#include <string>
#include <utility>
#include <vector>

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
        // The Metrics table's header tooltips (model/metric_rows.cpp) and the counters' own
        // descriptions there (core/metrics/metric_table.cpp)
        {"Registry id of the kernel (and its variant, when not the default).",
         "kernel 在注册表中的 id（不是默认形式时附上变体）。"},
        {"Median kernel time over the timed samples, each from a cold L2 (CUDA events).",
         "各次计时样本中 kernel 时间的中位数，每次都从冷 L2 开始（CUDA 事件计时）。"},
        {"Effective bandwidth: 2 x M x N x element size / median time (the Triton tutorial's "
         "convention).",
         "有效带宽：2 x M x N x 元素字节数 / 中位时间（沿用 Triton 教程的算法）。"},
        {"Bandwidth as a share of the device-to-device copy measured in the same run: the "
         "practical speed of light.",
         "带宽占同次运行实测的设备内拷贝带宽的百分比：实际可达的光速上限。"},
        {"DRAM bytes (read + write) the algorithm must move, from the kernel's traffic formula. "
         "Cache effects are not in the formula.",
         "按 kernel 的访存公式算出的、算法必须搬运的显存字节数（读 + 写）。公式不考虑缓存的影响。"},
        {"DRAM bytes read + written, measured by CUPTI (dram__bytes_read.sum + "
         "dram__bytes_write.sum), and the ratio to the prediction.",
         "CUPTI 实测的显存读 + 写字节数（dram__bytes_read.sum + dram__bytes_write.sum），"
         "以及它与预测值之比。"},
        {"Share of L2 sector lookups that hit (lts__t_sector_hit_rate.pct).",
         "L2 扇区查找中命中的比例（lts__t_sector_hit_rate.pct）。"},
        {"Achieved occupancy: active warps as a share of the SM's maximum (sm__warps_active); "
         "theoretical occupancy when counters are off.",
         "实际占用率：活跃 warp 占 SM "
         "上限的比例（sm__warps_active）；计数器关闭时显示理论占用率。"},
        {"Shared-memory bank conflicts, loads + stores "
         "(l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld/st.sum).",
         "共享内存 bank 冲突次数，读 + 写"
         "（l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld/st.sum）。"},
        {"Bytes read from device memory (HBM); compare with the lesson's predicted reads",
         "从显存（HBM）读取的字节数；可与课程预测的读取量对照"},
        {"Bytes written to device memory (HBM); compare with the lesson's predicted writes",
         "写入显存（HBM）的字节数；可与课程预测的写入量对照"},
        {"Share of L2 sector requests served from L2 without going to DRAM",
         "由 L2 直接满足、无需访问显存的扇区请求比例"},
        {"Average active warps per SM as a percentage of the maximum (achieved occupancy)",
         "每个 SM 的平均活跃 warp 数占上限的百分比（实际占用率）"},
        {"Shared-memory load bank conflicts: extra passes when lanes hit one bank",
         "共享内存读的 bank 冲突：多个 lane 落在同一 bank 时多出的轮次"},
        {"Shared-memory store bank conflicts: extra passes when lanes hit one bank",
         "共享内存写的 bank 冲突：多个 lane 落在同一 bank 时多出的轮次"},
        {" (theor.)", "（理论）"},
        {"counters unavailable", "计数器不可用"},
        {"the working set fits in L2", "工作集放得进 L2"},
        // Per-line counters (core/lab/sass_roles.cpp): labels, units and descriptions
        {"instructions", "指令数"},
        {"warp-level instructions executed by this line's SASS",
         "这一行的 SASS 执行的 warp 级指令数"},
        {"global sectors", "全局内存扇区"},
        {"32-byte sectors this line's global loads and stores touched",
         "这一行的全局内存读写访问到的 32 字节扇区数"},
        {"ideal sectors", "理想扇区数"},
        {"sectors a perfectly coalesced access of the same bytes would touch",
         "同样的字节完全合并访问时会访问到的扇区数"},
        {"coalescing", "合并度"},
        {"ideal sectors / sectors: 100% is perfectly coalesced, 12.5% is one useful float in 8",
         "理想扇区数 / 扇区数：100% 为完全合并，12.5% 表示 8 个 float 中只有 1 个有用"},
        {"local (spills)", "本地内存（溢出）"},
        {"sectors of local memory: register spills and stack arrays",
         "本地内存的扇区数：寄存器溢出和栈上数组"},
        {"bank conflicts", "bank 冲突"},
        {"extra shared-memory wavefronts caused by bank conflicts, where the chip counts them "
         "per instruction",
         "bank 冲突造成的额外共享内存 wavefront（在能按指令计数的芯片上）"},
        {"shared wavefronts", "共享内存 wavefront"},
        {"shared-memory wavefronts (passes through the banks); above 1 per access means "
         "conflicts",
         "共享内存 wavefront 数（穿过各 bank 的轮次）；每次访问多于 1 个即有冲突"},
        {"count", "次"},
        {"sectors", "个扇区"},
        // Why a SASS listing has no counters per instruction (model/recorded_lines.cpp)
        {"a derived metric is shown per source line only", "派生指标只按源代码行显示"},
        {"the counters are per SASS instruction", "计数器是按 SASS 指令记录的"},
        {"no counters were recorded for this function", "这个函数没有录制计数器"},
        {"the listing has no instruction addresses", "这份清单没有指令地址"},
        {"the measured build's instructions are not this listing's ({0} measured, {1} listed, "
         "{2} at other addresses)",
         "测量所用构建的指令与这份清单不同（测得 {0} 条，清单 {1} 条，{2} 条在其他地址）"},
        {"{0} instructions come from other lines than in the measured build",
         "有 {0} 条指令对应的源代码行与测量所用构建不同"},
        // The per-line counters' note (model/recorded_lines.cpp, app.cpp)
        {"; ", "；"},
        {", ", "，"},
        {"per-line counters: {0}, {1}", "逐行计数器：{0}，{1}"},
        {" (the nearest N to {0} that has them)", "（有计数器且最接近 N = {0} 的 N）"},
        {", NVRTC build of this file", "，本文件的 NVRTC 构建"},
        {"{0}% of instructions executed are in other files", "执行的指令有 {0}% 在其他文件中"},
        {"no counters for {0} (CUPTI reported the first kernel of the module only; docs/lab.md)",
         "{0} 没有计数器（CUPTI 只报告了模块中的第一个 kernel；见 docs/lab.md）"},
        {"{0} has changed since its per-line counters were measured ({1}, {2}): they are not "
         "shown on lines that may have moved. Re-record them with `softmaxlab-cli lab lines` on "
         "a GPU.",
         "{0} 在测量逐行计数器（{1}，{2}）之后改动过：可能已移动的行上不显示计数器。请在 GPU 上用 "
         "`softmaxlab-cli lab lines` 重新录制。"},
        {"; per instruction: not shown, {0}", "；逐条指令：不显示，{0}"},
        {"; global traffic {0} measured, {1} predicted ({2})",
         "；全局内存流量：实测 {0}，预测 {1}（{2}）"},
        {"Hardware counters unavailable", "硬件计数器不可用"},
        // Comparing two sessions (model/compare_view.cpp)
        {"Not compared here: {0}", "此处不作对比：{0}"},
        {"Comparing {0} (solid) with {1} (dashed, hollow markers; its copy {2}): {3}",
         "对比 {0}（实线）与 {1}（虚线、空心标记；其拷贝带宽 {2}）：{3}"},
        {"; {0} has no {1} point at N = {2} (the two share {3} N)",
         "；{0} 在 N = {2} 没有 {1} 数据点（两者共有 {3} 个 N）"},
        {"This chart shows the open session only; the {0} charts draw the compared one too.",
         "这张图只显示打开的会话；{0} 图会同时画出对比的会话。"},
        {" and ", " 和 "},
        // The lab bench's status lines (model/lab_editor.cpp)
        {"restored your edit from {0}", "已恢复你保存的修改：{0}"},
        {"saved to {0}", "已保存到 {0}"},
        {"NOT SAVED: {0}", "未保存：{0}"},
        {"back to the original; your edit was removed", "已恢复原文；你保存的修改已删除"},
        {"compiling...", "正在编译…"},
        {"running in a child process...", "正在子进程中运行…"},
        {"{0} error(s)", "{0} 个错误"},
        {"compiles", "编译通过"},
        {", {0} warning(s)", "，{0} 个警告"},
        {"run: {0} - {1}", "运行：{0} - {1}"},
        {"check: {0}", "检查：{0}"},
        {"error", "错误"},
        {"warning", "警告"},
        {"remark", "提示"},
        // The PTX and SASS tabs (model/code_view.cpp)
        {"No kernel '{0}' in the registry.", "注册表中没有 kernel '{0}'。"},
        {"{0}: not recorded yet.", "{0}：尚未录制。"},
        {"On a GPU machine with Triton: {0}", "在装有 Triton 的 GPU 机器上运行：{0}"},
        {"No SASS is recorded for {0}.", "没有录制 {0} 的 SASS。"},
        {"No PTX for {0} in this build.", "这个构建里没有 {0} 的 PTX。"},
        {"SASS is recorded on a GPU machine by bench/record_code.sh (through bench/device_run.sh) "
         "and committed as assets/code/*-code.tar.xz",
         "SASS 要在 GPU 机器上用 bench/record_code.sh（经由 bench/device_run.sh）录制，"
         "并以 assets/code/*-code.tar.xz 提交"},
        {"build the sml_ptx target (needs the CUDA toolkit), or unpack a recording from "
         "assets/code/ (the build does)",
         "请构建 sml_ptx 目标（需要 CUDA 工具包），或解包 assets/code/ "
         "中的录制（构建时会自动解包）"},
        {"   runs at N = {0}", "   在 N = {0} 运行"},
        {"   ran at N = {0}", "   在 N = {0} 运行过"},
        {"   ran (another dtype)", "   运行过（另一种数据类型）"},
        {"   (device function)", "   （设备函数）"},
        {"{0}, line {1}, {2} instructions", "{0}，第 {1} 行，{2} 条指令"},
        {"\nran in the recording's sweep (bench/record_code.sh)",
         "\n在录制时的扫描中运行过（bench/record_code.sh）"},
        {"\nran in this session", "\n在本会话中运行过"},
        {"\nholds an instruction this step points at", "\n含有本步指向的指令"},
        {"The recording's sweep", "录制时的扫描"},
        {"This session", "本会话"},
        {"{0} did not launch this listing's entry point; it is listed anyway.",
         "{0}没有启动这份清单的入口函数；仍然列出。"},
        {"{0} did not launch any of this listing's entry points; all {1} are listed.",
         "{0}没有启动这份清单的任何入口函数；全部 {1} 个都列出。"},
        {"{0} has no entry points.", "{0} 没有入口函数。"},
        {"no provenance file ({0})", "没有来源文件（{0}）"},
        {"{0} of {1} from this build ({2}), {3} entry points",
         "本构建生成的 {1} 的 {0}（{2}），{3} 个入口函数"},
        {" for {0}", "，录制于 {0}"},
        {" at {0}", "，提交 {0}"},
        {"{0} of {1} recorded{2}: {3} entry points", "录制的 {1} 的 {0}{2}：{3} 个入口函数"},
        {" of the build's {0} (those that ran)", "（构建共有 {0} 个，只列出运行过的）"},
        {"CUDA port", "CUDA 移植版"},
        {"all", "全部"},
        {"source", "源代码"},
        {"List every entry point of the file, not only those that ran or that this step points at",
         "列出文件的全部入口函数，而不只是运行过的或本步指向的"},
        {"Show the source beside the instructions, linked line by line",
         "在指令旁显示源代码，逐行关联"},
        {"Hover a line to light what it links to; click to go there.",
         "悬停在一行上会高亮与它关联的行；点击可跳转过去。"},
        {"No line info in this listing: its lines cannot be linked to the source.",
         "这份清单没有行号信息：无法把它的行关联到源代码。"},
        // Lessons, charts and the Run panel
        {"No lessons loaded.", "没有加载课程。"},
        {"The lesson text lives in lessons/<lang>/ next to the app.",
         "课程文本位于应用旁边的 lessons/<lang>/ 目录中。"},
        {"shows the open session only, not the compared one", "只显示打开的会话，不显示对比的会话"},
        {"default", "默认"},
        {"deep (8 passes)", "深入（8 轮）"},
        {"Ranges and best's path follow this class of GPU.",
         "各 kernel 的适用范围和 best 的分发路径都按这一类 GPU 决定。"},
        {"Ranges and best's path follow this class of GPU (runs stay on this GPU, restricted to "
         "it).",
         "各 kernel 的适用范围和 best 的分发路径都按这一类 GPU 决定（运行仍在本机 GPU 上，"
         "只是按这一类加以限制）。"},
        {"variant of {0} used by Run (Sweep uses the default)",
         "运行时使用的 {0} 变体（扫描使用默认变体）"},
        {"Run every ticked kernel over the default N values (32 .. 1M), keeping M x N = {0} "
         "elements, each kernel only inside its range.",
         "在默认的各个 N（32 .. 1M）上运行每个勾选的 kernel，保持 M x N = {0} 个元素，"
         "每个 kernel 只在其适用范围内运行。"},
        {"Run every ticked kernel over the default N values (32 .. 1M).",
         "在默认的各个 N（32 .. 1M）上运行每个勾选的 kernel。"},
        // Menus, dialogs and banners (app.cpp, app_run.cpp, app_session.cpp)
        {"Compare with session...", "与另一个会话对比…"},
        {"Stop comparing", "停止对比"},
        {"Open session", "打开会话"},
        {"Compare with session", "与另一个会话对比"},
        {"Save session", "保存会话"},
        {"Export chart", "导出图表"},
        {"About softmaxlab", "关于 softmaxlab"},
        {"Session JSON file (written by softmaxlab-cli sweep --out):",
         "会话 JSON 文件（由 softmaxlab-cli sweep --out 写出）："},
        {"A second session to draw over the open one (dashed) and to add to the Metrics table:",
         "要叠加在打开的会话上（虚线）并加入指标表的第二个会话："},
        {"Recorded sessions:", "录制的会话："},
        {"Open", "打开"},
        {"Compare", "对比"},
        {"Save", "保存"},
        {"Export", "导出"},
        {"Replace", "替换"},
        {"Keep it", "保留原文件"},
        {"Save the open session (with every point run here) as:",
         "把打开的会话（含在这里运行的所有数据点）保存为："},
        {"Export this chart as {0} (the same file softmaxlab-cli chart writes):",
         "把这张图导出为 {0}（与 softmaxlab-cli chart 写出的文件相同）："},
        {"Chart saved to {0}", "图表已保存到 {0}"},
        {"softmaxlab {0}: softmax from slow to speed-of-light",
         "softmaxlab {0}：softmax 从慢到光速"},
        {"Suggested folder: {0} (a new file name; nothing is replaced)",
         "建议的文件夹：{0}（使用新文件名，不会替换任何文件）"},
        {"Run cancelled; the finished points are kept.", "运行已取消；已完成的数据点会保留。"},
        {"Run failed: {0}", "运行失败：{0}"},
        // The Run request's own checks (model/run_job.cpp, validate_request)
        {"no kernel chosen", "没有选择 kernel"},
        {"tick at least one kernel in the Run panel", "请在运行面板中至少勾选一个 kernel"},
        {"unknown kernel '{0}'", "未知的 kernel '{0}'"},
        {"known kernels: {0}", "已知的 kernel：{0}"},
        {"M and N must be >= 1 (got {0} x {1})", "M 和 N 必须 >= 1（现在是 {0} x {1}）"},
        {"M x N = {0} x {1} elements is too large", "M x N = {0} x {1} 个元素，太大了"},
        {"lower M or N", "请减小 M 或 N"},
        {"kernel '{0}' has no variant #{1}", "kernel '{0}' 没有 #{1} 号变体"},
        {"pick one of the variants the registry lists for it", "请从注册表为它列出的变体中选一个"},
        {"the sweep has no N values or no size", "扫描没有 N 值，或者没有尺寸"},
        {"set M x N to the size to keep", "请把 M x N 设为扫描中保持不变的尺寸"},
        // No GPU and no recorded session (app_session.cpp)
        {"Nothing to show: {0} and {1}", "没有可显示的内容：{0}，而且{1}"},
        {"no readable session in {0}", "{0} 中没有可读取的会话"},
        {"open a session with File > Open, or run on a machine with an NVIDIA GPU",
         "请用 文件 > 打开会话… 打开一个会话，或在有 NVIDIA GPU 的机器上运行"},
        {"Cannot compare: {0}", "无法对比：{0}"},
        {"the charts keep showing the open session", "图表继续显示打开的会话"},
        {"Cannot open session: {0}", "无法打开会话：{0}"},
        {"lessons: {0}", "课程：{0}"},
        // The file a reading error names (core/common/safe_file.cpp's `what`)
        {"session", "会话"},
        {"session file", "会话文件"},
        {"the previous session stays open", "之前的会话保持打开"},
        {"Cannot save session: {0}", "无法保存会话：{0}"},
        {"Saved {0} points to {1}", "已把 {0} 个数据点保存到 {1}"},
        // The code panel's hover line (model/code_view.cpp)
        {"{0}:{1} -> {2} instruction", "{0}:{1} -> {2} 条指令"},
        {"{0}:{1} -> {2} instructions", "{0}:{1} -> {2} 条指令"},
        {" ({0} inlined from calls)", "（其中 {0} 条由调用内联而来）"},
        {"; click: go to {0}", "；点击：跳到 {0}"},
        {", inlined at ", "，内联于 "},
        // best's path in the Run panel's tooltips (model/device_view.cpp, best_path_text): the
        // fragments of best::Config::describe(say); a pack is 16 bytes
        {"best: no path for N < 1", "best：N < 1 时没有路径"},
        {"best: {0} (on {1}, clusters)", "best：{0}（在 {1} 上，支持线程块集群）"},
        {"best: {0} (on {1}, no clusters)", "best：{0}（在 {1} 上，不支持线程块集群）"},
        {"group {0} lanes x {1} packs x {2} rows, {3} threads",
         "子 warp 分组：每行 {0} 个 lane x {1} 个包 x {2} 行，{3} 个线程"},
        {"cluster {0} x {1} threads x {2} packs", "线程块集群 {0} 个 x {1} 个线程 x {2} 个包"},
        {" + {0} in shared memory", "，另有 {0} 个在共享内存中"},
        {"two-pass cluster {0} x {1} threads", "两遍读取的线程块集群 {0} 个 x {1} 个线程"},
        {", L2 evict_last/first", "，L2 策略 evict_last/first"},
        {", pass 2 backwards", "，第 2 遍反向读取"},
        {"tile {0} lanes x {1} values, {2} rows, {3} threads",
         "分块：每行 {0} 个 lane x {1} 个值，{2} 行，{3} 个线程"},
        {", rows {0} apart", "，相邻行间隔 {0}"},
        {"held grid {0} blocks x {1} threads x {2} packs",
         "驻留网格 {0} 个 block x {1} 个线程 x {2} 个包"},
        {", {0} teams", "，{0} 组"},
        {", the rest read twice", "，其余部分读两遍"},
        {", {0} prefetched into L2", "，{0} 个预取到 L2"},
        {", {0} rows a team", "，每组 {0} 行"},
        {"grid {0} blocks x {1} threads x {2} packs, lag {3}, {4} row ahead",
         "网格 {0} 个 block x {1} 个线程 x {2} 个包，滞后 {3} 行，预读 {4} 行"},
        {"grid {0} blocks x {1} threads x {2} packs, lag {3}, {4} rows ahead",
         "网格 {0} 个 block x {1} 个线程 x {2} 个包，滞后 {3} 行，预读 {4} 行"},
        {", edge warp", "，带边缘 warp"},
        {", no edge warp", "，无边缘 warp"},
        {"unknown path: {0}", "未知路径：{0}"},
        // Phrases inside the core's sentences (common/message.h): a kernel's range limit
        // (kernels/registry.cpp, limit_reason), and the words that stand for a value.
        {"none", "无"},
        {"first", "第一个"},
        {"second", "第二个"},
        {"unknown device", "未知设备"},
        {"any", "任意"},
        {"no limit: every launch streams the row from global memory",
         "没有上限：每次启动都从全局内存流式读取整行"},
        {"BLOCK = next_pow2(N) floats live in the registers of 256 threads; 16384 is 64 per "
         "thread; 32768 would take more registers than a thread may have and leave one program "
         "per SM (the Triton tutorial also stops at 16384 floats)",
         "BLOCK = next_pow2(N) 个 float 存放在 256 个线程的寄存器中；16384 即每个线程 64 个；"
         "32768 需要的寄存器超过单个线程的上限，而且每个 SM 只能驻留一个程序（Triton 教程同样"
         "止于 16384 个 float）"},
        {"the row must fit in one warp's registers: 32 lanes x 32 floats",
         "整行必须放得进一个 warp 的寄存器：32 个 lane x 32 个 float"},
        {"the row must fit in one 512-thread block's registers: 512 threads x 32 floats (at most "
         "128 registers per thread at this block size)",
         "整行必须放得进一个 512 线程 block 的寄存器：512 个线程 x 32 个 float（这种 block "
         "大小下每个线程最多 128 个寄存器）"},
        {"the whole row must fit in one block's opt-in shared memory, minus the reduction "
         "scratch",
         "整行必须放得进一个 block 可申请（opt-in）的共享内存，还要减去归约用的临时空间"},
        {"no limit: the row is streamed twice and never held on chip",
         "没有上限：整行流式读取两遍，从不驻留在片上"},
        {"no limit: the row is streamed tile by tile and never held on chip",
         "没有上限：整行一块一块地流式读取，从不驻留在片上"},
        {"no limit: rows too long for the whole GPU's registers and shared memory take the "
         "two-pass path",
         "没有上限：整块 GPU 的寄存器和共享内存都放不下的长行走两遍读取的路径（two-pass）"},
    };
    return t;
}

// The core's sentences (common/message.h) in Chinese, keyed by id; {0}, {1}, ... are the parts
// in the English order. tests/test_viewmodel_zh.cpp fails when an id has none.
const std::map<Msg, std::string>& message_table() {
    static const std::map<Msg, std::string> t = {
        // Why hardware counters are missing: {0} is CUPTI's result, {1} the call
        {Msg::counters_admin_only,
         "硬件计数器仅限管理员使用（{1} 返回 {0}）：加载 NVIDIA 驱动时设置 "
         "NVreg_RestrictProfilingToAdminUsers=0，或以 root 身份运行"},
        {Msg::counters_other_profiler,
         "已有另一个分析器（ncu、nsys、compute-sanitizer、cuda-gdb）附加在进程上（{1} 返回 "
         "{0}）；不带它运行才能采集计数器"},
        {Msg::counters_vgpu,
         "这是没有性能分析权限的虚拟 GPU（vGPU）（{1} 返回 {0}）：请在 vGPU 设置中为这台虚拟机"
         "开启性能分析，或在物理机上运行"},
        {Msg::counters_mig,
         "这块 GPU 是 MIG 实例，读不到它的计数器（{1} 返回 {0}）：请在关闭 MIG 的 GPU 上运行"},
        {Msg::counters_confidential,
         "机密计算已开启，计数器被隐藏（{1} 返回 {0}）：请在未开启机密计算的 GPU 上运行"},
        {Msg::counters_unsupported_setup,
         "这个设备或环境不支持 CUPTI 的范围分析器（{1} 返回 {0}）：计数器需要图灵架构或更新的 "
         "GPU，并运行在物理机的 Linux 或 Windows 上"},
        {Msg::counters_cupti_too_old,
         "CUPTI 库对这块 GPU 或驱动来说太旧（{1} 返回 {0}）：请用不比驱动旧的 CUDA "
         "工具包（12.6+）重新构建"},
        {Msg::counters_old_api,
         "本进程中已启用旧版 CUPTI 性能分析 API（{1} 返回 {0}）；请单独运行 softmaxlab"},
        {Msg::counters_busy,
         "计数器正被另一个进程占用，例如 DCGM 性能分析（{1} 返回 {0}）：请暂停它（dcgmi profile "
         "--pause），或在空闲的 GPU 上运行"},
        {Msg::counters_unknown_metric,
         "这块 GPU 不认识某个指标名（{1} 返回 {0}）：请对照这款芯片检查 "
         "core/metrics/metric_table.cpp"},
        {Msg::counters_other_error,
         "硬件计数器不可用（{1} 返回 {0}）：请重新运行；如果一直如此，请运行 `softmaxlab-cli "
         "device` 并报告输出"},
        {Msg::counters_disabled_by_env,
         "硬件计数器已被 SML_DISABLE_CUPTI={0} 关闭；取消这个环境变量即可采集"},
        {Msg::counters_metrics_off, "指标采集已关闭（--metrics off）"},
        {Msg::counters_off_use_default,
         "硬件计数器已关闭（--metrics off）；请使用 --metrics default"},
        {Msg::counters_no_cupti,
         "硬件计数器不可用：softmaxlab 构建时没有 CUPTI（需要带 cupti_range_profiler.h 的 CUDA "
         "12.6+）；请用 -DSML_WITH_CUPTI=ON 重新构建"},
        {Msg::counters_nothing_to_profile, "没有可分析的内容：kernel 没有安排任何启动"},
        {Msg::counters_launch_failed,
         "计数器重放期间有一次 kernel 启动失败（{0}）：请修正启动；计时不受影响"},
        {Msg::counters_no_values, "分析器没有返回这个 kernel 区间的任何数值：请重新运行"},
        {Msg::counters_no_device,
         "没有 CUDA 设备，因此没有硬件计数器（{0}）：请在装有 NVIDIA GPU 和驱动的机器上运行"},
        {Msg::counters_no_devices_found, "0 个设备"},
        {Msg::counters_no_context, "无法为计数器打开 CUDA 上下文（{0}）：请用 nvidia-smi 检查驱动"},
        {Msg::counters_no_current_context, "当前线程没有 CUDA 上下文：请先调用 cudaSetDevice"},
        {Msg::counters_no_current_device, "无法读取当前的 CUDA 设备"},
        {Msg::counters_old_architecture,
         "这块 GPU 的架构没有范围分析器的计数器：计数器需要计算能力 7.5（图灵架构）或更新"},
        {Msg::counters_vgpu_not_enabled,
         "这是未开启性能分析的虚拟 GPU（vGPU）：请在 vGPU 设置中为这台虚拟机开启性能分析，"
         "或在物理机上运行"},
        {Msg::counters_confidential_on,
         "机密计算已开启，计数器被隐藏：请在未开启机密计算的 GPU 上运行"},
        {Msg::counters_sli, "已启用 SLI，分析器不支持：请关闭 SLI"},
        {Msg::counters_cmp, "挖矿专用处理器（CMP）没有分析器计数器"},
        {Msg::counters_wsl, "这种 WSL 环境不支持计数器：请使用更新的驱动或 Linux"},
        {Msg::counters_device_unsupported,
         "CUPTI 的范围分析器不支持这个设备或环境：计数器需要图灵架构或更新的 GPU，并运行在"
         "物理机的 Linux 或 Windows 上"},
        // Why two sessions cannot be compared
        {Msg::compare_no_points, "对比的会话（{0}）没有测量数据点"},
        {Msg::compare_no_points_hint, "请与 softmaxlab-cli sweep 录制的会话对比"},
        {Msg::compare_open_lacks_dtype, "打开的会话（{0}）没有 {1} 数据点（它有：{2}）"},
        {Msg::compare_open_lacks_dtype_hint, "请选择这个会话含有的数据类型"},
        {Msg::compare_other_lacks_dtype,
         "对比的会话（{0}）没有 {1} 数据点（它有：{2}）：只有数据类型相同的会话才能对比"},
        {Msg::compare_other_lacks_dtype_hint,
         "请与以 {0} 录制的会话对比，或选择两个会话都有的数据类型（--dtype）"},
        {Msg::compare_no_shared_cols, "两个会话在 {0} 下没有共同的 N：{1} 有 {2}，{3} 有 {4}"},
        {Msg::compare_no_shared_cols_hint,
         "请在相同的 N 上录制第二个会话（softmaxlab-cli sweep --cols ...）"},
        {Msg::cols_one, "N = {0}"},
        {Msg::cols_range, "N = {0}..{1}（{2} 个值）"},
        // Why a kernel cannot run a problem
        {Msg::device_label, "{0}（计算能力 {1}.{2}）"},
        {Msg::problem_bad_size, "尺寸 {0} x {1} 无效：行数和列数都必须 >= 1"},
        {Msg::problem_bad_size_hint, "请给出至少一行一列的问题"},
        {Msg::problem_bad_stride, "行跨度（输入 {0}，输出 {1}）小于列数 cols = {2}"},
        {Msg::problem_bad_stride_hint, "跨度以元素为单位，必须 >= 列数"},
        {Msg::problem_no_code, "这个 softmaxlab 构建不含能在 {0} 上运行的 kernel 代码"},
        {Msg::problem_no_code_hint,
         "请为这块 GPU 重新构建：scripts/build.sh 会自动检测，或向 cmake 传入 "
         "-DCMAKE_CUDA_ARCHITECTURES={0}"},
        {Msg::problem_old_gpu, "{0} 需要计算能力 {1}.{2} 或更新；{3} 太旧"},
        {Msg::problem_old_gpu_why, "{0} 需要计算能力 {1}.{2} 或更新；{3} 太旧（{4}）"},
        {Msg::problem_old_gpu_hint, "能在这里运行的 kernel：{0}"},
        {Msg::problem_dtype, "{0} 不支持 {1}"},
        {Msg::problem_dtype_hint, "支持它的 kernel：{0}"},
        {Msg::problem_range, "N = {0} 超出 {1} 在 {4} 上的范围 {2}..{3}（{5}）"},
        {Msg::problem_range_hint, "能运行 N = {0} 的 kernel：{1}"},
        // A chart's notes on missing counters
        {Msg::chart_counters_missing, "{0} 的计数器不可用"},
        {Msg::chart_counters_missing_why, "{0} 的计数器不可用：{1}"},
        {Msg::chart_predicted_only, "计数器不可用：只显示预测的字节数"},
        {Msg::chart_predicted_only_why, "计数器不可用：只显示预测的字节数（{0}）"},
        // Why a file cannot be read: {0} the file's noun (a phrase), {1} its path
        {Msg::file_no_path, "没有给出{0}（路径为空）"},
        {Msg::file_pass_path_hint, "请传入文件路径"},
        {Msg::file_cannot_open, "无法打开{0} {1}：{2}"},
        {Msg::file_cannot_read, "无法读取{0} {1}：{2}"},
        {Msg::file_check_path_hint, "请检查路径，并确认文件可读"},
        {Msg::file_is_directory, "{0} 是文件夹，不是{1}"},
        {Msg::file_is_directory_hint, "请传入其中某个文件的路径"},
        {Msg::file_not_regular, "{0} 是{1}，不是{2}"},
        {Msg::file_not_regular_hint,
         "softmaxlab 只读取普通文件（FIFO 或设备可能让读取阻塞或永不结束）；请传入文件路径"},
        {Msg::file_kind_fifo, "FIFO（命名管道）"},
        {Msg::file_kind_char_device, "字符设备"},
        {Msg::file_kind_block_device, "块设备"},
        {Msg::file_kind_socket, "套接字"},
        {Msg::file_kind_symlink, "符号链接"},
        {Msg::file_kind_other, "非普通文件"},
        {Msg::file_too_large, "{0} {1} 大小为 {2}，超过 softmaxlab 能读取的 {3}"},
        {Msg::file_grew_too_large, "{0} {1} 超过 softmaxlab 能读取的 {2}"},
        {Msg::file_too_large_hint, "softmaxlab 最多读取 {1} 的{0}；这是正确的文件吗？"},
        {Msg::file_out_of_memory, "读取{0} {1}（{2}）时内存不足"},
        {Msg::file_out_of_memory_hint, "请关闭其他程序，或使用更小的文件"},
        {Msg::size_bytes, "{0} 字节"},
        {Msg::os_no_such_file, "没有那个文件或目录"},
        {Msg::os_permission_denied, "权限不够"},
        {Msg::os_not_a_directory, "不是目录"},
        {Msg::os_too_many_links, "符号链接的层数过多"},
        {Msg::os_name_too_long, "文件名过长"},
        {Msg::os_io_error, "输入/输出错误"},
        // Why a session file cannot be opened: {0} the file, {1} the JSON path
        {Msg::session_in_file, "{0}：{1}"},
        {Msg::session_at_path, "{0}：{1}：{2}"},
        {Msg::session_rerecord_hint,
         "用 `softmaxlab-cli sweep --out <文件>.json` 重新录制，或打开 assets/sessions/ "
         "里录制好的会话"},
        {Msg::session_check_path_hint, "请检查路径；录制好的会话在 assets/sessions/ 里"},
        {Msg::session_pass_json_hint,
         "请传入会话的 .json 文件；录制好的会话在 assets/sessions/ 里"},
        {Msg::session_out_of_memory_hint, "请关闭其他程序，或使用更小的会话"},
        {Msg::session_empty, "空文件，不是 softmaxlab 会话"},
        {Msg::session_truncated, "文件被截断：JSON 在 {0} 字节后意外结束"},
        {Msg::session_line_column, "第 {0} 行第 {1} 列（第 {2} 字节）"},
        {Msg::session_bare_non_finite, "{1}处的 {0} 不是合法的 JSON：JSON 没有 NaN 或无穷大"},
        {Msg::session_bare_non_finite_hint,
         "请像 softmaxlab 那样写成字符串：\"nan\"、\"inf\" 或 \"-inf\"（带引号）；在 Python "
         "中，写文件时用 json.dump(..., allow_nan=False) 就能发现这个问题"},
        {Msg::session_not_json, "{0}处不是合法的 JSON"},
        {Msg::session_parse_out_of_memory, "解析时内存不足（{0} 字节）"},
        {Msg::session_unparsable, "无法解析：{0}"},
        {Msg::session_read_out_of_memory, "读取会话时内存不足"},
        {Msg::session_unexpected_content, "意外的内容：{0}"},
        {Msg::session_load_out_of_memory, "读取会话 {0} 时内存不足"},
        {Msg::session_not_an_object, "不是 softmaxlab 会话（顶层不是 JSON 对象）"},
        {Msg::session_no_schema, "不是 softmaxlab 会话（没有整数类型的 \"schema_version\" 字段）"},
        {Msg::session_schema_unsupported,
         "会话格式版本 {0} 不受支持（这个 softmaxlab 读取的是版本 {1}）"},
        {Msg::session_schema_newer_hint,
         "请用写出它的较新版 softmaxlab 打开，或用这个版本重新录制（softmaxlab-cli sweep --out "
         "<文件>.json）"},
        {Msg::session_schema_older_hint,
         "请用这个 softmaxlab 重新录制（softmaxlab-cli sweep --out <文件>.json）"},
        {Msg::session_missing_field, "缺少字段"},
        {Msg::session_expected, "应为{0}"},
        {Msg::session_mistyped, "应为{0}，实际是{1}"},
        {Msg::session_integer_out_of_range, "整数 {0} 超出范围"},
        {Msg::session_dim_out_of_range, "{0} = {1} 超出 1..2^40（{2}）"},
        {Msg::session_unknown_kernel, "未知的 kernel '{0}'（这个 softmaxlab 有 {1}）"},
        {Msg::session_unknown_variant, "kernel {0} 没有变体 '{1}'（它的变体：\"\"、{2}）"},
        {Msg::session_unknown_variant_default_only,
         "kernel {0} 没有变体 '{1}'（它只有默认变体 \"\"）"},
        {Msg::session_unknown_dtype, "未知的数据类型 '{0}'（fp32、fp16 或 bf16）"},
        {Msg::session_repeated_point,
         "与 points[{0}] 重复（{1}，{2}，{3} x {4}）：每个 kernel、变体、数据类型和尺寸只能出现"
         "一次"},
        // A JSON value's kind
        {Msg::json_an_object, "对象"},
        {Msg::json_an_array, "数组"},
        {Msg::json_a_string, "字符串"},
        {Msg::json_true_or_false, "true 或 false"},
        {Msg::json_an_integer, "整数"},
        {Msg::json_a_number_or_non_finite, "数字（或 \"nan\"、\"inf\"、\"-inf\"）"},
        {Msg::json_three_integers, "由 3 个整数组成的数组"},
        {Msg::json_metric_object, "指标名 -> 数字的对象"},
        {Msg::json_dram_object, "含 dram_read_bytes 和 dram_write_bytes 的对象"},
        {Msg::json_null, "null"},
        {Msg::json_a_boolean, "布尔值"},
        {Msg::json_a_number, "数字"},
    };
    return t;
}

// The lab core's sentences (core/lab/): the English with {} where it carries a part, the Chinese
// with {0}, {1}, ... where that part goes. Tried in order, so longer forms come first.
const std::vector<std::pair<std::string, std::string>>& lab_patterns() {
    static const std::vector<std::pair<std::string, std::string>> p = {
        // A run (lab_run_gpu.cpp, lab_child.cpp, child_process.cpp)
        {"correct; {} GB/s, {}% of copy", "正确；{0} GB/s，拷贝带宽的 {1}%"},
        {"max relative error {} (tolerance {})", "最大相对误差 {0}（容差 {1}）"},
        {"the edited kernel faulted ({}) in its {} launch",
         "修改后的 kernel 在 {1} 启动中出错（{0}）"},
        {"the edited {} kernel did not finish within {} s, so its run was stopped (an endless "
         "loop?)",
         "修改后的 {0} kernel 在 {1} 秒内没有结束，运行已被停止（是死循环吗？）"},
        {"the run of the edited {} kernel {} without a result",
         "修改后的 {0} kernel 运行时{1}，没有结果"},
        {"the run of the edited {} kernel {}", "修改后的 {0} kernel 运行时{1}"},
        {"the lab runner {}", "实验台运行器{0}"},
        {"exited with status {}", "以状态 {0} 退出"},
        {"killed by signal {} ({})", "被信号 {0} 终止（{1}）"},
        {"stopped after {} s (the time limit)", "在 {0} 秒后被停止（时间上限）"},
        {"could not be started: {}", "无法启动：{0}"},
        {"check every loop's exit condition; CUDA cannot say where a stopped kernel was, so look "
         "at the loops you changed. Your edit is saved.",
         "检查每个循环的退出条件；CUDA 无法指出被停止的 kernel 停在哪里，所以请查看你改过的循环。"
         "你的修改已保存。"},
        {"this is a crash of the runner, not a wrong result; its last output: {} Your edit is "
         "saved.",
         "这是运行器崩溃，不是结果错误；它最后的输出：{0} 你的修改已保存。"},
        {"its last output: {}", "它最后的输出：{0}"},
        {"build softmaxlab-cli (it runs lab jobs), or set SML_CLI to its path",
         "请构建 softmaxlab-cli（实验台的任务由它运行），或把 SML_CLI 设为它的路径"},
        {"CUDA names the launch, not the line; the lab asks compute-sanitizer for the line when "
         "it can. Your edit is saved.",
         "CUDA 只指出是哪次启动出错，不指出哪一行；实验台能用 compute-sanitizer "
         "时会用它找出那一行。"
         "你的修改已保存。"},
        {"could not create a folder for the job's files", "无法为任务的文件创建文件夹"},
        {"an @launch line is not valid", "有一行 @launch 无效"},
        {"the GPU could not be opened: {}", "无法打开 GPU：{0}"},
        // A compile (compile_job_nvrtc.cpp, compile_nocuda.cpp)
        {"the edit compiles for {}; running it needs an NVIDIA GPU",
         "修改后的代码可以为 {0} 编译；运行它需要 NVIDIA GPU"},
        {"compiled for {}", "已为 {0} 编译"},
        {"the edit does not compile", "修改后的代码编译不通过"},
        {"this softmaxlab was built without the CUDA toolkit, so it cannot compile kernels",
         "这个 softmaxlab 构建时没有 CUDA 工具包，所以不能编译 kernel"},
        // An exercise's check (exercises.cpp)
        {"passed: correct on every shape, and fast enough", "通过：每种形状都正确，速度也达标"},
        {"does not compile yet: fix the errors at their lines", "还不能编译：请在报错的行修正错误"},
        {"compiles; the check needs a GPU to run it", "编译通过；检查需要 GPU 才能运行"},
        {"not yet: {}", "尚未通过：{0}"},
        {"speed at {}: {} of copy (needs {})", "{0} 下的速度：拷贝带宽的 {1}（需要 {2}）"},
        {"{} x {}: correct", "{0} x {1}：正确"},
        {"{} x {}: {}: {}", "{0} x {1}：{2}：{3}"},
    };
    return p;
}

const std::map<std::string, std::string>& lab_statuses() {
    static const std::map<std::string, std::string> t = {
        {"ok", "正确"},
        {"wrong", "结果错误"},
        {"compile_error", "编译错误"},
        {"bad_job", "任务无效"},
        {"launch_error", "启动失败"},
        {"fault", "kernel 出错"},
        {"timeout", "超时"},
        {"out_of_memory", "显存不足"},
        {"no_gpu", "没有 GPU"},
        {"crashed", "运行器崩溃"},
        {"failed", "失败"},
    };
    return t;
}

// `text` against `pattern` ("{}" for a part): the parts, or false when it does not match. A part
// ends at the first place the text after it matches; the last literal must end the text.
bool match_pattern(const std::string& pattern, const std::string& text,
                   std::vector<std::string>* parts) {
    std::vector<std::string> lits;
    size_t from = 0;
    for (size_t at; (at = pattern.find("{}", from)) != std::string::npos; from = at + 2)
        lits.push_back(pattern.substr(from, at - from));
    lits.push_back(pattern.substr(from));
    if (text.compare(0, lits[0].size(), lits[0]) != 0) return false;
    size_t pos = lits[0].size();
    parts->clear();
    for (size_t i = 1; i < lits.size(); ++i) {
        const bool last = i + 1 == lits.size();
        size_t at;
        if (last) {
            if (lits[i].size() > text.size() - pos) return false;
            at = text.size() - lits[i].size();
            if (text.compare(at, lits[i].size(), lits[i]) != 0) return false;
        } else {
            at = lits[i].empty() ? std::string::npos : text.find(lits[i], pos + 1);
            if (at == std::string::npos) return false;
        }
        if (at <= pos && !(last && at == pos)) return false;  // every part has text
        parts->push_back(text.substr(pos, at - pos));
        pos = at + lits[i].size();
    }
    return pos == text.size();
}

std::string lab_text_depth(const std::string& en, int depth) {
    if (depth > 3) return en;
    if (auto s = lab_statuses().find(en); s != lab_statuses().end()) return s->second;
    std::vector<std::string> parts;
    for (const auto& [pattern, zh] : lab_patterns()) {
        if (!match_pattern(pattern, en, &parts)) continue;
        return fill_slots(zh, parts.size(),
                          [&](size_t k) { return lab_text_depth(parts[k], depth + 1); });
    }
    return en;
}

// Why a point's DRAM bytes may fall below the formula (core/plan/traffic.cpp), as sessions
// record it: "{}" the tensor's and the L2's sizes.
const std::pair<const char*, const char*> kL2Reasons[] = {
    {"the {} M x N tensor fits in the {} L2, so intermediates and re-reads never reach DRAM: "
     "measured DRAM bytes fall below the formula",
     "{0} 的 M x N 张量放得进 {1} 的 L2，中间结果和重复读取都到不了显存：实测的显存"
     "字节数低于公式"},
    {"the {} M x N tensor is close to the {} L2: part of what one pass writes is still cached "
     "when the next reads it, so measured DRAM bytes can fall somewhat below the formula",
     "{0} 的 M x N 张量接近 {1} 的 L2：一遍写下的数据有一部分在下一遍读取时还在缓存里，所以"
     "实测的显存字节数可能略低于公式"},
    {"the {} M x N tensor is larger than the {} L2, so every pass goes to DRAM: measured DRAM "
     "bytes should match the formula",
     "{0} 的 M x N 张量大于 {1} 的 L2，每一遍都要访问显存：实测的显存字节数应与公式一致"},
};

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
        {"range end", "范围终点"},
    };
    return t;
}

const std::pair<const char*, const char*> kPrefixes[] = {
    {"device-to-device copy, same run: ", "设备内拷贝（同次运行）："},
    {"datasheet peak: ", "数据手册峰值："},
    {"bandwidth, GB/s", "带宽，GB/s"},
    {"counters unavailable", "计数器不可用"},
};

// Label endings that follow a session's name (a comparison's legend, core/chart/chart_build.cpp).
const std::pair<const char*, const char*> kSuffixes[] = {
    {": solid lines, filled markers", "：实线、实心标记"},
    {": dashed lines, hollow markers", "：虚线、空心标记"},
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

std::string lab_status_text(const std::string& status, const std::string& lang) {
    if (lang != "zh") return status;
    auto it = lab_statuses().find(status);
    return it == lab_statuses().end() ? status : it->second;
}

std::string lab_text(const std::string& en, const std::string& lang) {
    return lang == "zh" ? lab_text_depth(en, 0) : en;
}

const char* ui_text(const char* en, const std::string& lang) {
    if (lang != "zh" || !en) return en;
    auto it = table().find(en);
    return it == table().end() ? en : it->second.c_str();
}

std::string ui_format(const char* en, const std::string& lang,
                      const std::vector<std::string>& parts) {
    return fill_slots(ui_text(en, lang), parts);
}

const char* message_template_zh(Msg id) {
    auto it = message_table().find(id);
    return it == message_table().end() ? nullptr : it->second.c_str();
}

std::string message_text(const Message& m, const std::string& lang) {
    if (lang != "zh") return message_en(m);
    return render_message(
        m,
        [](Msg id) {
            const char* zh = message_template_zh(id);
            return zh ? zh : message_template_en(id);
        },
        [&](const std::string& en) { return std::string(ui_text(en.c_str(), lang)); });
}

Error error_text(const Error& en, const std::optional<MessageError>& said,
                 const std::string& lang) {
    if (!said) return en;
    return Error{message_text(said->what, lang), message_text(said->hint, lang)};
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
    for (const auto& [en, zh] : kSuffixes) all += zh;
    for (const auto& [en, zh] : lab_patterns()) all += zh;
    for (const auto& [en, zh] : lab_statuses()) all += zh;
    for (const auto& [en, zh] : kL2Reasons) all += zh;
    for (const auto& [id, zh] : message_table()) all += zh;
    return all;
}

std::string l2_reason_text(const std::string& en, const std::string& lang) {
    if (lang != "zh") return en;
    std::vector<std::string> parts;
    for (const auto& [pattern, zh] : kL2Reasons)
        if (match_pattern(pattern, en, &parts)) return fill_slots(zh, parts);
    return en;
}

std::string chart_text(const std::string& en, const std::string& lang) {
    if (lang != "zh") return en;
    if (std::string l2 = l2_reason_text(en, lang); l2 != en) return l2;
    if (auto it = chart_table().find(en); it != chart_table().end()) return it->second;
    for (const auto& [from, to] : kPrefixes)
        if (en.rfind(from, 0) == 0) return to + en.substr(std::strlen(from));
    for (const auto& [from, to] : kSuffixes) {
        const size_t n = std::strlen(from);
        if (en.size() >= n && en.compare(en.size() - n, n, from) == 0)
            return en.substr(0, en.size() - n) + to;
    }
    return en;
}

void translate_layout(chart::ChartLayout* layout, const std::string& lang) {
    if (lang != "zh" || !layout) return;
    for (chart::DrawOp& op : layout->ops)
        if (op.kind == chart::OpKind::text) op.text = chart_text(op.text, lang);
    for (chart::LegendEntry& e : layout->legend.entries) e.label = chart_text(e.label, lang);
}

namespace {
// A chart's note or a point's: a sentence of the core's through its id, words the chart builder
// wrote as they are (titles, the L2 reason) through the chart table.
std::string chart_note_text(const Message& note, const std::string& lang) {
    return note.is_sentence() ? message_text(note, lang) : chart_text(message_en(note), lang);
}
}  // namespace

void translate_chart(chart::Chart* c, const std::string& lang) {
    if (lang != "zh" || !c) return;
    c->title = chart_text(c->title, lang);
    for (chart::Panel& p : c->panels) {
        p.title = chart_text(p.title, lang);
        p.x.label = chart_text(p.x.label, lang);
        p.y.label = chart_text(p.y.label, lang);
        for (Message& n : p.notes) n = chart_note_text(n, lang);
        for (chart::Series& s : p.series) {
            for (chart::Point& pt : s.points)
                if (!pt.note.empty()) pt.note = chart_note_text(pt.note, lang);
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
