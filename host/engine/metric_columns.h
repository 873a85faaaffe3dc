#pragma once

#include <span>
#include <string_view>

#include "reference/metrics/metrics.h"

namespace btforge {

// One column of the results: how to read it from a Metrics row, whether a
// larger value is better (ranking direction) and whether it is a count.
struct MetricColumn {
    std::string_view name;
    bool higher_is_better;
    bool integral;
    double (*read)(const Metrics&);
};

// In SPEC §7 order, which is also the order of Metrics' fields.
std::span<const MetricColumn> metric_columns();
const MetricColumn* find_metric_column(std::string_view name);

}  // namespace btforge
