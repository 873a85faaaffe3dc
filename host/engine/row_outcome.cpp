#include "host/engine/row_outcome.h"

namespace btforge {

// outcome_of_row lists every field: a new one must join the list (and the
// columns, which the test compares it with).
static_assert(sizeof(Metrics) == 16 * sizeof(double) + 6 * sizeof(int), "a metric was added: list it in outcome_of_row");
static_assert(sizeof(PeriodStatistics) == 12 * sizeof(double) + 4 * sizeof(int),
              "a period field was added: list it in outcome_of_row");

OutcomeKey outcome_of(const Metrics& metrics, std::span<const PeriodStatistics> periods) {
    return outcome_of_row(metrics, periods.data(), static_cast<int>(periods.size()));
}

}  // namespace btforge
