#pragma once

#include <atomic>

namespace btforge {

// The first Ctrl-C (or SIGTERM) asks running work, and the writing of its
// results, to stop (the command then exits 130 without writing results); a
// second one terminates at once, except inside the renames of an
// OutputTransaction (see on_interrupt in interrupt.cpp).
void install_interrupt_handler();
const std::atomic<bool>& interrupt_requested();

}  // namespace btforge
