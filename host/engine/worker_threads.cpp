#include "host/engine/worker_threads.h"

#include <system_error>
#include <thread>
#include <vector>

namespace btforge {

WorkerThreads run_worker_threads(int requested, const std::function<void()>& worker) {
    WorkerThreads result;
    std::vector<std::thread> pool;
    const int wanted = requested < 1 ? 1 : requested;
    try {
        pool.reserve(static_cast<std::size_t>(wanted - 1));
        for (int i = 1; i < wanted; ++i) pool.emplace_back(worker);
    } catch (const std::system_error& e) {
        result.shortfall = e.code().message();
    } catch (const std::bad_alloc&) {
        result.shortfall = "out of memory";
    }
    result.started = static_cast<int>(pool.size()) + 1;
    worker();
    for (std::thread& t : pool) t.join();
    return result;
}

}  // namespace btforge
