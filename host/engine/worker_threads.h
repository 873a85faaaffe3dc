#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace btforge {

// Note [Threads that cannot start]
// A pool asks for `requested` threads but works with as many as the system
// starts: std::thread throws std::system_error when it cannot (EAGAIN: the
// thread limit or no memory for another stack), and a vector of running
// threads destroyed by that exception would call std::terminate. So the
// starting stops at the first failure, the calling thread always works too,
// and every worker takes its work from a shared counter, so the threads that
// did start do all of it: the results are the same for any thread count
// (Note [Thread-count independence]), only slower. The caller learns how
// many ran and why not more, and says so.
struct WorkerThreads {
    int started = 1;        // threads that ran `worker`, the calling one included
    std::string shortfall;  // empty, or why fewer than requested started
};

// Runs `worker` on up to `requested` threads (at least the calling one) and
// joins them. `worker` must not throw: catch inside and report.
WorkerThreads run_worker_threads(int requested, const std::function<void()>& worker);

// Runs `tile(index, first, end)` for each tile [first, end) of `tile_size`
// items of `count`, index = first / tile_size, on run_worker_threads. Which
// thread runs a tile is not fixed, so `tile` writes only to results of its
// own index, and the caller combines them in index order: the results are
// then the same for any thread count. The first exception thrown by a
// tile is rethrown here, after the threads stopped taking tiles.
WorkerThreads run_tiles(int requested, std::uint64_t count, std::uint64_t tile_size,
                        const std::function<void(std::uint64_t, std::uint64_t, std::uint64_t)>& tile);

}  // namespace btforge
