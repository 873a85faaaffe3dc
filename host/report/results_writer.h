#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "host/engine/metric_columns.h"
#include "host/engine/top_n.h"
#include "host/spec/combination_space.h"
#include "host/spec/strategy_spec.h"

namespace btforge {

// What ran, for the header of every report: a result file must say which
// backend produced it (SPEC §8).
struct RunSummary {
    std::string strategy;
    std::string spec_origin;
    std::string grid_origin;
    std::string market;   // e.g. "synthetic seed 42: 4 symbols x 17520 bars" or the CSV path
    std::string backend;  // e.g. "cpu (2 threads)"
    std::uint64_t combinations = 0;
    std::uint64_t cells = 0;  // bars x symbols x combinations
    double seconds = 0.0;
    std::string rank_by;
    AccountSpec account;  // the values the run used (Note [Account settings])
};

// Rows are written in the order given (best first); rank is 1-based.
void write_results_csv(const std::filesystem::path& path, const StrategySpec& spec, const CombinationSpace& space,
                       const std::vector<ResultRow>& ranked);
void write_results_json(const std::filesystem::path& path, const RunSummary& summary, const StrategySpec& spec,
                        const CombinationSpace& space, const std::vector<ResultRow>& ranked);

// The table printed after a sweep: rank, id, the swept parameters, key metrics.
std::string format_ranked_table(const StrategySpec& spec, const CombinationSpace& space,
                                const std::vector<ResultRow>& ranked, const MetricColumn& rank_metric,
                                std::size_t max_rows);

// "name=value" for every metric, one per line, as replay prints it.
std::string format_metrics(const Metrics& metrics);

std::string format_metric_value(const MetricColumn& column, const Metrics& metrics);

}  // namespace btforge
