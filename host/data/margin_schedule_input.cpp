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

// A number of a schedule that may not come from JSON (a market cache).
std::string number_text(double x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    return json(x).dump();
}

// Binance's maintenance amount: continuity of N * rate - amount at the floor.
double continuous_amount(const MarginSchedule& s, int k) {
    return k == 0 ? 0.0 : s.amount[k - 1] + s.notional_floor[k] * (s.rate[k] - s.rate[k - 1]);
}

struct TierBreak {
    const char* key;
    std::string message;
};

// The first rule of Note [Maintenance margin tiers] that tier k of `s`
// breaks, the tiers before it being good.
std::optional<TierBreak> tier_break(const MarginSchedule& s, int k) {
    const double floor = s.notional_floor[k];
    const double rate = s.rate[k];
    if (!std::isfinite(floor)) return TierBreak{"notional_floor", "expected a number, got " + number_text(floor)};
    if (!std::isfinite(rate)) return TierBreak{"rate", "expected a number, got " + number_text(rate)};
    if (k == 0 && floor != 0.0) return TierBreak{"notional_floor", "the first tier must start at 0"};
    if (k > 0 && !(floor > s.notional_floor[k - 1])) {
        return TierBreak{"notional_floor", "floors must increase from tier to tier"};
    }
    if (floor > kMaxNotionalFloor) return TierBreak{"notional_floor", "expected at most 1e15"};
    if (!(rate > 0.0 && rate < 1.0)) return TierBreak{"rate", "expected a maintenance margin rate in (0, 1)"};
    if (k > 0 && rate < s.rate[k - 1]) return TierBreak{"rate", "a rate must not be below the tier before's"};
    const double continuous = continuous_amount(s, k);
    if (!(std::fabs(s.amount[k] - continuous) <= 1e-9 * std::fmax(1.0, std::fabs(continuous)))) {
        return TierBreak{"amount", "expected " + json(continuous).dump() +
                                       ", the amount that keeps the maintenance margin continuous at this floor "
                                       "(amount before + floor * (rate - rate before))"};
    }
    return std::nullopt;
}

bool liquidation_fee_in_range(double fee) { return fee >= 0.0 && fee < 0.1; }

constexpr const char* kFeeExpected = "expected a fraction of notional in [0, 0.1)";

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
        read.notional_floor[k] = number_at(tier, "notional_floor", file_label, at);
        read.rate[k] = number_at(tier, "rate", file_label, at);
        // "amount" left out is the one that keeps the margin continuous.
        read.amount[k] =
            tier.contains("amount") ? number_at(tier, "amount", file_label, at) : continuous_amount(read, k);
        if (const auto broken = tier_break(read, k)) {
            bad_tier(file_label, json_pointer_child(at, broken->key), broken->message);
        }
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
    if (!liquidation_fee_in_range(fee)) {
        throw DataError(file_label, 0, 0, "out-of-range", where + ": " + kFeeExpected + ", got " + shown(value));
    }
    schedule.liquidation_fee = fee;
}

std::optional<MarginScheduleBreak> margin_schedule_break(const MarginSchedule& schedule) {
    const std::string tiers = "/maintenance_margin";
    if (schedule.n_tiers < 1 || schedule.n_tiers > kMaxMarginTiers) {
        return MarginScheduleBreak{"bad-margin-tier", tiers,
                                   "expected 1 to " + std::to_string(kMaxMarginTiers) + " tiers, got " +
                                       std::to_string(schedule.n_tiers)};
    }
    for (int k = 0; k < schedule.n_tiers; ++k) {
        if (auto broken = tier_break(schedule, k)) {
            return MarginScheduleBreak{"bad-margin-tier",
                                       json_pointer_child(json_pointer_child(tiers, static_cast<std::size_t>(k)),
                                                          broken->key),
                                       std::move(broken->message)};
        }
    }
    if (!liquidation_fee_in_range(schedule.liquidation_fee)) {
        return MarginScheduleBreak{"out-of-range", "/liquidation_fee",
                                   std::string(kFeeExpected) + ", got " + number_text(schedule.liquidation_fee)};
    }
    return std::nullopt;
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
