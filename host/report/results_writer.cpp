#include "host/report/results_writer.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <span>
#include <sstream>

#include <nlohmann/json.hpp>

#include "host/spec/account_settings.h"
#include "host/spec/assignments.h"
#include "host/io/number_format.h"
#include "host/version/build_version.h"

namespace btforge {

namespace {

std::vector<double> decode_values(const StrategySpec& spec, const CombinationSpace& space, std::uint64_t id) {
    std::vector<double> values(spec.parameters.size());
    space.decode(id, values);
    return values;
}

// The parameters with more than one value in the grid (Note [The ranked table]).
std::vector<std::size_t> varied_parameters(const CombinationSpace& space) {
    std::vector<std::size_t> varied;
    for (const CombinationSpace::Digit& digit : space.digits()) {
        if (digit.radix > 1) varied.push_back(digit.parameter);
    }
    std::sort(varied.begin(), varied.end());
    return varied;
}


// `text` with every line after the first indented by `spaces`, to nest a
// dump(2) inside a document written piece by piece.
std::string nested(const std::string& text, int spaces) {
    std::string out;
    const std::string indent(static_cast<std::size_t>(spaces), ' ');
    for (char c : text) {
        out += c;
        if (c == '\n') out += indent;
    }
    return out;
}

// Writes the rows of the JSON file directly: millions of them go through
// here (Note [Rows spooled to disk]), and a DOM per row cost 50 us each.
// Names are quoted once; numbers are written as format_double writes them
// (shortest round trip, as nlohmann does); non-finite values, which JSON
// lacks, as the strings "inf", "-inf", "nan".
class JsonRowWriter {
public:
    JsonRowWriter(const StrategySpec& spec, int min_trades) : spec_(&spec), min_trades_(min_trades) {
        for (const ParameterSpec& p : spec.parameters) parameter_keys_.push_back(nlohmann::json(p.name).dump());
        for (const MetricColumn& m : metric_columns()) metric_keys_.push_back(nlohmann::json(std::string(m.name)).dump());
    }

    void write(std::ostream& out, const ResultRow& row, std::span<const double> values, std::uint64_t rank,
               const OutcomeIndex& outcomes) const {
        out << "{\n      \"rank\": " << rank << ",\n      \"combination_id\": " << row.combination_id
            << ",\n      \"valid\": " << (metrics_are_finite(row.metrics) ? "true" : "false")
            << ",\n      \"enough_trades\": " << (has_enough_trades(row.metrics, min_trades_) ? "true" : "false")
            << ",\n      \"parameters\": {";
        for (std::size_t p = 0; p < values.size(); ++p) {
            out << (p == 0 ? "\n        " : ",\n        ") << parameter_keys_[p] << ": ";
            out << parameter_json(spec_->parameters[p], values[p]);
        }
        out << "\n      },\n      \"metrics\": {";
        std::size_t i = 0;
        for (const MetricColumn& m : metric_columns()) {
            out << (i == 0 ? "\n        " : ",\n        ") << metric_keys_[i] << ": ";
            const double value = m.read(row.metrics);
            if (m.integral) {
                out << static_cast<long long>(value);
            } else {
                out << json_number(value);
            }
            ++i;
        }
        out << "\n      },\n      \"outcome\": {";
        const OutcomeOfRow outcome = outcomes.of(row.combination_id);
        out << "\n        \"combinations\": " << outcome.combinations << ",\n        \"first_id\": " << outcome.first_id;
        if (const std::vector<std::vector<double>>* sets = outcomes.values(row.combination_id)) {
            // The parameters that differ inside the outcome, with every value they take.
            out << ",\n        \"parameter_values\": {";
            bool first = true;
            for (std::size_t p = 0; p < sets->size(); ++p) {
                if ((*sets)[p].size() < 2) continue;
                out << (first ? "\n          " : ",\n          ") << parameter_keys_[p] << ": [";
                for (std::size_t v = 0; v < (*sets)[p].size(); ++v) {
                    out << (v == 0 ? "" : ", ") << parameter_json(spec_->parameters[p], (*sets)[p][v]);
                }
                out << "]";
                first = false;
            }
            out << (first ? "}" : "\n        }");
        }
        out << "\n      }\n    }";
    }

private:
    static std::string parameter_json(const ParameterSpec& parameter, double value) {
        if (parameter.type == ParameterType::Bool) return value != 0.0 ? "true" : "false";
        if (parameter.type == ParameterType::Int) return std::to_string(static_cast<long long>(value));
        return json_number(value);
    }

    // to_chars' shortest forms ("0.5", "-0", "1e+300", "20") are JSON numbers.
    static std::string json_number(double value) {
        return std::isfinite(value) ? format_double(value) : '"' + format_double(value) + '"';
    }

