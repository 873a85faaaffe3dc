#include "host/report/round_trips.h"

#include <map>
#include <stdexcept>
#include <string>

#include "host/data/timestamp_parse.h"
#include "host/io/atomic_file.h"
#include "host/report/trade_log_writer.h"
#include "host/io/number_format.h"
#include "reference/accounting/quantize.h"

namespace btforge {

// Note [Round trips from the fill log]
// The log holds every change of the account's cash in the order the
// reference made it: the fills and the funding settlements (Note [Funding in
// the fill log]). A round trip is the sum of its trade's records: gross PnL,
// fees and funding, each booked as the reference books them (quantize after
// each step), and its net PnL is the reference's own trade_pnl (realized PnL
// - fees - funding, each step quantized), the value its metrics counted; so
// gross - fees - funding equals it up to the accounting quantum. Nothing of
// the strategy's bar order is assumed. The log is checked, not believed: the
// running cash must equal every record's cash_after bit for bit, every
// record must belong to the trade open on its symbol, bars must not go
// back, and every trade must close; a log that fails is refused, not given
// numbers that might be wrong.

namespace {

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

class LedgerSum {
public:
    LedgerSum(const MarketView& market, double initial_equity, std::span<const FillRecord> log)
        : market_(market), log_(log), cash_(initial_equity), holdings_(static_cast<std::size_t>(market.n_symbols)) {}

    std::vector<RoundTrip> run() {
        int last_bar = 0;
        for (const FillRecord& record : log_) {
            if (record.bar < last_bar) refuse(record, "comes out of the bar order");
            if (record.bar >= market_.n_bars) refuse(record, "lies beyond the last bar");
            if (record.symbol < 0 || record.symbol >= market_.n_symbols) refuse(record, "names no symbol of the market");
            last_bar = record.bar;
            if (record.reason == kFunding) {
                settle(record);
            } else if (record.reason == kEntry || record.reason == kRestingEntry) {
                open(record);
            } else {
                close(record);
            }
            if (cash_ != record.cash_after) {
                refuse(record, "leaves cash " + format_double(record.cash_after) + " where the records before it leave " +
                                   format_double(cash_));
            }
        }
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
    [[noreturn]] void refuse(const FillRecord& record, const std::string& what) const {
        throw std::runtime_error("round trips: record " + std::to_string(&record - log_.data() + 1) + " of the log (trade " +
                                 std::to_string(record.trade_index) + ", bar " + std::to_string(record.bar) + ", " +
                                 fill_reason_name(record.reason) + ") " + what +
                                 " (Note [Round trips from the fill log])");
    }

    OpenTrade& holding_of(const FillRecord& record) { return holdings_[static_cast<std::size_t>(record.symbol)]; }

    // settle_funding and apply_funding of the reference.
    void settle(const FillRecord& record) {
        OpenTrade& open = holding_of(record);
        if (open.trade != record.trade_index || record.trade_dir != open.side)
            refuse(record, "settles funding on a trade that is not open");
        cash_ = quantize(cash_ - record.funding);
        open.trade_pnl = quantize(open.trade_pnl - record.funding);
        Totals& totals = trades_.at(record.trade_index);
        totals.trip.funding = quantize(totals.trip.funding + record.funding);
    }

    // apply_open_fill
    void open(const FillRecord& fill) {
        OpenTrade& open = holding_of(fill);
        if (open.trade >= 0 && open.trade != fill.trade_index) refuse(fill, "opens a trade while another is open");
        Totals& totals = trades_[fill.trade_index];
        if (totals.closed) refuse(fill, "reopens a trade that closed");
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
        cash_ = quantize(cash_ - fill.fee);
        open.trade_pnl = quantize(open.trade_pnl - fill.fee);
        totals.entry_fills += 1;
        totals.entry_notional += fill.qty * fill.price;
        totals.trip.quantity = open.qty;
        totals.trip.fees = quantize(totals.trip.fees + fill.fee);
    }

    // apply_close_fill
    void close(const FillRecord& fill) {
        OpenTrade& open = holding_of(fill);
        if (open.trade != fill.trade_index || fill.trade_dir != -open.side) refuse(fill, "closes a trade that is not open");
        Totals& totals = trades_.at(fill.trade_index);
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

    const MarketView& market_;
    std::span<const FillRecord> log_;
    double cash_;
    std::vector<OpenTrade> holdings_;  // per symbol
    std::map<int, Totals> trades_;     // by trade index
};

}  // namespace

std::vector<RoundTrip> derive_round_trips(const MarketView& market, double initial_equity,
                                          std::span<const FillRecord> log) {
    return LedgerSum(market, initial_equity, log).run();
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
