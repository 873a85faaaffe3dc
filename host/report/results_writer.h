#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/engine/metric_columns.h"
#include "host/engine/top_n.h"
#include "host/report/outcome_groups.h"
#include "host/report/ranked_rows.h"
#include "host/spec/combination_space.h"
#include "host/spec/strategy_spec.h"

namespace btforge {

// What ran, for the header of every report: a result file must say which
// backend produced it (SPEC §8).
// The evaluated window of the market (Note [Market windows]): its first and
// last bar's times, where it starts, its bars, and the bars before it that
// only warmed up the indicators (first_bar of them).
struct WindowFacts {
    std::string first_time;
    std::string last_time;
    int first_bar = 0;
    int n_bars = 0;
};

struct RunSummary {
    std::string strategy;
    std::string spec_origin;
    std::string grid_origin;
    // Note [Run header]: what changes results, in words.
    std::string market;   // e.g. "synthetic (seed 42, 60-minute bars): 4 symbols x 17520 bars, ..." or the CSV
    std::string timestamps;
    WindowFacts window;
    std::string funding;
    bool synthetic_market = false;      // Note [Synthetic market said plainly]
    nlohmann::ordered_json instruments;  // Note [Instruments stated]
    std::string backend;  // e.g. "cpu (2 threads)"
    std::uint64_t combinations = 0;
    std::uint64_t distinct_outcomes = 0;  // Note [Distinct outcomes]
    std::uint64_t invalid_rows = 0;  // Note [Rows with non-finite metrics]
    std::uint64_t cells = 0;  // bars x symbols x combinations
    double seconds = 0.0;
    std::string rank_by;
    int min_trades = kDefaultMinTrades;  // Note [Rows with few trades]
    AccountSpec account;  // the values the run used (Note [Account settings])
    // Note [Inputs of a run]: the options that ran it, to run it again.
    nlohmann::ordered_json inputs;
    // Note [Identity of a run's inputs]: what a replay of a row must match.
    nlohmann::json identity;
    // Note [Bounds of the order inside a bar]: where the kept rows' bounds are, when the run computed them.
    nlohmann::ordered_json intrabar_bounds;
};

// The account as the result JSON states it: initial_equity, maker_fee,
// taker_fee, slippage, margin_mode.
nlohmann::ordered_json account_json(const AccountSpec& account);

// Rows are written in rank order (best first); rank is 1-based. Every row
// says whether its metrics are valid (Note [Rows with non-finite metrics])
// and whether it has at least `min_trades` trades (enough_trades, Note [Rows
// with few trades]; the JSON takes summary.min_trades). Both stop early
// when `out` goes bad (a cancel: Note [No half-written outputs]). Every row
// states its outcome (Note [Distinct outcomes]): how many combinations have
// it and the smallest id among them (the outcome's own row when the rows
// are the top outcomes; with --all-rows, what to group rows by); the JSON
// adds, for the rows whose outcome `outcomes` describes, the values of each
// parameter that differs inside the outcome.
void write_results_csv(std::ostream& out, const StrategySpec& spec, const CombinationSpace& space,
                       const RankedRows& ranked, const OutcomeIndex& outcomes, int min_trades);
void write_results_json(std::ostream& out, const RunSummary& summary, const StrategySpec& spec,
                        const CombinationSpace& space, const RankedRows& ranked, const OutcomeIndex& outcomes);

// Note [The ranked table]
// The table printed after a sweep: rank, id, every parameter the grid varies
// (whether or not it differs among the shown rows: equal values are a
// finding, not noise) and key metrics, numbers at 6 significant digits; a
// "valid" column appears when a shown row has non-finite metrics, an
// "enough_trades" column when a shown row has fewer than order.min_trades
// trades (Note [Rows with few trades]), with a line under the table that
// says what it means. Each row is an outcome (Note [Distinct outcomes]):
// a "combinations" column counts the combinations that have it, and a
// parameter column shows every value they take ("any" for each of the
// grid's values, "5|10|20", or the first four and how many), so that a
// parameter the outcome does not depend on reads as such; "-" where the
// parameter's condition does not hold (Note [Conditional axes]). A line over
// the table says how many distinct outcomes the combinations gave.
std::string format_ranked_table(const StrategySpec& spec, const CombinationSpace& space,
                                const std::vector<ResultRow>& ranked, const OutcomeIndex& outcomes,
                                const RankOrder& order, std::size_t max_rows);

// "name=value" for every metric, one per line, as replay prints it.
std::string format_metrics(const Metrics& metrics);

std::string format_metric_value(const MetricColumn& column, const Metrics& metrics);

// A metric as the ranked table shows it (Note [The ranked table]): counts
// whole, the others at 6 significant digits.
std::string format_metric_shown(const MetricColumn& column, const Metrics& metrics);

}  // namespace btforge
