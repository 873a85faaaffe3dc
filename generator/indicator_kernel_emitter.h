#pragma once

#include "generator/emit_context.h"
#include "generator/output_files.h"

namespace btforge::gen {

// generated/indicator_series.cu: the indicator kernels. Checks first that
// each indicator's reference function takes, in order, its price inputs
// (const double *), `int n`, its parameters by the catalog's names (int or
// double) and one double * per output, failing at the function's location.
OutputFile emit_indicator_kernels(const EmitContext& context);

}  // namespace btforge::gen
