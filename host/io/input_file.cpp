#include "host/io/input_file.h"

#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace btforge {

namespace {

std::string system_reason(int error) { return std::strerror(error); }

std::string kind_name(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISFIFO(mode)) return "a FIFO or pipe";
    return "not a regular file";
}

}  // namespace

InputFileError::InputFileError(std::string file, std::string rule, std::string message, bool missing)
    : std::runtime_error(file + ": " + message), file_(std::move(file)), rule_(std::move(rule)),
      message_(std::move(message)), missing_(missing) {}

std::string byte_limit_text(std::uint64_t bytes) {
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    std::uint64_t value = bytes;
    int unit = 0;
    while (unit < 4 && value >= 1024 && value % 1024 == 0) {
        value /= 1024;
        ++unit;
    }
    if (unit == 0) return std::to_string(bytes) + " bytes";
    return std::to_string(value) + " " + units[unit] + " (" + std::to_string(bytes) + " bytes)";
}

InputFile::InputFile(const std::filesystem::path& file, const std::string& what, InputStreaming streaming)
    : path_(file), what_(what) {
    const std::string name = file.string();
    // Note [Reading input files]: O_NONBLOCK so a FIFO without a writer does
    // not hang open(); reads block again below once the kind is known.
    do {
        fd_ = ::open(name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    } while (fd_ < 0 && errno == EINTR);
    if (fd_ < 0) {
        const int error = errno;
        if (error == ENOENT) throw InputFileError(name, "cannot-read", "no such file", true);
        throw InputFileError(name, "cannot-read", "cannot open the " + what + ": " + system_reason(error));
    }
    struct stat info {};
    if (::fstat(fd_, &info) != 0) {
        const int error = errno;
        ::close(fd_);
        throw InputFileError(name, "cannot-read", "cannot read the " + what + ": " + system_reason(error));
    }
    regular_ = S_ISREG(info.st_mode);
    const bool stream = S_ISFIFO(info.st_mode);
    if (!regular_ && !(stream && streaming == InputStreaming::allowed)) {
        ::close(fd_);
        std::string message = "is " + kind_name(info.st_mode) + ", not a " + what;
        if (stream) message += " (this input needs a regular file, whose size is known before it is read)";
        throw InputFileError(name, "not-a-regular-file", message);
    }
    size_ = regular_ ? static_cast<std::uint64_t>(info.st_size) : 0;
    const int flags = ::fcntl(fd_, F_GETFL);
    if (flags < 0 || ::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        const int error = errno;
        ::close(fd_);
        throw InputFileError(name, "cannot-read", "cannot read the " + what + ": " + system_reason(error));
    }
}

InputFile::InputFile(InputFile&& other) noexcept
    : path_(std::move(other.path_)), what_(std::move(other.what_)), fd_(std::exchange(other.fd_, -1)),
      regular_(other.regular_), size_(other.size_) {}

InputFile::~InputFile() {
    if (fd_ >= 0) ::close(fd_);
}

std::size_t InputFile::read_some(char* data, std::size_t bytes) {
    for (;;) {
        const ssize_t got = ::read(fd_, data, bytes);
        if (got >= 0) return static_cast<std::size_t>(got);
        if (errno == EINTR) continue;
        const int error = errno;
        throw InputFileError(path_.string(), "cannot-read", "reading the " + what_ + " failed: " + system_reason(error));
    }
}

void InputFile::read_exact(char* data, std::size_t bytes, const std::string& part) {
    std::size_t done = 0;
    while (done < bytes) {
        const std::size_t got = read_some(data + done, bytes - done);
        if (got == 0) throw InputFileError(path_.string(), "cannot-read", "the " + what_ + " ends inside " + part);
        done += got;
    }
}

void InputFile::seek(std::uint64_t offset) {
    if (!regular_ || ::lseek(fd_, static_cast<off_t>(offset), SEEK_SET) < 0) {
        throw InputFileError(path_.string(), "cannot-read", "cannot seek in the " + what_);
    }
}

void InputFile::check_size(std::uint64_t max_bytes) const {
    if (regular_ && size_ > max_bytes) {
        throw InputFileError(path_.string(), "too-large",
                             "the " + what_ + " has " + std::to_string(size_) + " bytes; at most " +
                                 byte_limit_text(max_bytes) + " are read");
    }
}

std::string read_input_file(const std::filesystem::path& file, const std::string& what, std::uint64_t max_bytes,
                            InputStreaming streaming) {
    InputFile in(file, what, streaming);
    in.check_size(max_bytes);
    std::string text;
    if (in.regular()) text.reserve(static_cast<std::size_t>(in.size()));
    char buffer[1 << 16];
    for (;;) {
        const std::size_t got = in.read_some(buffer, sizeof buffer);
        if (got == 0) break;
        if (text.size() + got > max_bytes) {
            throw InputFileError(file.string(), "too-large",
                                 "the " + what + " is larger than " + byte_limit_text(max_bytes) +
                                     ", the most that is read");
        }
        text.append(buffer, got);
    }
    return text;
}

}  // namespace btforge
