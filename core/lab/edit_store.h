// Every edit saved as the learner types, and restored on the next start (docs/lab.md).
//
// Edits live in a per-user data folder: $XDG_DATA_HOME/softmaxlab/edits, or
// ~/.local/share/softmaxlab/edits when XDG_DATA_HOME is unset (or $SML_EDITS_DIR, for tests and
// portable installs). One file per edit, named by its key ("warp.cu", "ex-warp-reduce.cu").
//
// A save never leaves a half-written file: it writes a fresh temp file in the same folder
// (O_CREAT | O_EXCL, so two writers never share one), fsyncs it, renames it over the edit and
// fsyncs the folder. A crash at any point leaves either the old edit or the new one, whole.
// (These are this module's own helpers; the project-wide ones in core/common can replace them.)
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/result.h"

namespace sml::lab {

// The folder, from the environment as above. Does not create it.
std::string default_edits_dir();

// Writes `bytes` to `path` atomically (see above). Never creates a folder: a missing one is an
// error, as for every other file softmaxlab writes (EditStore::save makes its own folder).
Status write_file_atomically(const std::string& path, const std::string& bytes);

// Reads a whole file, refusing anything over `max_bytes` (an edit is a kernel file, not data).
Result<std::string> read_file_capped(const std::string& path, size_t max_bytes);

class EditStore {
  public:
    explicit EditStore(std::string dir = default_edits_dir());
    const std::string& dir() const { return dir_; }

    // Keys are file-name safe: letters, digits, '-', '_' and '.', 1..100 characters.
    static bool valid_key(const std::string& key);
    std::string path_for(const std::string& key) const;  // <dir>/<key>.cu

    Status save(const std::string& key, const std::string& text);
    // The saved edit, or nullopt when there is none. An unreadable file is an Error.
    Result<std::optional<std::string>> load(const std::string& key) const;
    Status remove(const std::string& key);
    // Keys with a saved edit, sorted. Temp files of interrupted saves are not edits.
    std::vector<std::string> keys() const;

    static constexpr size_t kMaxEditBytes = 4 << 20;

  private:
    std::string dir_;
};

namespace testing_hooks {
// Called after the temp file is written and synced, before the rename (tests simulate a crash
// there). Null in normal runs.
extern void (*before_rename)(const std::string& temp_path);
}  // namespace testing_hooks

}  // namespace sml::lab
