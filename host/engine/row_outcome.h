#pragma once

#include <span>

#include "host/engine/outcome_key.h"
#include "reference/metrics/metrics.h"
#include "reference/metrics/period_statistics.h"

namespace btforge {

// The key of a combination's outcome (Note [Distinct outcomes]): its metrics
// in metric_columns() order, then each of `periods` in period_columns()
// order (none when the run keeps no period statistics).
OutcomeKey outcome_of(const Metrics& metrics, std::span<const PeriodStatistics> periods);

}  // namespace btforge
