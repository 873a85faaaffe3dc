#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace btforge {

// Note [No half-written outputs]
// Every file btforge produces is written to a temporary sibling
// ("<name>.tmp-<pid>") and renamed over the destination only after the stream
// was flushed and closed without error. A failure or an exception in between
// removes the temporary, so a reader sees the old file or the complete new
// one, never a prefix.
class AtomicFile {
public:
    explicit AtomicFile(std::filesystem::path destination);
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    ~AtomicFile();  // removes the temporary unless commit() succeeded

    std::ostream& stream() { return out_; }
    void commit();  // flush, close, rename; throws std::runtime_error naming the file
    const std::filesystem::path& destination() const { return destination_; }

private:
    std::filesystem::path destination_;
    std::filesystem::path temporary_;
    std::ofstream out_;
    bool committed_ = false;
};

// Writes `content` to `destination` through an AtomicFile.
void write_file_atomically(const std::filesystem::path& destination, const std::string& content);

}  // namespace btforge
