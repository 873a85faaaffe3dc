#include "parity-tests/harness/parity_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "host/engine/account_config.h"
#include "host/engine/metric_columns.h"
#include "host/spec/assignments.h"
#include "host/spec/combination_space.h"
#include "host/spec/number_format.h"
#include "parity-tests/harness/parity_grid.h"

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

}  // namespace

ParityResult run_parity(const StrategySpec& spec, const StrategyBinding& binding, const ParityMarket& market,
                        const Backend& backend, const ParityRunOptions& options) {
    ParityResult result;
    result.strategy = spec.name;
    result.backend = backend.description;
    result.seed = options.seed;
    result.n_symbols = market.market.n_symbols();
    result.n_bars = market.market.n_bars();
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

    SweepJob job{&binding, &spec, &space, &market.market, market.market.view(),
                 make_account_config(spec.account, market.market), &series};
    SweepOptions sweep;
    sweep.threads = options.threads;
    sweep.rank_metric = find_metric_column("sharpe");
    sweep.top_n = kTopCompared;
    sweep.keep_all_rows = true;

    SweepOutcome reference = run_cpu_sweep(job, sweep);
    SweepOutcome tested = backend.run(job, sweep);
    result.reference_seconds = reference.seconds;
    result.backend_seconds = tested.seconds;
    result.comparison = compare_rows(tested.all, reference.all);

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
    char line[256];
    std::snprintf(line, sizeof line, "%-24s %21s %14s %12s  %s\n", "field", "bit-identical/total", "max ULP/diff",
                  "max rel err", "verdict");
    out << line;
    for (const FieldStats& f : r.comparison.fields) {
        std::string identical = std::to_string(f.identical) + "/" + std::to_string(f.total);
        std::string verdict = f.failed != 0 ? "FAIL (" + std::to_string(f.failed) + ")"
                              : f.identical == f.total ? "pass, identical"
                                                       : "pass, within 1e-12";
        std::snprintf(line, sizeof line, "%-24s %21s %14s %12s  %s\n", f.name.c_str(), identical.c_str(),
                      f.discrete ? std::to_string(f.max_ulp).c_str() : format_ulp(f.max_ulp).c_str(),
                      f.discrete ? "-" : format_error(f.max_relative_error).c_str(), verdict.c_str());
        out << line;
    }
    std::uint64_t total = r.comparison.total_values();
    std::uint64_t identical = r.comparison.identical_values();
    std::snprintf(line, sizeof line, "%-24s %21s\n", "all fields",
                  (std::to_string(identical) + "/" + std::to_string(total)).c_str());
    out << line;
    out << "top " << r.top_compared << " by sharpe: " << (r.top_identical ? "same ids, same order" : "DIFFERENT") << '\n';
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
            {"combinations", r.combinations},
            {"full_space", r.full_space},
            {"distinct_series", r.distinct_series},
            {"grid", grid},
            {"seconds", {{"series", r.series_seconds}, {"reference", r.reference_seconds}, {"backend", r.backend_seconds}}},
            {"fields", fields},
            {"values_compared", r.comparison.total_values()},
            {"values_bit_identical", r.comparison.identical_values()},
            {"failed_values", r.comparison.failed_values},
            {"failed_rows", r.comparison.failed_rows},
            {"top_compared", r.top_compared},
            {"top_identical", r.top_identical},
            {"failures", failures},
            {"first_divergence_assignments", r.first_divergence_assignments},
            {"verdict", r.passed() ? "pass" : "fail"}};
}

std::string replay_command(const ParityResult& r, const std::string& data_file, const std::string& instruments_file) {
    std::string command = "btforge replay --strategy " + r.strategy;
    for (const std::string& a : r.first_divergence_assignments) command += " --set " + a;
    command += " --data " + data_file + " --instruments " + instruments_file;
    return command;
}

}  // namespace btforge::parity
