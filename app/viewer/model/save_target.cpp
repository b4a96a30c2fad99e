// Save and export targets. See save_target.h.
#include "app/viewer/model/save_target.h"

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>

#include "core/common/safe_file.h"
#include "core/common/text_cap.h"

namespace sml::viewer {

std::string exports_dir() {
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::string(home) + "/softmaxlab-exports";
    return ".";
}

std::string suggest_export_path(const std::string& stem, const std::string& ext) {
    return fresh_path(exports_dir(), stem, ext);
}

WriteCheck check_before_write(const std::string& path, const std::vector<std::string>& inputs) {
    using Kind = WriteCheck::Kind;
    if (path.empty()) return {Kind::refuse, "Type a file name first."};
    for (const std::string& in : inputs)
        if (same_file(path, in))
            return {Kind::refuse, quote_short(path) +
                                      " is the session that is open: save it under another "
                                      "name, so the original stays as it was recorded."};
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        struct stat link {};
        if (::lstat(path.c_str(), &link) == 0)  // a dangling symlink: writing replaces the link
            return {Kind::confirm_replace,
                    quote_short(path) + " already exists (a link to a missing file). Replace it?"};
        return {Kind::write, ""};
    }
    if (S_ISDIR(st.st_mode))
        return {Kind::refuse, quote_short(path) + " is a folder: add a file name to it."};
    if (!S_ISREG(st.st_mode))
        return {Kind::refuse, quote_short(path) + " is not a regular file: choose another name."};
    return {Kind::confirm_replace, quote_short(path) + " already exists. Replace it?"};
}

std::string prepare_folder_for(const std::string& path) {
    const std::string folder = std::filesystem::path(path).parent_path().string();
    if (folder.empty() || folder != exports_dir() || path_exists(folder)) return "";
    const Status made = make_folders(folder);
    return made ? "" : made.error().message;
}

}  // namespace sml::viewer
