#include "host/cli/command_line.h"

#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <thread>

namespace btforge {

namespace po = boost::program_options;

bool parse_command_line(const std::vector<std::string>& args, const std::string& usage,
                        const po::options_description& options, po::variables_map* given) {
    po::options_description all(options);
    all.add_options()("help,h", "show this help");
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(all).run(), vm);
    if (vm.count("help") != 0) {
        std::cout << usage << "\n\n" << all << '\n';
        return false;
    }
    po::notify(vm);
    if (given != nullptr) *given = vm;
    return true;
}

int resolve_threads(int requested) {
    if (requested < 0) throw std::runtime_error("--threads must be >= 0 (0: all hardware threads)");
    if (requested > 0) return requested;
    unsigned hardware = std::thread::hardware_concurrency();
    return hardware == 0 ? 1 : static_cast<int>(hardware);
}

void check_output_directory(const std::string& path) {
    std::filesystem::path parent = std::filesystem::absolute(path).parent_path();
    if (!std::filesystem::is_directory(parent)) {
        throw std::runtime_error("cannot write " + path + ": directory " + parent.string() + " does not exist");
    }
}

}  // namespace btforge
