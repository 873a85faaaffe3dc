#include "host/data/margin_schedule_input.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "host/data/data_error.h"
#include "host/json/checked_json.h"

namespace btforge {

namespace {

using nlohmann::json;

// Notionals beyond this are a unit mistake (no exchange publishes a tier
// at a quadrillion of quote currency), and keep the products finite.
constexpr double kMaxNotionalFloor = 1e15;

[[noreturn]] void bad_tier(const std::string& file_label, const std::string& where, const std::string& message) {
    throw DataError(file_label, 0, 0, "bad-margin-tier", where + ": " + message);
}

std::string shown(const json& value) {
    std::string text = value.dump();
    return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

double number_at(const json& tier, const char* key, const std::string& file_label, const std::string& where) {
    const auto found = tier.find(key);
    if (found == tier.end()) bad_tier(file_label, where, std::string("expected \"") + key + "\"");
    if (!found->is_number() || !std::isfinite(found->get<double>())) {
        bad_tier(file_label, json_pointer_child(where, key), "expected a number, got " + shown(*found));
    }
    return found->get<double>();
}

}  // namespace

void read_maintenance_tiers(const json& value, const std::string& file_label, const std::string& where,
                            MarginSchedule& schedule) {
    if (!value.is_array() || value.empty() || value.size() > static_cast<std::size_t>(kMaxMarginTiers)) {
        bad_tier(file_label, where,
                 "expected an array of 1 to " + std::to_string(kMaxMarginTiers) +
                     " tiers {\"notional_floor\", \"rate\", \"amount\"}, got " + shown(value));
    }
    MarginSchedule read = schedule;
    read.n_tiers = static_cast<int>(value.size());
    for (int k = 0; k < read.n_tiers; ++k) {
        const json& tier = value[static_cast<std::size_t>(k)];
        const std::string at = json_pointer_child(where, static_cast<std::size_t>(k));
        if (!tier.is_object()) bad_tier(file_label, at, "expected an object, got " + shown(tier));
        for (const auto& [key, ignored] : tier.items()) {
            (void)ignored;
            if (key != "notional_floor" && key != "rate" && key != "amount") {
                bad_tier(file_label, json_pointer_child(at, key), "unknown key (expected notional_floor, rate, amount)");
            }
        }
        const double floor = number_at(tier, "notional_floor", file_label, at);
        const double rate = number_at(tier, "rate", file_label, at);
        if (k == 0 && floor != 0.0) {
            bad_tier(file_label, json_pointer_child(at, "notional_floor"), "the first tier must start at 0");
        }
        if (k > 0 && !(floor > read.notional_floor[k - 1])) {
            bad_tier(file_label, json_pointer_child(at, "notional_floor"),
                     "floors must increase from tier to tier");
        }
        if (floor > kMaxNotionalFloor) {
            bad_tier(file_label, json_pointer_child(at, "notional_floor"), "expected at most 1e15");
        }
        if (!(rate > 0.0 && rate < 1.0)) {
            bad_tier(file_label, json_pointer_child(at, "rate"), "expected a maintenance margin rate in (0, 1)");
        }
        if (k > 0 && rate < read.rate[k - 1]) {
            bad_tier(file_label, json_pointer_child(at, "rate"), "a rate must not be below the tier before's");
        }
        // Binance's maintenance amount: continuity of N * rate - amount at the floor.
        const double continuous = k == 0 ? 0.0 : read.amount[k - 1] + floor * (rate - read.rate[k - 1]);
        double amount = continuous;
        if (tier.contains("amount")) {
            amount = number_at(tier, "amount", file_label, at);
            if (std::fabs(amount - continuous) > 1e-9 * std::fmax(1.0, std::fabs(continuous))) {
                bad_tier(file_label, json_pointer_child(at, "amount"),
                         "expected " + json(continuous).dump() +
                             ", the amount that keeps the maintenance margin continuous at this floor "
                             "(amount before + floor * (rate - rate before))");
            }
        }
        read.notional_floor[k] = floor;
        read.rate[k] = rate;
        read.amount[k] = amount;
    }
    for (int k = read.n_tiers; k < kMaxMarginTiers; ++k) {
        read.notional_floor[k] = 0.0;
        read.rate[k] = 0.0;
        read.amount[k] = 0.0;
    }
    schedule = read;
}

void read_liquidation_fee(const json& value, const std::string& file_label, const std::string& where,
                          MarginSchedule& schedule) {
    const double fee = value.is_number() ? value.get<double>() : -1.0;
    if (!(fee >= 0.0 && fee < 0.1)) {
        throw DataError(file_label, 0, 0, "out-of-range",
                        where + ": expected a fraction of notional in [0, 0.1), got " + shown(value));
    }
    schedule.liquidation_fee = fee;
}

json maintenance_tiers_json(const MarginSchedule& schedule) {
    json tiers = json::array();
    for (int k = 0; k < schedule.n_tiers; ++k) {
        tiers.push_back({{"notional_floor", schedule.notional_floor[k]},
                         {"rate", schedule.rate[k]},
                         {"amount", schedule.amount[k]}});
    }
    return tiers;
}

bool same_margin_schedule(const MarginSchedule& a, const MarginSchedule& b) {
    if (a.n_tiers != b.n_tiers || a.liquidation_fee != b.liquidation_fee) return false;
    for (int k = 0; k < a.n_tiers && k < kMaxMarginTiers; ++k) {
        if (a.notional_floor[k] != b.notional_floor[k] || a.rate[k] != b.rate[k] || a.amount[k] != b.amount[k]) {
            return false;
        }
    }
    return true;
}

}  // namespace btforge
