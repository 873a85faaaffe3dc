#pragma once

#include "generator/emit_context.h"
#include "generator/output_files.h"

namespace btforge::gen {

// generated/<strategy>_sweep.cu: the extern "C" sweep kernel of one strategy.
// Checks first that the strategy's parameter and series structs match its
// spec field by field (name, order, type), failing at the field's location.
OutputFile emit_sweep_kernel(const EmitContext& context, const StrategyTarget& target);

// generated/btforge_entry_points.h: the list of strategies with a kernel.
OutputFile emit_entry_points(const EmitContext& context);

}  // namespace btforge::gen
