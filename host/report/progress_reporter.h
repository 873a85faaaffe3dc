#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace btforge {

// Prints "<label>: done/total (pct), rate, ETA" to stderr while long work
// runs. Silent for the first two seconds, so quick runs stay quiet; on a
// terminal it rewrites one line every second, otherwise (logs, CI) it prints
// a line every ten seconds.
class ProgressReporter {
public:
    ProgressReporter(std::string label, std::uint64_t total, const std::atomic<std::uint64_t>& done,
                     double cells_per_item);
    ProgressReporter(const ProgressReporter&) = delete;
    ProgressReporter& operator=(const ProgressReporter&) = delete;
    ~ProgressReporter();  // stops the thread; ends the line if one was printed

private:
    void run();

    std::string label_;
    std::uint64_t total_;
    const std::atomic<std::uint64_t>& done_;
    double cells_per_item_;
    bool stop_ = false;
    bool printed_ = false;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::thread thread_;
};

}  // namespace btforge
