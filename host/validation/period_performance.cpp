#include "host/validation/period_performance.h"

#include <cmath>

#include "host/validation/cscv_split.h"

namespace btforge {

namespace {

struct Sums {
    double sum = 0.0;
    double sum_squares = 0.0;
    double sum_cubes = 0.0;
    double sum_fourths = 0.0;
    double downside = 0.0;
    std::int64_t bars = 0;
};

Sums sums_of(std::span<const PeriodStatistics> periods, std::uint32_t mask) {
    Sums s;
    for (std::size_t p = 0; p < periods.size(); ++p) {
        if ((mask >> p & 1u) == 0) continue;
        s.sum += periods[p].return_sum;
        s.sum_squares += periods[p].return_sum_squares;
        s.sum_cubes += periods[p].return_sum_cubes;
        s.sum_fourths += periods[p].return_sum_fourths;
        s.downside += periods[p].downside_sum_squares;
        s.bars += periods[p].bars;
    }
    return s;
}

}  // namespace

double sharpe_of_periods(std::span<const PeriodStatistics> periods, std::uint32_t mask) {
    const Sums s = sums_of(periods, mask);
    return sharpe_of_sums(s.sum, s.sum_squares, s.bars);
}

double sortino_of_periods(std::span<const PeriodStatistics> periods, std::uint32_t mask) {
    const Sums s = sums_of(periods, mask);
    if (s.bars == 0 || !(s.downside > 0.0)) return 0.0;
    const double n = static_cast<double>(s.bars);
    return s.sum / n / std::sqrt(s.downside / n);
}

ReturnMoments moments_of_periods(std::span<const PeriodStatistics> periods, std::uint32_t mask) {
    const Sums s = sums_of(periods, mask);
    ReturnMoments m{sharpe_of_sums(s.sum, s.sum_squares, s.bars), 0.0, 3.0, s.bars};
    // Note [Undefined statistics]: what sharpe_of_sums makes 0 is said here.
    if (!std::isfinite(s.sum) || !std::isfinite(s.sum_squares) || !std::isfinite(s.sum_cubes) ||
        !std::isfinite(s.sum_fourths)) {
        m.undefined = kNotFiniteReturns;
        return m;
    }
    if (s.bars == 0) {
        m.undefined = "no bar";
        return m;
    }
    const double n = static_cast<double>(s.bars);
    const double mean = s.sum / n;
    const double a2 = s.sum_squares / n;
    const double a3 = s.sum_cubes / n;
    const double a4 = s.sum_fourths / n;
    const double m2 = a2 - mean * mean;
    if (!(m2 > 0.0)) {
        m.undefined = kNoVariance;
        return m;
    }
    const double m3 = a3 - 3.0 * mean * a2 + 2.0 * mean * mean * mean;
    const double m4 = a4 - 4.0 * mean * a3 + 6.0 * mean * mean * a2 - 3.0 * mean * mean * mean * mean;
    m.skewness = m3 / (m2 * std::sqrt(m2));
    m.kurtosis = m4 / (m2 * m2);
    return m;
}

double return_of_periods(std::span<const PeriodStatistics> periods, int first, int last) {
    const double start = periods[static_cast<std::size_t>(first)].start_equity;
    return start > 0.0 ? periods[static_cast<std::size_t>(last)].end_equity / start - 1.0 : 0.0;
}

std::int64_t bars_of_periods(std::span<const PeriodStatistics> periods, std::uint32_t mask) {
    return sums_of(periods, mask).bars;
}

}  // namespace btforge
