#pragma once

#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "host/data/market.h"
#include "host/spec/strategy_spec.h"

namespace btforge {

// Note [Indicator series are shared]
// A sweep computes each indicator series once per distinct
// (indicator, output, input column, parameter values) and every combination reads the same
// buffer. The distinct keys are enumerated up front from the value lists of
// the parameters each indicator use reads, so no combination ever waits on
// another's computation and the cache is read-only while the sweep runs.

// One distinct series: an indicator output of a price column at fixed
// parameter values.
struct SeriesKey {
    std::string indicator;
    std::string output;
    std::string input;  // IndicatorUse::input (Note [Indicator input column])
    std::vector<double> args;
    auto operator<=>(const SeriesKey&) const = default;
};

class SeriesCache {
public:
    // Enumerates the distinct series (Note [Indicator series are shared])
    // without computing any: a device backend computes them itself
    // (Note [Indicator launches] in generated/btforge_layout.h). data() is
    // null and computed() false.
    static SeriesCache plan(const StrategySpec& spec, const Market& market,
                            std::span<const std::vector<double>> values_per_parameter);

    // plan(), then every series computed by the reference on `threads` CPU
    // threads. `values_per_parameter` holds, in spec order, every value a
    // parameter can take in this run (the grid's list, or a single value for
    // a replay).
    static SeriesCache build(const StrategySpec& spec, const Market& market,
                             std::span<const std::vector<double>> values_per_parameter, int threads);

    bool computed() const { return buffer_.size() == keys_.size() * series_length_; }
    // The distinct series in buffer order.
    const std::vector<SeriesKey>& keys() const { return keys_; }

    // The series of each indicator use (spec order) for one combination.
    void resolve(std::span<const double> parameter_values, std::span<const double*> out) const;
    // Where that series of `use` starts in data(), in doubles.
    std::size_t offset(std::size_t use, std::span<const double> parameter_values) const;

    // Every series, one after the other, each series_length() long: one
    // buffer a device can take in a single copy. Null for a plan.
    const double* data() const { return computed() && !buffer_.empty() ? buffer_.data() : nullptr; }
    std::size_t series_length() const { return series_length_; }
    std::size_t distinct_series() const { return index_.size(); }
    std::size_t bytes() const { return keys_.size() * series_length_ * sizeof(double); }
    double build_seconds() const { return build_seconds_; }

private:
    SeriesKey key_for(std::size_t use, std::span<const double> parameter_values) const;

    const StrategySpec* spec_ = nullptr;
    std::vector<SeriesKey> keys_;             // series number -> key
    std::map<SeriesKey, std::size_t> index_;  // key -> series number
    std::vector<double> buffer_;
    std::size_t series_length_ = 0;
    double build_seconds_ = 0.0;
};

}  // namespace btforge
