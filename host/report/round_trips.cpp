#include "host/report/round_trips.h"

#include <map>
#include <stdexcept>
#include <string>

#include "host/data/timestamp_parse.h"
#include "host/io/atomic_file.h"
#include "host/report/trade_log_writer.h"
#include "host/spec/number_format.h"
#include "reference/accounting/funding.h"
#include "reference/accounting/quantize.h"

namespace btforge {

// Note [Round trips from the fill log]
// The fill log records each fill's trade, quantity, price, fee, realized PnL
// and the cash after it, but not the funding, which the reference books on
// the holding of a symbol between fills. A trade's funding is recomputed
// here with the reference's own funding_delta, on the quantity the trade held
// at each funding step, so it is exact only if the steps are placed where the
// reference placed them. The built-in strategies follow Note [Bar order of
// the default strategy]: per bar and per symbol in index order, the fills at
// the open (entry, signal_exit), then the funding, then the fills inside the
// bar (resting_entry, a resting order reached after the funding time: Note
// [Resting entry orders]; then the exits liquidation, stop_loss, stop_gap,
// partial_target, target); after every symbol, the exits at the close
// (max_hold, end_of_data). The derivation replays the
// account in that order with the reference's arithmetic (quantize after each
// step) and requires the replayed cash to equal every fill's cash_after bit
// for bit; a strategy that orders its steps otherwise is refused, not given
// numbers that might be wrong. A trade's net PnL is then the reference's own
// trade_pnl (realized PnL - fees - funding, each step quantized), the value
// its metrics counted; gross PnL, fees and funding are the same steps summed
// apart, so gross - fees - funding equals it up to the accounting quantum.

namespace {

enum class BarPhase { Open, InsideBar, Close };

BarPhase phase_of(int reason) {
    switch (reason) {
        case kEntry:
        case kSignalExit: return BarPhase::Open;
        case kMaxHold:
        case kEndOfData: return BarPhase::Close;
        default: return BarPhase::InsideBar;
    }
}

struct OpenTrade {
    int trade = -1;  // -1: flat
    int side = 0;
    double qty = 0.0;
    double trade_pnl = 0.0;
};

struct Totals {
    RoundTrip trip;
    double entry_notional = 0.0;  // sum of qty * price over the entry fills
    double exit_notional = 0.0;
    double exit_qty = 0.0;
    int entry_fills = 0;
    int exit_fills = 0;
    bool closed = false;
};

class AccountReplay {
public:
    AccountReplay(const MarketView& market, double initial_equity, std::span<const FillRecord> fills)
        : market_(market), fills_(fills), cash_(initial_equity), holdings_(static_cast<std::size_t>(market.n_symbols)) {}

    std::vector<RoundTrip> run() {
        for (int t = 0; t < market_.n_bars; ++t) {
            for (int s = 0; s < market_.n_symbols; ++s) {
                consume(t, s, BarPhase::Open);
                settle_funding(t, s);
                consume(t, s, BarPhase::InsideBar);
            }
            while (next_ < fills_.size() && fills_[next_].bar == t && phase_of(fills_[next_].reason) == BarPhase::Close)
                apply(fills_[next_++]);
            if (next_ < fills_.size() && fills_[next_].bar <= t) refuse(fills_[next_], "comes out of the bar order");
        }
        if (next_ != fills_.size()) refuse(fills_[next_], "lies beyond the last bar");
        std::vector<RoundTrip> trips;
        for (auto& [index, totals] : trades_) {
            if (!totals.closed) throw std::runtime_error("round trips: trade " + std::to_string(index) + " never closes");
            RoundTrip& trip = totals.trip;
            if (totals.entry_fills > 1) trip.entry_price = totals.entry_notional / trip.quantity;
            if (totals.exit_fills > 1) trip.exit_price = totals.exit_notional / totals.exit_qty;
            trips.push_back(trip);
        }
        return trips;
    }

private:
    [[noreturn]] void refuse(const FillRecord& fill, const std::string& what) const {
        throw std::runtime_error("round trips: fill " + std::to_string(&fill - fills_.data() + 1) + " of the log (trade " +
                                 std::to_string(fill.trade_index) + ", bar " + std::to_string(fill.bar) + ", " +
                                 fill_reason_name(fill.reason) + ") " + what +
                                 "; the strategy does not follow the bar order that funding is attributed by "
                                 "(Note [Round trips from the fill log])");
    }

    void consume(int t, int s, BarPhase phase) {
        while (next_ < fills_.size() && fills_[next_].bar == t && fills_[next_].symbol == s &&
               phase_of(fills_[next_].reason) == phase)
            apply(fills_[next_++]);
    }

