#include "host/parity/parity_run.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "host/engine/account_config.h"
#include "host/engine/metric_columns.h"
#include "host/parity/parity_grid.h"
#include "host/spec/account_settings.h"
#include "host/spec/assignments.h"
#include "host/spec/combination_space.h"
#include "host/io/number_format.h"

namespace btforge::parity {

namespace {

constexpr std::size_t kTopCompared = 20;

// JSON has no NaN or infinity; those become strings.
nlohmann::json json_number(double x) {
    if (std::isfinite(x)) return x;
    return std::isnan(x) ? "nan" : x > 0 ? "inf" : "-inf";
}

std::string format_ulp(std::uint64_t ulp) { return ulp == UINT64_MAX ? "NaN vs number" : std::to_string(ulp); }

std::string format_error(double e) {
    if (!std::isfinite(e)) return "inf";
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", e);
    return text;
}

std::string describe_key(const SeriesKey& key) {
    std::string text = key.indicator + "(";
    for (std::size_t a = 0; a < key.args.size(); ++a) text += (a == 0 ? "" : ", ") + format_double(key.args[a]);
    if (!key.input.empty()) text += " of " + key.input;  // Note [Indicator input column]
    return text + ")." + key.output;
}

SeriesComparison compare_series(const std::vector<double>& backend, const SeriesCache& reference, const Market& market) {
    SeriesComparison c;
    c.compared = true;
    const std::size_t length = reference.series_length();
    c.total = static_cast<std::uint64_t>(reference.distinct_series()) * length;
    if (backend.size() != c.total) {
        c.first_series = "(the backend returned " + std::to_string(backend.size()) + " values for " +
                         std::to_string(c.total) + ")";
        return c;
    }
    const double* ref = reference.data();
    for (std::size_t i = 0; i < backend.size(); ++i) {
        if (std::bit_cast<std::uint64_t>(backend[i]) == std::bit_cast<std::uint64_t>(ref[i]) ||
            (std::isnan(backend[i]) && std::isnan(ref[i]))) {
            ++c.identical;
            continue;
        }
        if (c.first_bar >= 0) continue;
        const std::size_t in_series = i % length;
        c.first_series = describe_key(reference.keys()[i / length]);
        c.first_symbol = static_cast<int>(in_series / static_cast<std::size_t>(market.n_bars()));
        c.first_bar = static_cast<int>(in_series % static_cast<std::size_t>(market.n_bars()));
        c.backend_value = backend[i];
        c.reference_value = ref[i];
    }
    return c;
}

}  // namespace

ParityResult run_parity(const StrategySpec& spec, const StrategyBinding& binding, const ParityMarket& market,
                        const Backend& backend, const ParityRunOptions& options) {
    ParityResult result;
    result.strategy = spec.name;
    result.backend = backend.description;
    result.seed = options.seed;
    const MarketWindow window = options.window.value_or(whole_market(market.market));
    result.n_symbols = market.market.n_symbols();
    result.n_bars = window.n_bars;
    result.first_bar = window.first_bar;
    result.n_periods = options.n_periods;
    result.equity_marks = options.equity_marks;
    for (const ParameterSpec& p : spec.parameters) result.parameter_names.push_back(p.name);
    result.grid = make_parity_grid(spec, options.seed, options.combinations);
    CombinationSpace space(spec, result.grid);
    result.full_space = space.full_size();
    result.combinations = space.count();

    std::vector<std::vector<double>> values;
    for (const GridAxis& axis : result.grid.axes) values.push_back(axis.values);
    SeriesCache series = SeriesCache::build(spec, market.market, values, options.threads);
    result.distinct_series = series.distinct_series();
    result.series_seconds = series.build_seconds();

    AccountSpec account = spec.account;
    if (options.initial_equity) account.initial_equity = *options.initial_equity;
    SweepJob job{&binding, &spec, &space, &market.market, window, make_account_config(account, market.market), &series};
    job.account.n_periods = options.n_periods;
    job.account.equity_marks = options.equity_marks;
    job.account.daily_equity_marks = options.daily_marks ? 1 : 0;
    job.account.margin_mode = options.margin_mode;
    result.margin_mode = options.margin_mode;
    // The backend's own series: compared with the reference's value by
    // value, then computed again by the backend's sweep from the plan.
    SeriesCache planned = SeriesCache::plan(spec, market.market, values);
    SweepJob backend_job = job;
    if (backend.series) {
        backend_job.series = &planned;
        const auto started = std::chrono::steady_clock::now();
        result.series = compare_series(backend.series(planned, market.market), series, market.market);
        result.series.backend_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    }
    SweepOptions sweep;
    sweep.threads = options.threads;
    sweep.rank_metric = find_metric_column("sharpe");
    sweep.top_n = kTopCompared;
    sweep.keep_all_rows = true;

    SweepOutcome reference = run_cpu_sweep(job, sweep);
    SweepOutcome tested = backend.run(backend_job, sweep);
    result.backend = describe_run(result.backend, tested);
    result.reference_seconds = reference.seconds;
    result.backend_seconds = tested.seconds;
    result.comparison = compare_rows(tested.all, reference.all, tested.periods, reference.periods, options.n_periods,
                                     tested.equity_marks, reference.equity_marks, options.equity_marks);
    for (const ResultRow& row : reference.all) {
        result.liquidated_combinations += row.metrics.n_liquidations > 0 ? 1 : 0;
        result.liquidations += static_cast<std::uint64_t>(std::max(row.metrics.n_liquidations, 0));
        result.ambiguous_combinations += row.metrics.ambiguous_bars > 0 ? 1 : 0;
        result.ambiguous_bars += static_cast<std::uint64_t>(std::max(row.metrics.ambiguous_bars, 0));
        result.magnified_combinations += row.metrics.magnified_bars > 0 ? 1 : 0;
        result.magnified_bars += static_cast<std::uint64_t>(std::max(row.metrics.magnified_bars, 0));
    }

    result.top_compared = reference.top.size();
    result.top_identical = tested.top.size() == reference.top.size() &&
                           std::equal(tested.top.begin(), tested.top.end(), reference.top.begin(),
                                      [](const ResultRow& a, const ResultRow& b) {
                                          return a.combination_id == b.combination_id;
                                      });
    if (!result.comparison.failures.empty()) {
        std::vector<double> v(spec.parameters.size());
        space.decode(result.comparison.failures.front().combination_id, v);
        result.first_divergence_assignments = combination_assignments(spec, v);
    }
    return result;
}

std::string format_parity_table(const ParityResult& r) {
    std::ostringstream out;
    if (r.series.compared) {
        out << "indicator series: " << r.series.identical << "/" << r.series.total << " values bit-identical";
        if (!r.series.passed()) {
            out << " -- FAIL: first difference in " << r.series.first_series;
            if (r.series.first_bar >= 0) {
                out << ", symbol " << r.series.first_symbol << ", bar " << r.series.first_bar << ": backend "
                    << format_double(r.series.backend_value) << ", reference " << format_double(r.series.reference_value);
            }
        }
        out << '\n';
    }
    char line[256];
    std::snprintf(line, sizeof line, "%-28s %21s %14s %12s  %s\n", "field", "bit-identical/total", "max ULP/diff",
                  "max rel err", "verdict");
    out << line;
    for (const FieldStats& f : r.comparison.fields) {
        std::string identical = std::to_string(f.identical) + "/" + std::to_string(f.total);
        std::string verdict = f.failed != 0 ? "FAIL (" + std::to_string(f.failed) + ")"
                              : f.identical == f.total ? "pass, identical"
                                                       : "pass, within 1e-12";
        std::snprintf(line, sizeof line, "%-28s %21s %14s %12s  %s\n", f.name.c_str(), identical.c_str(),
                      f.discrete ? std::to_string(f.max_ulp).c_str() : format_ulp(f.max_ulp).c_str(),
                      f.discrete ? "-" : format_error(f.max_relative_error).c_str(), verdict.c_str());
        out << line;
    }
    std::uint64_t total = r.comparison.total_values();
    std::uint64_t identical = r.comparison.identical_values();
    std::snprintf(line, sizeof line, "%-28s %21s\n", "all fields",
                  (std::to_string(identical) + "/" + std::to_string(total)).c_str());
    out << line;
    out << "top " << r.top_compared << " by sharpe: " << (r.top_identical ? "same ids, same order" : "DIFFERENT") << '\n';
    out << "liquidations (" << margin_mode_name(r.margin_mode) << " margin): " << r.liquidations << " in "
        << r.liquidated_combinations << " of " << r.combinations << " combinations ("
        << format_significant(100.0 * r.liquidated_share(), 3) << "%)\n";
    out << "ambiguous bars: " << r.ambiguous_bars << " in " << r.ambiguous_combinations << " of " << r.combinations
        << " combinations\n";
    if (r.magnified_bars > 0) {
        out << "magnified bars (settled on their finer bars): " << r.magnified_bars << " in "
            << r.magnified_combinations << " of " << r.combinations << " combinations, "
            << format_significant(static_cast<double>(r.magnified_bars) / static_cast<double>(r.combinations), 3)
            << " per combination\n";
    }
    return out.str();
}

nlohmann::json parity_result_json(const ParityResult& r) {
    nlohmann::json fields = nlohmann::json::array();
    for (const FieldStats& f : r.comparison.fields) {
        nlohmann::json field = {{"field", f.name},
                                {"discrete", f.discrete},
                                {"total", f.total},
                                {"bit_identical", f.identical},
                                {"failed", f.failed}};
        if (f.discrete) {
            field["max_abs_diff"] = f.max_ulp;
        } else {
            field["max_ulp"] = f.max_ulp == UINT64_MAX ? nlohmann::json("NaN vs number") : nlohmann::json(f.max_ulp);
            field["max_relative_error"] = json_number(f.max_relative_error);
        }
        field["verdict"] = f.failed == 0 ? "pass" : "fail";
        fields.push_back(field);
    }
    nlohmann::json failures = nlohmann::json::array();
    for (const Divergence& d : r.comparison.failures) {
        failures.push_back({{"ordinal", d.ordinal},
                            {"combination_id", d.combination_id},
                            {"field", d.field},
                            {"backend", json_number(d.backend)},
                            {"reference", json_number(d.reference)},
                            {"backend_text", format_double(d.backend)},
                            {"reference_text", format_double(d.reference)}});
    }
    nlohmann::json grid = nlohmann::json::object();
    for (const GridAxis& axis : r.grid.axes) grid[r.parameter_names.at(axis.parameter)] = axis.values;
    return {{"strategy", r.strategy},
            {"backend", r.backend},
            {"seed", r.seed},
            {"symbols", r.n_symbols},
            {"bars", r.n_bars},
            {"first_bar", r.first_bar},
            {"periods", r.n_periods},
            {"equity_marks", r.equity_marks},
            {"combinations", r.combinations},
            {"full_space", r.full_space},
            {"distinct_series", r.distinct_series},
            {"grid", grid},
            {"seconds", {{"series", r.series_seconds}, {"reference", r.reference_seconds}, {"backend", r.backend_seconds}}},
            {"series",
             {{"compared", r.series.compared},
              {"total", r.series.total},
              {"bit_identical", r.series.identical},
              {"first_difference",
               r.series.passed() ? nlohmann::json(nullptr)
                                 : nlohmann::json{{"series", r.series.first_series},
                                                  {"symbol", r.series.first_symbol},
                                                  {"bar", r.series.first_bar},
                                                  {"backend", json_number(r.series.backend_value)},
                                                  {"reference", json_number(r.series.reference_value)}}}}},
            {"fields", fields},
            {"values_compared", r.comparison.total_values()},
            {"values_bit_identical", r.comparison.identical_values()},
            {"failed_values", r.comparison.failed_values},
            {"failed_rows", r.comparison.failed_rows},
            {"top_compared", r.top_compared},
            {"top_identical", r.top_identical},
            {"margin_mode", std::string(margin_mode_name(r.margin_mode))},
            {"liquidated_combinations", r.liquidated_combinations},
            {"liquidations", r.liquidations},
            {"ambiguous_combinations", r.ambiguous_combinations},
            {"ambiguous_bars", r.ambiguous_bars},
            {"magnified_combinations", r.magnified_combinations},
            {"magnified_bars", r.magnified_bars},
            {"failures", failures},
            {"first_divergence_assignments", r.first_divergence_assignments},
            {"verdict", r.passed() ? "pass" : "fail"}};
}

std::string replay_command(const ParityResult& r, const std::string& data_file, const std::string& instruments_file) {
    std::string command = "btforge replay --strategy " + r.strategy;
    for (const std::string& a : r.first_divergence_assignments) command += " --set " + a;
    command += " --data " + data_file + " --instruments " + instruments_file;
    if (r.margin_mode != kCrossMargin) command += " --margin-mode " + std::string(margin_mode_name(r.margin_mode));
    return command;
}

}  // namespace btforge::parity
