#include "host/report/trade_log_writer.h"

#include "host/data/timestamp_parse.h"
#include "host/io/number_format.h"

namespace btforge {

const char* fill_reason_name(int reason) {
    switch (reason) {
        case kEntry: return "entry";
        case kStopLoss: return "stop_loss";
        case kStopGap: return "stop_gap";
        case kPartialTarget: return "partial_target";
        case kTarget: return "target";
        case kSignalExit: return "signal_exit";
        case kMaxHold: return "max_hold";
        case kEndOfData: return "end_of_data";
        case kRestingEntry: return "resting_entry";
        case kLiquidation: return "liquidation";
        case kFunding: return "funding";
        default: return "unknown";
    }
}

namespace {

constexpr const char* kFillColumns = "trade,bar,time,symbol,reason,side,qty,price,fee,realized_pnl,cash_after\n";

void write_fill(std::ostream& out, const Market& market, const MarketWindow& window, const FillRecord& f) {
    const int bar = window.first_bar + f.bar;
    out << f.trade_index << ',' << bar << ',' << format_timestamp_iso(market.timestamp_ms.at(static_cast<std::size_t>(bar)))
        << ',' << market.symbols[static_cast<std::size_t>(f.symbol)] << ',' << fill_reason_name(f.reason) << ','
        << (f.trade_dir > 0 ? "buy" : "sell") << ',' << format_double(f.qty) << ',' << format_double(f.price) << ','
        << format_double(f.fee) << ',' << format_double(f.realized_pnl) << ',' << format_double(f.cash_after) << '\n';
}

}  // namespace

void write_trade_log_csv(std::ostream& out, const Market& market, const MarketWindow& window,
                         const std::vector<FillRecord>& fills) {
    out << kFillColumns;
    for (const FillRecord& f : fills) {
        write_fill(out, market, window, f);
        if (!out) return;
    }
}

void write_stitched_trade_log_csv(std::ostream& out, const Market& market, const MarketWindow& window,
                                  const StitchedPath& path) {
    out << "step,combination_id," << kFillColumns;
    for (const StitchedFill& f : path.fills) {
        out << f.step << ',' << f.combination_id << ',';
        write_fill(out, market, window, f.fill);
        if (!out) return;
    }
}

void write_stitched_equity_csv(std::ostream& out, const Market& market, const MarketWindow& window,
                               const StitchedPath& path) {
    out << "step,bar,time,equity\n";
    for (std::size_t i = 0; i < path.bars.size(); ++i) {
        const std::size_t bar = static_cast<std::size_t>(window.first_bar + path.bars[i]);
        out << path.bar_steps[i] << ',' << bar << ',' << format_timestamp_iso(market.timestamp_ms.at(bar)) << ','
            << format_double(path.equity[i]) << '\n';
        if (!out) return;
    }
}

void write_equity_csv(std::ostream& out, const Market& market, const MarketWindow& window,
                      const std::vector<double>& equity) {
    out << "bar,time,equity\n";
    for (std::size_t t = 0; t < equity.size(); ++t) {
        const std::size_t bar = static_cast<std::size_t>(window.first_bar) + t;
        out << bar << ',' << format_timestamp_iso(market.timestamp_ms.at(bar)) << ',' << format_double(equity[t]) << '\n';
        if (!out) return;
    }
}

}  // namespace btforge
