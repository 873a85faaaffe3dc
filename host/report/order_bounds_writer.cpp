#include "host/report/order_bounds_writer.h"

#include <cmath>
#include <sstream>
#include <vector>

#include "host/engine/metric_columns.h"
#include "host/report/results_writer.h"
#include "host/spec/assignments.h"

namespace btforge {

namespace {

// The orders of a row's lines, in the file's order.
constexpr const char* kOrderNames[] = {"rule", "favourable_first", "adverse_first"};

}  // namespace

void write_order_bounds_csv(std::ostream& out, const StrategySpec& spec, const CombinationSpace& space,
                            std::span<const OrderBounds> bounds) {
    out << "rank,order,combination_id";
    for (const ParameterSpec& p : spec.parameters) out << ',' << p.name;
    for (const MetricColumn& m : metric_columns()) out << ',' << m.name;
    out << '\n';
    std::vector<double> values(spec.parameters.size());
    for (std::size_t r = 0; r < bounds.size() && out; ++r) {
        const OrderBounds& row = bounds[r];
        space.decode(row.combination_id, values);
        const struct {
            const char* order;
            const Metrics* metrics;
        } orders[] = {{kOrderNames[0], &row.rule},
                      {kOrderNames[1], &row.favourable_first},
                      {kOrderNames[2], &row.adverse_first}};
        for (const auto& o : orders) {
            out << r + 1 << ',' << o.order << ',' << row.combination_id;
            for (std::size_t p = 0; p < values.size(); ++p) {
                out << ',' << format_parameter_value(spec.parameters[p], values[p]);
            }
            for (const MetricColumn& m : metric_columns()) out << ',' << format_metric_value(m, *o.metrics);
            out << '\n';
        }
    }
}

nlohmann::ordered_json order_bounds_json(std::span<const OrderBounds> bounds, const std::string& file_name) {
    nlohmann::ordered_json orders = nlohmann::ordered_json::array();
    for (const char* name : kOrderNames) orders.push_back(name);
    return {{"file", file_name}, {"rows", bounds.size()}, {"orders", orders}};
}

std::string format_order_bounds(std::span<const OrderBounds> bounds, const MetricColumn& metric) {
    if (bounds.empty()) return "";
    const OrderBounds& best = bounds.front();
    std::ostringstream out;
    out << "\norder inside a bar (--intrabar-bounds, " << bounds.size() << " kept rows replayed): " << metric.name
        << " of the best row " << format_metric_shown(metric, best.rule) << " by our rule, "
        << format_metric_shown(metric, best.adverse_first) << " with the adverse extreme first, "
        << format_metric_shown(metric, best.favourable_first) << " with the favourable one first; our rule decided "
        << best.rule.ambiguous_bars << " of its bars\n";
    std::size_t widest = 0;
    double widest_spread = -1.0;
    for (std::size_t r = 0; r < bounds.size(); ++r) {
        const double spread = std::fabs(metric.read(bounds[r].favourable_first) - metric.read(bounds[r].adverse_first));
        if (std::isfinite(spread) && spread > widest_spread) {
            widest_spread = spread;
            widest = r;
        }
    }
    if (widest_spread >= 0.0) {
        out << "the widest spread: rank " << widest + 1 << ", " << metric.name << " "
            << format_metric_shown(metric, bounds[widest].adverse_first) << " (adverse first) to "
            << format_metric_shown(metric, bounds[widest].favourable_first) << " (favourable first)\n";
    }
    return out.str();
}

}  // namespace btforge
