// Where the viewer writes the files a user asks for (Export, Save session), and what it asks
// before it writes. No ImGui: the dialogs in app.cpp and panel_charts.cpp show what this says.
//
//   - Export and Save suggest a file in one named folder, exports_dir(), under a name no file
//     has yet, so accepting the suggestion never replaces anything.
//   - Any path the user types that already exists needs a second, explicit "Replace" click.
//   - The session file the viewer has open is never written over (a saved copy of it could
//     differ: strings longer than the cap are shortened when read).
#pragma once

#include <string>
#include <vector>

namespace sml::viewer {

// $HOME/softmaxlab-exports, or the current folder when HOME is not set. Created on first write.
std::string exports_dir();

// A path in exports_dir() that does not exist yet: "<stem><ext>", else "<stem>-2<ext>", ...
std::string suggest_export_path(const std::string& stem, const std::string& ext);

struct WriteCheck {
    enum class Kind {
        write,            // nothing there yet: write it
        confirm_replace,  // a file is there: ask "Replace it?" first
        refuse,           // never: an input, a folder or a device, or no name at all
    };
    Kind kind = Kind::write;
    std::string message;  // for confirm_replace and refuse, one sentence to show
};

// What to do before writing `path`. `inputs` are files that must never be written over (the
// open session).
WriteCheck check_before_write(const std::string& path, const std::vector<std::string>& inputs);

// Creates the folder `path` goes in when that is exports_dir() (the suggested folder may not
// exist yet); a folder the user typed must exist already. Error message on failure, else "".
std::string prepare_folder_for(const std::string& path);

}  // namespace sml::viewer
