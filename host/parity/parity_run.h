#pragma once

#include <functional>
#include <optional>

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/engine/cpu_sweep.h"
#include "host/parity/parity_compare.h"
#include "host/parity/parity_market.h"
#include "host/spec/grid.h"

namespace btforge::parity {

// A backend under test: anything that runs a sweep job as run_cpu_sweep
// does (the emu backend now, the CUDA backend later).
struct Backend {
    std::string name;         // as --backend names it: "emu"
    std::string description;  // what actually runs, for the output
    std::function<SweepOutcome(const SweepJob&, const SweepOptions&)> run;
    // Every series of a plan by the backend's indicator kernels, in
    // SeriesCache order; when set, the series are compared value by value
    // and the backend's sweep computes its own series from the plan.
    std::function<std::vector<double>(const SeriesCache&, const Market&)> series;
};

// The comparison of the backend's indicator series with the reference's.
struct SeriesComparison {
    bool compared = false;
    std::uint64_t total = 0;      // values: series x symbols x bars
    std::uint64_t identical = 0;  // bit-identical (NaN = NaN)
    // The first value that differs, when one does.
    std::string first_series;     // "EMA(21).value"
    int first_symbol = -1;
    int first_bar = -1;
    double backend_value = 0.0;
    double reference_value = 0.0;
    double backend_seconds = 0.0;

    bool passed() const { return identical == total; }
};

struct ParityRunOptions {
    std::uint64_t seed = 1;
    std::uint64_t combinations = 10000;
    int threads = 1;
    std::optional<MarketWindow> window;  // the bars evaluated (Note [Market windows]); none: all
    int n_periods = 0;                   // period statistics compared per combination (Note [Period statistics])
    MarginMode margin_mode = kCrossMargin;  // of the account (Note [Cross and isolated margin])
    // The account's initial equity instead of the spec's: the accounting
    // (Note [Accounting quantum]) at every account size the spec accepts.
    std::optional<double> initial_equity;
    int equity_marks = 0;  // equity marks compared per combination (Note [Equity marks])
    bool daily_marks = false;  // equity_marks are the window's UTC days (Note [Equity marks at UTC days])
};

struct ParityResult {
    std::string strategy;
    std::string backend;  // Backend::description
    std::uint64_t seed = 0;
    int n_symbols = 0;
    int n_bars = 0;     // evaluated: the window's
    int first_bar = 0;  // of the window; the bars before it warm up the indicators
    int n_periods = 0;  // period statistics per combination, compared with the metrics
    int equity_marks = 0;  // equity marks per combination, compared with them
    std::vector<std::string> parameter_names;  // spec order
    Grid grid;
    std::uint64_t full_space = 0;
    std::uint64_t combinations = 0;
    std::size_t distinct_series = 0;
    double series_seconds = 0.0;
    double reference_seconds = 0.0;
    double backend_seconds = 0.0;
    SeriesComparison series;
    Comparison comparison;
    // The top rows by sharpe, ranked by each side: same ids, same order.
    std::size_t top_compared = 0;
    bool top_identical = true;
    // Liquidation paths exercised (Note [Liquidation rule]): combinations
    // with at least one liquidation, and liquidations in all, by the reference.
    MarginMode margin_mode = kCrossMargin;
    std::uint64_t liquidated_combinations = 0;
    std::uint64_t liquidations = 0;
    // Bars our order rules decided (Note [Ambiguous bars]): combinations
    // with at least one, and the bars in all, by the reference.
    std::uint64_t ambiguous_combinations = 0;
    std::uint64_t ambiguous_bars = 0;
    // Bars settled on their finer bars (Note [Finer bars]), the same way.
    std::uint64_t magnified_combinations = 0;
    std::uint64_t magnified_bars = 0;
    // The parameter assignments of the first diverging combination (empty
    // when none), as `btforge replay --set` takes them.
    std::vector<std::string> first_divergence_assignments;

    bool passed() const { return series.passed() && comparison.passed() && top_identical; }
    // liquidated_combinations over combinations (0 without combinations).
    double liquidated_share() const {
        return combinations == 0 ? 0.0 : static_cast<double>(liquidated_combinations) / static_cast<double>(combinations);
    }
};

// Runs the reference (run_cpu_sweep, every row kept) and `backend` on the
// same randomized combinations (Note [Parity grid]) of `spec` over `market`
// and compares them (Note [Parity verdict]).
ParityResult run_parity(const StrategySpec& spec, const StrategyBinding& binding, const ParityMarket& market,
                        const Backend& backend, const ParityRunOptions& options);

// The per-field table: field, bit-identical / total, max ULP, max rel err, verdict.
std::string format_parity_table(const ParityResult& result);
// The same as JSON, with the grid, timings and the listed failures.
nlohmann::json parity_result_json(const ParityResult& result);
// `btforge replay` of the first diverging combination on a market written
// to `data_file` / `instruments_file` (write_market_csv, write_instruments).
std::string replay_command(const ParityResult& result, const std::string& data_file,
                           const std::string& instruments_file);

}  // namespace btforge::parity
