#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace btforge {

// Note [Reading input files]
// Every file btforge reads as input (markets, instruments, specs, grids,
// funding files, exchange dumps, shards, market caches, result JSON) is
// opened here, so three rules hold for all of them and live only here:
//   - Opening never blocks: the file is opened O_NONBLOCK (a FIFO without a
//     writer would otherwise hang open() where Ctrl-C cannot reach it), and
//     reads block again once its kind is known.
//   - Its kind is checked before a byte is read: a directory, a device
//     (/dev/zero, a disk), a socket is refused (rule not-a-regular-file).
//     A FIFO or pipe (`--data <(zcat m.csv.gz)`) is accepted only by readers
//     that stream under a limit (InputStreaming::allowed); readers that need
//     the size first (shards, caches) refuse it too.
//   - Its size is checked against the reader's limit before it is read
//     (rule too-large): a 3 GB sparse file given as a grid costs a stat, not
//     3 GB of memory. A stream is counted as it is read and refused the
//     moment it passes the limit, never held beyond it plus one buffer.
// Errors are InputFileError; each reader turns it into its own error type
// (DataError, JsonInputError, ...) with the file's name and the rule.

class InputFileError : public std::runtime_error {
public:
    InputFileError(std::string file, std::string rule, std::string message, bool missing = false);
    const std::string& file() const noexcept { return file_; }
    // True when the file does not exist (rule cannot-read): a market cache
    // not written yet is no error (Note [Market cache]).
    bool missing() const noexcept { return missing_; }
    // cannot-read, not-a-regular-file, too-large
    const std::string& rule() const noexcept { return rule_; }
    // Without the file's name: "is a directory, not a grid file".
    const std::string& message() const noexcept { return message_; }

private:
    std::string file_;
    std::string rule_;
    std::string message_;
    bool missing_ = false;
};

enum class InputStreaming { refused, allowed };

// An open input file of Note [Reading input files]. `what` names it in
// messages ("market file", "shard file").
class InputFile {
public:
    InputFile(const std::filesystem::path& file, const std::string& what, InputStreaming streaming);
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;
    InputFile(InputFile&& other) noexcept;
    InputFile& operator=(InputFile&&) = delete;
    ~InputFile();

    // True for a regular file, whose size() is known; false for a stream.
    bool regular() const { return regular_; }
    std::uint64_t size() const { return size_; }
    // Up to `bytes` bytes into `data`; 0 at the end. Retries interrupted
    // reads; throws InputFileError cannot-read on an error.
    std::size_t read_some(char* data, std::size_t bytes);
    // Exactly `bytes` bytes, or InputFileError cannot-read naming `part`
    // ("the file ends inside its header").
    void read_exact(char* data, std::size_t bytes, const std::string& part);
    // Moves to `offset` from the start (regular files only).
    void seek(std::uint64_t offset);
    // Throws too-large when a regular file is larger than `max_bytes`.
    void check_size(std::uint64_t max_bytes) const;
    const std::filesystem::path& path() const { return path_; }
    const std::string& what() const { return what_; }

private:
    std::filesystem::path path_;
    std::string what_;
    int fd_ = -1;
    bool regular_ = false;
    std::uint64_t size_ = 0;
};

// The whole file, at most `max_bytes` (checked before reading a regular
// file, while reading a stream).
std::string read_input_file(const std::filesystem::path& file, const std::string& what, std::uint64_t max_bytes,
                            InputStreaming streaming);

// "64 MiB (67108864 bytes)" style text of a byte count, for messages.
std::string byte_limit_text(std::uint64_t bytes);

}  // namespace btforge
