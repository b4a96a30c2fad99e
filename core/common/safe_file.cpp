// Safe reads and atomic writes. See safe_file.h for the rules.
#include "core/common/safe_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <new>
#include <random>

#include "core/common/text_cap.h"

namespace sml {

namespace {

namespace fs = std::filesystem;

std::string os_error(int e) {
    return std::strerror(e);
}

// "1.5 MB", "64 MiB"-style sizes for messages, as a sentence part ("100 bytes" is one).
Message size_message(int64_t bytes) {
    char buf[64];
    if (bytes >= (int64_t(1) << 20) && bytes % (int64_t(1) << 20) == 0) {
        std::snprintf(buf, sizeof buf, "%lld MiB", static_cast<long long>(bytes >> 20));
    } else if (bytes >= 1000000) {
        std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / 1e6);
    } else {
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(bytes));
        return Message(Msg::size_bytes, {std::string(buf)});
    }
    return std::string(buf);
}

// The system's reason for errno `e` as a sentence part: a sentence id where the C library's
// words are exactly that id's English (so the English stays the library's), else its words.
Message os_error_message(int e) {
    const std::string said = os_error(e);
    for (Msg id : {Msg::os_no_such_file, Msg::os_permission_denied, Msg::os_not_a_directory,
                   Msg::os_too_many_links, Msg::os_name_too_long, Msg::os_io_error})
        if (said == message_template_en(id)) return Message(id);
    return said;
}

// What a non-regular file is, as a sentence part.
Message kind_message(mode_t mode) {
    if (S_ISFIFO(mode)) return Message(Msg::file_kind_fifo);
    if (S_ISCHR(mode)) return Message(Msg::file_kind_char_device);
    if (S_ISBLK(mode)) return Message(Msg::file_kind_block_device);
    if (S_ISSOCK(mode)) return Message(Msg::file_kind_socket);
    if (S_ISLNK(mode)) return Message(Msg::file_kind_symlink);
    return Message(Msg::file_kind_other);
}

// "session" -> "session file", "file" -> "file".
std::string file_noun(const std::string& what) {
    const std::string tail = "file";
    const bool ends = what.size() >= tail.size() &&
                      what.compare(what.size() - tail.size(), tail.size(), tail) == 0;
    return ends ? what : what + " file";
}

MessageError not_regular(const std::string& shown, mode_t mode, const std::string& what) {
    const Message noun = Message::phrase_of(file_noun(what));
    if (S_ISDIR(mode))
        return MessageError{{Msg::file_is_directory, {shown, noun}}, Msg::file_is_directory_hint};
    return MessageError{{Msg::file_not_regular, {shown, kind_message(mode), noun}},
                        Msg::file_not_regular_hint};
}

// Folder and file name of `path` ("a/b.json" -> "a", "b.json"; "b.json" -> ".", "b.json").
void split_path(const std::string& path, std::string* folder, std::string* name) {
    const size_t slash = path.find_last_of('/');
    if (slash == std::string::npos) {
        *folder = ".";
        *name = path;
    } else {
        *folder = slash == 0 ? "/" : path.substr(0, slash);
        *name = path.substr(slash + 1);
    }
}

