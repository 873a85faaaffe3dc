#include "host/cli/command_line.h"

#include <cctype>
#include <charconv>
#include <iostream>
#include <stdexcept>

namespace btforge {

namespace po = boost::program_options;

std::optional<int> number_or_word(const std::string& option, const std::string& text, std::string_view word,
                                  std::string_view expected) {
    if (text == word) return std::nullopt;
    int number = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, number);
    if (text.empty() || error != std::errc() || stop != end) {
        throw po::error("--" + option + ": expected " + std::string(expected) + ", got '" + text + "'");
    }
    return number;
}

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

void say_backend_notice(const std::string& line) { std::cerr << "btforge: " << line << "\n"; }

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

}  // namespace btforge
