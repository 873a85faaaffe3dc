#pragma once

#include <span>
#include <string_view>

#include "reference/metrics/period_statistics.h"

namespace btforge {

// One field of PeriodStatistics (Note [Period statistics]): its name in
// reports, whether it is a count, and how to read it.
struct PeriodColumn {
    std::string_view name;
    bool integral;
    double (*read)(const PeriodStatistics&);
};

// In the order of PeriodStatistics' fields (the reserved one left out).
std::span<const PeriodColumn> period_columns();

}  // namespace btforge
