#include "host/app/thread_count.h"

#include <algorithm>
#include <thread>

#include <sched.h>

#include "host/app/usage_error.h"

namespace btforge {

int usable_cpu_count() {
    // Note [Threads a process may use]. A set larger than cpu_set_t (more
    // than 1024 CPUs) makes the call fail: the hardware count then.
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof(allowed), &allowed) == 0) {
        const int count = CPU_COUNT(&allowed);
        if (count > 0) return count;
    }
    const unsigned hardware = std::thread::hardware_concurrency();
    return hardware == 0 ? 1 : static_cast<int>(hardware);
}

std::string hardware_threads_text() {
    const unsigned hardware = std::thread::hardware_concurrency();
    const int usable = usable_cpu_count();
    if (hardware == 0 || usable == static_cast<int>(hardware)) return std::to_string(usable) + " hardware threads";
    return std::to_string(usable) + " of " + std::to_string(hardware) + " hardware threads usable (CPU affinity)";
}

int resolve_threads(int requested) {
    if (requested < 0 || requested > kMaxThreads) {
        throw UsageError("--threads must be in 0.." + std::to_string(kMaxThreads) +
                         " (0: every CPU this process may run on), got " + std::to_string(requested));
    }
    if (requested > 0) return requested;
    return std::min(usable_cpu_count(), kMaxThreads);
}

std::string thread_count_text(int threads) {
    return std::to_string(threads) + (threads == 1 ? " thread" : " threads");
}

}  // namespace btforge
