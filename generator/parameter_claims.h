#pragma once

#include <vector>

#include "generator/generator_config.h"
#include "generator/kernel_model.h"

namespace btforge::gen {

// Note [Parameters a mode reads] (host/spec/strategy_spec.h): the proof.
// For each strategy whose spec claims that a parameter is read only where a
// controlling one takes some values, btforge-gen follows the controlling
// values through the reference (Note [Guarded uses]): the entry
// run_NAME_strategy runs under every value of the controller; a call runs
// its callee under the caller's values that pass the tests guarding the
// call; a read of a field happens under its function's values that pass the
// tests guarding the read. Every read of the claimed parameter's field, and
// of the field of each series an indicator makes from it, must then happen
// only under claimed values; each read that may happen elsewhere is
// reported at the read, with the values it may see. The controller's tests
// mean what they say only if the parameters never change and no other
// instance exists, so a claim also fails wherever marked code makes or
// could change one (Note [Guarded uses]: a by-value copy, a reference or
// pointer to non-const, a cast of one, a braced value).
//
// The proof is sound but not complete: a test it cannot read exactly adds
// nothing, so a claim that holds for reasons it cannot see is refused, never
// the other way round.
//
// Needs the params and series structs of check_strategy_contracts; returns
// every violation (empty when every claim holds).
std::vector<Violation> check_parameter_claims(const ReferenceModel& model, const GeneratorConfig& config);

}  // namespace btforge::gen
