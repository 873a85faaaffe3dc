#include "host/report/ranked_rows.h"

#include "host/io/atomic_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <unistd.h>

namespace btforge {

namespace {

constexpr std::size_t kRecord = sizeof(ResultRow);

// An unnamed file in `directory` (Note [Rows spooled to disk]).
int open_spool_file(const std::filesystem::path& directory) {
    const int fd = open_unnamed_file(directory, O_RDWR);
    if (fd >= 0) return fd;
    std::string name = (directory / ".btforge-rows-XXXXXX").string();
    const int fallback = ::mkostemp(name.data(), O_CLOEXEC);
    if (fallback >= 0) ::unlink(name.c_str());
    return fallback;
}

}  // namespace

RowSpool::RowSpool(const std::filesystem::path& directory, std::uint64_t rows, const RankOrder& order)
    : order_(order), directory_(directory.empty() ? std::filesystem::path(".") : directory) {
    fd_ = open_spool_file(directory_);
    if (fd_ < 0) {
        throw std::runtime_error("cannot make the file that holds every row (--all-rows) in " + directory_.string() +
                                 ": " + std::strerror(errno));
    }
    keys_.resize(rows);
}

RowSpool::~RowSpool() {
    if (fd_ >= 0) ::close(fd_);
}

void RowSpool::store(std::uint64_t first_ordinal, std::span<const ResultRow> rows) {
    for (std::size_t i = 0; i < rows.size(); ++i) {
        keys_[first_ordinal + i] = Entry{rank_key(order_, rows[i]), first_ordinal + i};
    }
    const char* bytes = reinterpret_cast<const char*>(rows.data());
    std::size_t left = rows.size() * kRecord;
    off_t offset = static_cast<off_t>(first_ordinal * kRecord);
    while (left > 0) {
        const ssize_t written = ::pwrite(fd_, bytes, left, offset);
        if (written <= 0) {
            if (written < 0 && errno == EINTR) continue;
            std::lock_guard lock(failure_mutex_);
            if (write_error_ == 0) write_error_ = written < 0 ? errno : ENOSPC;
            return;
        }
        bytes += written;
        left -= static_cast<std::size_t>(written);
        offset += written;
    }
}

void RowSpool::rank() {
    if (write_error_ != 0) {
        throw std::runtime_error("writing every row (--all-rows) to " + directory_.string() +
                                 " failed: " + std::strerror(write_error_));
    }
    std::sort(keys_.begin(), keys_.end(),
              [this](const Entry& a, const Entry& b) { return rank_key_before(order_, a.key, b.key); });
}

ResultRow RowSpool::at(std::uint64_t rank) const {
    ResultRow row{};
    char* bytes = reinterpret_cast<char*>(&row);
    std::size_t got = 0;
    const off_t offset = static_cast<off_t>(keys_[rank].ordinal * kRecord);
    while (got < kRecord) {
        const ssize_t n = ::pread(fd_, bytes + got, kRecord - got, offset + static_cast<off_t>(got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            throw std::runtime_error("reading back the row of rank " + std::to_string(rank + 1) + " (--all-rows) failed" +
                                     (n < 0 ? std::string(": ") + std::strerror(errno) : std::string()));
        }
        got += static_cast<std::size_t>(n);
    }
    return row;
}

}  // namespace btforge
