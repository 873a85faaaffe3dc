#pragma once

#include "generator/emit_context.h"
#include "generator/output_files.h"

namespace btforge::gen {

// generated/btforge_layout.h: the host/device structs with static_asserts on
// their sizes and field offsets.
OutputFile emit_layout_header(const EmitContext& context);

// static_asserts pinning the size and field offsets of struct `e` to the
// reference's x86-64 layout.
std::string layout_static_asserts(const Entity& e);

}  // namespace btforge::gen
