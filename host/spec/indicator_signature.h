#pragma once

#include <string>
#include <vector>

namespace btforge {

// What a strategy spec may ask of one indicator: the names it takes and the
// outputs it yields. The catalog is the caller's (the indicator library owns
// it), so the spec parser never hard-codes which indicators exist.
struct IndicatorSignature {
    std::string name;                  // as written in specs, e.g. "BBANDS"
    std::vector<std::string> params;   // every one must be given, e.g. {"period", "k"}
    std::vector<std::string> outputs;  // the first is the default, e.g. {"upper", "middle", "lower"}
    std::vector<std::string> inputs;   // price arrays it reads, in its kernel's argument order, e.g. {"high", "low", "close"}
    bool cross_symbol = false;         // reads the whole market (BREADTH), not one symbol's bars
    std::vector<bool> integer_params;  // per param: must be a whole number (a period), else any number (BBANDS k)
    // The price columns a spec may name as its "input" instead of inputs[0]
    // (Note [Indicator input column]); empty when it reads several or the
    // whole market.
    std::vector<std::string> input_columns;
    // Per param, its domain (Note [Parameter domains]; empty: none stated): inclusive bounds and
    // the words for them ("an integer from 2 to 100000"). The spec parser
    // checks a literal against it, and a parameter bound to it by its
    // declared type and range, so a value outside is named at its JSON path.
    std::vector<double> param_minimum;
    std::vector<double> param_maximum;
    std::vector<std::string> param_domain;
};

}  // namespace btforge
