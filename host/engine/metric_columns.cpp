#include "host/engine/metric_columns.h"

namespace btforge {

namespace {

constexpr MetricColumn kColumns[] = {
    {"final_equity", true, false, [](const Metrics& m) { return m.final_equity; }},
    {"total_return", true, false, [](const Metrics& m) { return m.total_return; }},
    {"net_pnl", true, false, [](const Metrics& m) { return m.net_pnl; }},
    {"gross_profit", true, false, [](const Metrics& m) { return m.gross_profit; }},
    {"gross_loss", false, false, [](const Metrics& m) { return m.gross_loss; }},
    {"fees_paid", false, false, [](const Metrics& m) { return m.fees_paid; }},
    {"funding_paid", false, false, [](const Metrics& m) { return m.funding_paid; }},
    {"n_trades", true, true, [](const Metrics& m) { return static_cast<double>(m.n_trades); }},
    {"n_wins", true, true, [](const Metrics& m) { return static_cast<double>(m.n_wins); }},
    {"win_rate", true, false, [](const Metrics& m) { return m.win_rate; }},
    {"profit_factor", true, false, [](const Metrics& m) { return m.profit_factor; }},
    {"max_drawdown", false, false, [](const Metrics& m) { return m.max_drawdown; }},
    {"sharpe", true, false, [](const Metrics& m) { return m.sharpe; }},
    {"sortino", true, false, [](const Metrics& m) { return m.sortino; }},
    {"calmar", true, false, [](const Metrics& m) { return m.calmar; }},
    {"exposure", true, false, [](const Metrics& m) { return m.exposure; }},
    {"avg_trade_return", true, false, [](const Metrics& m) { return m.avg_trade_return; }},
    {"max_consecutive_losses", false, true, [](const Metrics& m) { return static_cast<double>(m.max_consecutive_losses); }},
    {"n_liquidations", false, true, [](const Metrics& m) { return static_cast<double>(m.n_liquidations); }},
    {"liquidation_loss", false, false, [](const Metrics& m) { return m.liquidation_loss; }},
    {"ambiguous_bars", false, true, [](const Metrics& m) { return static_cast<double>(m.ambiguous_bars); }},
    {"magnified_bars", false, true, [](const Metrics& m) { return static_cast<double>(m.magnified_bars); }},
};

}  // namespace

std::span<const MetricColumn> metric_columns() { return kColumns; }

const MetricColumn* find_metric_column(std::string_view name) {
    for (const MetricColumn& column : kColumns) {
        if (column.name == name) return &column;
    }
    return nullptr;
}

}  // namespace btforge
