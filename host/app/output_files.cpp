#include "host/app/output_files.h"

#include <stdexcept>
#include <system_error>

#include "host/app/usage_error.h"

namespace btforge {

namespace {

// The same file, existing or not: symbolic links, "." and ".." resolved.
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b) {
    std::error_code ec;
    if (std::filesystem::exists(a, ec) && std::filesystem::exists(b, ec)) {
        const bool same = std::filesystem::equivalent(a, b, ec);
        if (!ec) return same;
    }
    ec.clear();
    const auto canonical_a = std::filesystem::weakly_canonical(std::filesystem::absolute(a), ec);
    if (ec) return false;
    const auto canonical_b = std::filesystem::weakly_canonical(std::filesystem::absolute(b), ec);
    return !ec && canonical_a == canonical_b;
}

}  // namespace

OutputTransaction open_outputs(const std::vector<NamedFile>& outputs, const std::vector<NamedFile>& inputs,
                               const std::atomic<bool>* cancel) {
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const NamedFile& out = outputs[i];
        const std::string name = out.option + " " + out.path.string();
        if (out.path.empty() || out.path.filename().empty() || out.path.filename() == "." ||
            out.path.filename() == "..") {
            throw UsageError(out.option + " '" + out.path.string() + "': expected a file name");
        }
        std::error_code ec;
        if (std::filesystem::is_directory(out.path, ec)) {
            throw UsageError(name + " is a directory; expected a file name");
        }
        for (std::size_t j = 0; j < i; ++j) {
            if (same_file(outputs[j].path, out.path)) {
                throw UsageError(outputs[j].option + " and " + out.option + " name the same file " +
                                 out.path.string() + "; each result needs its own");
            }
        }
        for (const NamedFile& in : inputs) {
            if (!in.path.empty() && same_file(in.path, out.path)) {
                throw UsageError(out.option + " would write " + out.path.string() + ", which is the " + in.option +
                                 " input; choose another output name");
            }
        }
    }
    OutputTransaction transaction(cancel);
    for (const NamedFile& out : outputs) {
        try {
            transaction.add(out.path);
        } catch (const std::runtime_error& e) {
            throw UsageError(out.option + ": " + e.what() + " (checked before any work)");
        }
    }
    return transaction;
}

}  // namespace btforge
