#pragma once

#include <string>
#include <vector>

#include "generator/generator_config.h"
#include "generator/kernel_model.h"

namespace btforge::gen {

// Note [The strategy contract]
// What btforge-gen checks between a strategy's kernel and its spec before it
// writes anything, so that a mismatch is found where it is made and not by a
// parity run (or, worse, not at all: the binding goes by names, so a field
// the kernel reads under a name the spec lacks would stay zero):
//   - the entry run_NAME_strategy exists; its 2nd and 3rd parameters are
//     const references to marked structs: the series and parameter structs;
//   - the parameter struct has one field per spec parameter, same name, same
//     order, `int` for int and bool parameters and `double` for doubles;
//   - the series struct has one `const double*` per spec indicator id, same
//     order;
//   - a strategy's own code (what is declared under its folder) is used by
//     that strategy only: shared code and other strategies cannot reach it,
//     which is what lets each strategy's code live in its own generated file
//     (Note [Generated files stay local]).
// Every problem is reported, each at the field or entity it concerns and with
// the JSON pointer into the spec.

// Fills params_struct and series_struct of every strategy of `config` and
// returns every violation of the contract (empty when all hold).
std::vector<Violation> check_strategy_contracts(const ReferenceModel& model, GeneratorConfig& config);

// The strategy whose folder declares `entity` (reference/strategies/NAME/...),
// or "" for shared code.
std::string owning_strategy(const Entity& entity, const GeneratorConfig& config);

}  // namespace btforge::gen
