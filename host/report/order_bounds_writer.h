#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "host/engine/metric_columns.h"
#include "host/spec/combination_space.h"
#include "host/spec/strategy_spec.h"
#include "reference/metrics/metrics.h"

namespace btforge {

// One kept row's metrics under each order of the inside of its bars (Note
// [Bounds of the order inside a bar], host/app/intrabar_bounds.h).
struct OrderBounds {
    std::uint64_t combination_id = 0;
    Metrics rule{};               // the row's own (the sweep's)
    Metrics favourable_first{};   // legs +1
    Metrics adverse_first{};      // legs -1
};

// OUTPUT.bounds.csv: rank, order (rule, favourable_first, adverse_first),
// combination_id, the parameters and every metric of SPEC §7, three lines
// per row in rank order.
void write_order_bounds_csv(std::ostream& out, const StrategySpec& spec, const CombinationSpace& space,
                            std::span<const OrderBounds> bounds);

// What the result JSON says of them ("intrabar_bounds"): the file that
// holds them (its name beside the JSON), how many rows, and the orders of
// its lines.
nlohmann::ordered_json order_bounds_json(std::span<const OrderBounds> bounds, const std::string& file_name);

// The lines printed after the table: `metric` of the best row by our rule
// and under each order, its ambiguous bars, and the row whose two orders
// lie furthest apart in it.
std::string format_order_bounds(std::span<const OrderBounds> bounds, const MetricColumn& metric);

}  // namespace btforge
