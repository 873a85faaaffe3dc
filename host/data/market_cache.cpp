#include "host/data/market_cache.h"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <new>
#include <set>
#include <sstream>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "host/data/csv_fields.h"
#include "host/data/csv_rows.h"
#include "host/data/data_error.h"
#include "host/data/instruments.h"
#include "host/data/market_limits.h"
#include "host/data/market_rules.h"
#include "host/io/atomic_file.h"
#include "host/io/input_file.h"
#include "host/io/sha256.h"

namespace btforge {

namespace {

constexpr char kMagic[8] = {'B', 'T', 'F', 'M', 'K', 'T', '\0', '\1'};
// 2: each symbol's instrument and own bars (Bar records), checked and aligned on reading
// (Note [Market cache]); 1 held the aligned market.
constexpr std::uint32_t kVersion = 2;
constexpr std::size_t kDigestHex = 64;
// magic, version, key | payload | payload size, payload digest
constexpr std::uint64_t kHeaderBytes = sizeof kMagic + sizeof kVersion + kDigestHex;
constexpr std::uint64_t kTrailerBytes = sizeof(std::uint64_t) + kDigestHex;
constexpr std::uint64_t kMaxSymbolNameBytes = 4096;

// The payload: every field in a fixed order, little-endian as the machine
// writes it (btforge runs on x86-64 and aarch64, both little-endian),
// streamed to the file and hashed as it goes, so neither side holds a copy
// of the market besides its own.
class PayloadWriter {
public:
    explicit PayloadWriter(std::ostream& out) : out_(out) {}
    template <class T>
    void put(const T& value) {
        bytes(&value, sizeof(T));
    }
    template <class T>
    void put_values(const std::vector<T>& values) {
        bytes(values.data(), values.size() * sizeof(T));
    }
    void put_text(const std::string& text) {
        put<std::uint64_t>(text.size());
        bytes(text.data(), text.size());
    }
    std::uint64_t size() const { return size_; }
    std::string digest() const { return hash_.hex(); }

private:
    void bytes(const void* data, std::size_t n) {
        out_.write(static_cast<const char*>(data), static_cast<std::streamsize>(n));
        hash_.update(data, n);
        size_ += n;
    }
    std::ostream& out_;
    Sha256 hash_;
    std::uint64_t size_ = 0;
};

// What a cache cannot be used for, said after "corrupt: ".
class CacheCorrupt : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Reads what PayloadWriter wrote, never past the payload's recorded size
// (a count from a damaged file cannot make it allocate more than the file
// holds), hashing every byte for the check at the end.
class PayloadReader {
public:
    PayloadReader(InputFile& in, std::uint64_t size) : in_(in), left_(size) {}
    template <class T>
    T get() {
        T value;
        bytes(&value, sizeof(T));
        return value;
    }
    // A count of values of `value_bytes` each that the payload can still hold.
    std::uint64_t get_count(std::uint64_t value_bytes) {
        const auto count = get<std::uint64_t>();
        if (count > left_ / value_bytes) throw CacheCorrupt("it ends early (truncated)");
        return count;
    }
    template <class T>
    std::vector<T> get_values(std::uint64_t count) {
        if (count > left_ / sizeof(T)) throw CacheCorrupt("it ends early (truncated)");
        std::vector<T> values(count);
        bytes(values.data(), count * sizeof(T));
        return values;
    }
    std::string get_text() {
        const auto size = get<std::uint64_t>();
        if (size > left_ || size > kMaxSymbolNameBytes) {
            throw CacheCorrupt("a symbol name of " + std::to_string(size) + " bytes");
        }
        std::string text(size, '\0');
        bytes(text.data(), size);
        return text;
    }
    bool done() const { return left_ == 0; }
    std::string digest() const { return hash_.hex(); }

private:
    void bytes(void* data, std::uint64_t n) {
        if (n > left_) throw CacheCorrupt("it ends early (truncated)");
        if (n == 0) return;
        in_.read_exact(static_cast<char*>(data), n, "its payload");
        hash_.update(data, n);
        left_ -= n;
    }
    InputFile& in_;
    std::uint64_t left_;
    Sha256 hash_;
};

// The bars of one symbol in the cache: its own bars, as the parse read them.
std::vector<Bar> own_bars(const Market& market, std::size_t s) {
    std::vector<Bar> bars;
    bars.reserve(market.own_bars[s].size());
    for (const int t : market.own_bars[s]) {
        const std::size_t i = market.index(static_cast<int>(s), t);
        bars.push_back(Bar{market.timestamp_ms[static_cast<std::size_t>(t)], market.open[i], market.high[i],
                           market.low[i], market.close[i], market.volume[i], market.funding_rate[i]});
    }
    return bars;
}

void write_payload(PayloadWriter& w, const Market& market, const CsvMarketFacts& facts) {
    w.put<std::uint64_t>(market.symbols.size());
    w.put<std::int32_t>(facts.epoch_unit ? static_cast<std::int32_t>(*facts.epoch_unit) : -1);
    w.put<std::int32_t>(facts.epoch_unit_detected ? 1 : 0);
    w.put<std::uint64_t>(facts.bars);
    w.put<std::uint64_t>(facts.bars_with_funding_rate);
    for (std::size_t s = 0; s < market.symbols.size(); ++s) {
        w.put_text(market.symbols[s]);
        const Instrument& instrument = market.instruments[s];
        w.put(instrument.qty_step);
        w.put(instrument.min_qty);
        w.put(instrument.price_tick);
        const MarginSchedule& margin = instrument.margin;
        w.put<std::int32_t>(margin.n_tiers);
        w.put(margin.liquidation_fee);
        for (int k = 0; k < margin.n_tiers && k < kMaxMarginTiers; ++k) {
            w.put(margin.notional_floor[k]);
            w.put(margin.rate[k]);
            w.put(margin.amount[k]);
        }
        const std::vector<Bar> bars = own_bars(market, s);
        w.put<std::uint64_t>(bars.size());
        w.put_values(bars);
    }
}

// Bars are stored as the reader holds them, so they are read in one piece.
static_assert(std::is_trivially_copyable_v<Bar> && sizeof(Bar) == sizeof(std::int64_t) + 6 * sizeof(double),
              "a Bar is written as its bytes: time, open, high, low, close, volume, funding rate");

// The payload's structure, before its checksum is known to be right: what
// could not be read at all.
struct CachedMarket {
    CsvMarketFacts facts;
    std::vector<SymbolBars> symbols;
};

CachedMarket read_payload(PayloadReader& r) {
    CachedMarket cached;
    const auto n_symbols = r.get<std::uint64_t>();
    if (n_symbols == 0 || n_symbols > static_cast<std::uint64_t>(kMaxSymbols)) {
        throw CacheCorrupt("it claims " + std::to_string(n_symbols) + " symbols");
    }
    CsvMarketFacts& f = cached.facts;
    const auto unit = r.get<std::int32_t>();
    if (unit < -1 || unit > static_cast<std::int32_t>(EpochUnit::Nanoseconds)) {
        throw CacheCorrupt("an epoch unit numbered " + std::to_string(unit));
    }
    if (unit >= 0) f.epoch_unit = static_cast<EpochUnit>(unit);
    const auto detected = r.get<std::int32_t>();
    if (detected != 0 && detected != 1) throw CacheCorrupt("a flag of " + std::to_string(detected));
    f.epoch_unit_detected = detected != 0;
    f.bars = r.get<std::uint64_t>();
    f.bars_with_funding_rate = r.get<std::uint64_t>();
    for (std::uint64_t s = 0; s < n_symbols; ++s) {
        SymbolBars symbol;
        symbol.symbol = r.get_text();
        Instrument& instrument = symbol.instrument;
        instrument.qty_step = r.get<double>();
        instrument.min_qty = r.get<double>();
        instrument.price_tick = r.get<double>();
        MarginSchedule margin{};
        margin.n_tiers = r.get<std::int32_t>();
        if (margin.n_tiers < 1 || margin.n_tiers > kMaxMarginTiers) {
            throw CacheCorrupt("a margin schedule of " + std::to_string(margin.n_tiers) + " tiers");
        }
        margin.liquidation_fee = r.get<double>();
        for (int k = 0; k < margin.n_tiers; ++k) {
            margin.notional_floor[k] = r.get<double>();
            margin.rate[k] = r.get<double>();
            margin.amount[k] = r.get<double>();
        }
        instrument.margin = margin;
        symbol.bars = r.get_values<Bar>(r.get_count(sizeof(Bar)));
        cached.symbols.push_back(std::move(symbol));
    }
    if (!r.done()) throw CacheCorrupt("it has bytes after the market");
    return cached;
}

// A cached value in a message: its shortest text, or what it is when not finite.
std::string number_text(double x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    return shortest_text(x);
}

// Note [Market cache]: what a cache holds meets Note [Market rules] and the
// load's own rules, checked by the functions the CSV reader calls.
void check_cached_market(const CachedMarket& cached, const MarketLoadOptions& options) {
    std::uint64_t bars = 0;
    std::set<std::string> names;
    for (const SymbolBars& symbol : cached.symbols) {
        if (const auto bad = symbol_name_break(symbol.symbol)) throw CacheCorrupt(*bad + " (bad-symbol)");
        if (!names.insert(symbol.symbol).second) throw CacheCorrupt("symbol " + in_quotes(symbol.symbol) + " twice");
        if (const auto bad = instrument_break(symbol.instrument)) {
            throw CacheCorrupt("the instrument of " + symbol.symbol + ": " + bad->where + ": " + bad->message + " (" +
                               bad->rule + ")");
        }
        if (symbol.bars.empty()) throw CacheCorrupt(symbol.symbol + " has no bars");
        std::optional<std::int64_t> previous;
        for (std::size_t k = 0; k < symbol.bars.size(); ++k) {
            const Bar& bar = symbol.bars[k];
            const auto where = [&] { return "bar " + std::to_string(k) + " of " + symbol.symbol; };
            if (const auto broken = bar_time_break(previous, bar.timestamp_ms, options.funding_interval_ms)) {
                const std::string before = previous ? describe_ms(*previous) : std::string("none");
                throw CacheCorrupt(where() + " at " + describe_ms(bar.timestamp_ms) + " after " + before + " (" +
                                   broken->rule + ")");
            }
            const ShowBarField show = [&bar](BarField field) {
                switch (field) {
                    case BarField::open: return number_text(bar.open);
                    case BarField::high: return number_text(bar.high);
                    case BarField::low: return number_text(bar.low);
                    case BarField::close: return number_text(bar.close);
                    case BarField::volume: return number_text(bar.volume);
                    case BarField::funding_rate: return number_text(bar.funding_rate);
                }
                return std::string();
            };
            if (const auto broken = bar_break(bar, show)) {
                throw CacheCorrupt(where() + " at " + describe_ms(bar.timestamp_ms) + ": " + broken->message + " (" +
                                   broken->rule + ")");
            }
            previous = bar.timestamp_ms;
        }
        bars += symbol.bars.size();
    }
    if (!options.symbols.empty() && names != std::set<std::string>(options.symbols.begin(), options.symbols.end())) {
        throw CacheCorrupt("its symbols are not the ones the load selects");
    }
    if (cached.facts.bars != bars || cached.facts.bars_with_funding_rate > bars) {
        throw CacheCorrupt("it counts " + std::to_string(cached.facts.bars) + " bars (" +
                           std::to_string(cached.facts.bars_with_funding_rate) + " with a funding rate) but holds " +
                           std::to_string(bars));
    }
}

std::string options_text(const MarketLoadOptions& options) {
    std::ostringstream out;
    out.precision(17);
    out << "btforge market cache v" << kVersion << "\nsymbols:";
    for (const std::string& s : options.symbols) out << ' ' << s.size() << ':' << s;
    out << "\ndefault_funding_rate: " << options.default_funding_rate
        << "\nfunding_interval_ms: " << options.funding_interval_ms << "\ntimestamp_unit: "
        << (options.timestamp_unit ? std::string(epoch_unit_name(*options.timestamp_unit)) : std::string("auto"))
        << "\ndefault margin schedule:";
    // Note [Default margin schedule]: a symbol the instruments file leaves
    // without one gets the default, so a cache holds it; another default
    // (another btforge) must not reuse it.
    const MarginSchedule fallback = default_margin_schedule();
    out << ' ' << fallback.n_tiers << ' ' << fallback.liquidation_fee;
    for (int k = 0; k < fallback.n_tiers; ++k) {
        out << ' ' << fallback.notional_floor[k] << ':' << fallback.rate[k] << ':' << fallback.amount[k];
    }
    out << '\n';
    return out.str();
}

// Why a cache that could not be opened is not used; "none yet" when there is none.
std::string why_not_opened(const InputFileError& e) {
    if (e.missing()) return "none yet";
    return "it " + e.message();
}

std::optional<Market> read_cache(InputFile& in, const std::string& key, const MarketLoadOptions& options,
                                 CsvMarketFacts* facts, std::string* why_not) {
    const auto fail = [&](const std::string& why) {
        if (why_not != nullptr) *why_not = why;
        return std::optional<Market>();
    };
    if (!funding_interval_in_range(options.funding_interval_ms)) {
        throw std::invalid_argument("read_market_cache: a funding interval of " +
                                    std::to_string(options.funding_interval_ms) + " ms");
    }
    const std::uint64_t file_size = in.size();
    try {
        char magic[sizeof kMagic];
        std::uint32_t version = 0;
        std::string stored_key(kDigestHex, '\0');
        if (file_size < kHeaderBytes) return fail("corrupt: not a btforge market cache");
        in.read_exact(magic, sizeof magic, "its header");
        in.read_exact(reinterpret_cast<char*>(&version), sizeof version, "its header");
        in.read_exact(stored_key.data(), kDigestHex, "its header");
        if (std::memcmp(magic, kMagic, sizeof kMagic) != 0) return fail("corrupt: not a btforge market cache");
        if (version != kVersion) return fail("written by another version of btforge");
        if (stored_key != key) return fail("the CSV or the options changed");
        if (file_size < kHeaderBytes + kTrailerBytes) {
            return fail("corrupt: its size does not match its header (truncated?)");
        }
        std::uint64_t size = 0;
        std::string stored_digest(kDigestHex, '\0');
        in.seek(file_size - kTrailerBytes);
        in.read_exact(reinterpret_cast<char*>(&size), sizeof size, "its trailer");
        in.read_exact(stored_digest.data(), kDigestHex, "its trailer");
        if (size != file_size - kHeaderBytes - kTrailerBytes) {
            return fail("corrupt: its size does not match its header (truncated?)");
        }
        in.seek(kHeaderBytes);
        PayloadReader payload(in, size);
        CachedMarket cached = read_payload(payload);
        if (payload.digest() != stored_digest) return fail("corrupt: its content does not match its checksum");
        check_cached_market(cached, options);
        Market market;
        try {
            market = build_market(std::move(cached.symbols), options.funding_interval_ms);
        } catch (const std::invalid_argument& e) {
            throw CacheCorrupt(e.what());  // the checks of the parse's build_market, which the reader leaves to it
        }
        if (facts != nullptr) *facts = cached.facts;
        return market;
    } catch (const CacheCorrupt& e) {
        // A damaged payload can fail its structure before its checksum is reached.
        return fail(std::string("corrupt: ") + e.what());
    } catch (const InputFileError& e) {
        return fail("it could not be read: " + e.message());
    }
}

}  // namespace

std::string market_cache_key(const MarketInputDigests& digests, const MarketLoadOptions& options) {
    return sha256_hex(options_text(options) + "csv: " + digests.csv + "\ninstruments: " +
                      (digests.instruments.empty() ? std::string("none") : digests.instruments) + "\n");
}

std::string market_cache_key(const std::filesystem::path& csv, const MarketLoadOptions& options) {
    MarketInputDigests digests;
    InputFile input = open_csv_file(csv, "market file");
    try {
        digests.csv = sha256_hex_of_input(input);
    } catch (const InputFileError& e) {
        throw DataError(csv.string(), 0, 0, e.rule(), e.message());
    }
    if (options.instruments_file) (void)load_instruments(*options.instruments_file, &digests.instruments);
    return market_cache_key(digests, options);
}

void write_market_cache(const std::filesystem::path& file, const std::string& key, const Market& market,
                        const CsvMarketFacts& facts) {
    AtomicFile out(file);
    std::ostream& stream = out.stream();
    stream.write(kMagic, sizeof kMagic);
    stream.write(reinterpret_cast<const char*>(&kVersion), sizeof kVersion);
    stream.write(key.data(), static_cast<std::streamsize>(key.size()));
    PayloadWriter payload(stream);
    write_payload(payload, market, facts);
    const std::uint64_t size = payload.size();
    const std::string digest = payload.digest();
    stream.write(reinterpret_cast<const char*>(&size), sizeof size);
    stream.write(digest.data(), static_cast<std::streamsize>(digest.size()));
    out.commit();
}

std::optional<Market> read_market_cache(const std::filesystem::path& file, const std::string& key,
                                        const MarketLoadOptions& options, CsvMarketFacts* facts,
                                        std::string* why_not) {
    try {
        InputFile in(file, "market cache", InputStreaming::refused);
        return read_cache(in, key, options, facts, why_not);
    } catch (const InputFileError& e) {
        if (why_not != nullptr) *why_not = why_not_opened(e);
        return std::nullopt;
    }
}

Market load_market_csv_cached(const std::filesystem::path& csv, const MarketLoadOptions& options,
                              CsvMarketFacts* facts, MarketCacheUse* use) {
    const auto started = std::chrono::steady_clock::now();
    MarketCacheUse local;
    MarketCacheUse& u = use != nullptr ? *use : local;
    u.file = csv;
    u.file += ".btfcache";
    const auto done = [&](Market market) {
        u.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return market;
    };
    InputFile input = open_csv_file(csv, "market file");
    // A stream is read once, as it comes: nothing keys it before it is read.
    bool streams = !input.regular();
    if (options.instruments_file) {
        try {
            const InputFile instruments(*options.instruments_file, "instruments file", InputStreaming::allowed);
            streams = streams || !instruments.regular();
        } catch (const InputFileError&) {
            return done(load_market_csv(input, options, facts, nullptr));  // the loader says what is wrong with it
        }
    }
    if (streams) {
        u.write_error = "a stream (a FIFO or pipe) is read once";
        return done(load_market_csv(input, options, facts, nullptr));
    }

    bool may_write = true;
    std::optional<InputFile> cache;
    try {
        cache.emplace(u.file, "market cache", InputStreaming::refused);
    } catch (const InputFileError& e) {
        u.why_rebuilt = why_not_opened(e);
        if (e.rule() == "not-a-regular-file") {
            may_write = false;  // not ours to replace
            u.write_error = u.file.filename().string() + " is left as it is";
        }
    }
    if (cache) {
        // The key of the files as they are now; the cache was written under
        // the key of the bytes its market was parsed from.
        MarketInputDigests now;
        try {
            now.csv = sha256_hex_of_input(input);
            input.seek(0);
        } catch (const InputFileError& e) {
            throw DataError(csv.string(), 0, 0, e.rule(), e.message());
        }
        if (options.instruments_file) (void)load_instruments(*options.instruments_file, &now.instruments);
        CsvMarketFacts cached_facts;
        if (std::optional<Market> cached =
                read_cache(*cache, market_cache_key(now, options), options, &cached_facts, &u.why_rebuilt)) {
            u.hit = true;
            if (facts != nullptr) *facts = cached_facts;
            return done(std::move(*cached));
        }
        cache.reset();
    }
    MarketInputDigests parsed;
    CsvMarketFacts parsed_facts;
    Market market = load_market_csv(input, options, &parsed_facts, &parsed);
    if (may_write) {
        try {
            write_market_cache(u.file, market_cache_key(parsed, options), market, parsed_facts);
            u.written = true;
        } catch (const std::exception& e) {
            u.write_error = e.what();
        }
    }
    if (facts != nullptr) *facts = parsed_facts;
    return done(std::move(market));
}

std::string describe_market_cache_use(const MarketCacheUse& use) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.2f s", use.seconds);
    if (use.hit) return "read from its cache " + use.file.filename().string() + " in " + seconds;
    std::string text = std::string("parsed in ") + seconds;
    if (use.why_rebuilt != "none yet" && !use.why_rebuilt.empty()) {
        text += " (its cache was not used: " + use.why_rebuilt + ")";
    }
    text += use.written ? "; cached in " + use.file.filename().string() + " for the next run"
                        : "; not cached: " + use.write_error;
    return text;
}

}  // namespace btforge
