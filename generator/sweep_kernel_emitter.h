#pragma once

#include "generator/emit_context.h"
#include "generator/output_files.h"

namespace btforge::gen {

// Note [Generated files stay local]
// Each strategy's generated files hold everything that is only its own: the
// sweep kernel file carries the device code of its folder (its parameter
// struct with the static_asserts of its layout, its series struct, its
// functions) and the binding file its host binding; btforge_device.cuh and
// btforge_layout.h hold the shared code only, and each file's stamp hashes
// only what it was made from (Note [Generated-file stamp]). So adding or
// editing a strategy changes its own generated files and the lists of
// strategies (btforge_entry_points.h, strategy_catalog.cpp), nothing else: a
// review diff stays local and only that strategy's kernel rebuilds.
// Note [The strategy contract] guarantees the split is sound.

// generated/<strategy>_sweep.cu: the strategy's device code and its extern
// "C" sweep kernel. The structs were checked against the spec before
// (check_strategy_contracts).
OutputFile emit_sweep_kernel(const EmitContext& context, const StrategyTarget& target);

// generated/<strategy>_binding.cpp: the host binding (Note [Strategy
// bindings]): the flat parameter values and series pointers into the
// kernel's structs, field by field by name.
OutputFile emit_strategy_binding(const EmitContext& context, const StrategyTarget& target);

// generated/strategy_catalog.cpp: strategy_bindings(), every strategy's binding.
OutputFile emit_strategy_catalog(const EmitContext& context);

// generated/btforge_entry_points.h: the list of strategies with a kernel.
OutputFile emit_entry_points(const EmitContext& context);

}  // namespace btforge::gen