std::string random_tag() {
    static thread_local std::mt19937_64 rng(
        std::random_device{}() ^ static_cast<uint64_t>(::getpid()) ^
        static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
    static const char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    std::string t(8, 'x');
    for (char& c : t) c = kChars[rng() % (sizeof kChars - 1)];
    return t;
}

// Creates a new, empty side file beside `name` in `folder` and returns its descriptor, or -1
// with errno set. O_EXCL with O_CREAT never opens an existing file and never follows a symlink;
// O_NOFOLLOW says the same for systems where that is not implied.
int create_side_file(const std::string& folder, const std::string& name, std::string* side) {
    // Keep the side file's name within NAME_MAX (255) however long the target's name is.
    const std::string stem = name.size() > 200 ? name.substr(0, 200) : name;
    for (int attempt = 0; attempt < 100; ++attempt) {
        *side = folder + "/" + stem + "." + random_tag() + ".partial";
        const int fd = ::open(
            side->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0666);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

bool write_all(int fd, std::string_view bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        done += static_cast<size_t>(n);
    }
    return true;
}

void fsync_folder(const std::string& folder) {
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;  // best effort: the file itself is already on disk
    (void)::fsync(fd);
    ::close(fd);
}

// Checks an output target: a regular file, a symlink (replaced itself, its target untouched)
// or nothing yet. Anything else (a device, a FIFO, a folder) is refused.
Status check_target(const std::string& path, const std::string& shown, const std::string& what) {
    if (path.empty())
        return Error{"no file name given for the " + what + " (the path is empty)",
                     "pass a file path"};
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return ok_status();
    if (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) return ok_status();
    if (S_ISDIR(st.st_mode))
        return Error{shown + " is a directory",
                     "give the name of a file in it, e.g. " + quote_short(path + "/out.json")};
    return Error{shown + " is " + message_en(kind_message(st.st_mode)) + ", not a regular file",
                 "softmaxlab writes only regular files; pass a file path"};
}

}  // namespace

namespace {
MessageError read_failure(Msg id, const Message& what, const std::string& shown, int e) {
    return MessageError{{id, {what, shown, os_error_message(e)}}, Msg::file_check_path_hint};
}
}  // namespace

Result<std::string> read_file_capped(const std::string& path, int64_t max_bytes,
                                     const std::string& what, std::optional<MessageError>* said) {
    // Each failure is said as sentences; the Error is their English.
    auto fail = [&](MessageError m) { return said_error(std::move(m), said); };
    if (said) said->reset();
    const std::string shown = quote_short(path);
    const Message noun = Message::phrase_of(what);
    if (path.empty()) return fail({{Msg::file_no_path, {noun}}, Msg::file_pass_path_hint});
    // stat before open: a device or FIFO is refused without being opened at all.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return fail(read_failure(Msg::file_cannot_open, noun, shown, errno));
    if (!S_ISREG(st.st_mode)) return fail(not_regular(shown, st.st_mode, what));
    // O_NONBLOCK: should the path be swapped for a FIFO between stat and open, open still
    // returns at once, and fstat below sees it.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return fail(read_failure(Msg::file_cannot_open, noun, shown, errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    if (::fstat(fd, &st) != 0) return fail(read_failure(Msg::file_cannot_read, noun, shown, errno));
    if (!S_ISREG(st.st_mode)) return fail(not_regular(shown, st.st_mode, what));
    const Message too_big_hint(Msg::file_too_large_hint, {noun, size_message(max_bytes)});
    if (st.st_size > max_bytes)
        return fail({{Msg::file_too_large,
                      {noun, shown, size_message(st.st_size), size_message(max_bytes)}},
                     too_big_hint});
    try {
        std::string data;
        data.reserve(static_cast<size_t>(st.st_size));
        char buf[1 << 16];
        for (;;) {
            const ssize_t n = ::read(fd, buf, sizeof buf);
            if (n < 0) {
                if (errno == EINTR) continue;
                return fail(read_failure(Msg::file_cannot_read, noun, shown, errno));
            }
            if (n == 0) break;
            // The size was checked, but a file can grow while it is read (or report size 0).
            if (static_cast<int64_t>(data.size()) + n > max_bytes)
                return fail({{Msg::file_grew_too_large, {noun, shown, size_message(max_bytes)}},
                             too_big_hint});
            data.append(buf, static_cast<size_t>(n));
        }
        return data;
    } catch (const std::bad_alloc&) {
        return fail({{Msg::file_out_of_memory, {noun, shown, size_message(st.st_size)}},
                     Msg::file_out_of_memory_hint});
    }
}

Status write_file_atomic(const std::string& path, std::string_view bytes, const std::string& what) {
    const std::string shown = quote_short(path);
    if (Status s = check_target(path, shown, what); !s) return s;
    std::string folder, name;
    split_path(path, &folder, &name);
    if (name.empty() || name == "." || name == "..")
        return Error{"cannot write " + what + " " + shown + ": it names a folder, not a file",
                     "give a file name"};
    std::string side;
    const int fd = create_side_file(folder, name, &side);
    if (fd < 0)
        return Error{"cannot write " + what + " " + shown + ": " + os_error(errno),
                     "check that the folder exists and is writable"};
    bool ok = write_all(fd, bytes);
    int error = ok ? 0 : errno;
    if (ok && ::fsync(fd) != 0) ok = false, error = errno;
    if (::close(fd) != 0 && ok) ok = false, error = errno;  // e.g. a full disk found at close
    if (!ok) {
        ::unlink(side.c_str());  // ours: created above with O_EXCL
        return Error{"writing " + what + " " + shown + " failed: " + os_error(error),
                     "check free disk space and permissions"};
    }
    if (::rename(side.c_str(), path.c_str()) != 0) {
        error = errno;
        ::unlink(side.c_str());
        return Error{"cannot replace " + what + " " + shown + ": " + os_error(error),
                     "check that the path is not a folder and is writable"};
    }
    fsync_folder(folder);
    return ok_status();
}

Status check_writable(const std::string& path, const std::string& what) {
    const std::string shown = what + " " + quote_short(path);
    if (Status s = check_target(path, shown, what); !s) return s;
    std::string folder, name;
    split_path(path, &folder, &name);
    if (name.empty() || name == "." || name == "..")
        return Error{shown + " names a folder, not a file", "give a file name"};
    std::string side;
    const int fd = create_side_file(folder, name, &side);
    if (fd < 0)
        return Error{shown + " is not writable: " + os_error(errno),
                     "choose a path in an existing, writable directory"};
    ::close(fd);
    ::unlink(side.c_str());  // the probe we just created, and nothing else
    return ok_status();
}

bool same_file(const std::string& a, const std::string& b) {
    if (a.empty() || b.empty()) return false;
    struct stat sa {};
    struct stat sb {};
    const bool has_a = ::stat(a.c_str(), &sa) == 0, has_b = ::stat(b.c_str(), &sb) == 0;
    if (has_a && has_b) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (has_a != has_b) return false;
    std::error_code ea, eb;
    const fs::path ca = fs::weakly_canonical(fs::absolute(a, ea), ea);
    const fs::path cb = fs::weakly_canonical(fs::absolute(b, eb), eb);
    return !ea && !eb && ca == cb;
}

Status check_output_is_not_an_input(
    const std::string& output, const std::string& output_option,
    const std::vector<std::pair<std::string, std::string>>& inputs) {
    for (const auto& [option, path] : inputs)
        if (same_file(output, path))
            return Error{output_option + " " + quote_short(output) + " is the same file as " +
                             option + " " + quote_short(path) + ": writing it would destroy it",
                         "choose a different " + output_option + " file"};
    return ok_status();
}

bool path_exists(const std::string& path) {
    struct stat st {};
    return !path.empty() && ::lstat(path.c_str(), &st) == 0;
}

Result<std::string> set_aside(const std::string& path, const std::string& tag) {
    for (int i = 1; i <= 1000; ++i) {
        const std::string dest = path + "." + tag + "-" + std::to_string(i);
        if (::renameat2(AT_FDCWD, path.c_str(), AT_FDCWD, dest.c_str(), RENAME_NOREPLACE) == 0)
            return dest;
        if (errno == EEXIST) continue;
        if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
            return Error{"cannot move " + quote_short(path) + " aside: " + os_error(errno),
                         "move or delete it yourself"};
        // The file system cannot rename without replacing: link (which never replaces) + unlink.
        if (::link(path.c_str(), dest.c_str()) == 0) {
            ::unlink(path.c_str());
            return dest;
        }
        if (errno == EEXIST) continue;
        return Error{"cannot move " + quote_short(path) + " aside: " + os_error(errno),
                     "move or delete it yourself"};
    }
    return Error{"cannot move " + quote_short(path) + " aside: 1000 older copies are in the way",
                 "delete the old " + quote_short(path) + "." + tag + "-* files"};
}

std::string fresh_path(const std::string& folder, const std::string& stem, const std::string& ext) {
    const std::string base = (folder.empty() ? std::string() : folder + "/") + stem;
    if (!path_exists(base + ext)) return base + ext;
    for (int i = 2; i < 1000; ++i) {
        const std::string p = base + "-" + std::to_string(i) + ext;
        if (!path_exists(p)) return p;
    }
    return base + "-" + random_tag() + ext;
}

Status make_folders(const std::string& folder) {
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec)
        return Error{"cannot create the folder " + quote_short(folder) + ": " + ec.message(),
                     "check the permissions of the folders above it"};
    return ok_status();
}

}  // namespace sml
