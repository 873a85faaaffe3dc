#include "host/cli/command_line.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <iostream>
#include <stdexcept>
#include <system_error>
#include <thread>

#include <sched.h>

namespace btforge {

namespace po = boost::program_options;

void validate(boost::any& out, const std::vector<std::string>& values, WholeNumber*, int) {
    po::validators::check_first_occurrence(out);
    const std::string& text = po::validators::get_single_string(values);
    WholeNumber number;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, number.value);
    if (text.empty() || !std::isdigit(static_cast<unsigned char>(text.front())) || error != std::errc() || stop != end) {
        throw po::invalid_option_value(text + " (expected a whole number, 0 or more)");
    }
    out = number;
}

std::ostream& operator<<(std::ostream& out, const WholeNumber& number) { return out << number.value; }

bool parse_command_line(const std::vector<std::string>& args, const std::string& usage,
                        const po::options_description& options, po::variables_map* given,
                        std::vector<std::string>* operands) {
    po::options_description all(options);
    all.add_options()("help,h", "show this help");
    // Positional arguments are collected under a hidden name only to be
    // refused by name: boost would otherwise ignore them silently.
    po::options_description hidden;
    hidden.add_options()("unexpected-argument", po::value<std::vector<std::string>>());
    po::options_description parsed(all);
    parsed.add(hidden);
    po::positional_options_description positional;
    positional.add("unexpected-argument", -1);
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(parsed).positional(positional).run(), vm);
    if (vm.count("help") != 0) {
        std::cout << usage << "\n\n" << all << '\n';
        return false;
    }
    if (operands != nullptr) {
        if (vm.count("unexpected-argument") != 0) *operands = vm["unexpected-argument"].as<std::vector<std::string>>();
    } else if (vm.count("unexpected-argument") != 0) {
        const std::string& first = vm["unexpected-argument"].as<std::vector<std::string>>().front();
        throw po::error("unexpected argument '" + first + "' (this command takes options only; see --help)");
    }
    po::notify(vm);
    if (given != nullptr) *given = vm;
    return true;
}

int usable_cpu_count() {
    // Note [Threads a process may use]. A set larger than cpu_set_t (more
    // than 1024 CPUs) makes the call fail: the hardware count then.
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0) {
        const int count = CPU_COUNT(&allowed);
        if (count > 0) return count;
    }
    const unsigned hardware = std::thread::hardware_concurrency();
    return hardware == 0 ? 1 : static_cast<int>(hardware);
}

std::string hardware_threads_text() {
    const unsigned hardware = std::thread::hardware_concurrency();
    const int usable = usable_cpu_count();
    if (hardware == 0 || usable == static_cast<int>(hardware)) return std::to_string(usable) + " hardware threads";
    return std::to_string(usable) + " of " + std::to_string(hardware) + " hardware threads usable (CPU affinity)";
}

int resolve_threads(int requested) {
    if (requested < 0 || requested > kMaxThreads) {
        throw po::error("--threads must be in 0.." + std::to_string(kMaxThreads) +
                        " (0: every CPU this process may run on), got " + std::to_string(requested));
    }
    if (requested > 0) return requested;
    return std::min(usable_cpu_count(), kMaxThreads);
}

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
            throw po::error(out.option + " '" + out.path.string() + "': expected a file name");
        }
        std::error_code ec;
        if (std::filesystem::is_directory(out.path, ec)) {
            throw po::error(name + " is a directory; expected a file name");
        }
        for (std::size_t j = 0; j < i; ++j) {
            if (same_file(outputs[j].path, out.path)) {
                throw po::error(outputs[j].option + " and " + out.option + " name the same file " +
                                out.path.string() + "; each result needs its own");
            }
        }
        for (const NamedFile& in : inputs) {
            if (!in.path.empty() && same_file(in.path, out.path)) {
                throw po::error(out.option + " would write " + out.path.string() + ", which is the " + in.option +
                                " input; choose another output name");
            }
        }
    }
    OutputTransaction transaction(cancel);
    for (const NamedFile& out : outputs) {
        try {
            transaction.add(out.path);
        } catch (const std::runtime_error& e) {
            throw po::error(out.option + ": " + e.what() + " (checked before any work)");
        }
    }
    return transaction;
}

}  // namespace btforge
