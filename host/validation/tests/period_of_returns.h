#pragma once

// The validation tests' one way to make a period's statistics from its bar
// returns (Note [Period statistics]): the power sums, the downside sum and
// the bar count, summed in bar order as the reference accumulates them.

#include <vector>

#include "reference/metrics/period_statistics.h"

namespace btforge {

inline PeriodStatistics period_of(const std::vector<double>& r) {
    PeriodStatistics p{};
    for (double x : r) {
        p.return_sum += x;
        p.return_sum_squares += x * x;
        p.return_sum_cubes += x * x * x;
        p.return_sum_fourths += x * x * x * x;
        if (x < 0.0) p.downside_sum_squares += x * x;
    }
    p.bars = static_cast<int>(r.size());
    return p;
}

}  // namespace btforge
