#pragma once

#include "generator/emit_context.h"
#include "generator/output_files.h"

namespace btforge::gen {

// generated/btforge_device.cuh: every other marked entity of the reference,
// rewritten for the device, in the reference's order.
OutputFile emit_device_code(const EmitContext& context);

}  // namespace btforge::gen
