// softmaxlab: the viewer. See app.h; `softmaxlab --help` lists the options.
#include <cstdio>

#include "app/viewer/app.h"
#include "app/viewer/model/viewer_args.h"

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
    sml::viewer::App app(std::move(*args));
    return app.run();
}
