#pragma once

#include <atomic>
#include <cstdint>
#include <ostream>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/program_options.hpp>

#include "host/app/output_files.h"
#include "host/app/thread_count.h"

namespace btforge {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInterrupted = 130;

// Parses a subcommand's arguments. Returns false when --help was asked (the
// help has been printed); throws boost::program_options::error on bad usage,
// an argument that is not an option included (none takes positional ones).
// `given`, when not null, receives the parsed map (to ask what was given).
// `operands`, when not null, receives the arguments that are not options
// (a command that takes files), instead of refusing them.
bool parse_command_line(const std::vector<std::string>& args, const std::string& usage,
                        const boost::program_options::options_description& options,
                        boost::program_options::variables_map* given = nullptr,
                        std::vector<std::string>* operands = nullptr);

// Prints a backend's notice (SweepHooks::notice) on stderr as "btforge: ...".
void say_backend_notice(const std::string& line);

// Note [Unsigned options]
// Boost.Program_options reads "-1" for an unsigned option through
// lexical_cast, which wraps it to 2^64 - 1: `replay --combination -1` spoke
// of combination 18446744073709551615. An option whose value is a count or
// an id holds a WholeNumber instead, read by validate() below: decimal
// digits only, within the type, or a usage error naming the option's value.
struct WholeNumber {
    std::uint64_t value = 0;
};
void validate(boost::any& out, const std::vector<std::string>& values, WholeNumber*, int);
std::ostream& operator<<(std::ostream& out, const WholeNumber& number);

// An option that takes a number or one word (--returns M|daily,
// --equity-marks N|daily; Note [Equity marks at UTC days]): nullopt for the
// word, else the integer `text` spells; anything else is a usage error,
// "--OPTION: expected EXPECTED, got 'TEXT'". Ranges are the caller's.
std::optional<int> number_or_word(const std::string& option, const std::string& text, std::string_view word,
                                  std::string_view expected);

// An option that stores a whole number into `*target` (an unsigned type),
// read as a WholeNumber, with *target as its default.
template <class T>
boost::program_options::typed_value<WholeNumber>* whole_number_value(T* target) {
    return boost::program_options::value<WholeNumber>()
        ->default_value(WholeNumber{static_cast<std::uint64_t>(*target)}, std::to_string(*target))
        ->notifier([target](const WholeNumber& number) { *target = static_cast<T>(number.value); });
}

}  // namespace btforge
