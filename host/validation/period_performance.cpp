#include "host/validation/period_performance.h"

#include <cmath>

#include "host/validation/cscv_split.h"

namespace btforge {

namespace {

struct Sums {
    double sum = 0.0;
    double sum_squares = 0.0;
    double downside = 0.0;
    std::int64_t bars = 0;
};

Sums sums_of(std::span<const PeriodStatistics> periods, std::uint32_t mask) {
    Sums s;
    for (std::size_t p = 0; p < periods.size(); ++p) {
        if ((mask >> p & 1u) == 0) continue;
        s.sum += periods[p].return_sum;
        s.sum_squares += periods[p].return_sum_squares;
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

double return_of_periods(std::span<const PeriodStatistics> periods, int first, int last) {
    const double start = periods[static_cast<std::size_t>(first)].start_equity;
    return start > 0.0 ? periods[static_cast<std::size_t>(last)].end_equity / start - 1.0 : 0.0;
}

std::int64_t bars_of_periods(std::span<const PeriodStatistics> periods, std::uint32_t mask) {
    return sums_of(periods, mask).bars;
}

}  // namespace btforge
