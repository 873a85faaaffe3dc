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
// (indicator, output, parameter values) and every combination reads the same
// buffer. The distinct keys are enumerated up front from the value lists of
// the parameters each indicator use reads, so no combination ever waits on
// another's computation and the cache is read-only while the sweep runs.
class SeriesCache {
public:
    // `values_per_parameter` holds, in spec order, every value a parameter can
    // take in this run (the grid's list, or a single value for a replay).
    static SeriesCache build(const StrategySpec& spec, const Market& market,
                             std::span<const std::vector<double>> values_per_parameter, int threads);

    // The series of each indicator use (spec order) for one combination.
    void resolve(std::span<const double> parameter_values, std::span<const double*> out) const;
    // Where that series of `use` starts in data(), in doubles.
    std::size_t offset(std::size_t use, std::span<const double> parameter_values) const;

    // Every series, one after the other, each series_length() long: one
    // buffer a device can take in a single copy.
    const double* data() const { return buffer_.data(); }
    std::size_t series_length() const { return series_length_; }
    std::size_t distinct_series() const { return index_.size(); }
    std::size_t bytes() const { return buffer_.size() * sizeof(double); }
    double build_seconds() const { return build_seconds_; }

private:
    struct Key {
        std::string indicator;
        std::string output;
        std::vector<double> args;
        auto operator<=>(const Key&) const = default;
    };
    Key key_for(std::size_t use, std::span<const double> parameter_values) const;

    const StrategySpec* spec_ = nullptr;
    std::map<Key, std::size_t> index_;  // key -> series number
    std::vector<double> buffer_;
    std::size_t series_length_ = 0;
    double build_seconds_ = 0.0;
};

}  // namespace btforge
