#pragma once

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "host/io/output_transaction.h"

namespace btforge {

// A file a command reads or writes, with the option that names it.
struct NamedFile {
    std::string option;  // "--data", "--output", ...
    std::filesystem::path path;
};

// Note [Outputs checked before work]
// Every file a command will write is checked, as a usage error (exit 2),
// before any work: its name is not empty and not a directory, no two outputs
// are the same file, no output is one of the inputs (`--data res.csv -o res`
// would overwrite the data), and its temporary can be created now, which
// proves the directory exists and is writable (Note [No half-written
// outputs]). The returned transaction commits them together (Note [Outputs
// committed together]); `cancel` is the interrupt flag.
OutputTransaction open_outputs(const std::vector<NamedFile>& outputs, const std::vector<NamedFile>& inputs,
                               const std::atomic<bool>* cancel);

}  // namespace btforge
