#pragma once

namespace btforge::python {

// Note [Errors as Python exceptions]
// The engine's exceptions become the classes of btforge.errors, carrying
// what the command line prints: DataError with file, line, column and rule;
// SpecError with the file and JSON path (or line and column); UsageError
// (a ValueError) for what the command line calls a usage error, named by
// its option; InterruptedError's sibling btforge.errors.Cancelled is raised
// by the Python side. Out of memory is MemoryError, as Python's own.
void register_error_translation();

}  // namespace btforge::python
