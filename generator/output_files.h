#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace btforge::gen {

struct OutputFile {
    std::string name;  // relative to the output folder
    std::string content;
};

// Writes the files whose content differs from what is on disk (atomically)
// and leaves the others untouched, so their timestamps do not trigger
// rebuilds; removes files of the folder that generation no longer produces
// (a strategy dropped from the generator spec). Returns the names written or
// removed.
std::vector<std::string> write_changed_files(const std::filesystem::path& folder, const std::vector<OutputFile>& files);

// The unified diff between the folder and the rendered files ("" when they
// agree), naming missing files and files in the folder that generation would
// not produce.
std::string diff_against_folder(const std::filesystem::path& folder, const std::vector<OutputFile>& files);

}  // namespace btforge::gen
