#include "host/io/atomic_file.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

#include <unistd.h>

namespace btforge {

AtomicFile::AtomicFile(std::filesystem::path destination) : destination_(std::move(destination)) {
    temporary_ = destination_;
    temporary_ += ".tmp-" + std::to_string(::getpid());
    out_.open(temporary_, std::ios::binary | std::ios::trunc);
    if (!out_) {
        throw std::runtime_error("cannot write " + destination_.string() + ": " + std::strerror(errno));
    }
}

AtomicFile::~AtomicFile() {
    if (!committed_) {
        out_.close();
        std::error_code ignored;
        std::filesystem::remove(temporary_, ignored);
    }
}

void AtomicFile::commit() {
    out_.flush();
    out_.close();
    if (!out_) {
        throw std::runtime_error("writing " + destination_.string() + " failed (disk full?)");
    }
    std::error_code ec;
    std::filesystem::rename(temporary_, destination_, ec);
    if (ec) {
        throw std::runtime_error("cannot move the finished " + destination_.string() + " into place: " + ec.message());
    }
    committed_ = true;
}

void write_file_atomically(const std::filesystem::path& destination, const std::string& content) {
    AtomicFile file(destination);
    file.stream() << content;
    file.commit();
}

}  // namespace btforge