    void settle_funding(int t, int s) {
        OpenTrade& open = holdings_[static_cast<std::size_t>(s)];
        const int i = market_index(market_, s, t);
        if (open.trade < 0 || market_.tradable[i] == 0 || market_.funding_free != 0) return;
        Totals& totals = trades_.at(open.trade);
        for (int k = 0; k < market_.funding_events[i]; ++k) {
            // settle_funding and apply_funding of the reference, step for step.
            const double delta = funding_delta(open.side, open.qty, market_.open[i], market_.funding_rate[i]);
            cash_ = quantize(cash_ - delta);
            open.trade_pnl = quantize(open.trade_pnl - delta);
            totals.trip.funding = quantize(totals.trip.funding + delta);
        }
    }

    void apply(const FillRecord& fill) {
        OpenTrade& open = holdings_[static_cast<std::size_t>(fill.symbol)];
        if (fill.reason == kEntry || fill.reason == kRestingEntry) {
            if (open.trade >= 0 && open.trade != fill.trade_index) refuse(fill, "opens a trade while another is open");
            Totals& totals = trades_[fill.trade_index];
            if (totals.entry_fills == 0) {
                totals.trip.trade = fill.trade_index;
                totals.trip.symbol = fill.symbol;
                totals.trip.side = fill.trade_dir;
                totals.trip.entry_bar = fill.bar;
                totals.trip.entry_price = fill.price;
                open = OpenTrade{fill.trade_index, fill.trade_dir, fill.qty, 0.0};
            } else {
                open.qty = to_decimal_grid(open.qty + fill.qty);
            }
            // apply_open_fill
            cash_ = quantize(cash_ - fill.fee);
            open.trade_pnl = quantize(open.trade_pnl - fill.fee);
            totals.entry_fills += 1;
            totals.entry_notional += fill.qty * fill.price;
            totals.trip.quantity = open.qty;
            totals.trip.fees = quantize(totals.trip.fees + fill.fee);
        } else {
            if (open.trade != fill.trade_index || fill.trade_dir != -open.side)
                refuse(fill, "closes a trade that is not open");
            Totals& totals = trades_.at(fill.trade_index);
            // apply_close_fill
            cash_ = quantize(cash_ + fill.realized_pnl - fill.fee);
            open.trade_pnl = quantize(open.trade_pnl + fill.realized_pnl - fill.fee);
            open.qty = to_decimal_grid(open.qty - fill.qty);
            if (totals.exit_fills == 0) totals.trip.exit_price = fill.price;
            totals.exit_fills += 1;
            totals.exit_notional += fill.qty * fill.price;
            totals.exit_qty += fill.qty;
            totals.trip.gross_pnl = quantize(totals.trip.gross_pnl + fill.realized_pnl);
            totals.trip.fees = quantize(totals.trip.fees + fill.fee);
            if (open.qty <= 0.0) {
                totals.trip.exit_bar = fill.bar;
                totals.trip.exit_reason = fill.reason;
                totals.trip.net_pnl = open.trade_pnl;
                totals.closed = true;
                open = OpenTrade{};
            }
        }
        if (cash_ != fill.cash_after)
            refuse(fill, "leaves cash " + format_double(fill.cash_after) + " where its replay leaves " + format_double(cash_));
    }

    const MarketView& market_;
    std::span<const FillRecord> fills_;
    std::size_t next_ = 0;
    double cash_;
    std::vector<OpenTrade> holdings_;  // per symbol
    std::map<int, Totals> trades_;     // by trade index
};

}  // namespace

std::vector<RoundTrip> derive_round_trips(const MarketView& market, double initial_equity,
                                          std::span<const FillRecord> fills) {
    return AccountReplay(market, initial_equity, fills).run();
}

void write_round_trips_csv(std::ostream& out, const Market& market, const MarketWindow& window,
                           const std::vector<RoundTrip>& round_trips) {
    auto time_of = [&](int bar) {
        return format_timestamp_iso(market.timestamp_ms.at(static_cast<std::size_t>(window.first_bar + bar)));
    };
    out << "trade,symbol,side,entry_time,entry_price,exit_time,exit_price,quantity,gross_pnl,fees,funding,net_pnl,"
           "exit_reason,bars_held\n";
    for (const RoundTrip& r : round_trips) {
        out << r.trade << ',' << market.symbols[static_cast<std::size_t>(r.symbol)] << ','
            << (r.side > 0 ? "long" : "short") << ','
            << time_of(r.entry_bar) << ',' << format_double(r.entry_price) << ',' << time_of(r.exit_bar) << ','
            << format_double(r.exit_price) << ',' << format_double(r.quantity) << ',' << format_double(r.gross_pnl)
            << ',' << format_double(r.fees) << ',' << format_double(r.funding) << ',' << format_double(r.net_pnl) << ','
            << fill_reason_name(r.exit_reason) << ',' << r.exit_bar - r.entry_bar << '\n';
    }
}

}  // namespace btforge
