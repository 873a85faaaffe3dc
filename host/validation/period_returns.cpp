#include "host/validation/period_returns.h"

#include <cmath>

namespace btforge {

double sharpe_of_periods(std::span<const PeriodReturns> periods, std::uint32_t mask) {
    double sum = 0.0;
    double sum_squares = 0.0;
    std::int64_t bars = 0;
    for (std::size_t p = 0; p < periods.size(); ++p) {
        if ((mask >> p & 1u) == 0) continue;
        sum += periods[p].sum;
        sum_squares += periods[p].sum_squares;
        bars += periods[p].bars;
    }
    if (bars == 0) return 0.0;
    const double n = static_cast<double>(bars);
    const double mean = sum / n;
    const double variance = sum_squares / n - mean * mean;
    return variance > 0.0 ? mean / std::sqrt(variance) : 0.0;
}

}  // namespace btforge
