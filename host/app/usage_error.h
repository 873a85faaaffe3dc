#pragma once

#include <stdexcept>
#include <string>

namespace btforge {

// Note [Usage errors]
// A request that cannot be run as asked (a value out of range, two options
// that exclude each other, an output that would overwrite an input) is a
// UsageError, thrown by the application layer (host/app/) before any work
// where it can be found then. Its message names the setting by its
// command-line spelling ("--top must be in 1..1000000"), the one name the
// documentation uses; the Python package's keywords are those names with
// '_' for '-'. Every front end says it as a usage error: the command line
// exits 2 (after Boost.Program_options' own parsing errors, which only it
// has), Python raises btforge.errors.UsageError. The layer itself knows no
// argument parser (Note [One sweep, two front ends]).
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace btforge
