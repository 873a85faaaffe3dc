#include "host/engine/worker_threads.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
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

WorkerThreads run_tiles(int requested, std::uint64_t count, std::uint64_t tile_size,
                        const std::function<void(std::uint64_t, std::uint64_t, std::uint64_t)>& tile) {
    const std::uint64_t tiles = tile_size == 0 ? 0 : (count + tile_size - 1) / tile_size;
    std::atomic<std::uint64_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex mutex;
    std::exception_ptr failure;
    const WorkerThreads ran = run_worker_threads(requested, [&] {
        for (std::uint64_t t = next++; t < tiles && !failed.load(); t = next++) {
            try {
                const std::uint64_t first = t * tile_size;
                tile(t, first, std::min(first + tile_size, count));
            } catch (...) {
                std::lock_guard<std::mutex> lock(mutex);
                if (!failure) failure = std::current_exception();
                failed = true;
            }
        }
    });
    if (failure) std::rethrow_exception(failure);
    return ran;
}

}  // namespace btforge
