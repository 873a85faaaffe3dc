#include "host/engine/period_columns.h"

namespace btforge {

namespace {

constexpr PeriodColumn kColumns[] = {
    {"return_sum", false, [](const PeriodStatistics& p) { return p.return_sum; }},
    {"return_sum_squares", false, [](const PeriodStatistics& p) { return p.return_sum_squares; }},
    {"downside_sum_squares", false, [](const PeriodStatistics& p) { return p.downside_sum_squares; }},
    {"return_sum_cubes", false, [](const PeriodStatistics& p) { return p.return_sum_cubes; }},
    {"return_sum_fourths", false, [](const PeriodStatistics& p) { return p.return_sum_fourths; }},
    {"start_equity", false, [](const PeriodStatistics& p) { return p.start_equity; }},
    {"end_equity", false, [](const PeriodStatistics& p) { return p.end_equity; }},
    {"max_drawdown", false, [](const PeriodStatistics& p) { return p.max_drawdown; }},
    {"gross_profit", false, [](const PeriodStatistics& p) { return p.gross_profit; }},
    {"gross_loss", false, [](const PeriodStatistics& p) { return p.gross_loss; }},
    {"fees", false, [](const PeriodStatistics& p) { return p.fees; }},
    {"funding", false, [](const PeriodStatistics& p) { return p.funding; }},
    {"bars", true, [](const PeriodStatistics& p) { return static_cast<double>(p.bars); }},
    {"trades", true, [](const PeriodStatistics& p) { return static_cast<double>(p.trades); }},
    {"wins", true, [](const PeriodStatistics& p) { return static_cast<double>(p.wins); }},
};
// The list above names every field but `reserved`: a new one must join it.
static_assert(sizeof(PeriodStatistics) == 12 * sizeof(double) + 4 * sizeof(int), "a period field was added: list it");

}  // namespace

std::span<const PeriodColumn> period_columns() { return kColumns; }

}  // namespace btforge
