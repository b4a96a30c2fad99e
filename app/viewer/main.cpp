// softmaxlab: the viewer. See app.h; `softmaxlab --help` lists the options.
#include <cstdio>

#include "app/viewer/app.h"
#include "app/viewer/model/viewer_args.h"
#include "core/common/safe_file.h"

int main(int argc, char** argv) {
    std::string help;
    sml::Result<sml::viewer::ViewerArgs> args = sml::viewer::parse_viewer_args(argc, argv, &help);
    if (!args) {
        std::fprintf(stderr, "error: %s; %s\n", args.error().message.c_str(),
                     args.error().hint.c_str());
        return 2;
    }
    if (args->help) {
        std::fputs(help.c_str(), stdout);
        return 0;
    }
    // A screenshot that could not be saved is found out before the window opens.
    if (!args->screenshot.empty())
        if (sml::Status st = sml::check_writable(args->screenshot, "--screenshot"); !st) {
            std::fprintf(stderr, "error: %s; %s\n", st.error().message.c_str(),
                         st.error().hint.c_str());
            return 2;
        }
    sml::viewer::App app(std::move(*args));
    return app.run();
}
