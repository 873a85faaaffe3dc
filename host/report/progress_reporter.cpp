#include "host/report/progress_reporter.h"

#include <chrono>
#include <cstdio>

#include <unistd.h>

namespace btforge {

ProgressReporter::ProgressReporter(std::string label, std::uint64_t total, const std::atomic<std::uint64_t>& done,
                                   double cells_per_item)
    : label_(std::move(label)), total_(total), done_(done), cells_per_item_(cells_per_item) {
    thread_ = std::thread([this] { run(); });
}

ProgressReporter::~ProgressReporter() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void ProgressReporter::run() {
    using clock = std::chrono::steady_clock;
    const bool terminal = ::isatty(STDERR_FILENO) != 0;
    const auto started = clock::now();
    const auto quiet_period = std::chrono::seconds(2);
    const auto interval = terminal ? std::chrono::seconds(1) : std::chrono::seconds(10);
    auto next_print = started + quiet_period;
    std::unique_lock lock(mutex_);
    while (!wake_.wait_until(lock, next_print, [this] { return stop_; })) {
        double elapsed = std::chrono::duration<double>(clock::now() - started).count();
        std::uint64_t done = done_.load();
        double fraction = total_ > 0 ? static_cast<double>(done) / static_cast<double>(total_) : 0.0;
        double rate = elapsed > 0 ? static_cast<double>(done) * cells_per_item_ / elapsed : 0.0;
        double eta = fraction > 0 ? elapsed * (1.0 - fraction) / fraction : 0.0;
        // Work that is not counted in cells (cells_per_item 0) shows no rate.
        char rate_text[48] = "";
        if (cells_per_item_ > 0.0) std::snprintf(rate_text, sizeof rate_text, ", %.3g cells/s", rate);
        std::fprintf(stderr, "%s%s: %llu/%llu (%.1f%%)%s, ETA %.0fs%s", terminal ? "\r" : "", label_.c_str(),
                     static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_), 100.0 * fraction,
                     rate_text, eta, terminal ? "   " : "\n");
        std::fflush(stderr);
        printed_ = true;
        next_print += interval;
    }
    if (printed_ && terminal) std::fputc('\n', stderr);
}

}  // namespace btforge
