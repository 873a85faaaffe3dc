#include "host/cli/interrupt.h"

#include <csignal>

#include "host/io/atomic_file.h"
#include "host/io/output_transaction.h"

namespace btforge {

namespace {

std::atomic<bool> g_interrupted{false};

// The first Ctrl-C (or SIGTERM) asks the work to stop: sweeps end early and
// writers stop (Note [No half-written outputs]). A second one ends the
// process at once, after removing the open temporaries, except while an
// OutputTransaction renames its files into place (Note [Outputs committed
// together]), which takes milliseconds and must not be cut in half.
extern "C" void on_interrupt(int signal_number) {
    if (!g_interrupted.exchange(true)) return;
    if (commit_in_progress()) return;
    remove_pending_temporaries();
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
}

}  // namespace

void install_interrupt_handler() {
    std::signal(SIGINT, on_interrupt);
    std::signal(SIGTERM, on_interrupt);
}

const std::atomic<bool>& interrupt_requested() { return g_interrupted; }

}  // namespace btforge
