// The key table. See key_bindings.h.
#include "app/viewer/model/key_bindings.h"

namespace sml::viewer {

const std::vector<KeyBinding>& key_bindings() {
    static const std::vector<KeyBinding> k = {
        {Action::prev_step, "Left", "previous lesson step", "上一步"},
        {Action::next_step, "Right", "next lesson step", "下一步"},
        {Action::focus_guess, "G", "type a guess (predict mode)", "输入猜测（预测模式）"},
        {Action::reveal, "R", "reveal the step's numbers", "揭晓本步的数字"},
        {Action::toggle_predict, "P", "predict mode on / off (instructors)",
         "打开 / 关闭预测模式（讲师用）"},
        {Action::show_answer, "Q", "show / hide the check question's answer",
         "显示 / 隐藏自测题答案"},
        {Action::set_up, "U", "set up the step's experiment in the Run panel",
         "在运行面板中设置本步的实验"},
        {Action::chart_next_kind, "C", "next chart type", "下一种图表"},
        {Action::chart_prev_kind, "Shift+C", "previous chart type", "上一种图表"},
        {Action::chart_all, "A", "all kernels in the chart / the step's kernels",
         "图表显示全部 kernel / 本步的 kernel"},
        {Action::export_png, "E", "export the chart as PNG", "把图表导出为 PNG"},
        {Action::code_next_tab, "T", "code tab: CUDA, PTX, SASS", "代码标签：CUDA、PTX、SASS"},
        {Action::line_metric_next, "L", "per-line counters: next counter, then off",
         "逐行计数器：下一个计数器，然后关闭"},
        {Action::kernel_next, "K", "next kernel in the code panel", "代码面板的下一个 kernel"},
        {Action::kernel_prev, "Shift+K", "previous kernel in the code panel",
         "代码面板的上一个 kernel"},
        {Action::cols_next, "N", "next N in the table and charts", "表格和图表的下一个 N"},
        {Action::cols_prev, "Shift+N", "previous N", "上一个 N"},
        {Action::zoom_lessons, "1", "lessons fill the window (again: all panels)",
         "课程占满窗口（再按一次：全部面板）"},
        {Action::zoom_code, "2", "code fills the window", "代码占满窗口"},
        {Action::zoom_chart, "3", "chart fills the window", "图表占满窗口"},
        {Action::zoom_metrics, "4", "metrics fill the window", "指标占满窗口"},
        {Action::zoom_off, "0 / Esc", "all panels", "显示全部面板"},
        {Action::text_larger, "Ctrl +", "larger text (presenter mode)", "放大文字（演示模式）"},
        {Action::text_smaller, "Ctrl -", "smaller text", "缩小文字"},
        {Action::full_screen, "F11", "full screen", "全屏"},
        {Action::open_session, "Ctrl+O", "open a session", "打开会话"},
        {Action::save_session, "Ctrl+S", "save the session", "保存会话"},
        {Action::help, "F1 / H", "keys and about", "快捷键与关于"},
        {Action::quit, "Ctrl+Q", "quit", "退出"},
    };
    return k;
}

const KeyBinding& binding_of(Action a) {
    for (const KeyBinding& b : key_bindings())
        if (b.action == a) return b;
    return key_bindings().front();
}

}  // namespace sml::viewer
