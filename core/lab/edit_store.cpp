#include "core/lab/edit_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace sml::lab {

namespace testing_hooks {
void (*before_rename)(const std::string&) = nullptr;
}

namespace {

const char* const kExt = ".cu";

Error io_error(const std::string& what, const std::string& path, int err) {
    return Error{what + " " + path + ": " + std::strerror(err),
                 "check that the folder exists and is writable"};
}

bool write_all(int fd, const std::string& bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += size_t(n);
    }
    return true;
}

}  // namespace

std::string default_edits_dir() {
    if (const char* d = std::getenv("SML_EDITS_DIR"); d && *d) return d;
    if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x)
        return std::string(x) + "/softmaxlab/edits";
    const char* home = std::getenv("HOME");
    return std::string(home && *home ? home : ".") + "/.local/share/softmaxlab/edits";
}

Status write_file_atomically(const std::string& path, const std::string& bytes) {
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    static std::atomic<unsigned> counter{0};
    int fd = -1;
    std::string temp;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
        temp = (dir / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()) +
                       "-" + std::to_string(counter++)))
                   .string();
        fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0 && errno != EEXIST)
            return io_error("cannot create a temp file for", path, errno);
    }
    if (fd < 0) return io_error("cannot create a temp file for", path, EEXIST);
    if (!write_all(fd, bytes) || ::fsync(fd) != 0) {
        const int e = errno;
        ::close(fd);
        ::unlink(temp.c_str());
        return io_error("cannot write", path, e);
    }
    if (::close(fd) != 0) {
        const int e = errno;
        ::unlink(temp.c_str());
        return io_error("cannot write", path, e);
    }
    if (testing_hooks::before_rename) testing_hooks::before_rename(temp);
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const int e = errno;
        ::unlink(temp.c_str());
        return io_error("cannot replace", path, e);
    }
    // The rename is durable once the folder's entry is on disk.
    if (int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dfd >= 0) {
        (void)::fsync(dfd);
        ::close(dfd);
    }
    return ok_status();
}

Result<std::string> read_file_capped(const std::string& path, size_t max_bytes) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return io_error("cannot open", path, errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return Error{path + " is not a regular file", "pass a file"};
    }
    if (size_t(st.st_size) > max_bytes) {
        ::close(fd);
        return Error{path + " is " + std::to_string(st.st_size) + " bytes, more than the " +
                         std::to_string(max_bytes) + " allowed",
                     "is this the right file?"};
    }
    std::string out;
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int e = errno;
            ::close(fd);
            return io_error("cannot read", path, e);
        }
        if (n == 0) break;
        out.append(buf, size_t(n));
        if (out.size() > max_bytes) {
            ::close(fd);
            return Error{path + " grew past " + std::to_string(max_bytes) + " bytes while read",
                         "is this the right file?"};
        }
    }
    ::close(fd);
    return out;
}

EditStore::EditStore(std::string dir) : dir_(std::move(dir)) {}

bool EditStore::valid_key(const std::string& key) {
    if (key.empty() || key.size() > 100 || key[0] == '.') return false;
    return std::all_of(key.begin(), key.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '-' || c == '_' || c == '.';
    });
}

std::string EditStore::path_for(const std::string& key) const {
    return dir_ + "/" + key + kExt;
}

Status EditStore::save(const std::string& key, const std::string& text) {
    if (!valid_key(key))
        return Error{"'" + key + "' cannot name an edit", "use letters, digits, '-', '_', '.'"};
    if (text.size() > kMaxEditBytes)
        return Error{"the edit is " + std::to_string(text.size()) + " bytes, over the " +
                         std::to_string(kMaxEditBytes) + " a kernel file may have",
                     "undo the paste that made it so large"};
    // The edits folder is the app's own: made on the first save (a user-named output's folder
    // never is, see write_file_atomically).
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec)
        return Error{"cannot create the edits folder " + dir_ + ": " + ec.message(),
                     "edits go to " + default_edits_dir() +
                         " (or $SML_EDITS_DIR); check that it can be created"};
    Status s = write_file_atomically(path_for(key), text);
    if (!s)
        return Error{s.error().message, "check that the edits folder " + dir_ +
                                            " is writable (or set $SML_EDITS_DIR)"};
    return s;
}

Result<std::optional<std::string>> EditStore::load(const std::string& key) const {
    if (!valid_key(key))
        return Error{"'" + key + "' cannot name an edit", "use letters, digits, '-', '_', '.'"};
    const std::string path = path_for(key);
    if (::access(path.c_str(), F_OK) != 0) return std::optional<std::string>();
    Result<std::string> text = read_file_capped(path, kMaxEditBytes);
    if (!text) return text.error();
    return std::optional<std::string>(*text);
}

Status EditStore::remove(const std::string& key) {
    if (!valid_key(key))
        return Error{"'" + key + "' cannot name an edit", "use letters, digits, '-', '_', '.'"};
    if (::unlink(path_for(key).c_str()) != 0 && errno != ENOENT)
        return io_error("cannot remove", path_for(key), errno);
    return ok_status();
}

std::vector<std::string> EditStore::keys() const {
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir_, ec)) {
        const std::string name = e.path().filename().string();
        if (name.empty() || name[0] == '.' || name.size() <= 3 ||
            name.compare(name.size() - 3, 3, kExt) != 0)
            continue;
        const std::string key = name.substr(0, name.size() - 3);
        if (valid_key(key)) out.push_back(key);
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace sml::lab
