#include "host/cli/interrupt.h"

#include <csignal>

namespace btforge {

namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void on_interrupt(int) {
    if (g_interrupted.exchange(true)) {
        std::signal(SIGINT, SIG_DFL);
        std::raise(SIGINT);
    }
}

}  // namespace

void install_interrupt_handler() {
    std::signal(SIGINT, on_interrupt);
    std::signal(SIGTERM, on_interrupt);
}

const std::atomic<bool>& interrupt_requested() { return g_interrupted; }

}  // namespace btforge
