#include "host/data/market_cache.h"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <new>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "host/io/atomic_file.h"
#include "host/io/sha256.h"

namespace btforge {

namespace {

constexpr char kMagic[8] = {'B', 'T', 'F', 'M', 'K', 'T', '\0', '\1'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kDigestHex = 64;
// magic, version, key | payload | payload size, payload digest
constexpr std::uint64_t kHeaderBytes = sizeof kMagic + sizeof kVersion + kDigestHex;
constexpr std::uint64_t kTrailerBytes = sizeof(std::uint64_t) + kDigestHex;

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
    void put_array(const std::vector<T>& values) {
        put<std::uint64_t>(values.size());
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

// Reads what PayloadWriter wrote, never past the payload's recorded size
// (a count from a damaged file cannot make it allocate more than the file
// holds), hashing every byte for the check at the end.
class PayloadReader {
public:
    PayloadReader(std::istream& in, std::uint64_t size) : in_(in), left_(size) {}
    template <class T>
    T get() {
        T value;
        bytes(&value, sizeof(T));
        return value;
    }
    template <class T>
    std::vector<T> get_array(std::uint64_t expected) {
        const auto count = get<std::uint64_t>();
        if (count != expected) {
            throw std::runtime_error("an array has " + std::to_string(count) + " values, not " + std::to_string(expected));
        }
        if (count > left_ / sizeof(T)) throw std::runtime_error("it ends early (truncated)");
        std::vector<T> values(count);
        bytes(values.data(), count * sizeof(T));
        return values;
    }
    std::string get_text() {
        const auto size = get<std::uint64_t>();
        if (size > left_ || size > 4096) throw std::runtime_error("a symbol name of " + std::to_string(size) + " bytes");
        std::string text(size, '\0');
        bytes(text.data(), size);
        return text;
    }
    bool done() const { return left_ == 0; }
    std::string digest() const { return hash_.hex(); }

private:
    void bytes(void* data, std::uint64_t n) {
        if (n > left_) throw std::runtime_error("it ends early (truncated)");
        if (n == 0) return;
        in_.read(static_cast<char*>(data), static_cast<std::streamsize>(n));
        if (!in_) throw std::runtime_error("it could not be read whole");
        hash_.update(data, n);
        left_ -= n;
    }
    std::istream& in_;
    std::uint64_t left_;
    Sha256 hash_;
};

void write_margin_schedule(PayloadWriter& w, const MarginSchedule& schedule) {
    w.put<std::int32_t>(schedule.n_tiers);
    w.put(schedule.liquidation_fee);
    for (int k = 0; k < kMaxMarginTiers; ++k) {
        w.put(schedule.notional_floor[k]);
        w.put(schedule.rate[k]);
        w.put(schedule.amount[k]);
    }
}

MarginSchedule read_margin_schedule(PayloadReader& r) {
    MarginSchedule schedule{};
    schedule.n_tiers = r.get<std::int32_t>();
    if (schedule.n_tiers < 1 || schedule.n_tiers > kMaxMarginTiers) {
        throw std::runtime_error("a margin schedule of " + std::to_string(schedule.n_tiers) + " tiers");
    }
    schedule.liquidation_fee = r.get<double>();
    for (int k = 0; k < kMaxMarginTiers; ++k) {
        schedule.notional_floor[k] = r.get<double>();
        schedule.rate[k] = r.get<double>();
        schedule.amount[k] = r.get<double>();
    }
    return schedule;
}

void write_payload(PayloadWriter& w, const Market& market, const CsvMarketFacts& facts) {
    w.put<std::uint64_t>(market.symbols.size());
    w.put<std::uint64_t>(market.timestamp_ms.size());
    w.put<std::int32_t>(facts.epoch_unit ? static_cast<std::int32_t>(*facts.epoch_unit) : -1);
    w.put<std::int32_t>(facts.epoch_unit_detected ? 1 : 0);
    w.put<std::uint64_t>(facts.bars);
    w.put<std::uint64_t>(facts.bars_with_funding_rate);
    for (std::size_t s = 0; s < market.symbols.size(); ++s) {
        w.put_text(market.symbols[s]);
        w.put(market.instruments[s].qty_step);
        w.put(market.instruments[s].min_qty);
        w.put(market.instruments[s].price_tick);
        write_margin_schedule(w, market.instruments[s].margin);
    }
    w.put_array(market.timestamp_ms);
    for (const std::vector<double>* column : {&market.open, &market.high, &market.low, &market.close, &market.volume,
                                              &market.funding_rate}) {
        w.put_array(*column);
    }
    w.put_array(market.funding_events);
    w.put_array(market.tradable);
}

Market read_payload(PayloadReader& r, CsvMarketFacts* facts) {
    Market m;
    const auto n_symbols = r.get<std::uint64_t>();
    const auto n_bars = r.get<std::uint64_t>();
    if (n_symbols == 0 || n_symbols > static_cast<std::uint64_t>(kMaxSymbols) || n_bars == 0 ||
        n_bars > (std::uint64_t{1} << 31)) {
        throw std::runtime_error("it claims " + std::to_string(n_symbols) + " symbols and " + std::to_string(n_bars) + " bars");
    }
    const std::uint64_t cells = n_symbols * n_bars;
    CsvMarketFacts f;
    const auto unit = r.get<std::int32_t>();
    if (unit >= 0) f.epoch_unit = static_cast<EpochUnit>(unit);
    f.epoch_unit_detected = r.get<std::int32_t>() != 0;
    f.bars = r.get<std::uint64_t>();
    f.bars_with_funding_rate = r.get<std::uint64_t>();
    for (std::uint64_t s = 0; s < n_symbols; ++s) {
        m.symbols.push_back(r.get_text());
        Instrument instrument;
        instrument.qty_step = r.get<double>();
        instrument.min_qty = r.get<double>();
        instrument.price_tick = r.get<double>();
        instrument.margin = read_margin_schedule(r);
        m.instruments.push_back(instrument);
    }
    m.timestamp_ms = r.get_array<std::int64_t>(n_bars);
    for (std::vector<double>* column : {&m.open, &m.high, &m.low, &m.close, &m.volume, &m.funding_rate}) {
        *column = r.get_array<double>(cells);
    }
    m.funding_events = r.get_array<std::int32_t>(cells);
    m.tradable = r.get_array<std::uint8_t>(cells);
    if (!r.done()) throw std::runtime_error("it has bytes after the market");
    for (std::uint64_t s = 0; s < n_symbols; ++s) {
        std::vector<int> own;
        for (std::uint64_t t = 0; t < n_bars; ++t) {
            if (m.tradable[s * n_bars + t] != 0) own.push_back(static_cast<int>(t));
        }
        m.own_bars.push_back(std::move(own));
    }
    m.set_instrument_columns();
    if (facts != nullptr) *facts = f;
    return m;
}

std::string options_text(const MarketLoadOptions& options) {
    std::ostringstream out;
    out.precision(17);
    out << "btforge market cache v" << kVersion << "\nsymbols:";
    for (const std::string& s : options.symbols) out << ' ' << s.size() << ':' << s;
    out << "\ndefault_funding_rate: " << options.default_funding_rate
        << "\nfunding_interval_ms: " << options.funding_interval_ms << "\ntimestamp_unit: "
        << (options.timestamp_unit ? std::string(epoch_unit_name(*options.timestamp_unit)) : std::string("auto"))
        << "\ninstruments: " << (options.instruments_file ? "given" : "none") << "\ndefault margin schedule:";
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

}  // namespace

std::string market_cache_key(const std::filesystem::path& csv, const MarketLoadOptions& options) {
    std::vector<std::filesystem::path> files{csv};
    if (options.instruments_file) files.push_back(*options.instruments_file);
    return sha256_hex_of_files(files, options_text(options));
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
                                        CsvMarketFacts* facts, std::string* why_not) {
    const auto fail = [&](const std::string& why) {
        if (why_not != nullptr) *why_not = why;
        return std::optional<Market>();
    };
    std::ifstream in(file, std::ios::binary);
    if (!in) return fail("none yet");
    char magic[sizeof kMagic];
    std::uint32_t version = 0;
    std::string stored_key(kDigestHex, '\0');
    in.read(magic, sizeof magic);
    in.read(reinterpret_cast<char*>(&version), sizeof version);
    in.read(stored_key.data(), static_cast<std::streamsize>(kDigestHex));
    if (!in || std::memcmp(magic, kMagic, sizeof kMagic) != 0) return fail("corrupt: not a btforge market cache");
    if (version != kVersion) return fail("written by another version of btforge");
    if (stored_key != key) return fail("the CSV or the options changed");
    std::error_code ec;
    const auto file_size = std::filesystem::file_size(file, ec);
    if (ec || file_size < kHeaderBytes + kTrailerBytes) return fail("corrupt: its size does not match its header (truncated?)");
    std::uint64_t size = 0;
    std::string stored_digest(kDigestHex, '\0');
    in.seekg(static_cast<std::streamoff>(file_size - kTrailerBytes));
    in.read(reinterpret_cast<char*>(&size), sizeof size);
    in.read(stored_digest.data(), static_cast<std::streamsize>(kDigestHex));
    if (!in || file_size != kHeaderBytes + size + kTrailerBytes) {
        return fail("corrupt: its size does not match its header (truncated?)");
    }
    in.seekg(static_cast<std::streamoff>(kHeaderBytes));
    try {
        PayloadReader payload(in, size);
        CsvMarketFacts read_facts;
        Market market = read_payload(payload, &read_facts);
        if (payload.digest() != stored_digest) return fail("corrupt: its content does not match its checksum");
        if (facts != nullptr) *facts = read_facts;
        return market;
    } catch (const std::bad_alloc&) {
        throw;  // out of memory is said as such by the caller, not taken for damage
    } catch (const std::exception& e) {
        // A damaged payload can fail its structure before its checksum is reached.
        return fail(std::string("corrupt: ") + e.what());
    }
}

Market load_market_csv_cached(const std::filesystem::path& csv, const MarketLoadOptions& options,
                              CsvMarketFacts* facts, MarketCacheUse* use) {
    const auto started = std::chrono::steady_clock::now();
    MarketCacheUse local;
    MarketCacheUse& u = use != nullptr ? *use : local;
    u.file = csv;
    u.file += ".btfcache";
    std::string key;
    try {
        key = market_cache_key(csv, options);
    } catch (const std::exception&) {
        return load_market_csv(csv, options, facts);  // the loader reports the unreadable file
    }
    CsvMarketFacts cached_facts;
    if (std::optional<Market> cached = read_market_cache(u.file, key, &cached_facts, &u.why_rebuilt)) {
        u.hit = true;
        if (facts != nullptr) *facts = cached_facts;
        u.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return std::move(*cached);
    }
    CsvMarketFacts parsed_facts;
    Market market = load_market_csv(csv, options, &parsed_facts);
    try {
        write_market_cache(u.file, key, market, parsed_facts);
        u.written = true;
    } catch (const std::exception& e) {
        u.write_error = e.what();
    }
    if (facts != nullptr) *facts = parsed_facts;
    u.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return market;
}

std::string describe_market_cache_use(const MarketCacheUse& use) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.2f s", use.seconds);
    if (use.hit) return "read from its cache " + use.file.filename().string() + " in " + seconds;
    std::string text = std::string("parsed in ") + seconds;
    if (use.why_rebuilt != "none yet" && !use.why_rebuilt.empty()) text += " (its cache was not used: " + use.why_rebuilt + ")";
    text += use.written ? "; cached in " + use.file.filename().string() + " for the next run"
                        : "; not cached: " + use.write_error;
    return text;
}

}  // namespace btforge
