#pragma once

#include <vector>

#include "host/spec/indicator_signature.h"

namespace btforge {

// The indicator catalog of host/indicators in the form the spec parser takes.
std::vector<IndicatorSignature> indicator_signatures();

}  // namespace btforge
