#include <cmath>
#include <sstream>

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "host/app/replay_run.h"
#include "host/report/results_writer.h"
#include "host/report/trade_log_writer.h"
#include "host/spec/assignments.h"
#include "python/src/bindings.h"
#include "python/src/market_binding.h"
#include "python/src/numpy_arrays.h"
#include "python/src/run_options.h"

namespace nb = nanobind;

namespace btforge::python {

namespace {

// One combination on the CPU reference (Note [One sweep, two front ends]):
// its metrics, parameters, fill log and round trips as the command line's
// CSVs write them, and its equity curve as an array without a copy.
nb::dict replay(nb::dict options, std::optional<MarketHandle> market) {
    RunOptions read(options);
    ReplayRequest request;
    read.read_run(request, market ? market->loaded : nullptr);
    if (read.has("combination") && !options["combination"].is_none()) {
        request.combination = static_cast<std::uint64_t>(read.integer("combination", 0));
    } else {
        read.integer("combination", 0);
    }
    request.assignments = read.texts("set");
    request.round_trips = read.flag("round_trips", true);
    read.check_all_read();
    std::unique_ptr<ReplayRun> run;
    {
        nb::gil_scoped_release unlocked;
        run = run_replay(request);
    }
    const Market& m = run->market->market;
    nb::dict out;
    nb::dict metrics;
    for (const MetricColumn& column : metric_columns()) {
        const double value = column.read(run->replayed.metrics);
        if (column.integral) {
            metrics[std::string(column.name).c_str()] = static_cast<long long>(value);
        } else {
            metrics[std::string(column.name).c_str()] = value;
        }
    }
    out["metrics"] = metrics;
    nb::dict parameters;
    const StrategySpec& spec = run->strategy.spec;
    for (std::size_t p = 0; p < spec.parameters.size(); ++p) {
        const double value = run->values[p];
        const ParameterSpec& parameter = spec.parameters[p];
        if (parameter.type == ParameterType::Int) {
            parameters[parameter.name.c_str()] = static_cast<long long>(value);
        } else if (parameter.type == ParameterType::Bool) {
            parameters[parameter.name.c_str()] = value != 0.0;
        } else {
            parameters[parameter.name.c_str()] = value;
        }
    }
    out["parameters"] = parameters;
    out["strategy"] = spec.name;
    out["assumptions"] = format_assumptions(run->assumptions);
    std::ostringstream fills;
    write_trade_log_csv(fills, m, run->window, run->replayed.fills);
    out["fills_csv"] = fills.str();
    if (request.round_trips) {
        std::ostringstream trips;
        write_round_trips_csv(trips, m, run->window, run->round_trips);
        out["round_trips_csv"] = trips.str();
    }
    out["first_bar"] = run->window.first_bar;
    out["equity"] = array_of(std::move(run->replayed.equity));
    std::vector<std::int64_t> times(m.timestamp_ms.begin() + run->window.first_bar,
                                    m.timestamp_ms.begin() + run->window.first_bar + run->window.n_bars);
    out["equity_time_ms"] = array_of(std::move(times));
    out["initial_equity"] = run->account.initial_equity;
    out["benchmark"] = array_of(std::move(run->benchmark));
    // The close of every symbol that filled, over the window (NaN where it has no bar), to draw its trades on.
    std::vector<bool> filled(m.symbols.size(), false);
    for (const FillRecord& fill : run->replayed.fills) filled[static_cast<std::size_t>(fill.symbol)] = true;
    nb::dict closes;
    for (std::size_t s = 0; s < m.symbols.size(); ++s) {
        if (!filled[s]) continue;
        std::vector<double> close(static_cast<std::size_t>(run->window.n_bars));
        for (int t = 0; t < run->window.n_bars; ++t) {
            const std::size_t i = m.index(static_cast<int>(s), run->window.first_bar + t);
            close[static_cast<std::size_t>(t)] = m.tradable[i] != 0 ? m.close[i] : std::nan("");
        }
        closes[m.symbols[s].c_str()] = array_of(std::move(close));
    }
    out["closes"] = closes;
    // Note [Statistics of a replay]
    const ReplayStatistics& s = run->statistics;
    nb::dict statistics;
    statistics["cagr"] = s.cagr;
    statistics["volatility"] = s.volatility;
    statistics["max_drawdown_bars"] = s.max_drawdown_bars;
    statistics["max_drawdown_duration"] = s.max_drawdown_duration_ms;
    statistics["best_trade"] = s.best_trade;
    statistics["worst_trade"] = s.worst_trade;
    statistics["buy_and_hold_return"] = s.buy_and_hold_return;
    out["statistics"] = statistics;
    return out;
}

}  // namespace

void bind_replay(nb::module_& m) {
    m.def("replay", &replay, nb::arg("options"), nb::arg("market").none());
}

}  // namespace btforge::python
