#include "host/report/results_writer.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include <nlohmann/json.hpp>

#include "host/io/atomic_file.h"
#include "host/spec/account_settings.h"
#include "host/spec/assignments.h"
#include "host/spec/number_format.h"

namespace btforge {

namespace {

std::vector<double> decode_values(const StrategySpec& spec, const CombinationSpace& space, std::uint64_t id) {
    std::vector<double> values(spec.parameters.size());
    space.decode(id, values);
    return values;
}

// Parameters with more than one value among the shown rows: the ones worth a
// column in the terminal table (the files carry all of them).
std::vector<std::size_t> swept_parameters(const std::vector<std::vector<double>>& rows) {
    std::vector<std::size_t> swept;
    if (rows.empty()) return swept;
    for (std::size_t p = 0; p < rows.front().size(); ++p) {
        for (const std::vector<double>& values : rows) {
            if (values[p] != rows.front()[p]) {
                swept.push_back(p);
                break;
            }
        }
    }
    return swept;
}

}  // namespace

std::string format_metric_value(const MetricColumn& column, const Metrics& metrics) {
    double value = column.read(metrics);
    if (column.integral) return std::to_string(static_cast<long long>(value));
    return format_double(value);
}

void write_results_csv(const std::filesystem::path& path, const StrategySpec& spec, const CombinationSpace& space,
                       const std::vector<ResultRow>& ranked) {
    AtomicFile file(path);
    std::ostream& out = file.stream();
    out << "rank,combination_id";
    for (const ParameterSpec& p : spec.parameters) out << ',' << p.name;
    for (const MetricColumn& m : metric_columns()) out << ',' << m.name;
    out << '\n';
    std::size_t rank = 1;
    for (const ResultRow& row : ranked) {
        std::vector<double> values = decode_values(spec, space, row.combination_id);
        out << rank++ << ',' << row.combination_id;
        for (std::size_t p = 0; p < values.size(); ++p) out << ',' << format_parameter_value(spec.parameters[p], values[p]);
        for (const MetricColumn& m : metric_columns()) out << ',' << format_metric_value(m, row.metrics);
        out << '\n';
    }
    file.commit();
}

void write_results_json(const std::filesystem::path& path, const RunSummary& summary, const StrategySpec& spec,
                        const CombinationSpace& space, const std::vector<ResultRow>& ranked) {
    nlohmann::ordered_json doc;
    doc["strategy"] = summary.strategy;
    doc["spec"] = summary.spec_origin;
    doc["grid"] = summary.grid_origin;
    doc["market"] = summary.market;
    doc["backend"] = summary.backend;
    doc["combinations"] = summary.combinations;
    doc["cells"] = summary.cells;
    doc["seconds"] = summary.seconds;
    doc["cells_per_second"] = summary.seconds > 0 ? static_cast<double>(summary.cells) / summary.seconds : 0.0;
    doc["rank_by"] = summary.rank_by;
    nlohmann::ordered_json account;
    for (const AccountSetting& setting : account_settings()) account[std::string(setting.key)] = summary.account.*(setting.field);
    doc["account"] = account;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    std::size_t rank = 1;
    for (const ResultRow& row : ranked) {
        nlohmann::ordered_json entry;
        entry["rank"] = rank++;
        entry["combination_id"] = row.combination_id;
        std::vector<double> values = decode_values(spec, space, row.combination_id);
        nlohmann::ordered_json params;
        for (std::size_t p = 0; p < values.size(); ++p) {
            const ParameterSpec& parameter = spec.parameters[p];
            if (parameter.type == ParameterType::Bool) {
                params[parameter.name] = values[p] != 0.0;
            } else if (parameter.type == ParameterType::Int) {
                params[parameter.name] = static_cast<long long>(values[p]);
            } else {
                params[parameter.name] = values[p];
            }
        }
        entry["parameters"] = params;
        nlohmann::ordered_json metrics;
        for (const MetricColumn& m : metric_columns()) {
            double value = m.read(row.metrics);
            if (m.integral) {
                metrics[std::string(m.name)] = static_cast<long long>(value);
            } else if (std::isfinite(value)) {
                metrics[std::string(m.name)] = value;
            } else {
                // JSON has no infinity; a profit factor without losses is written as a string.
                metrics[std::string(m.name)] = format_double(value);
            }
        }
        entry["metrics"] = metrics;
        rows.push_back(entry);
    }
    doc["rows"] = rows;
    write_file_atomically(path, doc.dump(2) + "\n");
}

std::string format_ranked_table(const StrategySpec& spec, const CombinationSpace& space,
                                const std::vector<ResultRow>& ranked, const MetricColumn& rank_metric,
                                std::size_t max_rows) {
    std::vector<std::string> header = {"rank", "id"};
    std::vector<std::vector<double>> shown_values;
    for (std::size_t r = 0; r < ranked.size() && r < max_rows; ++r) {
        shown_values.push_back(decode_values(spec, space, ranked[r].combination_id));
    }
    std::vector<std::size_t> swept = swept_parameters(shown_values);
    for (std::size_t p : swept) header.push_back(spec.parameters[p].name);
    std::vector<const MetricColumn*> shown;
    shown.push_back(&rank_metric);
    for (std::string_view name : {"total_return", "sharpe", "max_drawdown", "n_trades", "win_rate", "profit_factor"}) {
        const MetricColumn* column = find_metric_column(name);
        if (column != &rank_metric) shown.push_back(column);
    }
    for (const MetricColumn* m : shown) header.push_back(std::string(m->name));

    std::vector<std::vector<std::string>> cells;
    cells.push_back(header);
    for (std::size_t r = 0; r < ranked.size() && r < max_rows; ++r) {
        const ResultRow& row = ranked[r];
        const std::vector<double>& values = shown_values[r];
        std::vector<std::string> line = {std::to_string(r + 1), std::to_string(row.combination_id)};
        for (std::size_t p : swept) line.push_back(format_parameter_value(spec.parameters[p], values[p]));
        for (const MetricColumn* m : shown) {
            double value = m->read(row.metrics);
            std::ostringstream text;
            if (m->integral) {
                text << static_cast<long long>(value);
            } else {
                text << std::setprecision(4) << value;
            }
            line.push_back(text.str());
        }
        cells.push_back(line);
    }
    std::vector<std::size_t> width(header.size(), 0);
    for (const auto& line : cells) {
        for (std::size_t c = 0; c < line.size(); ++c) width[c] = std::max(width[c], line[c].size());
    }
    std::ostringstream out;
    for (const auto& line : cells) {
        for (std::size_t c = 0; c < line.size(); ++c) {
            out << (c == 0 ? "" : "  ") << std::setw(static_cast<int>(width[c])) << line[c];
        }
        out << '\n';
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
