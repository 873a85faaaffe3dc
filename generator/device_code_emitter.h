#pragma once

#include "generator/emit_context.h"
#include "generator/output_files.h"

namespace btforge::gen {

// generated/btforge_device.cuh: every marked entity of the shared reference
// that is not in the layout header, rewritten for the device, in the
// reference's order. A strategy's own code goes into its sweep kernel's file
// (Note [Generated files stay local]).
OutputFile emit_device_code(const EmitContext& context);

// The device code of the entities of `strategy` ("" for the shared code),
// minus the layout's, with a "// ---- from <file>" line per source file.
std::string device_code_of(const EmitContext& context, const std::string& strategy);

// Note [Kernels for finer bars]: whether code of `strategy` itself names the
// market's finer bars (the identifier fine_per_bar in any of its entities).
bool reads_finer_bars(const EmitContext& context, const std::string& strategy);

}  // namespace btforge::gen