    const StrategySpec* spec_;
    int min_trades_;
    std::vector<std::string> parameter_keys_;
    std::vector<std::string> metric_keys_;
};

}  // namespace

nlohmann::ordered_json account_json(const AccountSpec& account) {
    nlohmann::ordered_json out;
    for (const AccountSetting& setting : account_settings()) out[std::string(setting.key)] = account.*(setting.field);
    out["margin_mode"] = std::string(margin_mode_name(account.margin_mode));
    return out;
}

std::string format_metric_shown(const MetricColumn& column, const Metrics& metrics) {
    const double value = column.read(metrics);
    return column.integral ? std::to_string(static_cast<long long>(value)) : format_significant(value);
}

std::string format_metric_value(const MetricColumn& column, const Metrics& metrics) {
    double value = column.read(metrics);
    if (column.integral) return std::to_string(static_cast<long long>(value));
    return format_double(value);
}

void write_results_csv(std::ostream& out, const StrategySpec& spec, const CombinationSpace& space,
                       const RankedRows& ranked, const OutcomeIndex& outcomes, int min_trades) {
    out << "rank,combination_id,valid,enough_trades";
    for (const ParameterSpec& p : spec.parameters) out << ',' << p.name;
    for (const MetricColumn& m : metric_columns()) out << ',' << m.name;
    out << ",outcome_combinations,outcome_first_id\n";
    std::vector<double> values(spec.parameters.size());
    for (std::uint64_t r = 0; r < ranked.size() && out; ++r) {
        const ResultRow row = ranked.at(r);
        space.decode(row.combination_id, values);
        out << r + 1 << ',' << row.combination_id << ',' << (metrics_are_finite(row.metrics) ? "true" : "false") << ','
            << (has_enough_trades(row.metrics, min_trades) ? "true" : "false");
        for (std::size_t p = 0; p < values.size(); ++p) out << ',' << format_parameter_value(spec.parameters[p], values[p]);
        for (const MetricColumn& m : metric_columns()) out << ',' << format_metric_value(m, row.metrics);
        const OutcomeOfRow outcome = outcomes.of(row.combination_id);
        out << ',' << outcome.combinations << ',' << outcome.first_id << '\n';
    }
}

void write_results_json(std::ostream& out, const RunSummary& summary, const StrategySpec& spec,
                        const CombinationSpace& space, const RankedRows& ranked, const OutcomeIndex& outcomes) {
    nlohmann::ordered_json head;
    head["strategy"] = summary.strategy;
    head["spec"] = summary.spec_origin;
    head["grid"] = summary.grid_origin;
    head["market"] = summary.market;
    head["synthetic_market"] = summary.synthetic_market;
    if (!summary.timestamps.empty()) head["timestamps"] = summary.timestamps;
    head["window"] = {{"first_bar_time", summary.window.first_time},
                      {"last_bar_time", summary.window.last_time},
                      {"first_bar", summary.window.first_bar},
                      {"bars", summary.window.n_bars},
                      {"warmup_bars", summary.window.first_bar}};
    head["funding"] = summary.funding;
    if (!summary.instruments.empty()) head["instruments"] = summary.instruments;
    head["account"] = account_json(summary.account);  // the values the run used (Note [Account settings])
    head["backend"] = summary.backend;
    // Note [The commit of a build]: which build wrote the file.
    head["build"] = {{"version", build_version()}, {"commit", build_commit()}};
    head["combinations"] = summary.combinations;
    head["distinct_outcomes"] = summary.distinct_outcomes;  // Note [Distinct outcomes]
    head["invalid_rows"] = summary.invalid_rows;
    head["cells"] = summary.cells;
    head["seconds"] = summary.seconds;
    head["cells_per_second"] = summary.seconds > 0 ? static_cast<double>(summary.cells) / summary.seconds : 0.0;
    head["rank_by"] = summary.rank_by;
    head["min_trades"] = summary.min_trades;
    nlohmann::ordered_json varied = nlohmann::ordered_json::array();  // Note [The ranked table]
    for (std::size_t p : varied_parameters(space)) varied.push_back(spec.parameters[p].name);
    head["varied_parameters"] = varied;
    if (!summary.inputs.empty()) head["inputs"] = summary.inputs;
    if (!summary.identity.empty()) head["identity"] = summary.identity;
    if (!summary.intrabar_bounds.empty()) head["intrabar_bounds"] = summary.intrabar_bounds;
    // Streamed: the rows may be millions (Note [Rows spooled to disk]).
    out << "{\n";
    for (const auto& [key, value] : head.items()) {
        out << "  " << nlohmann::json(key).dump() << ": " << nested(value.dump(2), 2) << ",\n";
    }
    out << "  \"rows\": [";
    const JsonRowWriter rows(spec, summary.min_trades);
    std::vector<double> values(spec.parameters.size());
    for (std::uint64_t r = 0; r < ranked.size() && out; ++r) {
        const ResultRow row = ranked.at(r);
        space.decode(row.combination_id, values);
        out << (r == 0 ? "\n    " : ",\n    ");
        rows.write(out, row, values, r + 1, outcomes);
    }
    out << (ranked.size() == 0 ? "]\n}\n" : "\n  ]\n}\n");
}

namespace {

// A parameter's values inside an outcome, for the ranked table.
std::string format_value_set(const ParameterSpec& parameter, const CombinationSpace::Digit& digit,
                             const std::vector<double>& values) {
    auto one = [&parameter](double v) {
        return parameter.type == ParameterType::Double ? format_significant(v) : format_parameter_value(parameter, v);
    };
    if (values.size() == 1) return one(values.front());
    if (values.size() == digit.values.size()) return "any";
    constexpr std::size_t kShown = 4;
    std::string text;
    for (std::size_t i = 0; i < values.size() && i < kShown; ++i) text += (i == 0 ? "" : "|") + one(values[i]);
    if (values.size() > kShown) text += "|...(" + std::to_string(values.size()) + ")";
    return text;
}

}  // namespace

std::string format_ranked_table(const StrategySpec& spec, const CombinationSpace& space,
                                const std::vector<ResultRow>& ranked, const OutcomeIndex& outcomes,
                                const RankOrder& order, std::size_t max_rows) {
    const MetricColumn& rank_metric = *order.metric;
    const std::size_t shown_rows = std::min(ranked.size(), max_rows);
    bool any_invalid = false;
    bool any_few_trades = false;
    for (std::size_t r = 0; r < shown_rows; ++r) {
        any_invalid = any_invalid || !metrics_are_finite(ranked[r].metrics);
        any_few_trades = any_few_trades || !has_enough_trades(ranked[r].metrics, order.min_trades);
    }

    std::vector<std::string> header = {"rank", "id", "combinations"};
    const std::vector<std::size_t> varied = varied_parameters(space);
    std::vector<const CombinationSpace::Digit*> digit_of(spec.parameters.size(), nullptr);
    for (const CombinationSpace::Digit& digit : space.digits()) digit_of[digit.parameter] = &digit;
    for (std::size_t p : varied) header.push_back(spec.parameters[p].name);
    std::vector<const MetricColumn*> shown;
    shown.push_back(&rank_metric);
    for (std::string_view name : {"total_return", "sharpe", "max_drawdown", "n_trades", "win_rate", "profit_factor"}) {
        const MetricColumn* column = find_metric_column(name);
        if (column != &rank_metric) shown.push_back(column);
    }
    // Liquidations (Note [Liquidation rule]) are shown where a shown row has one.
    bool any_liquidated = false;
    for (std::size_t r = 0; r < shown_rows; ++r) any_liquidated = any_liquidated || ranked[r].metrics.n_liquidations > 0;
    if (any_liquidated) {
        for (std::string_view name : {"n_liquidations", "liquidation_loss"}) {
            const MetricColumn* column = find_metric_column(name);
            if (column != &rank_metric) shown.push_back(column);
        }
    }
    for (const MetricColumn* m : shown) header.push_back(std::string(m->name));
    if (any_invalid) header.push_back("valid");
    if (any_few_trades) header.push_back("enough_trades");

    std::vector<std::vector<std::string>> cells;
    cells.push_back(header);
    for (std::size_t r = 0; r < shown_rows; ++r) {
        const ResultRow& row = ranked[r];
        const std::vector<double> values = decode_values(spec, space, row.combination_id);
        std::vector<std::string> line = {std::to_string(r + 1), std::to_string(row.combination_id),
                                         std::to_string(outcomes.of(row.combination_id).combinations)};
        const std::vector<std::vector<double>>* sets = outcomes.values(row.combination_id);
        for (std::size_t p : varied) {
            const ParameterSpec& parameter = spec.parameters[p];
            const std::vector<double> own = {values[p]};
            // Note [Conditional axes]: an axis whose condition does not hold
            // ran at its first value only, which says nothing: "-".
            line.push_back(!space.applies(row.combination_id, p)
                               ? "-"
                               : format_value_set(parameter, *digit_of[p], sets != nullptr ? (*sets)[p] : own));
        }
        for (const MetricColumn* m : shown) line.push_back(format_metric_shown(*m, row.metrics));
        if (any_invalid) line.push_back(metrics_are_finite(row.metrics) ? "yes" : "NO");
        if (any_few_trades) line.push_back(has_enough_trades(row.metrics, order.min_trades) ? "yes" : "NO");
        cells.push_back(line);
    }
    std::vector<std::size_t> width(header.size(), 0);
    for (const auto& line : cells) {
        for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());
    }
    std::ostringstream out;
    // Note [Distinct outcomes]
    out << outcomes.combinations() << " combinations, " << outcomes.distinct() << " distinct outcomes";
    if (outcomes.distinct() < outcomes.combinations()) out << ": one row per outcome";
    out << '\n';
    for (const auto& line : cells) {
        for (std::size_t c = 0; c < line.size(); ++c) {
            out << (c == 0 ? "" : "  ") << std::setw(static_cast<int>(width[c])) << line[c];
        }
        out << '\n';
    }
    if (any_few_trades) {
        out << "rows with fewer than " << order.min_trades << " trades (enough_trades NO) rank after the others "
            << "(--min-trades)\n";
    }
    return out.str();
}

std::string format_metrics(const Metrics& metrics) {
    std::string out;
    for (const MetricColumn& m : metric_columns()) {
        out += std::string(m.name) + "=" + format_metric_value(m, metrics) + "\n";
    }
    return out;
}

}  // namespace btforge
