#include "generator/output_files.h"

#include <array>
#include <cstdio>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

#include <unistd.h>

#include "host/io/atomic_file.h"

namespace btforge::gen {

namespace {

std::optional<std::string> read_if_exists(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

// `diff -u` of two texts; the labels name the checked-in file and the
// regenerated one.
std::string unified_diff(const std::string& old_text, const std::string& new_text, const std::string& label) {
    std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                ("btforge-gen-check-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::filesystem::path a = dir / "checked-in";
    std::filesystem::path b = dir / "regenerated";
    std::ofstream(a, std::ios::binary) << old_text;
    std::ofstream(b, std::ios::binary) << new_text;
    std::string command = "diff -u --label 'generated/" + label + " (checked in)' --label 'generated/" + label +
                          " (regenerated)' '" + a.string() + "' '" + b.string() + "'";
    std::string output;
    if (FILE* pipe = ::popen(command.c_str(), "r")) {
        std::array<char, 4096> buffer{};
        std::size_t n = 0;
        while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) output.append(buffer.data(), n);
        ::pclose(pipe);
    }
    std::filesystem::remove_all(dir);
    if (output.empty()) output = "generated/" + label + " differs (and `diff` is not available to show how)\n";
    return output;
}

}  // namespace

std::vector<std::string> write_changed_files(const std::filesystem::path& folder, const std::vector<OutputFile>& files) {
    std::filesystem::create_directories(folder);
    std::vector<std::string> written;
    std::set<std::string> produced;
    for (const OutputFile& file : files) {
        produced.insert(file.name);
        if (read_if_exists(folder / file.name) == file.content) continue;
        write_file_atomically(folder / file.name, file.content);
        written.push_back(file.name);
    }
    // generated/ belongs to the generator: what it does not produce is stale.
    std::vector<std::filesystem::path> stale;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        if (entry.is_regular_file() && produced.count(entry.path().filename().string()) == 0) {
            stale.push_back(entry.path());
        }
    }
    for (const std::filesystem::path& path : stale) {
        std::filesystem::remove(path);
        written.push_back(path.filename().string() + " (removed)");
    }
    return written;
}

std::string diff_against_folder(const std::filesystem::path& folder, const std::vector<OutputFile>& files) {
    std::string report;
    std::set<std::string> expected;
    for (const OutputFile& file : files) {
        expected.insert(file.name);
        std::optional<std::string> on_disk = read_if_exists(folder / file.name);
        if (!on_disk) {
            report += "generated/" + file.name + " is missing\n";
        } else if (*on_disk != file.content) {
            report += unified_diff(*on_disk, file.content, file.name);
        }
    }
    if (std::filesystem::is_directory(folder)) {
        std::set<std::string> present;
        for (const auto& entry : std::filesystem::directory_iterator(folder)) {
            if (entry.is_regular_file()) present.insert(entry.path().filename().string());
        }
        for (const std::string& name : present) {
            if (expected.count(name) == 0) report += "generated/" + name + " is not produced by btforge-gen\n";
        }
    }
    return report;
}

}  // namespace btforge::gen
