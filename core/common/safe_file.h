// Reading and writing files without hanging, running out of memory or losing a file.
//
// Every file softmaxlab reads or writes goes through here (sessions, peers results, lessons,
// kernel sources, PTX, settings, chart and CSV exports, screenshots):
//
//   Reading   Only regular files. The file is opened with O_NONBLOCK, so a FIFO or a device
//             cannot block the open, then checked with fstat: directories, FIFOs, devices and
//             sockets are refused with a message that says what the path is. The size is capped
//             before anything is read, and running out of memory is reported, not a crash.
//   Writing   Into a side file created fresh beside the target (O_CREAT | O_EXCL | O_NOFOLLOW,
//             a unique name "<name>.<random>.partial"), fsynced, then renamed over the target,
//             and the folder fsynced. Nothing but that side file is ever created or removed, so
//             a pre-existing file of any name (a "<name>.partial", a symlink planted where a
//             temporary file used to go) is never followed, replaced or deleted. A target that
//             exists and is not a regular file (a device, a FIFO, a folder) is refused.
//
// Errors name the path (shortened, see text_cap.h) and the reason, with a hint.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/message.h"
#include "common/result.h"

namespace sml {

// Size caps. A recorded session of 155 points is 0.6 MB, so 64 MiB holds a hundred times more
// than any real sweep, while parsing it stays within about a gigabyte of memory. Text files are
// the lessons, kernel sources and the build's PTX and SASS: best_softmax's SASS is 165 MB.
constexpr int64_t kMaxSessionFileBytes = int64_t(64) << 20;  // sessions, peers results
constexpr int64_t kMaxTextFileBytes = int64_t(512) << 20;    // lessons, sources, PTX, SASS
constexpr int64_t kMaxSettingsFileBytes = int64_t(1) << 20;  // settings.json, imgui.ini

// The whole of the regular file at `path`, at most `max_bytes` long. `what` names the file in
// messages ("session", "settings file"). Never blocks on a FIFO or device, never throws.
// On failure `said`, when given, gets the error as sentences (common/message.h, `what` as a
// phrase) whose English is the returned Error's, for the viewer to say in its language.
Result<std::string> read_file_capped(const std::string& path, int64_t max_bytes,
                                     const std::string& what,
                                     std::optional<MessageError>* said = nullptr);

// Replaces `path` with `bytes` atomically (see above). `what` names the file in messages.
Status write_file_atomic(const std::string& path, std::string_view bytes, const std::string& what);

// Fails when `path` could not be written later: its folder is missing or not writable, or it
// names a folder or another file that is not a regular file. Checked before a long run so a typo
// does not throw a sweep away. Probes with a fresh side file, which it removes; nothing else.
Status check_writable(const std::string& path, const std::string& what);

// True when `a` and `b` are the same file: the same device and inode when both exist (a symlink
// or hard link to the same file counts), else the same absolute path once "." and ".." and
// symlinked folders are resolved.
bool same_file(const std::string& a, const std::string& b);

// Refuses writing `output` (named by option `output_option`) when it is the same file as one of
// `inputs` (option name, path). Empty paths are ignored.
Status check_output_is_not_an_input(const std::string& output, const std::string& output_option,
                                    const std::vector<std::pair<std::string, std::string>>& inputs);

// True when something (a file, folder, symlink, even a dangling one) exists at `path`.
bool path_exists(const std::string& path);

// Moves the file at `path` aside, to "<path>.<tag>-1", "-2", ... whichever does not exist yet,
// without ever replacing another file (renameat2 RENAME_NOREPLACE, or link + unlink). Returns
// the new path. Used for a corrupt settings file: kept for the user, never overwritten.
Result<std::string> set_aside(const std::string& path, const std::string& tag);

// `folder`/`stem``ext` if no such file exists, else `folder`/`stem`-2`ext`, -3, ... (up to 999,
// then a time-stamped name). The default name for a new export: never one already taken.
std::string fresh_path(const std::string& folder, const std::string& stem, const std::string& ext);

// Creates `folder` and its parents (mode 0777 & ~umask). Error names the folder.
Status make_folders(const std::string& folder);

}  // namespace sml
