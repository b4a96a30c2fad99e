// Result<T>: a value or an Error that names the problem and what to do about it.
//
// Every user-facing failure in softmaxlab carries two sentences: `message` says what is wrong
// ("N = 2048 is outside warp's range 1..1024"), `hint` says what to do ("use block, smem or
// online"). The CLI prints both and exits non-zero; the viewer shows both in a banner.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace sml {

struct Error {
    std::string message;  // what went wrong, naming the offending value
    std::string hint;     // what the user can do about it (may be empty)
};

template <class T>
class Result {
  public:
    Result(T value) : value_(std::move(value)) {}      // NOLINT: implicit on purpose
    Result(Error error) : error_(std::move(error)) {}  // NOLINT

    bool ok() const { return value_.has_value(); }
    explicit operator bool() const { return ok(); }
    const T& value() const& { return *value_; }
    T& value() & { return *value_; }
    T&& value() && { return std::move(*value_); }
    const T& operator*() const& { return *value_; }
    T& operator*() & { return *value_; }
    const T* operator->() const { return &*value_; }
    T* operator->() { return &*value_; }
    const Error& error() const { return error_; }

  private:
    std::optional<T> value_;
    Error error_;
};

// Result<void> stand-in.
struct Ok {};
using Status = Result<Ok>;
inline Status ok_status() {
    return Status(Ok{});
}

}  // namespace sml
