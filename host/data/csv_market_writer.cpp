#include "host/data/csv_market_writer.h"

#include <charconv>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "host/data/timestamp_parse.h"
#include "host/io/atomic_file.h"

namespace btforge {

namespace {

// std::to_chars without a precision gives the shortest text that reads back
// to the same double: exact like %.17g, without its 0.10000000000000001 noise.
void append_number(std::string& line, double value) {
    char buf[32];
    const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, value);
    if (ec != std::errc()) throw std::logic_error("to_chars failed on a double");
    line.append(buf, ptr);
}

void append_symbol(std::string& line, std::string_view symbol) {
    if (symbol.find_first_of(",\"\r\n") == std::string_view::npos) {
        line.append(symbol);
        return;
    }
    line += '"';
    for (const char c : symbol) {
        if (c == '"') line += '"';
        line += c;
    }
    line += '"';
}

std::string timestamp_text(std::int64_t ms, TimestampFormat format) {
    return format == TimestampFormat::Iso8601 ? format_timestamp_iso(ms) : std::to_string(ms);
}

}  // namespace

void write_bars_csv(std::span<const SymbolBars> symbols, std::ostream& stream, TimestampFormat format) {
    stream << "timestamp,symbol,open,high,low,close,volume\n";
    std::string line;
    for (const SymbolBars& symbol : symbols) {
        for (const Bar& bar : symbol.bars) {
            line = timestamp_text(bar.timestamp_ms, format);
            line += ',';
            append_symbol(line, symbol.symbol);
            for (const double v : {bar.open, bar.high, bar.low, bar.close, bar.volume}) {
                line += ',';
                append_number(line, v);
            }
            line += '\n';
            stream << line;
        }
        if (!stream) return;
    }
}

void write_funding_csv(const FundingHistory& history, std::ostream& stream, TimestampFormat format) {
    stream << "timestamp,symbol,rate\n";
    std::string line;
    for (std::size_t s = 0; s < history.symbols.size(); ++s) {
        for (const FundingSettlement& settlement : history.settlements[s]) {
            line = timestamp_text(settlement.time_ms, format);
            line += ',';
            append_symbol(line, history.symbols[s]);
            line += ',';
            append_number(line, settlement.rate);
            line += '\n';
            stream << line;
        }
        if (!stream) return;
    }
}

void write_market_csv(const Market& market, const std::filesystem::path& file, TimestampFormat format) {
    AtomicFile out(file);
    write_market_csv(market, out.stream(), format);
    out.commit();
}

void write_market_csv(const Market& market, std::ostream& stream, TimestampFormat format) {
    stream << "timestamp,symbol,open,high,low,close,volume,funding_rate\n";
    std::string line;
    for (int s = 0; s < market.n_symbols(); ++s) {
        for (const int t : market.own_bars[static_cast<std::size_t>(s)]) {
            const std::size_t i = market.index(s, t);
            line.clear();
            const std::int64_t ms = market.timestamp_ms[static_cast<std::size_t>(t)];
            line += timestamp_text(ms, format);
            line += ',';
            append_symbol(line, market.symbols[static_cast<std::size_t>(s)]);
            for (const double v : {market.open[i], market.high[i], market.low[i], market.close[i], market.volume[i],
                                   market.funding_rate[i]}) {
                line += ',';
                append_number(line, v);
            }
            line += '\n';
            stream << line;
        }
        if (!stream) return;
    }
}

}  // namespace btforge
