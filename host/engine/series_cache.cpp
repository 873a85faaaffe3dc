#include "host/engine/series_cache.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>

#include "host/engine/worker_threads.h"
#include "host/indicators/aligned_series.h"

namespace btforge {

SeriesKey SeriesCache::key_for(std::size_t use, std::span<const double> parameter_values) const {
    const IndicatorUse& u = spec_->indicators[use];
    SeriesKey key{u.indicator, u.output, u.input, {}};
    key.args.reserve(u.args.size());
    for (const IndicatorArg& arg : u.args) {
        key.args.push_back(arg.parameter ? parameter_values[*arg.parameter] : arg.literal);
    }
    return key;
}

SeriesCache SeriesCache::plan(const StrategySpec& spec, const Market& market,
                              std::span<const std::vector<double>> values_per_parameter) {
    SeriesCache cache;
    cache.spec_ = &spec;
    for (const IndicatorUse& use : spec.indicators) {
        // Odometer over the value lists of the parameters this use reads.
        std::vector<std::size_t> digit(use.args.size(), 0);
        while (true) {
            SeriesKey key{use.indicator, use.output, use.input, {}};
            for (std::size_t a = 0; a < use.args.size(); ++a) {
                const IndicatorArg& arg = use.args[a];
                key.args.push_back(arg.parameter ? values_per_parameter[*arg.parameter][digit[a]] : arg.literal);
            }
            if (cache.index_.emplace(key, cache.keys_.size()).second) {
                validate_series_request(key.indicator, key.output, key.args, key.input);
                cache.keys_.push_back(key);
            }
            std::size_t a = 0;
            for (; a < use.args.size(); ++a) {
                const IndicatorArg& arg = use.args[a];
                std::size_t radix = arg.parameter ? values_per_parameter[*arg.parameter].size() : 1;
                if (++digit[a] < radix) break;
                digit[a] = 0;
            }
            if (a == use.args.size()) break;
        }
    }
    cache.series_length_ = static_cast<std::size_t>(market.n_symbols()) * static_cast<std::size_t>(market.n_bars());
    return cache;
}

SeriesCache SeriesCache::build(const StrategySpec& spec, const Market& market,
                               std::span<const std::vector<double>> values_per_parameter, int threads) {
    auto started = std::chrono::steady_clock::now();
    SeriesCache cache = plan(spec, market, values_per_parameter);
    const std::vector<SeriesKey>& keys = cache.keys_;
    cache.buffer_.resize(keys.size() * cache.series_length_);
    std::atomic<std::size_t> next{0};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    auto worker = [&] {
        for (std::size_t k = next++; k < keys.size(); k = next++) {
            try {
                std::vector<double> series =
                    compute_aligned_series(market, keys[k].indicator, keys[k].output, keys[k].args, keys[k].input);
                std::copy(series.begin(), series.end(),
                          cache.buffer_.begin() + static_cast<std::ptrdiff_t>(k * cache.series_length_));
            } catch (...) {
                std::lock_guard lock(failure_mutex);
                if (!failure) failure = std::current_exception();
            }
        }
    };
    // Note [Threads that cannot start]: fewer threads only take longer.
    run_worker_threads(std::max(1, std::min<int>(threads, static_cast<int>(keys.size()))), worker);
    if (failure) std::rethrow_exception(failure);
    cache.build_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return cache;
}

std::size_t SeriesCache::offset(std::size_t use, std::span<const double> parameter_values) const {
    auto found = index_.find(key_for(use, parameter_values));
    if (found == index_.end()) {
        throw std::logic_error("indicator series '" + spec_->indicators[use].id +
                               "' was not prepared for this combination's parameter values");
    }
    return found->second * series_length_;
}

void SeriesCache::resolve(std::span<const double> parameter_values, std::span<const double*> out) const {
    if (!computed()) {
        throw std::logic_error("the indicator series were planned, not computed: this sweep needs SeriesCache::build");
    }
    for (std::size_t use = 0; use < spec_->indicators.size(); ++use) out[use] = data() + offset(use, parameter_values);
}

}  // namespace btforge
