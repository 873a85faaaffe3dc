#pragma once

#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "reference/margin/margin_schedule.h"

namespace btforge {

// An instruments file's margin keys for one symbol (Note [Maintenance margin
// tiers]):
//   "maintenance_margin": [{"notional_floor": 0, "rate": 0.004, "amount": 0},
//                          {"notional_floor": 50000, "rate": 0.005, "amount": 50}, ...]
//   "liquidation_fee": 0.01
// as an exchange publishes its brackets (Binance's leverage brackets give
// notionalFloor, maintMarginRatio and cum). 1..kMaxMarginTiers tiers; the
// first floor is 0 and the floors increase; every rate is in (0, 1) and
// none is below the one before; "amount" may be left out, and is then the
// one that keeps the maintenance margin continuous at the floor; when given
// it must be that one (within 1e-9 of it, relatively), because the
// liquidation price assumes it (Note [Liquidation price]). The fee is a
// fraction of notional in [0, 0.1). Either key replaces that part of the
// default (Note [Default margin schedule]). Errors are DataErrors of rule
// bad-margin-tier or out-of-range naming the JSON path.
void read_maintenance_tiers(const nlohmann::json& value, const std::string& file_label, const std::string& where,
                            MarginSchedule& schedule);
void read_liquidation_fee(const nlohmann::json& value, const std::string& file_label, const std::string& where,
                          MarginSchedule& schedule);

// The rules above on a schedule, wherever it comes from (an instruments
// file, a market cache: Note [Market rules]): the first one that `schedule`
// breaks, with `where` the JSON path below the symbol's object at which an
// instruments file holds the value ("/maintenance_margin/1/rate",
// "/liquidation_fee"); nullopt when it keeps them all.
struct MarginScheduleBreak {
    std::string rule;  // bad-margin-tier, out-of-range
    std::string where;
    std::string message;
};
std::optional<MarginScheduleBreak> margin_schedule_break(const MarginSchedule& schedule);

// The schedule as the instruments file writes it (every amount written).
nlohmann::json maintenance_tiers_json(const MarginSchedule& schedule);

// Same tiers and fee (the arrays beyond n_tiers are not looked at).
bool same_margin_schedule(const MarginSchedule& a, const MarginSchedule& b);

}  // namespace btforge
