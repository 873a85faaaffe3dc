#pragma once

#include "generator/emit_context.h"
#include "generator/output_files.h"

namespace btforge::gen {

// generated/btforge_layout.h: the host/device structs with static_asserts on
// their sizes and field offsets.
OutputFile emit_layout_header(const EmitContext& context);

}  // namespace btforge::gen
