#pragma once

#include <filesystem>
#include <string>

namespace btforge::testing {

// A fresh directory under the system temp dir, removed with its contents
// when the object dies, so tests never see each other's files.
class TempDir {
public:
    TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    ~TempDir();

    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path write(const std::string& name, const std::string& content) const;
    // Every entry of the directory, to assert that nothing was left behind.
    std::size_t entry_count() const;

private:
    std::filesystem::path path_;
};

}  // namespace btforge::testing
