#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "host/data/market.h"
#include "host/data/timestamp_parse.h"

namespace btforge {

// Note [Funding history]
// Exchanges publish each perpetual's funding as a history: a time and a rate
// per settlement, at times of their choosing (every 8 hours, every 4, every
// hour, shifted after a listing), which need not be bar times. A funding
// file is a CSV with the columns `timestamp,symbol,rate` (header names in any
// order and case; other columns ignored; timestamps as the market's, Note
// [Timestamp forms]; |rate| <= 1 per settlement; symbols under the market's
// rule for names; any row order; at least one rate).
// A file holds what an exchange publishes, and is refused otherwise at the
// later row of the two in the file, naming the other's line: one rate per
// symbol and time (duplicate-timestamp), and settlements of a symbol at
// least kMinSettlementSpacingMs apart (settlements-too-close). No exchange
// settles more often than hourly; 1,000 settlements within an hour (rates
// sampled every few seconds, a column of predicted rates) were charged as
// one settlement of their summed rate, 850 times a position's value. The
// spacing is an hour less a minute, so that times published a few
// milliseconds or seconds late pass, and it is not --funding-interval-hours:
// an exchange shortens a symbol's interval to 4 or 1 hours while its rate
// is capped, so one history mixes intervals. What `data import --format
// binance-funding` writes meets the same rules (Note [Market import]).
// For a symbol it names, the file replaces the market's
// funding (the CSV's funding_rate column, the constant, the synthetic rates):
// a settlement at time τ is charged at the symbol's own bar k with
// own bar k-1 < τ <= own bar k, at that bar's open, as SPEC §6 charges every
// funding. Several settlements in one bar (a gap, or bars longer than the
// exchange's interval) are charged one by one when their rates are equal,
// as the market's own funding charges several funding times in a bar (so a
// history that lists what a funding column charges gives the same bits),
// and as one settlement of their summed rate when they differ (the kernel
// charges one rate per bar). A settlement at or before the
// symbol's first bar, or after its last, has no bar to be charged at: it is
// counted and said, not charged. Symbols of the file that the market lacks
// are said too; market symbols the file lacks keep their own funding.

struct FundingSettlement {
    std::int64_t time_ms = 0;
    double rate = 0.0;
    std::size_t line = 0;  // in the file
};

inline constexpr std::int64_t kMinSettlementSpacingMs = 59 * 60'000;

// Note [Funding history]: whether `later` (of one symbol, not before
// `earlier`) comes too soon after `earlier` to be a settlement of its own;
// and the message that says so at one of two such settlements, `here`,
// naming the place of the other, `there`.
bool settlements_too_close(const FundingSettlement& earlier, const FundingSettlement& later);
std::string settlements_too_close_message(const std::string& symbol, const FundingSettlement& here,
                                          const FundingSettlement& other, const std::string& there);

struct FundingHistory {
    std::string file;
    std::vector<std::string> symbols;                     // in order of first appearance
    std::vector<std::vector<FundingSettlement>> settlements;  // per symbol, in time order
    std::optional<EpochUnit> epoch_unit;                  // of its integer timestamps, when it has some
    bool epoch_unit_detected = false;
};

// Reads a funding file. Throws DataError (file, line, field, rule):
// cannot-read, empty-file, missing-column, duplicate-column,
// wrong-field-count, bad-quoting, unterminated-quote, bad-timestamp,
// ambiguous-timestamp-unit, sub-millisecond-timestamp,
// timestamp-out-of-range, bad-symbol, not-a-number,
// funding-rate-out-of-range, duplicate-timestamp, settlements-too-close.
FundingHistory load_funding_history(const std::filesystem::path& file, std::optional<EpochUnit> timestamp_unit);

// What applying a history did, for the run header.
struct FundingHistoryUse {
    std::size_t symbols_covered = 0;        // market symbols the file gives rates for
    std::size_t settlements_charged = 0;
    std::size_t bars_charged = 0;           // bars that charge at least one
    std::size_t before_first_bar = 0;       // not charged: Note [Funding history]
    std::size_t after_last_bar = 0;
    std::vector<std::string> unknown_symbols;        // in the file, not in the market
    std::vector<std::string> symbols_without_rates;  // in the market, not in the file
};

// Note [Funding history]: rewrites the funding of every market symbol the
// history names.
FundingHistoryUse apply_funding_history(Market& market, const FundingHistory& history);

// One line for the run header: where funding comes from and what was not charged.
std::string describe_funding_history_use(const FundingHistory& history, const FundingHistoryUse& use);

}  // namespace btforge
