#pragma once

#include <atomic>

namespace btforge {

// The first Ctrl-C asks running work to stop (the command then exits without
// writing results); a second one terminates at once.
void install_interrupt_handler();
const std::atomic<bool>& interrupt_requested();

}  // namespace btforge
